import { createConfirmationHandler } from '@/lib/api/handlers/confirmations';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ POST: createConfirmationHandler });
