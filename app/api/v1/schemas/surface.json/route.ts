export { surfaceSchemaHandler as GET } from '@/lib/api/handlers/studio-documents';
