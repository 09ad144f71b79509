export { publishSurfaceVersionHandler as POST } from '@/lib/api/handlers/studio-documents';
