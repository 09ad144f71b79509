import type { Metadata } from 'next';
import { StudioDocumentEditor } from '@/components/studio-pages/studio-document-pages';
import { requireMember } from '../../require-member';
import { pathSegment } from '../../path-segment';

type Params = { params: Promise<{ id: string }>; searchParams: Promise<{ version?: string | string[] }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: pathSegment((await params).id) };
}

export default async function Page({ params, searchParams }: Params) {
  const requested = (await searchParams).version;
  return (
    <StudioDocumentEditor
      kind="surface"
      member={await requireMember()}
      id={pathSegment((await params).id)}
      requestedVersion={typeof requested === 'string' ? requested : undefined}
    />
  );
}
