import { CardListSkeleton, PageSkeleton } from '@/components/skeleton';

export default function SurfacesLoading() {
  return (
    <PageSkeleton title="Tool surfaces" what="tool surfaces" actions={1}>
      <CardListSkeleton cards={3} lines={4} />
    </PageSkeleton>
  );
}
