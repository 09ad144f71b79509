import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getSessionMember } from '@/lib/auth/session';

export default async function HomePage() {
  const member = await getSessionMember(await headers());
  redirect(member ? '/contracts' : '/sign-in');
}
