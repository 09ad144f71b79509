export { violationStatsHandler as GET } from '@/lib/api/handlers/evidence';
