export { getContractVersionHandler as GET } from '@/lib/api/handlers/contracts';
