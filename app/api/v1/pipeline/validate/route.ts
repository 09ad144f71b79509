export { validatePipelineHandler as POST } from '@/lib/api/handlers/pipeline';
