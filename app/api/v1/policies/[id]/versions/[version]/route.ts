export { getPolicyVersionHandler as GET } from '@/lib/api/handlers/studio-documents';
