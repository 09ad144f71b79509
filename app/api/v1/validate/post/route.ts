export { validatePostHandler as POST } from '@/lib/api/handlers/validate';
