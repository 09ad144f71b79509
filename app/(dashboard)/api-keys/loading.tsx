import { BoxSkeleton, PageSkeleton, TableSkeleton } from '@/components/skeleton';

export default function ApiKeysLoading() {
  return (
    <PageSkeleton title="API keys" what="API keys">
      <BoxSkeleton className="mb-8 h-36" />
      <TableSkeleton columns={6} rows={4} />
    </PageSkeleton>
  );
}
