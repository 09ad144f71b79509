export { createConfirmationHandler as POST } from '@/lib/api/handlers/confirmations';
