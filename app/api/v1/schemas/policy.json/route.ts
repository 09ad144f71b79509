export { policySchemaHandler as GET } from '@/lib/api/handlers/studio-documents';
