import { PageSkeleton, StudioSkeleton } from '@/components/skeleton';

export default function NewPolicyLoading() {
  return (
    <PageSkeleton title="New policy" what="the studio" back>
      <StudioSkeleton />
    </PageSkeleton>
  );
}
