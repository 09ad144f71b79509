'use client';

import { useActionState, useState } from 'react';
import { updateMcpServerAction, type UpdateMcpServerState } from '@/app/(dashboard)/mcp/actions';
import type { McpServerView } from '@/lib/mcp/servers/mcp-server-view';
import { submitWithoutReset } from '../submit-without-reset';
import { AuthHeaderFields, SettingsFields } from './server-fields';
import { TenantField } from '../page-tenant-provider';

type Mode = 'keep' | 'replace' | 'remove';

/**
 * An admin changes a server's settings. A hosted server's URL and auth header can change too;
 * the stored header value is never sent to the page, so it is kept, replaced or removed, never
 * edited. Submitted without React's form reset: the header choice is controlled.
 */
export function ServerSettingsForm({ server }: { server: McpServerView }) {
  const [state, formAction, pending] = useActionState<UpdateMcpServerState, FormData>(updateMcpServerAction, { status: 'idle' });
  const [mode, setMode] = useState<Mode>('keep');
  // Once saved, the header typed in is stored (or gone): hide its fields again.
  const [seenSave, setSeenSave] = useState(0);
  if (state.status === 'saved' && state.at !== seenSave) {
    setSeenSave(state.at);
    setMode('keep');
  }
  const id = `mcp-edit-${server.name}`;
  const hosted = server.transport === 'http';
  const modes: { value: Mode; label: string }[] = server.auth_header_name
    ? [
        { value: 'keep', label: `Keep ${server.auth_header_name}` },
        { value: 'replace', label: 'Replace it' },
        { value: 'remove', label: 'Remove it' },
      ]
    : [
        { value: 'keep', label: 'No auth header' },
        { value: 'replace', label: 'Add one' },
      ];
  return (
    <form action={formAction} onSubmit={submitWithoutReset(formAction)} className="space-y-4" data-testid="mcp-settings-form">
      <TenantField />
      <input type="hidden" name="name" value={server.name} />
      <input type="hidden" name="transport" value={server.transport} />
      <fieldset disabled={pending} className="space-y-4">
        {hosted && (
          <>
            <div className="space-y-1">
              <label htmlFor={`${id}-url`} className="block text-sm font-medium">
                Streamable HTTP URL
              </label>
              <input
                id={`${id}-url`}
                name="url"
                type="url"
                required
                maxLength={2048}
                defaultValue={server.url ?? ''}
                className="input"
                data-testid="mcp-edit-url"
              />
            </div>
            <div className="space-y-2">
              <p className="text-sm font-medium">Auth header</p>
              <div className="flex flex-wrap gap-4 text-sm">
                {modes.map((m) => (
                  <label key={m.value} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="auth_header_mode"
                      value={m.value}
                      checked={mode === m.value}
                      onChange={() => setMode(m.value)}
                      className="size-4 accent-zinc-900"
                    />
                    {m.label}
                  </label>
                ))}
              </div>
              {mode === 'replace' && <AuthHeaderFields id={id} required />}
            </div>
          </>
        )}
        <SettingsFields id={id} settings={server} />
        {state.status === 'error' && (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
            data-testid="mcp-edit-error"
          >
            {state.message}
          </p>
        )}
        {state.status === 'saved' && (
          <p role="status" className="text-sm text-emerald-700" data-testid="mcp-edit-saved">
            Saved.
          </p>
        )}
        <button type="submit" className="btn-secondary" data-testid="mcp-edit-submit">
          {pending ? 'Saving…' : 'Save settings'}
        </button>
      </fieldset>
    </form>
  );
}
