'use client';

import { useActionState, useState } from 'react';
import { changeRoleAction, removeMemberAction, revokeInvitationAction, type MemberActionState } from '@/app/(dashboard)/members/actions';
import { ROLES } from '@/lib/tenants/roles';
import { submitWithoutReset } from '../submit-without-reset';
import { TenantField } from '../page-tenant-provider';

function Outcome({ state }: { state: MemberActionState }) {
  if (state.status === 'error')
    return (
      <p role="alert" className="w-full text-right text-xs text-red-700">
        {state.message}
      </p>
    );
  if (state.status === 'done')
    return (
      <p role="status" className="w-full text-right text-xs text-emerald-700">
        {state.message}
      </p>
    );
  return null;
}

/** A member's role, changeable in place; it applies from their next request. */
export function MemberRoleForm({ id, email, role }: { id: string; email: string; role: string }) {
  const [state, formAction, pending] = useActionState<MemberActionState, FormData>(changeRoleAction, { status: 'idle' });
  const [chosen, setChosen] = useState(role);
  return (
    // Without React's form reset, which would show the old role in the select after a change.
    <form action={formAction} onSubmit={submitWithoutReset(formAction)} className="flex flex-wrap items-center gap-2">
      <TenantField />
      <input type="hidden" name="id" value={id} />
      <label className="sr-only" htmlFor={`role-${id}`}>
        Role of {email}
      </label>
      <select id={`role-${id}`} name="role" value={chosen} onChange={(e) => setChosen(e.target.value)} className="input w-32 py-1">
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {chosen !== role && (
        <button type="submit" disabled={pending} className="btn-secondary py-1">
          {pending ? 'Saving…' : 'Save'}
        </button>
      )}
      <Outcome state={state} />
    </form>
  );
}

/** Removing someone ends their access at their next request, hence the second click. */
export function RemoveMemberButton({ id, email }: { id: string; email: string }) {
  const [confirming, setConfirming] = useState(false);
  const [state, formAction, pending] = useActionState<MemberActionState, FormData>(removeMemberAction, { status: 'idle' });
  if (!confirming) {
    return (
      <>
        <button type="button" onClick={() => setConfirming(true)} className="btn-danger">
          Remove
        </button>
        <Outcome state={state} />
      </>
    );
  }
  return (
    <form action={formAction} className="flex flex-wrap items-center justify-end gap-2">
      <TenantField />
      <input type="hidden" name="id" value={id} />
      <span className="text-xs text-zinc-600">Remove {email}? They lose access at once.</span>
      <button type="submit" disabled={pending} className="btn-danger">
        {pending ? 'Removing…' : 'Confirm remove'}
      </button>
      <button type="button" disabled={pending} onClick={() => setConfirming(false)} className="btn-secondary">
        Cancel
      </button>
      <Outcome state={state} />
    </form>
  );
}

export function RevokeInvitationButton({ id, email }: { id: string; email: string }) {
  const [state, formAction, pending] = useActionState<MemberActionState, FormData>(revokeInvitationAction, { status: 'idle' });
  return (
    <form action={formAction} className="flex flex-wrap items-center justify-end gap-2">
      <TenantField />
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={pending} className="btn-secondary" aria-label={`Revoke the invitation for ${email}`}>
        {pending ? 'Revoking…' : 'Revoke'}
      </button>
      <Outcome state={state} />
    </form>
  );
}
