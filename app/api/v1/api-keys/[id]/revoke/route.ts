export { revokeApiKeyHandler as POST } from '@/lib/api/handlers/api-keys';
