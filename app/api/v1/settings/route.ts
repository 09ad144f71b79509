export { getSettingsHandler as GET, updateSettingsHandler as PATCH } from '@/lib/api/handlers/settings';
