import { Bone, BoxSkeleton, CardListSkeleton, PageSkeleton } from '@/components/skeleton';

/** A trace: its facts, the timeline, then one card per evidence record. */
export default function TraceLoading() {
  return (
    <PageSkeleton what="the trace" back>
      <div aria-hidden="true" className="mb-6 grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="contents">
            <Bone className="h-4 w-16" />
            <Bone className="h-4 w-72 max-w-full" />
          </div>
        ))}
      </div>
      <Bone className="mb-2 h-6 w-28" />
      <BoxSkeleton className="h-32" />
      <Bone className="mt-8 mb-2 h-6 w-28" />
      <CardListSkeleton cards={2} lines={4} />
    </PageSkeleton>
  );
}
