export { openApiHandler as GET } from '@/lib/api/handlers/openapi';
