import { decideApprovalHandler } from '@/lib/api/handlers/approvals';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ POST: decideApprovalHandler });
