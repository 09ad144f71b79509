export { lintHandler as POST } from '@/lib/api/handlers/lint';
