export { toolCallManifestSchemaHandler as GET } from '@/lib/api/handlers/pipeline';
