export { verifyEvidenceHandler as GET } from '@/lib/api/handlers/evidence';
