import { getSettingsHandler, updateSettingsHandler } from '@/lib/api/handlers/settings';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: getSettingsHandler, PATCH: updateSettingsHandler });
