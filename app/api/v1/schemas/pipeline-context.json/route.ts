export { pipelineContextSchemaHandler as GET } from '@/lib/api/handlers/pipeline';
