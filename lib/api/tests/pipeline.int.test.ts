import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { traceIdFor } from '@/lib/evidence/trace-id';
import { verifyEvidenceChain } from '@/lib/evidence/verify-evidence-chain';
import { exampleManifest, exampleRun, exampleStep } from '@/lib/pipeline/examples';
import { toCamelCase } from '@/lib/pipeline/test-helpers';
import { createTestTenant } from '@/lib/testing/fixtures';
import { call, expectCodes } from '@/lib/testing/api-client';
import { validateManifestHandler as validateManifest } from '@/lib/api/handlers/manifests';
import { validatePipelineHandler as validatePipeline } from '@/lib/api/handlers/pipeline';

let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
});

describe('POST /api/v1/pipeline/validate', () => {
  it('passes every step of an Initial run, pre and post, and records each check in one trace', async () => {
    const run = exampleRun('Initial');
    const answers = [];
    for (const { step, before, after } of run) {
      const pre = await call(validatePipeline, { key: t.agentKey, body: { entry: 'pre_step', step, context: before } });
      const post = await call(validatePipeline, { key: t.agentKey, body: { entry: 'post_step', step, context: after, before } });
      expect([pre.status, post.status]).toEqual([200, 200]);
      expect([pre.body.valid, post.body.valid, pre.body.errors, post.body.errors]).toEqual([true, true, [], []]);
      answers.push(pre.body, post.body);
    }
    const correlation = run[0]?.before.CorrelationId as string;
    expect(new Set(answers.map((a) => a.trace_id))).toEqual(new Set([traceIdFor(t.tenant.id, correlation)]));
    const stored = await db().evidence.findMany({
      where: { tenant: { tenantId: t.tenant.id }, traceId: traceIdFor(t.tenant.id, correlation) },
      select: { kind: true, tool: true, decision: true },
    });
    expect(stored).toHaveLength(run.length * 2);
    expect(stored.every((e) => e.kind === 'pipeline' && e.decision === 'allow')).toBe(true);
    expect(new Set(stored.map((e) => e.tool))).toEqual(
      new Set(run.flatMap(({ step }) => [`pipeline:${step}:pre`, `pipeline:${step}:post`])),
    );
  });

  it('reports the broken core rules by id with the field named, records a deny and one violation per rule', async () => {
    const { before } = exampleStep('FollowOn', 'SessionRestorer');
    const broken = { ...before, CorrelationId: '', Envelope: { ...before.Envelope, SessionId: null } };
    const res = await call(validatePipeline, { key: t.agentKey, body: { entry: 'core', context: broken, call_id: 'core-broken' } });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expectCodes(res.body.errors, ['AGN036.CORE.CORRELATION_ID', 'AGN036.ENVELOPE.FOLLOW_ON.SESSION_ID_PRESENT']);
    const sessionIssue = res.body.errors.find((e: { code: string }) => e.code === 'AGN036.ENVELOPE.FOLLOW_ON.SESSION_ID_PRESENT');
    expect(sessionIssue).toMatchObject({ path: '$.Envelope.SessionId', phase: 'core', severity: 'error' });
    expect(sessionIssue.message).toContain('SessionId');
    expect(res.body.llm_message).toContain('AGN036.CORE.CORRELATION_ID');
    const evidence = await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id }, include: { tenant: true } });
    expect(evidence).toMatchObject({
      tenant: { tenantId: t.tenant.id },
      kind: 'pipeline',
      tool: 'pipeline:core',
      decision: 'deny',
      valid: false,
      callId: 'core-broken',
    });
    const violations = await db().violation.findMany({ where: { evidenceId: evidence.id }, select: { code: true, type: true } });
    expect(violations.map((v) => v.code).sort()).toEqual(['AGN036.CORE.CORRELATION_ID', 'AGN036.ENVELOPE.FOLLOW_ON.SESSION_ID_PRESENT']);
  });

  it('compares the before and after snapshots (Turn.Id must change in SessionRestorer) and accepts camelCase', async () => {
    const { before, after } = exampleStep('FollowOn', 'SessionRestorer');
    const sameTurn = { ...after, Turn: { ...(after.Turn as object), Id: before.Envelope.TurnId } };
    const res = await call(validatePipeline, {
      key: t.agentKey,
      body: { entry: 'post_step', step: 'SessionRestorer', context: toCamelCase(sameTurn), before: toCamelCase(before) },
    });
    expect(res.status).toBe(200);
    expectCodes(res.body.errors, ['AGN036.SESSION_RESTORER.POST.TURN_ID_CHANGED']);
    const ok = await call(validatePipeline, {
      key: t.agentKey,
      body: { entry: 'post_step', step: 'SessionRestorer', context: toCamelCase(after), before: toCamelCase(before) },
    });
    expect(ok.body).toMatchObject({ valid: true, step: 'SessionRestorer', entry: 'post_step' });
  });

  it('refuses malformed requests before validating anything', async () => {
    const context = exampleStep('Initial', 'RequestHandler').after;
    const noStep = await call(validatePipeline, { key: t.agentKey, body: { entry: 'pre_step', context } });
    expect(noStep.status).toBe(400);
    expect(noStep.body.error.code).toBe('bad_request');
    expect((await call(validatePipeline, { key: t.agentKey, body: { entry: 'core', step: 'Reasoner', context } })).status).toBe(400);
    expect((await call(validatePipeline, { key: t.agentKey, body: { entry: 'post_step', step: 'NoSuchStep', context } })).status).toBe(400);
    expect((await call(validatePipeline, { key: t.agentKey, body: { entry: 'core', context: [] } })).status).toBe(400);
    expect((await call(validatePipeline, { body: { entry: 'core', context } })).status).toBe(401);
  });
});

describe('POST /api/v1/manifests/validate', () => {
  it('accepts a matching manifest and reports every failing pair with id, name and reason', async () => {
    const good = await call(validateManifest, { key: t.agentKey, body: { manifest: exampleManifest() } });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ valid: true, entry: 'manifest', step: null, errors: [] });

    const manifest = exampleManifest();
    const [first, second, third] = manifest.ToolCallResults;
    const bad = {
      ToolCalls: manifest.ToolCalls,
      ToolCallResults: [{ ...first, ResultJson: undefined }, { ...second, Name: 'search_docs' }, third],
    };
    const res = await call(validateManifest, { key: t.agentKey, body: { manifest: bad, call_id: 'manifest-1' } });
    expect(res.body.valid).toBe(false);
    expectCodes(res.body.errors, ['AGN036.MANIFEST.RESULT_JSON_MISSING', 'AGN036.MANIFEST.NAME_MISMATCH']);
    for (const issue of res.body.errors) {
      expect(issue.details).toMatchObject({ tool_call_id: expect.any(String), name: expect.any(String), reason: expect.any(String) });
      expect(issue.message).toContain(issue.details.tool_call_id);
    }
    const evidence = await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id }, include: { tenant: true } });
    expect(evidence).toMatchObject({
      kind: 'manifest',
      tool: 'pipeline:manifest',
      decision: 'deny',
      traceId: traceIdFor(t.tenant.id, 'manifest-1'),
    });
    expect(await db().violation.count({ where: { evidenceId: evidence.id, type: 'manifest_error' } })).toBe(2);
  });

  it('keeps each tenant to its own chain, which verifies', async () => {
    const res = await call(validateManifest, { key: other.agentKey, body: { manifest: exampleManifest() } });
    const evidence = await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id }, include: { tenant: true } });
    expect(evidence.tenant.tenantId).toBe(other.tenant.id);
    for (const tenant of [t, other]) expect((await verifyEvidenceChain({ tenantId: tenant.tenant.id })).valid).toBe(true);
  });
});

describe('GET /api/v1/schemas/pipeline-context.json and tool-call-manifest.json', () => {
  it('serve the JSON Schemas the validator documents, without auth', async () => {
    const { pipelineContextSchemaHandler: contextSchema } = await import('@/lib/api/handlers/schemas');
    const { toolCallManifestSchemaHandler: manifestSchema } = await import('@/lib/api/handlers/schemas');
    const context = await call(contextSchema, { method: 'GET' });
    const manifest = await call(manifestSchema, { method: 'GET' });
    expect([context.status, manifest.status]).toEqual([200, 200]);
    expect(context.body.properties).toHaveProperty('Envelope');
    expect(manifest.body.properties).toHaveProperty('ToolCallResults');
  });
});
