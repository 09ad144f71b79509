export { getTraceHandler as GET } from '@/lib/api/handlers/traces';
