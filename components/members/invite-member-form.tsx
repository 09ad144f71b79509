'use client';

import { useActionState } from 'react';
import { inviteMemberAction, type InviteState } from '@/app/(dashboard)/members/actions';
import { ROLES } from '@/lib/tenants/roles';
import { InvitationLinkNotice } from './invitation-link-notice';
import { ROLE_HELP } from './role-help';
import { TenantField } from '../page-tenant-provider';

export function InviteMemberForm() {
  const [state, formAction, pending] = useActionState<InviteState, FormData>(inviteMemberAction, { status: 'idle' });
  return (
    <section className="card mb-8 p-5" aria-labelledby="invite-heading">
      <h2 id="invite-heading" className="mb-4 text-base font-semibold">
        Invite a person
      </h2>
      {state.status === 'invited' && (
        <InvitationLinkNotice
          key={state.url}
          email={state.email}
          role={state.role}
          url={state.url}
          mail={state.emailSent ? 'sent' : (state.emailProblem ?? 'not_configured')}
        />
      )}
      <form action={formAction} className="flex flex-wrap items-end gap-4">
        <TenantField />
        <div className="w-72 space-y-1">
          <label htmlFor="invite-email" className="block text-sm font-medium">
            Email
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            placeholder="name@company.com"
            className="input"
          />
        </div>
        <div className="space-y-1">
          <label htmlFor="invite-role" className="block text-sm font-medium">
            Role
          </label>
          <select id="invite-role" name="role" defaultValue="viewer" className="input">
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role} — {ROLE_HELP[role]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={pending} className="btn-primary">
          {pending ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      {state.status === 'error' && (
        <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.message}
        </p>
      )}
    </section>
  );
}
