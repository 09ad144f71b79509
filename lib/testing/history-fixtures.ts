// Shared set-up of the history and limit integration tests: a tenant with tools made for
// counting (no confirmation, no approval of their own, so only policies decide), a policy
// publisher through the real handlers, and a validate/pre caller.
import { expect } from 'vitest';
import { createApiKey } from '../auth/api-keys';
import { lookupOrderContract } from '../contracts/examples';
import type { ToolContract } from '../contracts/contract-schema';
import { db } from '../db';
import { savePolicyDraftHandler as savePolicy, publishPolicyVersionHandler as publishPolicy } from '../api/handlers/policies';
import { validatePreHandler as validatePre } from '../api/handlers/validate';
import { call } from './api-client';
import { createTestTenant, publishContract } from './fixtures';

/** A write tool without confirmation or approval, with an account, an amount and free-form fields. */
export function countingContract(id: string): ToolContract {
  return {
    owner: lookupOrderContract.owner,
    id,
    version: '1.0.0',
    description: `${id}: a tool the history tests count.`,
    input: {
      type: 'object',
      required: ['account_id'],
      additionalProperties: false,
      properties: {
        account_id: { type: 'string', minLength: 1, maxLength: 64 },
        amount: { type: 'number', minimum: 0, maximum: 1_000_000 },
        note: { type: 'string', maxLength: 200 },
      },
    },
    output: { type: 'object' },
    annotations: { ...lookupOrderContract.annotations, kind: 'mutation', side_effect_level: 'write', idempotent: true },
  };
}

export const COUNTED_TOOLS = ['accounts.export', 'accounts.delete', 'wallet.transfer', 'wallet.view'] as const;

export type HistoryTenant = Awaited<ReturnType<typeof createHistoryTenant>>;

export async function createHistoryTenant() {
  const t = await createTestTenant({ storeRawArguments: false });
  const authorKey = (await createApiKey({ tenantId: t.tenant.id, name: 'author', scopes: ['author'] })).key;
  const secondKey = await createApiKey({ tenantId: t.tenant.id, name: 'agent-2', scopes: ['validate'] });
  for (const tool of COUNTED_TOOLS) await publishContract(t.tenant.id, countingContract(tool));
  return { ...t, authorKey, secondKey: secondKey.key, secondKeyId: secondKey.apiKey.id };
}

/** Saves and publishes (enforced) a policy document through the real handlers. */
export async function publishPolicyDocument(t: HistoryTenant, document: Record<string, unknown>) {
  const saved = await call(savePolicy, { key: t.authorKey, body: document });
  expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
  const published = await call(publishPolicy, {
    key: t.authorKey,
    params: { id: String(document.id), version: String(document.version) },
    body: { mode: 'enforce' },
  });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
}

let sequence = 0;

export interface ToolCall {
  tool?: string;
  args?: Record<string, unknown>;
  user?: string;
  session?: string;
  key?: string;
  extra?: Record<string, unknown>;
  callId?: string;
}

/** The validate/pre request body for a call (a fresh call id each time unless given). */
export function preBody(c: ToolCall) {
  const context: Record<string, unknown> = { tenant_id: 'acme' };
  if (c.user !== undefined) context.user_id = c.user;
  if (c.session !== undefined) context.session_id = c.session;
  return {
    tool: c.tool ?? 'wallet.transfer',
    call_id: c.callId ?? `h-${++sequence}`,
    arguments: c.args ?? { account_id: 'acc-1' },
    context,
    ...c.extra,
  };
}

/** validate/pre through the real route handler. */
export function pre(t: HistoryTenant, c: ToolCall = {}) {
  return call(validatePre, { key: c.key ?? t.agentKey, body: preBody(c) });
}

/** validate/pre, expecting a 200 with a decision; answers the decision and the error codes. */
export async function decide(t: HistoryTenant, c: ToolCall = {}): Promise<{ decision: string; codes: string[] }> {
  const res = await pre(t, c);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { decision: res.body.decision, codes: (res.body.errors as { code: string }[]).map((e) => e.code) };
}

/** Every HistoryCounter row of the tenant, summed: how many calls were counted and what they added. */
export async function counted(tenantId: string): Promise<{ count: number; total: number; rows: number }> {
  const rows = await db().historyCounter.findMany({ where: { tenantId } });
  return {
    count: rows.reduce((sum, row) => sum + row.count, 0),
    total: rows.reduce((sum, row) => sum + row.total, 0),
    rows: rows.length,
  };
}

/** How many validate/pre records of the tenant ended in each decision. */
export async function decisionsRecorded(tenantId: string): Promise<Record<string, number>> {
  const groups = await db().evidence.groupBy({ by: ['decision'], where: { tenant: { tenantId }, kind: 'pre' }, _count: { _all: true } });
  return Object.fromEntries(groups.map((g) => [g.decision, g._count._all]));
}

export const tally = (decisions: readonly string[]) =>
  decisions.reduce<Record<string, number>>((acc, d) => ({ ...acc, [d]: (acc[d] ?? 0) + 1 }), {});

/** validate/pre on a running data-plane process (lib/testing/data-plane-process.ts), as an agent sends it. */
export async function preAt(url: string, key: string, c: ToolCall = {}) {
  const res = await fetch(`${url}/api/v1/validate/pre`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(preBody(c)),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary response shapes
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
