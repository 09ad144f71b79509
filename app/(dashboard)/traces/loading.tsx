import { FilterBarSkeleton, PageSkeleton, TableSkeleton } from '@/components/skeleton';

export default function TracesLoading() {
  return (
    <PageSkeleton title="Traces" what="traces">
      <FilterBarSkeleton fields={5} />
      <TableSkeleton columns={7} rows={10} />
    </PageSkeleton>
  );
}
