export { exportContractHandler as GET } from '@/lib/api/handlers/contracts';
