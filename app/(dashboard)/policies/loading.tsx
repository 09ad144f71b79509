import { CardListSkeleton, PageSkeleton } from '@/components/skeleton';

export default function PoliciesLoading() {
  return (
    <PageSkeleton title="Policies" what="policies" actions={1}>
      <CardListSkeleton cards={3} lines={4} />
    </PageSkeleton>
  );
}
