export { listSurfacesHandler as GET, saveSurfaceDraftHandler as POST } from '@/lib/api/handlers/studio-documents';
