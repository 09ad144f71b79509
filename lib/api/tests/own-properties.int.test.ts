import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { hashCanonical } from '@/lib/contracts/canonical-json';
import type { ToolContract } from '@/lib/contracts/contract-schema';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { fromStoredEvidence } from '@/lib/evidence/stored-hashes';

// Argument names that are also Object.prototype members. Presence, `properties`, CEL's has()
// and scope paths must see only the keys the agent sent, never the prototype's. Bodies are
// sent as raw JSON text: a JavaScript literal `{__proto__: …}` would set a prototype, not a key.

const annotations: ToolContract['annotations'] = {
  kind: 'query',
  side_effect_level: 'none',
  idempotent: true,
  confirmation_required: false,
  approval_required: false,
  approver_roles: [],
};

const requiredContract: ToolContract = {
  id: 'own.required',
  version: '1.0.0',
  description: 'Requires arguments named like Object.prototype members.',
  owner: 'team-tests',
  input: {
    type: 'object',
    required: ['constructor', 'toString', 'tenant_id'],
    additionalProperties: false,
    properties: { constructor: { type: 'integer' }, toString: { type: 'string' }, tenant_id: { type: 'string' } },
  },
  output: { type: 'object', required: ['constructor'], properties: { constructor: { type: 'string' } } },
  annotations,
  scope: { tenant: 'tenant_id' },
  sensitive: ['toString'],
};

const optionalContract: ToolContract = {
  id: 'own.optional',
  version: '1.0.0',
  description: 'Declares, but does not require, arguments named like prototype members.',
  owner: 'team-tests',
  input: { type: 'object', properties: { constructor: { type: 'integer' }, toString: { type: 'string' } } },
  annotations,
  preconditions: [
    { id: 'positive', expression: '!has(args.constructor) || args.constructor > 0', message: 'constructor must be positive when given' },
  ],
};

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant({ storeRawArguments: true });
  await publishContract(t.tenant.id, requiredContract);
  await publishContract(t.tenant.id, optionalContract);
});

let n = 0;
const send = (handler: typeof validatePre, tool: string, argumentsJson: string, extra = '') =>
  call(handler, {
    key: t.agentKey,
    rawBody: `{"tool":"${tool}","call_id":"own-${++n}","arguments":${argumentsJson},"context":{"tenant_id":"acme"}${extra}}`,
  });
const issues = (body: { errors: { code: string; path: string }[] }) => body.errors.map((e) => [e.code, e.path]);

describe('required arguments named like Object.prototype members', () => {
  it('are missing from {} (it has no own constructor or toString)', async () => {
    const res = await send(validatePre, 'own.required', '{}');
    expect(res.status).toBe(200);
    expect(res.body.decision).toBe('deny');
    expect(issues(res.body)).toEqual([
      ['AXAG_MISSING_PARAM', '$.constructor'],
      ['AXAG_MISSING_PARAM', '$.toString'],
      ['AXAG_MISSING_PARAM', '$.tenant_id'],
      ['AXAG_TENANT_BOUNDARY', '$.tenant_id'],
    ]);
  });

  it('counts only the ones sent: {"constructor": 1} still lacks toString', async () => {
    const res = await send(validatePre, 'own.required', '{"constructor":1,"tenant_id":"acme"}');
    expect(issues(res.body)).toEqual([['AXAG_MISSING_PARAM', '$.toString']]);
  });

  it('are not supplied by an own "__proto__" key, which stays an ordinary (here undeclared) argument', async () => {
    const res = await send(validatePre, 'own.required', '{"__proto__":{"constructor":1,"toString":"x","tenant_id":"acme"}}');
    expect(issues(res.body)).toEqual([
      ['AXAG_MISSING_PARAM', '$.constructor'],
      ['AXAG_MISSING_PARAM', '$.toString'],
      ['AXAG_MISSING_PARAM', '$.tenant_id'],
      ['AXAG_UNKNOWN_PARAM', '$.__proto__'],
      ['AXAG_TENANT_BOUNDARY', '$.tenant_id'],
    ]);
    expect(({} as Record<string, unknown>).tenant_id).toBeUndefined();
  });

  it('are checked, stored (redacted) and hashed as sent when present', async () => {
    const sent = '{"constructor":1,"toString":"s3cret","tenant_id":"acme"}';
    const res = await send(validatePre, 'own.required', sent);
    expect(res.body).toMatchObject({ decision: 'allow', errors: [] });
    const evidence = fromStoredEvidence(await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id } }));
    expect(evidence.argsHash).toBe(hashCanonical(JSON.parse(sent)));
    expect(JSON.parse(evidence.arguments ?? 'null')).toEqual({ constructor: 1, toString: '[REDACTED]', tenant_id: 'acme' });
  });

  it('are missing from a result of {} in validate/post as well', async () => {
    const args = '{"constructor":1,"toString":"x","tenant_id":"acme"}';
    const res = await send(validatePost, 'own.required', args, ',"result":{}');
    expect(res.body.decision).toBe('deny');
    expect(issues(res.body)).toEqual([['AXAG_OUTPUT_MISMATCH', '$.constructor']]);
    const twin = await send(validatePost, 'own.required', args, ',"result":{"constructor":"made"}');
    expect(twin.body).toMatchObject({ decision: 'allow', errors: [] });
  });
});

describe('declared, optional arguments named like prototype members', () => {
  it('are absent from {}: no type error for the prototype functions, and has() is false', async () => {
    const res = await send(validatePre, 'own.optional', '{}');
    expect(res.body).toMatchObject({ decision: 'allow', errors: [] });
  });

  it('are typed and reach conditions when sent (an own "constructor" key does not break CEL)', async () => {
    expect((await send(validatePre, 'own.optional', '{"constructor":2}')).body).toMatchObject({ decision: 'allow', errors: [] });
    const zero = await send(validatePre, 'own.optional', '{"constructor":0}');
    expect(issues(zero.body)).toEqual([['AXAG_PRECONDITION_FAILED', '$']]);
    expect(zero.body.errors[0].details.evaluation_error).toBeUndefined();
    const wrong = await send(validatePre, 'own.optional', '{"toString":5}');
    expect(issues(wrong.body)).toEqual([['AXAG_INVALID_TYPE', '$.toString']]);
  });

  it('keep an own "__proto__" key as data: validated, stored and hashed as sent, nothing polluted', async () => {
    const sent = '{"__proto__":{"constructor":0}}';
    const res = await send(validatePre, 'own.optional', sent);
    // The nested constructor is not args.constructor: has() is false, so the condition holds.
    expect(res.body).toMatchObject({ decision: 'allow', errors: [] });
    const evidence = fromStoredEvidence(await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id } }));
    expect(evidence.argsHash).toBe(hashCanonical(JSON.parse(sent)));
    const stored = JSON.parse(evidence.arguments ?? 'null') as object;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(stored, '__proto__')?.value).toEqual({ constructor: 0 });
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });
});
