export { decideApprovalHandler as POST } from '@/lib/api/handlers/approvals';
