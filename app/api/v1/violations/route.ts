export { listViolationsHandler as GET } from '@/lib/api/handlers/evidence';
