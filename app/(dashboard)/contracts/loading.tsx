import { CardListSkeleton, PageSkeleton } from '@/components/skeleton';

export default function ContractsLoading() {
  return (
    <PageSkeleton title="Contracts" what="contracts" actions={2}>
      <CardListSkeleton cards={3} lines={4} />
    </PageSkeleton>
  );
}
