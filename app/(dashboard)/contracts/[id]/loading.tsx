import { PageSkeleton, StudioSkeleton } from '@/components/skeleton';

export default function ContractStudioLoading() {
  return (
    <PageSkeleton what="the contract" back>
      <StudioSkeleton />
    </PageSkeleton>
  );
}
