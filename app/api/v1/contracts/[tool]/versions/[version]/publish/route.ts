export { publishContractVersionHandler as POST } from '@/lib/api/handlers/contracts';
