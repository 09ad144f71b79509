import { PageSkeleton, StudioSkeleton } from '@/components/skeleton';

export default function PolicyStudioLoading() {
  return (
    <PageSkeleton what="the policy" back>
      <StudioSkeleton />
    </PageSkeleton>
  );
}
