import { listPoliciesHandler, savePolicyDraftHandler } from '@/lib/api/handlers/studio-documents';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: listPoliciesHandler, POST: savePolicyDraftHandler });
