export { toolContractSchemaHandler as GET } from '@/lib/api/handlers/contracts';
