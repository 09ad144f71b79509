import { CardListSkeleton, PageSkeleton } from '@/components/skeleton';

export default function ApprovalsLoading() {
  return (
    <PageSkeleton title="Approvals" what="the approval queue">
      <CardListSkeleton cards={3} lines={5} />
    </PageSkeleton>
  );
}
