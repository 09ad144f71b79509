import { BoxSkeleton, PageSkeleton } from '@/components/skeleton';

export default function ImportToolsLoading() {
  return (
    <PageSkeleton title="Import tools" what="the import form" back>
      <BoxSkeleton className="h-96" />
    </PageSkeleton>
  );
}
