import { previewContractImpactHandler } from '@/lib/api/handlers/contracts';
import { mountRoute } from '@/lib/api/mount-route';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = mountRoute({ POST: previewContractImpactHandler });
