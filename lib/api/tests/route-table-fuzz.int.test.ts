// Every route of the table, called with what a careless or hostile caller sends: odd path
// params, query strings and bodies built from each route's own field names with values of the
// wrong type, size or encoding; then every route with a body, given a valid request (its seed)
// with one to three things wrong in it, so the values get past the shape check into the service.
// Whatever arrives, the answer is a decision, a page or a 4xx envelope with a code; never a 500,
// and nothing leaks onto Object.prototype. FUZZ_RUNS=1000 runs it harder (docs/development.md).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_ROUTES } from '@/lib/api/routes';
import type { ApiRoute } from '@/lib/api/define-route';
import { templateParams } from '@/lib/api/match-route';
import { createApiKey } from '@/lib/auth/api-keys';
import { EXAMPLE_CONTRACTS, lookupOrderContract } from '@/lib/contracts/examples';
import { addMember } from '@/lib/tenants/add-member';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { registerMcpServerHandler as createMcpServer, reportMcpToolsHandler as reportMcpTools } from '@/lib/api/handlers/mcp-servers';
import { saveDocumentDraft } from '@/lib/documents/save-document-draft';
import { DEMO_POLICIES, DEMO_SURFACE, issueCreditContract } from '@/lib/seed/demo-documents';
import { asSession, signIn } from './member-sessions';
import { refundCall, SEARCH_TOOL } from './route-fixtures';

let key: string;
let cookie: string;
/** Ids of things the mutated requests act on: a pending approval and a member to re-role. */
const ids = { approval: '', membership: '' };

beforeAll(async () => {
  const t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
  key = (await createApiKey({ tenantId: t.tenant.id, name: 'fuzz', scopes: ['validate', 'admin', 'author'] })).key;
  const email = `owner-${t.tenant.slug}@test.local`;
  await addMember({ tenantId: t.tenant.id, email, password: 'a-long-password', role: 'admin' });
  cookie = (await signIn(email, 'a-long-password')).cookie;
  for (const policy of DEMO_POLICIES) await saveDocumentDraft({ tenantId: t.tenant.id, kind: 'policy', document: policy });
  await saveDocumentDraft({ tenantId: t.tenant.id, kind: 'contract', document: issueCreditContract });
  await saveDocumentDraft({ tenantId: t.tenant.id, kind: 'surface', document: DEMO_SURFACE });
  ids.membership = (
    await addMember({ tenantId: t.tenant.id, email: `viewer-${t.tenant.slug}@test.local`, password: 'a-long-password', role: 'viewer' })
  ).membership.id;
  const refund = await call(validatePre, { key: t.agentKey, body: REFUND_CALL });
  expect(refund.body.decision, JSON.stringify(refund.body)).toBe('require_approval');
  ids.approval = refund.body.approval.id;
  const server = await call(createMcpServer, { key, body: { name: 'fuzzhost', url: 'https://mcp.example.com/mcp' } });
  expect(server.status).toBe(201);
  const reported = await call(reportMcpTools, { key, params: { server: 'stdiohost' }, body: MCP_TOOLS });
  expect(reported.status, JSON.stringify(reported.body)).toBe(200);
});

/** Strings that have broken parsers, databases or templates somewhere. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '💥',
  '..',
  '../../etc/passwd',
  '%',
  '%00',
  '__proto__',
  'constructor',
  'prototype',
  'a'.repeat(5000),
  '\'; DROP TABLE "Evidence"; --',
  '${7*7}',
  '<script>alert(1)</script>',
  'orders.lookup',
  '1.0.0',
  '0x10',
  '1e400',
  '-0',
  'NaN',
  'null',
  'true',
  '2026-13-45T25:61:61Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
];
const ODD_NUMBERS = [0, -0, -1, 0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE];

const oddString = fc.oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }));
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.constantFrom<unknown>(
    ...ODD_NUMBERS,
    null,
    true,
    false,
    [],
    {},
    // JSON.parse, not a literal: a literal's `__proto__` sets the prototype and is never sent.
    JSON.parse('{"__proto__":{"polluted":1}}') as unknown,
    { constructor: { prototype: { polluted: 1 } } },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Percent-encodes what a URL can carry: a lone surrogate travels as U+FFFD, as a browser sends it. */
const encode = (value: string) =>
  encodeURIComponent(value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** The field names a route's body or query schema declares, so generated values reach past the shape check. */
function fieldNames(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

function bodyFor(route: ApiRoute): fc.Arbitrary<{ body?: unknown; rawBody?: string }> {
  const names = fieldNames(route.handler.spec.body);
  const shaped = names.length
    ? fc.dictionary(fc.constantFrom(...names, '__proto__', 'extra'), oddValue, { maxKeys: names.length + 1 }).map((body) => ({ body }))
    : fc.constant({ body: {} });
  return fc.oneof(
    shaped,
    oddValue.map((body) => ({ body })),
    fc
      .constantFrom('{', '{"a":1,}', '[1,2', '\u0000', '{"__proto__":{"polluted":1}}', 'null', '"x"', '1e999')
      .map((rawBody) => ({ rawBody })),
  );
}

function queryFor(route: ApiRoute): fc.Arbitrary<string> {
  const names = [...fieldNames(route.handler.spec.query), 'limit', 'cursor', '__proto__'];
  return fc.dictionary(fc.constantFrom(...names), oddString, { maxKeys: 3 }).map((query) => {
    const text = Object.entries(query)
      .map(([name, value]) => `${encode(name)}=${encode(value).slice(0, 2000)}`)
      .join('&');
    return text ? `?${text}` : '';
  });
}

const paramValue = fc.oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ maxLength: 30 }));

describe('every route in the table, fed odd params, queries and bodies', () => {
  for (const route of API_ROUTES) {
    it(`${route.method} ${route.path}: never a 500`, async () => {
      const names = templateParams(route.path);
      const auth = route.handler.spec.auth;
      const viaSession = auth !== 'none' && auth.session !== undefined;
      const viaKey = auth !== 'none' && auth.apiKey !== undefined;
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...names.map(() => paramValue)),
          queryFor(route),
          route.method === 'GET' || route.method === 'DELETE' ? fc.constant({}) : bodyFor(route),
          fc.boolean(),
          async (values, query, payload, preferSession) => {
            const params = Object.fromEntries(names.map((name, i) => [name, values[i] ?? '']));
            const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encode(params[name] ?? ''));
            const useSession = viaSession && (preferSession || !viaKey);
            const res = await call(route.handler, {
              method: route.method,
              path: `${path}${query}`,
              params,
              ...payload,
              ...(useSession ? { headers: asSession(cookie) } : viaKey ? { key } : {}),
            });
            const where = `${route.method} ${path}${query} ${JSON.stringify(payload).slice(0, 300)}`;
            expect(res.status, where).toBeLessThan(500);
            if (res.status >= 400) expect(typeof res.body?.error?.code, where).toBe('string');
          },
        ),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 25) },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }, 120_000);
  }
});

const lookup = lookupOrderContract;
const policy = DEMO_POLICIES[0] as { id: string; version: string };
const surface = DEMO_SURFACE as { id: string; version: string };
const LOOKUP_CALL = {
  tool: lookup.id,
  call_id: 'fuzz-1',
  arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
  context: { tenant_id: 'acme', user_id: 'u1', roles: ['support'] },
};

const MCP_TOOLS = { tools: [SEARCH_TOOL] };
const REFUND_CALL = refundCall('fuzz-refund');

/** A valid request per route (params and body), for mutations that get past the shape check. Params read at call time. */
const SEEDS: Record<string, { params?: () => Record<string, string>; body: unknown }> = {
  'POST /api/v1/validate/pre': { body: LOOKUP_CALL },
  'POST /api/v1/validate/post': {
    body: { ...LOOKUP_CALL, result: { order_id: 'ord_abc123', status: 'paid' }, execution_ms: 12.5, side_effects: [] },
  },
  'POST /api/v1/confirmations': { body: { tool: lookup.id, arguments: LOOKUP_CALL.arguments, context: LOOKUP_CALL.context } },
  'POST /api/v1/pipeline/validate': { body: { entry: 'core', context: { request: { message: 'hi' } }, call_id: 'p-1' } },
  'POST /api/v1/manifests/validate': { body: { manifest: { tools: [{ name: lookup.id, arguments: {} }] }, call_id: 'm-1' } },
  'POST /api/v1/approvals/{id}/decision': {
    params: () => ({ id: ids.approval }),
    body: { decision: 'approve', comment: 'fuzz', arguments: REFUND_CALL.arguments },
  },
  'POST /api/v1/webhooks': { body: { url: 'https://hooks.example.com/toolgate', events: ['approval.decided'] } },
  'POST /api/v1/mcp-servers': {
    body: {
      name: 'fuzzed',
      url: 'https://mcp.example.com/mcp',
      auth_header: { name: 'authorization', value: 'Bearer x' },
      approval_wait_seconds: 5,
    },
  },
  'PATCH /api/v1/mcp-servers/{server}': {
    params: () => ({ server: 'fuzzhost' }),
    body: {
      url: 'https://mcp2.example.com/mcp',
      auth_header: null,
      list_unpublished: true,
      auto_accept_cosmetic: true,
      approval_wait_seconds: 10,
    },
  },
  'POST /api/v1/mcp-servers/{server}/tools': { params: () => ({ server: 'stdiohost' }), body: MCP_TOOLS },
  'POST /api/v1/mcp-servers/{server}/tools/{tool}/drift/accept': {
    params: () => ({ server: 'stdiohost', tool: 'search' }),
    body: { hash: 'a'.repeat(64) },
  },
  'POST /api/v1/contracts': { body: { ...issueCreditContract, id: 'fuzz.tool', version: '0.1.0' } },
  'POST /api/v1/contracts/{id}/versions/{version}/publish': {
    params: () => ({ id: issueCreditContract.id, version: issueCreditContract.version }),
    body: { change_note: 'fuzz', mode: 'shadow' },
  },
  'POST /api/v1/contracts/{id}/impact': { params: () => ({ id: lookup.id }), body: { ...lookup, version: '9.0.0' } },
  'POST /api/v1/contracts/import': {
    body: { text: JSON.stringify({ tools: [{ name: 'x', inputSchema: { type: 'object' } }] }), namespace: 'fz', save: false },
  },
  'POST /api/v1/contracts/{id}/deprecate': { params: () => ({ id: lookup.id }), body: { version: lookup.version } },
  'POST /api/v1/policies': { body: { ...DEMO_POLICIES[1], id: 'fuzz-policy', version: '0.1.0' } },
  'POST /api/v1/policies/{id}/versions/{version}/publish': {
    params: () => ({ id: policy.id, version: policy.version }),
    body: { change_note: 'fuzz', mode: 'shadow' },
  },
  'POST /api/v1/policies/{id}/impact': { params: () => ({ id: policy.id }), body: { ...policy, version: '9.0.0' } },
  'POST /api/v1/policies/try': {
    body: {
      policy: DEMO_POLICIES[2],
      tool: lookup.id,
      arguments: LOOKUP_CALL.arguments,
      context: LOOKUP_CALL.context,
      history: [{ tool: lookup.id, seconds_ago: 30 }],
    },
  },
  'POST /api/v1/surfaces': { body: { ...DEMO_SURFACE, id: 'fuzz-surface', version: '0.1.0' } },
  'POST /api/v1/surfaces/{id}/versions/{version}/publish': {
    params: () => ({ id: surface.id, version: surface.version }),
    body: { change_note: 'fuzz' },
  },
  'POST /api/v1/lint': {
    body: {
      documents: [
        { name: 'support.json', kind: 'surface', text: JSON.stringify(DEMO_SURFACE), prompt: 'You help customers.' },
        { kind: 'policy', text: JSON.stringify(DEMO_POLICIES[0]), format: 'json', previous_version: '0.9.0' },
      ],
    },
  },
  'POST /api/v1/api-keys': { body: { name: 'fuzzed', scopes: ['validate'] } },
  'POST /api/v1/members': { body: { email: 'fuzzed@test.local', role: 'viewer' } },
  'PATCH /api/v1/members/{id}': { params: () => ({ id: ids.membership }), body: { role: 'approver' } },
  'POST /api/v1/invitations/accept': { body: { token: 'x'.repeat(43), password: 'a-long-password', name: 'Fuzz' } },
  'POST /api/v1/password-resets': { body: { email: 'fuzzed@test.local' } },
  'POST /api/v1/password-resets/complete': { body: { token: 'x'.repeat(43), password: 'a-long-password' } },
  'POST /api/v1/session/tenant': { body: { tenant: 'fuzz' } },
  'PATCH /api/v1/settings': {
    body: { argument_retention_days: 30, sensitive_paths: ['card.number'], approval_ttl_seconds: 3600, duplicate_window_seconds: 600 },
  },
};

type Mutation = { steps: number[]; op: 'replace' | 'delete' | 'add'; key: string; value: unknown };

/** The seed with one node replaced, deleted, or given an extra key (an own `__proto__` included). */
function mutate(seed: unknown, m: Mutation): unknown {
  const root = structuredClone(seed) as unknown;
  let parent: Record<string | number, unknown> | null = null;
  let key: string | number | null = null;
  let node = root;
  for (const step of m.steps) {
    if (!node || typeof node !== 'object') break;
    const keys: (string | number)[] = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node as Record<string | number, unknown>;
    key = keys[step % keys.length] ?? null;
    node = key === null ? undefined : parent[key];
  }
  if (m.op === 'add' && node && typeof node === 'object' && !Array.isArray(node)) {
    Object.defineProperty(node, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    return root;
  }
  if (parent === null || key === null) return m.op === 'delete' ? {} : m.value;
  if (m.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = m.value;
  return root;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  steps: fc.array(fc.nat(), { maxLength: 6 }),
  op: fc.constantFrom('replace' as const, 'delete' as const, 'add' as const),
  key: fc.constantFrom('__proto__', 'constructor', 'extra', ''),
  value: oddValue,
});

describe('routes with a body, fed a valid request with one to three things wrong in it', () => {
  it('has a seed for every route with a body the fuzz above only reaches the shape check of', () => {
    const withBody = API_ROUTES.filter((r) => r.handler.spec.body);
    expect(withBody.map((r) => `${r.method} ${r.path}`).filter((name) => !SEEDS[name])).toEqual([]);
  });

  for (const [name, seed] of Object.entries(SEEDS)) {
    const route = API_ROUTES.find((r) => `${r.method} ${r.path}` === name);
    it(`${name}: never a 500`, async () => {
      if (!route) throw new Error(`no route ${name}`);
      const auth = route.handler.spec.auth;
      const viaSession = auth !== 'none' && auth.session !== undefined;
      const viaKey = auth !== 'none' && auth.apiKey !== undefined;
      const params = seed.params?.() ?? {};
      const path = route.path.replace(/\{(\w+)\}/g, (_, param: string) => encode(params[param] ?? ''));
      await fc.assert(
        fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.boolean(), async (mutations, preferSession) => {
          const body = mutations.reduce<unknown>((value, m) => mutate(value, m), seed.body);
          const useSession = viaSession && (preferSession || !viaKey);
          const res = await call(route.handler, {
            method: route.method,
            path,
            params,
            body,
            ...(useSession ? { headers: asSession(cookie) } : viaKey ? { key } : {}),
          });
          const where = `${name} ${JSON.stringify(body)?.slice(0, 400)}`;
          expect(res.status, where).toBeLessThan(500);
          if (res.status >= 400) expect(typeof res.body?.error?.code, where).toBe('string');
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 25) },
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }, 120_000);
  }
});
