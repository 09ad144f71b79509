'use client';

import { useActionState, useState } from 'react';
import { revokeKeyAction, type RevokeKeyState } from '@/app/(dashboard)/api-keys/actions';
import { TenantField } from './page-tenant-provider';

// Revoking cannot be undone and breaks every agent using the key, hence the second click.
export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const [confirming, setConfirming] = useState(false);
  const [state, formAction, pending] = useActionState<RevokeKeyState, FormData>(revokeKeyAction, { status: 'idle' });

  if (!confirming) {
    return (
      <button type="button" onClick={() => setConfirming(true)} className="btn-danger">
        Revoke
      </button>
    );
  }
  return (
    <form action={formAction} className="flex flex-wrap items-center justify-end gap-2">
      <TenantField />
      <input type="hidden" name="id" value={id} />
      <span className="text-xs text-zinc-600">Revoke “{name}”? Calls using it will get 401.</span>
      <button type="submit" disabled={pending} className="btn-danger">
        {pending ? 'Revoking…' : 'Confirm revoke'}
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
