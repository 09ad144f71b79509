export { overviewHandler as GET } from '@/lib/api/handlers/evidence';
