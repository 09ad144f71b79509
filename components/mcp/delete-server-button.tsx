'use client';

import { useActionState, useState } from 'react';
import { deleteMcpServerAction, type DeleteMcpServerState } from '@/app/(dashboard)/mcp/actions';
import { TenantField } from '../page-tenant-provider';

// Deleting forgets the pins (the next listing imports and pins afresh), hence the second click.
export function DeleteServerButton({ name }: { name: string }) {
  const [confirming, setConfirming] = useState(false);
  const [state, formAction, pending] = useActionState<DeleteMcpServerState, FormData>(deleteMcpServerAction, { status: 'idle' });
  if (!confirming)
    return (
      <button type="button" onClick={() => setConfirming(true)} className="btn-danger" data-testid="mcp-delete">
        Delete
      </button>
    );
  return (
    <form action={formAction} className="flex flex-wrap items-center justify-end gap-2">
      <TenantField />
      <input type="hidden" name="name" value={name} />
      <span className="text-xs text-zinc-600">
        Forget {name} and its pinned definitions? Its contracts stay; agents connected to it get errors.
      </span>
      <button type="submit" disabled={pending} className="btn-danger" data-testid="mcp-delete-confirm">
        {pending ? 'Deleting…' : 'Confirm delete'}
      </button>
      <button type="button" disabled={pending} onClick={() => setConfirming(false)} className="btn-secondary">
        Cancel
      </button>
      {state.status === 'error' && (
        <p role="alert" className="w-full text-right text-xs text-red-700">
          {state.message}
        </p>
      )}
    </form>
  );
}
