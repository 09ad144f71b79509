'use client';

import { useActionState } from 'react';
import { createKeyAction, type CreateKeyState } from '@/app/(dashboard)/api-keys/actions';
import { API_KEY_SCOPES } from '@/lib/auth/api-key-scopes';
import { NewKeyNotice } from './new-key-notice';
import { TenantField } from './page-tenant-provider';

const SCOPE_HELP: Record<(typeof API_KEY_SCOPES)[number], string> = {
  validate: 'agents: runtime validation and approval polling',
  author: 'save and publish contracts',
  admin: 'everything, including approvals and evidence',
};

export function CreateApiKeyForm() {
  const [state, formAction, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, { status: 'idle' });
  return (
    <section className="card mb-8 p-5" aria-labelledby="create-key-heading">
      <h2 id="create-key-heading" className="mb-4 text-base font-semibold">
        Create a key
      </h2>
      {state.status === 'created' && <NewKeyNotice key={state.key} name={state.name} value={state.key} />}
      <form action={formAction} className="space-y-4">
        <TenantField />
        <div className="max-w-sm space-y-1">
          <label htmlFor="key-name" className="block text-sm font-medium">
            Name
          </label>
          <input id="key-name" name="name" required maxLength={100} placeholder="e.g. support agent (prod)" className="input" />
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium">Scopes</legend>
          <div className="flex flex-col gap-1.5">
            {API_KEY_SCOPES.map((scope) => (
              <label key={scope} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="scopes"
                  value={scope}
                  defaultChecked={scope === 'validate'}
                  className="size-4 accent-zinc-900"
                />
                <span className="font-mono">{scope}</span>
                <span className="text-zinc-500">— {SCOPE_HELP[scope]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="max-w-sm space-y-1">
          <label htmlFor="key-expiry" className="block text-sm font-medium">
            Expires
          </label>
          <select id="key-expiry" name="expires_in_days" defaultValue="" className="input">
            <option value="">never</option>
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
          </select>
          <p className="text-xs text-zinc-500">
            An expired key is refused with its own reason (key_expired), so the agent&apos;s operator knows to replace it.
          </p>
        </div>
        {state.status === 'error' && (
          <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {state.message}
          </p>
        )}
        <button type="submit" disabled={pending} className="btn-primary">
          {pending ? 'Creating…' : 'Create key'}
        </button>
      </form>
    </section>
  );
}
