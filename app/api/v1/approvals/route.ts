export { listApprovalsHandler as GET } from '@/lib/api/handlers/approvals';
