'use client';

import { useActionState } from 'react';
import { createWebhookAction, type CreateWebhookState } from '@/app/(dashboard)/settings/actions';
import { WEBHOOK_EVENTS } from '@/lib/webhooks/webhook-events';
import { TenantField } from '../page-tenant-provider';

const EVENT_HELP: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  'approval.pending': 'an approval waits in the queue, or was escalated',
  'approval.decided': 'an approval was approved, denied or expired',
};

/** Registers a webhook; its signing secret is shown here once (only derived, never stored). */
export function CreateWebhookForm() {
  const [state, formAction, pending] = useActionState<CreateWebhookState, FormData>(createWebhookAction, { status: 'idle' });
  return (
    <div className="mt-4">
      {state.status === 'created' && (
        <div role="status" className="mb-4 rounded-lg border-2 border-amber-300 bg-amber-50 p-4 text-sm" data-testid="webhook-created">
          <p className="font-semibold text-amber-900">Webhook for {state.url} added. Its signing secret is shown once: copy it now.</p>
          <p className="mt-1 text-amber-800">
            Receivers check each delivery&apos;s signature with it (see the webhooks section of the docs).
          </p>
          <code
            data-testid="webhook-secret"
            className="mt-2 block rounded border border-amber-200 bg-white px-2 py-1.5 font-mono text-sm break-all select-all"
          >
            {state.secret}
          </code>
        </div>
      )}
      <form action={formAction} className="space-y-3">
        <TenantField />
        <fieldset disabled={pending} className="space-y-3">
          <div className="max-w-lg space-y-1">
            <label htmlFor="webhook-url" className="block text-sm font-medium">
              Receiver URL
            </label>
            <input
              id="webhook-url"
              name="url"
              type="url"
              required
              maxLength={2048}
              placeholder="https://hooks.example.com/toolgate"
              className="input"
              data-testid="webhook-url"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="events" value={event} defaultChecked className="size-4 accent-zinc-900" />
                <span className="font-mono">{event}</span>
                <span className="text-zinc-500">— {EVENT_HELP[event]}</span>
              </label>
            ))}
          </div>
          {state.status === 'error' && (
            <p
              role="alert"
              className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
              data-testid="webhook-error"
            >
              {state.message}
            </p>
          )}
          <button type="submit" className="btn-secondary" data-testid="webhook-add">
            {pending ? 'Adding…' : 'Add webhook'}
          </button>
        </fieldset>
      </form>
    </div>
  );
}
