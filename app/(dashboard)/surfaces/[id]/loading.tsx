import { PageSkeleton, StudioSkeleton } from '@/components/skeleton';

export default function SurfaceStudioLoading() {
  return (
    <PageSkeleton what="the surface" back>
      <StudioSkeleton />
    </PageSkeleton>
  );
}
