export { importContractsHandler as POST } from '@/lib/api/handlers/contracts';
