export { getSurfaceVersionHandler as GET } from '@/lib/api/handlers/studio-documents';
