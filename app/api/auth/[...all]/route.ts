import { getAuth } from '@/lib/auth/auth';

// Better Auth owns everything under /api/auth (sign-in, sign-out, session); this only mounts it.
export async function GET(request: Request): Promise<Response> {
  return (await getAuth()).handler(request);
}

export async function POST(request: Request): Promise<Response> {
  return (await getAuth()).handler(request);
}
