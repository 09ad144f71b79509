import type { Metadata } from 'next';
import { listApiKeys, type ApiKeySummary } from '@/lib/auth/api-keys';
import { can } from '@/lib/tenants/roles';
import { CreateApiKeyForm } from '@/components/create-api-key-form';
import { RevokeApiKeyButton } from '@/components/revoke-api-key-button';
import { RelativeTime } from '@/components/relative-time';
import { StatusBadge } from '@/components/status-badge';
import { requireMember } from '../require-member';
import { RevealedText } from '@/components/approvals/revealed-text';

export const metadata: Metadata = { title: 'API keys' };

export default async function ApiKeysPage() {
  const member = await requireMember();
  const keys = await listApiKeys({ tenantId: member.tenant.id });
  // Which keys have expired, as of this render.
  const loadedAt = new Date();
  const canManage = can(member.role, 'manage_keys');
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        Agents and scripts authenticate with <code className="rounded bg-zinc-100 px-1">Authorization: Bearer &lt;key&gt;</code>. A key acts
        in this tenant only (<span className="font-medium text-zinc-900">{member.tenant.name}</span>).
      </p>
      {canManage ? (
        <CreateApiKeyForm />
      ) : (
        <p className="card mb-8 p-4 text-sm text-zinc-600">Only admins can create or revoke keys; your role is {member.role}.</p>
      )}
      {keys.length === 0 ? (
        <div className="card p-8 text-sm text-zinc-600">
          <h2 className="mb-1 text-base font-semibold text-zinc-900">No API keys yet</h2>
          <p>
            {canManage
              ? 'Create one above for each agent or script that calls Toolgate.'
              : 'An admin can create one for each agent or script that calls Toolgate.'}
          </p>
        </div>
      ) : (
        <KeyTable keys={keys} canManage={canManage} now={loadedAt} />
      )}
    </>
  );
}

function keyStatus(k: ApiKeySummary, now: Date): 'revoked' | 'expired' | 'active' {
  if (k.revokedAt) return 'revoked';
  return k.expiresAt && k.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

const SOON_MS = 7 * 86_400_000;

/** An active key that stops working within a week: its agent needs a new one soon. */
function expiresSoon(k: ApiKeySummary, now: Date): boolean {
  return keyStatus(k, now) === 'active' && k.expiresAt !== null && k.expiresAt.getTime() - now.getTime() < SOON_MS;
}

function KeyTable({ keys, canManage, now }: { keys: ApiKeySummary[]; canManage: boolean; now: Date }) {
  return (
    <div className="card overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 text-xs text-zinc-500 uppercase">
          <tr>
            <th className="px-4 py-2 font-medium">Name</th>
            <th className="px-4 py-2 font-medium">Key</th>
            <th className="px-4 py-2 font-medium">Scopes</th>
            <th className="px-4 py-2 font-medium">Belongs to</th>
            <th className="px-4 py-2 font-medium">Created</th>
            <th className="px-4 py-2 font-medium">Last used</th>
            <th className="px-4 py-2 font-medium">Status</th>
            {canManage && (
              <th className="px-4 py-2">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {keys.map((k) => (
            <tr key={k.id} className={keyStatus(k, now) !== 'active' ? 'text-zinc-400' : undefined}>
              <td className="px-4 py-2.5 font-medium">
                <RevealedText text={k.name} />
                {/* Under the name, which wraps, not a column of its own: the table fits 1024 px without scrolling. */}
                {k.expiresAt && !k.revokedAt && (
                  <div className="mt-0.5 text-xs font-normal text-zinc-500">
                    {keyStatus(k, now) === 'expired' ? 'expired ' : 'expires '}
                    <span
                      className={expiresSoon(k, now) ? 'font-medium text-amber-800' : undefined}
                      data-testid="key-expires"
                      title={expiresSoon(k, now) ? 'Expires within a week: make a new key and move its agent to it.' : undefined}
                    >
                      <RelativeTime date={k.expiresAt} />
                    </span>
                  </div>
                )}
              </td>
              <td className="px-4 py-2.5 font-mono text-xs">{k.prefix}…</td>
              <td className="px-4 py-2.5 font-mono text-xs" data-testid="key-scopes">
                <KeyScopes apiKey={k} />
              </td>
              <td className="px-4 py-2.5" data-testid="key-owner">
                {k.createdBy ? (
                  <>
                    {k.createdBy.email}
                    {!k.createdBy.member && (
                      <span
                        className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900"
                        title="No longer a member of this tenant; the key still works until it is revoked."
                      >
                        no longer a member
                      </span>
                    )}
                  </>
                ) : (
                  <span className="text-zinc-500" title="Made from the command line or by such a key">
                    nobody
                  </span>
                )}
              </td>
              <td className="px-4 py-2.5 whitespace-nowrap">
                <RelativeTime date={k.createdAt} />
              </td>
              <td className="px-4 py-2.5 whitespace-nowrap">
                <RelativeTime date={k.lastUsedAt} fallback="never" />
              </td>
              <td className="px-4 py-2.5" title={k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : undefined}>
                <StatusBadge status={keyStatus(k, now)} />
              </td>
              {canManage && <td className="px-4 py-2.5 text-right">{!k.revokedAt && <RevokeApiKeyButton id={k.id} name={k.name} />}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The stored scopes, with those its person's current role no longer allows struck through. */
function KeyScopes({ apiKey }: { apiKey: ApiKeySummary }) {
  const lapsed = apiKey.scopes.filter((scope) => !apiKey.effectiveScopes.includes(scope));
  const added = apiKey.effectiveScopes.filter((scope) => !apiKey.scopes.includes(scope));
  if (lapsed.length === 0) return <>{apiKey.scopes.join(', ')}</>;
  const who = apiKey.createdBy?.member ? `${apiKey.createdBy.email}'s current role` : 'its person, no longer a member,';
  return (
    <span title={`Not in effect: ${who} does not allow ${lapsed.join(' or ')}. The key comes back to them if the role does.`}>
      {[...apiKey.scopes, ...added].map((scope, index) => (
        <span key={scope}>
          {index > 0 && ', '}
          {lapsed.includes(scope) ? <s className="text-zinc-400">{scope}</s> : scope}
        </span>
      ))}
      <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 font-sans text-xs text-amber-900">limited by role</span>
    </span>
  );
}
