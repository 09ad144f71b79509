import { BoxSkeleton, PageSkeleton } from '@/components/skeleton';

/** A drift review: what changed, the diff, the decision. */
export default function McpDriftLoading() {
  return (
    <PageSkeleton what="the change to review" back>
      <BoxSkeleton className="h-24" />
      <BoxSkeleton className="mt-6 h-80" />
    </PageSkeleton>
  );
}
