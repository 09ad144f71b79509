export { validatePreHandler as POST } from '@/lib/api/handlers/validate';
