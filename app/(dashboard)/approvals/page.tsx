import type { Metadata } from 'next';
import { listApprovals } from '@/lib/approvals/list-approvals';
import type { SessionMember } from '@/lib/auth/session';
import { can } from '@/lib/tenants/roles';
import { ApprovalQueue } from '@/components/approvals/approval-queue';
import { HISTORY_LIMIT, PENDING_LIMIT } from '@/components/approvals/approvals-api';
import { requireMember } from '../require-member';

export const metadata: Metadata = { title: 'Approvals' };
// The queue changes by the second; never serve a cached render.
export const dynamic = 'force-dynamic';

async function loadQueue(member: SessionMember) {
  const tenantId = member.tenant.id;
  // What each card lets this person do is decided on the server, with the rules deciding uses.
  const viewer = { kind: 'session', userId: member.user.id, role: member.role } as const;
  const [pending, history] = await Promise.all([
    listApprovals({ tenantId, status: 'pending', limit: PENDING_LIMIT, viewer }),
    listApprovals({ tenantId, status: 'decided', limit: HISTORY_LIMIT, viewer }),
  ]);
  // The clock the "time left" countdown starts from, so server and client render the same.
  return {
    pending: { approvals: pending.approvals, total: pending.counts.pending, more: pending.next_cursor !== null },
    history: history.approvals,
    loadedAt: Date.now(),
  };
}

export default async function ApprovalsPage() {
  const member = await requireMember();
  const queue = await loadQueue(member);
  const canDecide = can(member.role, 'decide_approvals');
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Approvals</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        Tool calls waiting for a person. Approve, deny (the agent reads your comment), approve with edited arguments, or escalate to the
        admins. An approval nobody decides in time is denied.
      </p>
      {!canDecide && (
        <p data-testid="approvals-read-only" className="card mb-6 p-4 text-sm text-zinc-600">
          You can follow the queue, but deciding needs the approver or admin role; your role is {member.role}.
        </p>
      )}
      <ApprovalQueue initialPending={queue.pending} initialHistory={queue.history} renderedAt={queue.loadedAt} />
    </>
  );
}
