export { listTracesHandler as GET } from '@/lib/api/handlers/traces';
