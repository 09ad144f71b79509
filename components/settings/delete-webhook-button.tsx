'use client';

import { useActionState, useState } from 'react';
import { deleteWebhookAction, type DeleteWebhookState } from '@/app/(dashboard)/settings/actions';
import { TenantField } from '../page-tenant-provider';

// Deleting drops queued deliveries too, hence the second click.
export function DeleteWebhookButton({ id, url }: { id: string; url: string }) {
  const [confirming, setConfirming] = useState(false);
  const [state, formAction, pending] = useActionState<DeleteWebhookState, FormData>(deleteWebhookAction, { status: 'idle' });
  if (!confirming)
    return (
      <button type="button" onClick={() => setConfirming(true)} className="btn-danger">
        Delete
      </button>
    );
  return (
    <form action={formAction} className="flex flex-wrap items-center justify-end gap-2">
      <TenantField />
      <input type="hidden" name="id" value={id} />
      <span className="text-xs text-zinc-600">Stop sending to {url}? Queued deliveries are dropped.</span>
      <button type="submit" disabled={pending} className="btn-danger">
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
