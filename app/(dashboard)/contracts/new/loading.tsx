import { PageSkeleton, StudioSkeleton } from '@/components/skeleton';

export default function NewContractLoading() {
  return (
    <PageSkeleton title="New contract" what="the studio" back>
      <StudioSkeleton />
    </PageSkeleton>
  );
}
