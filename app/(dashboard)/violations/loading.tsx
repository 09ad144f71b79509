import { BoxSkeleton, FilterBarSkeleton, PageSkeleton, TableSkeleton } from '@/components/skeleton';

/** Filters, the chart, the three top lists, then the list. */
export default function ViolationsLoading() {
  return (
    <PageSkeleton title="Violations" what="violations" actions={1}>
      <FilterBarSkeleton fields={5} />
      <BoxSkeleton className="h-56" />
      <div className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-3">
        <BoxSkeleton />
        <BoxSkeleton />
        <BoxSkeleton />
      </div>
      <div className="mt-8">
        <TableSkeleton columns={6} />
      </div>
    </PageSkeleton>
  );
}
