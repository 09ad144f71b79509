import { verifyEvidenceHandler } from '@/lib/api/handlers/evidence';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ GET: verifyEvidenceHandler });
