export { deprecateContractHandler as POST } from '@/lib/api/handlers/contracts';
