export { listContractsHandler as GET, saveContractDraftHandler as POST } from '@/lib/api/handlers/contracts';
