import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { hashCanonical } from '@/lib/contracts/canonical-json';
import type { ToolContract } from '@/lib/contracts/contract-schema';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { createConfirmationHandler as confirm } from '@/lib/api/handlers/confirmations';
import { validatePipelineHandler as validatePipeline } from '@/lib/api/handlers/pipeline';
import { saveContractDraftHandler as saveDraft } from '@/lib/api/handlers/contracts';
import { getTraceHandler as getTrace } from '@/lib/api/handlers/traces';
import { fromStoredEvidence } from '@/lib/evidence/stored-hashes';

// Numbers a double cannot hold as sent (1e309, integers beyond 2^53-1, non-zero numbers that
// read as 0) are never validated, hashed, stored or shown rounded, and never a 500: validate/pre
// and post refuse the call with AXAG_NUMBER_UNREPRESENTABLE and record it; other endpoints 400.
// Bodies are raw JSON text, since JavaScript could not even write most of these numbers.

const contract: ToolContract = {
  id: 'numbers.check',
  version: '1.0.0',
  description: 'Takes numbers of every kind.',
  owner: 'team-tests',
  input: {
    type: 'object',
    properties: {
      n: { type: 'number' },
      id: { type: 'integer' },
      secret: { type: 'number' },
      items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'number' } } } },
    },
  },
  output: { type: 'object', properties: { total: { type: 'number' } } },
  annotations: {
    kind: 'query',
    side_effect_level: 'none',
    idempotent: true,
    confirmation_required: false,
    approval_required: false,
    approver_roles: [],
  },
  sensitive: ['secret'],
};

let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant({ storeRawArguments: true });
  await publishContract(t.tenant.id, contract);
});

let seq = 0;
const pre = (argumentsJson: string, rest = ',"context":{"tenant_id":"acme"}') =>
  call(validatePre, { key: t.agentKey, rawBody: `{"tool":"numbers.check","call_id":"num-${++seq}","arguments":${argumentsJson}${rest}}` });
const post = (rest: string) =>
  call(validatePost, { key: t.agentKey, rawBody: `{"tool":"numbers.check","call_id":"num-${++seq}","arguments":{}${rest}}` });
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const refused = (body: { errors: { code: string; path: string; details: { constraint?: { problem?: string } } }[] }) =>
  body.errors.map((e) => [e.code, e.path, e.details.constraint?.problem]);
const evidenceOf = async (id: string) => fromStoredEvidence(await db().evidence.findUniqueOrThrow({ where: { id } }));

describe('validate/pre with a number a double cannot hold', () => {
  it('1e309 in the arguments: a deny with its own code, recorded, not a 500', async () => {
    const res = await pre('{"n":1e309}');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: false, decision: 'deny', version: '1.0.0' });
    expect(refused(res.body)).toEqual([['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.n', 'not_finite']]);
    expect(res.body.errors[0]).toMatchObject({ type: 'parameter_error', details: { sent: '1e309' } });
    expect(res.body.error).toMatchObject({
      code: 'AXAG_VALIDATION_ERROR',
      type: 'number_unrepresentable',
      details: { path: '$.arguments.n' },
    });
    expect(res.body.llm_message).toContain('as a string');
    const evidence = await evidenceOf(res.body.evidence_id);
    expect(evidence).toMatchObject({ kind: 'pre', decision: 'deny', valid: false, tool: 'numbers.check', contractVersion: '1.0.0' });
    // The hash of what was sent, in exact canonical form; Infinity has no JSON at all.
    expect(evidence.argsHash).toBe(sha256('{"n":1e+309}'));
    expect(evidence.arguments).toBe('{"n":1e309}');
    const violations = await db().violation.findMany({ where: { evidenceId: evidence.id } });
    expect(violations.map((v) => v.code)).toEqual(['AXAG_NUMBER_UNREPRESENTABLE']);
  });

  it('9007199254740993 is refused, hashed and stored as sent, never as 9007199254740992', async () => {
    const res = await pre('{"id":9007199254740993,"n":0.5}');
    expect(refused(res.body)).toEqual([['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.id', 'unsafe_integer']]);
    expect(res.body.errors[0].details.suggestion).toBe('Send $.arguments.id as a string, e.g. "9007199254740993".');
    const evidence = await evidenceOf(res.body.evidence_id);
    expect(evidence.argsHash).toBe(sha256('{"id":9007199254740993,"n":0.5}'));
    expect(evidence.argsHash).not.toBe(hashCanonical({ id: 9007199254740992, n: 0.5 }));
    expect(evidence.arguments).toBe('{"id":9007199254740993,"n":0.5}');
  });

  it('reports every such number with its path: negative, underflowing, exponent-written, nested, in context', async () => {
    const res = await pre(
      '{"n":-1e309,"items":[{"qty":1},{"qty":1e16}],"secret":-9007199254740992,"id":1e-400}',
      ',"context":{"state":{"big":123456789012345678901234567890}}',
    );
    expect(refused(res.body)).toEqual([
      ['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.n', 'not_finite'],
      ['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.items[1].qty', 'unsafe_integer'],
      ['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.secret', 'unsafe_integer'],
      ['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.id', 'underflow'],
      ['AXAG_NUMBER_UNREPRESENTABLE', '$.context.state.big', 'unsafe_integer'],
    ]);
    const evidence = await evidenceOf(res.body.evidence_id);
    expect(evidence.argsHash).toBe(
      sha256('{"id":1e-400,"items":[{"qty":1},{"qty":10000000000000000}],"n":-1e+309,"secret":-9007199254740992}'),
    );
    // Sensitive paths are still redacted; the retained context keeps its number as sent.
    expect(evidence.arguments).toBe('{"n":-1e309,"items":[{"qty":1},{"qty":1e16}],"secret":"[REDACTED]","id":1e-400}');
    expect(evidence.payload).toBe('{"context":{"state":{"big":123456789012345678901234567890}}}');
    // The trace shows them as sent too: parsed, -1e309 would answer as null and the context's
    // integer as 123456789012345680000000000000.
    const trace = await call(getTrace, { key: t.adminKey, params: { traceId: res.body.trace_id } });
    expect(trace.status).toBe(200);
    expect(trace.body.records[0].retained).toEqual({
      status: 'kept',
      too_large: false,
      arguments: '{"n":-1e309,"items":[{"qty":1},{"qty":1e16}],"secret":"[REDACTED]","id":1e-400}',
      context: '{"state":{"big":123456789012345678901234567890}}',
      as_sent: ['arguments', 'context'],
    });
  });

  it('is refused even for an unknown tool, which is reported first', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      rawBody: '{"tool":"numbers.nope","call_id":"num-unknown","arguments":{"n":1e999}}',
    });
    expect(res.body.errors.map((e: { code: string }) => e.code)).toEqual(['AXAG_UNKNOWN_TOOL', 'AXAG_NUMBER_UNREPRESENTABLE']);
    expect((await evidenceOf(res.body.evidence_id)).contractVersion).toBeNull();
  });

  it('counts an integral value beyond 2^53-1 however it is written, 1e308 included', async () => {
    for (const args of ['{"n":1e308}', '{"n":9007199254740993.000}', '{"n":90071992547409.93e2}', '{"n":-1.7976931348623157e308}']) {
      expect(refused((await pre(args)).body), args).toEqual([['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.n', 'unsafe_integer']]);
    }
  });

  it('near twins pass through ordinary validation: the largest safe integer, decimals read as JavaScript reads them', async () => {
    for (const args of [
      '{"id":9007199254740991}',
      '{"id":-9007199254740991}',
      '{"n":1e15}',
      '{"n":1.5e-300}',
      '{"n":0.1}',
      '{"n":1.0000000000000001}',
      '{"n":12345678901234567.5}',
      '{"n":-0}',
      '{"n":5e-324}',
      '{"n":"9007199254740993"}',
      '{"n":"1e309"}',
    ]) {
      const res = await pre(args);
      expect(
        res.body.errors.map((e: { code: string }) => e.code),
        args,
      ).not.toContain('AXAG_NUMBER_UNREPRESENTABLE');
      expect((await evidenceOf(res.body.evidence_id)).argsHash, args).toBe(hashCanonical(JSON.parse(args)));
    }
    expect((await pre('{"n":1.0000000000000001}')).body.decision).toBe('allow');
    expect((await pre('{"id":"9007199254740993"}')).body.errors.map((e: { code: string; path: string }) => [e.code, e.path])).toEqual([
      ['AXAG_INVALID_TYPE', '$.id'],
    ]);
  });

  it('counts a number in a repeated key too: the text carried it, whatever JSON.parse kept', async () => {
    const res = await pre('{"n":1e309,"n":1}');
    expect(refused(res.body)).toEqual([['AXAG_NUMBER_UNREPRESENTABLE', '$.arguments.n', 'not_finite']]);
    expect((await evidenceOf(res.body.evidence_id)).argsHash).toBe(sha256('{"n":1}'));
  });
});

describe('validate/post with such a number', () => {
  it('in the result: a deny whose message says the result was refused, not to correct the arguments', async () => {
    const res = await post(',"result":{"total":18446744073709551615}');
    expect(res.status).toBe(200);
    expect(refused(res.body)).toEqual([['AXAG_NUMBER_UNREPRESENTABLE', '$.result.total', 'unsafe_integer']]);
    expect(res.body.llm_message).toContain('The result of numbers.check was refused');
    expect(res.body.llm_message).not.toMatch(/correct the arguments/i);
    const evidence = await evidenceOf(res.body.evidence_id);
    expect(evidence).toMatchObject({ kind: 'post', decision: 'deny' });
    expect(evidence.argsHash).toBe(hashCanonical({}));
    expect(evidence.payload).toBe('{"result":{"total":18446744073709551615}}');
  });

  it('in the error payload as well; an ordinary result is checked as usual', async () => {
    expect(refused((await post(',"error":{"code":1e400}')).body)).toEqual([['AXAG_NUMBER_UNREPRESENTABLE', '$.error.code', 'not_finite']]);
    expect((await post(',"result":{"total":9007199254740991}')).body).toMatchObject({ decision: 'allow', errors: [] });
  });

  it('outside what the agent and the tool produced (execution_ms, side effects) it is a 400 at the boundary', async () => {
    for (const [rest, path] of [
      [',"result":{},"execution_ms":1e309', '$.execution_ms'],
      [',"result":{},"side_effects":[{"id":"x","n":9007199254740993}]', '$.side_effects[0].n'],
    ] as const) {
      const res = await post(rest);
      expect(res.status, rest).toBe(400);
      expect(res.body.error, rest).toMatchObject({ code: 'number_unrepresentable', details: { path, paths: [path] } });
      // execution_ms takes a number, so a string is no advice for it; a side effect's details take any value.
      expect(res.body.error.message, rest).toMatch(
        path === '$.execution_ms' ? /Send a number a double holds exactly\.$/ : /Send it as a string\.$/,
      );
    }
    // Mixed: one in the result and one outside: the boundary refuses the whole request.
    expect((await post(',"result":{"total":1e309},"execution_ms":1e309')).status).toBe(400);
  });
});

describe('every other endpoint', () => {
  it('refuses such a number with 400 number_unrepresentable and its path: confirmations, pipeline contexts, contract documents', async () => {
    const confirmation = await call(confirm, {
      key: t.agentKey,
      rawBody: '{"tool":"numbers.check","arguments":{"id":9007199254740993},"context":{}}',
    });
    expect(confirmation.status).toBe(400);
    expect(confirmation.body.error).toMatchObject({
      code: 'number_unrepresentable',
      details: { path: '$.arguments.id', problem: 'unsafe_integer' },
    });
    expect(confirmation.body.error.message).toContain('Send it as a string');

    const pipeline = await call(validatePipeline, {
      key: t.agentKey,
      rawBody: '{"entry":"core","context":{"Envelope":{"Org":{"Id":1e309}}}}',
    });
    expect(pipeline.status).toBe(400);
    expect(pipeline.body.error.details).toMatchObject({ path: '$.context.Envelope.Org.Id', problem: 'not_finite' });

    const draft = await call(saveDraft, {
      key: t.adminKey,
      rawBody:
        '{"id":"numbers.big","version":"1.0.0","description":"x","owner":"o","input":{"type":"object","properties":{"n":{"maximum":1e309}}},"annotations":{"kind":"query","side_effect_level":"none","idempotent":true}}',
    });
    expect(draft.status).toBe(400);
    expect(draft.body.error.details.path).toBe('$.input.properties.n.maximum');
  });

  it('does not mistake digits or exponents inside strings for numbers', async () => {
    const res = await call(confirm, {
      key: t.agentKey,
      rawBody: '{"tool":"numbers.check","arguments":{"n":1,"note":"order 90071992547409931234 at 1e309"},"context":{}}',
    });
    expect(res.status).not.toBe(400);
  });
});
