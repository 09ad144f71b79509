import { BoxSkeleton, PageSkeleton, TableSkeleton } from '@/components/skeleton';

/** The invitation form, the members, the pending invitations. */
export default function MembersLoading() {
  return (
    <PageSkeleton title="Members" what="members">
      <BoxSkeleton className="mb-8 h-36" />
      <TableSkeleton columns={4} rows={4} />
      <div className="mt-10">
        <TableSkeleton columns={5} rows={2} />
      </div>
    </PageSkeleton>
  );
}
