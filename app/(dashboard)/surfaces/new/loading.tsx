import { PageSkeleton, StudioSkeleton } from '@/components/skeleton';

export default function NewSurfaceLoading() {
  return (
    <PageSkeleton title="New surface" what="the studio" back>
      <StudioSkeleton />
    </PageSkeleton>
  );
}
