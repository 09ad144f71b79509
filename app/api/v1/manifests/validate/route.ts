export { validateManifestHandler as POST } from '@/lib/api/handlers/pipeline';
