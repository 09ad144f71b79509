import type { Metadata } from 'next';
import { StudioDocumentList } from '@/components/studio-pages/studio-document-pages';
import { requireMember } from '../require-member';

export const metadata: Metadata = { title: 'Policies' };

export default async function Page() {
  return <StudioDocumentList kind="policy" member={await requireMember()} />;
}
