export { listApiKeysHandler as GET, createApiKeyHandler as POST } from '@/lib/api/handlers/api-keys';
