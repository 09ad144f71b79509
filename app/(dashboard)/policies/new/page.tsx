import type { Metadata } from 'next';
import { NewStudioDocument } from '@/components/studio-pages/studio-document-pages';
import { requireMember } from '../../require-member';

export const metadata: Metadata = { title: 'New policy' };

export default async function Page() {
  return <NewStudioDocument kind="policy" member={await requireMember()} />;
}
