'use client';

import Link from 'next/link';
import { useActionState, useState } from 'react';
import { acceptMcpDriftAction, type AcceptMcpDriftState } from '@/app/(dashboard)/mcp/actions';
import { TenantField } from '../page-tenant-provider';

/**
 * Pins the definition shown. The hash posted is the one the page was rendered with, so if the
 * upstream changed again meanwhile the server refuses rather than pin what nobody reviewed.
 */
export function AcceptDriftForm({ server, tool, hash, contractId }: { server: string; tool: string; hash: string; contractId: string }) {
  const [confirming, setConfirming] = useState(false);
  const [state, formAction, pending] = useActionState<AcceptMcpDriftState, FormData>(acceptMcpDriftAction, { status: 'idle' });
  if (state.status === 'accepted')
    return (
      <div
        role="status"
        className="rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
        data-testid="drift-accepted"
      >
        <p className="font-semibold">Accepted: the new definition is pinned and calls of {contractId} go through again.</p>
        <p className="mt-1">
          The model still sees the published contract&apos;s description and schemas; update the contract if the change should reach it.{' '}
          <Link href="/mcp" className="font-medium underline">
            Back to MCP servers
          </Link>
        </p>
      </div>
    );
  return (
    <form action={formAction} className="space-y-3">
      <TenantField />
      <input type="hidden" name="server" value={server} />
      <input type="hidden" name="tool" value={tool} />
      <input type="hidden" name="hash" value={hash} />
      {!confirming ? (
        <button type="button" onClick={() => setConfirming(true)} className="btn-primary" data-testid="drift-accept">
          Accept this definition
        </button>
      ) : (
        <div className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
          <span className="text-amber-900">
            Pin definition <code className="font-mono text-xs">{hash.slice(0, 12)}</code> and let calls of {contractId} through again?
          </span>
          <button type="submit" disabled={pending} className="btn-primary" data-testid="drift-accept-confirm">
            {pending ? 'Accepting…' : 'Confirm accept'}
          </button>
          <button type="button" disabled={pending} onClick={() => setConfirming(false)} className="btn-secondary">
            Cancel
          </button>
        </div>
      )}
      {state.status === 'error' && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          data-testid="drift-accept-error"
        >
          {state.message}
        </p>
      )}
    </form>
  );
}
