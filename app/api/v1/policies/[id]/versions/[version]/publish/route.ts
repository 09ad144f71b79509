export { publishPolicyVersionHandler as POST } from '@/lib/api/handlers/studio-documents';
