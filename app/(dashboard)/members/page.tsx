import type { Metadata } from 'next';
import { listMembers, type InvitationSummary, type MemberSummary } from '@/lib/members/list-members';
import { listMembershipChanges, type MembershipChange } from '@/lib/members/list-membership-changes';
import { actorLabels } from '@/lib/tenants/actor-labels';
import { can, isRole } from '@/lib/tenants/roles';
import { RelativeTime } from '@/components/relative-time';
import { InviteMemberForm } from '@/components/members/invite-member-form';
import { MemberRoleForm, RemoveMemberButton, RevokeInvitationButton } from '@/components/members/member-controls';
import { describeMembershipChange } from '@/components/members/membership-change-text';
import { ROLE_HELP } from '@/components/members/role-help';
import { requireMember } from '../require-member';
import { RevealedText } from '@/components/approvals/revealed-text';

export const metadata: Metadata = { title: 'Members' };

export default async function MembersPage() {
  const member = await requireMember();
  const canManage = can(member.role, 'manage_members');
  const [{ members, invitations }, changes] = await Promise.all([
    listMembers({ tenantId: member.tenant.id }),
    listMembershipChanges({ tenantId: member.tenant.id, limit: 15 }),
  ]);
  const labels = await actorLabels(member.tenant.id, [...invitations.map((i) => i.invitedBy), ...changes.map((c) => c.actor)]);
  const label = (actor: string) => (actor === 'system' ? 'Toolgate (command line)' : (labels.get(actor) ?? actor));
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Members</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        The people of {member.tenant.name} and their roles. A change applies from the person’s next request; every change is recorded in the
        tenant’s evidence.
      </p>
      {canManage ? (
        <InviteMemberForm />
      ) : (
        <p className="card mb-8 p-4 text-sm text-zinc-600">
          Only admins can invite people, change roles or remove anyone; your role is {member.role}. Ask an admin of {member.tenant.name} for
          changes.
        </p>
      )}
      <MemberTable members={members} canManage={canManage} ownId={member.user.id} />
      <h2 className="mt-10 mb-3 text-lg font-semibold">Pending invitations</h2>
      {invitations.length === 0 ? (
        <p className="card p-4 text-sm text-zinc-600" data-testid="no-invitations">
          No pending invitations.{canManage ? ' Invite someone above; the link is shown once.' : ''}
        </p>
      ) : (
        <InvitationTable invitations={invitations} canManage={canManage} label={label} />
      )}
      <h2 className="mt-10 mb-3 text-lg font-semibold">Recent membership changes</h2>
      {changes.length === 0 ? (
        <p className="card p-4 text-sm text-zinc-600">No membership changes recorded yet.</p>
      ) : (
        <ChangeList changes={changes} label={label} />
      )}
    </>
  );
}

function MemberTable({ members, canManage, ownId }: { members: MemberSummary[]; canManage: boolean; ownId: string }) {
  return (
    <div className="card overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="member-table">
        <thead className="border-b border-zinc-200 text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-4 py-2 font-medium">Person</th>
            <th className="px-4 py-2 font-medium">Role</th>
            <th className="px-4 py-2 font-medium">Joined</th>
            {canManage && (
              <th className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {members.map((m) => (
            <tr key={m.id} data-testid={`member-${m.email}`}>
              <td className="px-4 py-2.5">
                <span className="font-medium">
                  <RevealedText text={m.name} />
                </span>{' '}
                <span className="text-zinc-500">{m.email}</span>
                {m.userId === ownId && <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600">you</span>}
              </td>
              <td className="px-4 py-2.5">
                {canManage ? (
                  <MemberRoleForm id={m.id} email={m.email} role={m.role} />
                ) : (
                  <span title={isRole(m.role) ? ROLE_HELP[m.role] : undefined}>{m.role}</span>
                )}
              </td>
              <td className="px-4 py-2.5 whitespace-nowrap">
                <RelativeTime date={m.createdAt} />
              </td>
              {canManage && (
                <td className="px-4 py-2.5 text-right">
                  <RemoveMemberButton id={m.id} email={m.email} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InvitationTable({
  invitations,
  canManage,
  label,
}: {
  invitations: InvitationSummary[];
  canManage: boolean;
  label: (actor: string) => string;
}) {
  return (
    <div className="card overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="invitation-table">
        <thead className="border-b border-zinc-200 text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-4 py-2 font-medium">Email</th>
            <th className="px-4 py-2 font-medium">Role</th>
            <th className="px-4 py-2 font-medium">Invited by</th>
            <th className="px-4 py-2 font-medium">Expires</th>
            {canManage && (
              <th className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {invitations.map((i) => (
            <tr key={i.id} data-testid={`invitation-${i.email}`}>
              <td className="px-4 py-2.5 font-medium">{i.email}</td>
              <td className="px-4 py-2.5">{i.role}</td>
              <td className="px-4 py-2.5">{label(i.invitedBy)}</td>
              <td className="px-4 py-2.5 whitespace-nowrap">
                <RelativeTime date={i.expiresAt} />
              </td>
              {canManage && (
                <td className="px-4 py-2.5 text-right">
                  <RevokeInvitationButton id={i.id} email={i.email} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ChangeList({ changes, label }: { changes: MembershipChange[]; label: (actor: string) => string }) {
  return (
    <ol className="card divide-y divide-zinc-100 text-sm" data-testid="membership-changes">
      {changes.map((c) => (
        <li key={c.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-2.5">
          <span>
            <span className="font-medium">
              {c.action === 'invitation_accepted' ? String(c.details.email ?? label(c.actor)) : label(c.actor)}
            </span>{' '}
            {describeMembershipChange(c)}
          </span>
          <span className="text-xs text-zinc-500">
            <RelativeTime date={c.createdAt} /> · record #{c.seq}
          </span>
        </li>
      ))}
    </ol>
  );
}
