import { Bone, BoxSkeleton, PageSkeleton } from '@/components/skeleton';

/** The overview's outline: the comparison tiles, the trend, the lists beside each other. */
export default function OverviewLoading() {
  return (
    <PageSkeleton title="Overview" what="the overview">
      <div aria-hidden="true" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="card p-5">
            <Bone className="h-3 w-24" />
            <Bone className="mt-2 h-8 w-16" />
            <Bone className="mt-2 h-3 w-32" />
          </div>
        ))}
      </div>
      <BoxSkeleton className="mt-4 h-48" />
      <div className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <BoxSkeleton />
        <BoxSkeleton />
      </div>
    </PageSkeleton>
  );
}
