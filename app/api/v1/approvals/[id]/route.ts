export { getApprovalHandler as GET } from '@/lib/api/handlers/approvals';
