'use client';

import { useActionState, useEffect, useRef } from 'react';
import { registerMcpServerAction, type RegisterMcpServerState } from '@/app/(dashboard)/mcp/actions';
import { submitWithoutReset } from '../submit-without-reset';
import { AuthHeaderFields, DEFAULT_SETTINGS, SettingsFields } from './server-fields';
import { TenantField } from '../page-tenant-provider';

/**
 * Registers a hosted (Streamable HTTP) upstream. The form keeps what was typed when the server
 * refuses it (a private address, a taken name) and is cleared once registered, so the header
 * value does not linger in the page.
 */
export function RegisterServerForm() {
  const [state, formAction, pending] = useActionState<RegisterMcpServerState, FormData>(registerMcpServerAction, { status: 'idle' });
  const form = useRef<HTMLFormElement>(null);
  const registeredAt = state.status === 'registered' ? state.at : 0;
  useEffect(() => {
    if (registeredAt) form.current?.reset();
  }, [registeredAt]);
  return (
    <form ref={form} action={formAction} onSubmit={submitWithoutReset(formAction)} className="space-y-4" data-testid="mcp-register-form">
      <TenantField />
      <fieldset disabled={pending} className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
          <div className="space-y-1">
            <label htmlFor="mcp-name" className="block text-sm font-medium">
              Name
            </label>
            <input
              id="mcp-name"
              name="name"
              required
              maxLength={40}
              pattern="[a-z][a-z0-9_]{0,39}"
              title="lowercase letters, digits and _, starting with a letter"
              placeholder="github"
              autoComplete="off"
              className="input font-mono"
              data-testid="mcp-register-name"
            />
            <p className="text-xs text-zinc-500">Its tools&apos; contracts are named name.tool.</p>
          </div>
          <div className="space-y-1">
            <label htmlFor="mcp-url" className="block text-sm font-medium">
              Streamable HTTP URL
            </label>
            <input
              id="mcp-url"
              name="url"
              type="url"
              required
              maxLength={2048}
              placeholder="https://mcp.example.com/mcp"
              className="input"
              data-testid="mcp-register-url"
            />
            <p className="text-xs text-zinc-500">Public addresses only, as for webhooks.</p>
          </div>
        </div>
        <div className="space-y-1">
          <AuthHeaderFields id="mcp-register" />
          <p className="text-xs text-zinc-500">
            Optional. Sent with every request to the upstream; stored encrypted and never shown again, only its name.
          </p>
        </div>
        <SettingsFields id="mcp-register" settings={DEFAULT_SETTINGS} />
        {state.status === 'error' && (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
            data-testid="mcp-register-error"
          >
            {state.message}
          </p>
        )}
        {state.status === 'registered' && (
          <p role="status" className="text-sm text-emerald-700" data-testid="mcp-registered">
            {state.name} registered. Agents connect to its endpoint above; its tools are imported at their first listing.
          </p>
        )}
        <button type="submit" className="btn-primary" data-testid="mcp-register-submit">
          {pending ? 'Registering…' : 'Register server'}
        </button>
      </fieldset>
    </form>
  );
}
