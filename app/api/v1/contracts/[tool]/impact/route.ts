export { previewContractImpactHandler as POST } from '@/lib/api/handlers/contracts';
