export { listPoliciesHandler as GET, savePolicyDraftHandler as POST } from '@/lib/api/handlers/studio-documents';
