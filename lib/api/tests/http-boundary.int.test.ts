import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, disconnectDb } from '@/lib/db';
import { lookupOrderContract } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { resetEnvForTests } from '@/lib/env';
import { validatePreHandler as validatePre } from '@/lib/api/handlers/validate';
import { listContractsHandler as listContracts } from '@/lib/api/handlers/contracts';
import { toolContractSchemaHandler as contractSchema } from '@/lib/api/handlers/schemas';
import { verifyEvidenceHandler as verify } from '@/lib/api/handlers/evidence';
import { revokeApiKeyHandler as revoke, listApiKeysHandler as listKeys } from '@/lib/api/handlers/api-keys';

let t: Awaited<ReturnType<typeof createTestTenant>>;
const body = {
  tool: 'orders.lookup',
  call_id: 'h1',
  arguments: { tenant_id: 'acme', order_id: 'ord_abc123' },
  context: { tenant_id: 'acme' },
};

beforeAll(async () => {
  t = await createTestTenant();
  await publishContract(t.tenant.id, lookupOrderContract);
});

async function evidenceCount() {
  return db().evidence.count({ where: { tenant: { tenantId: t.tenant.id } } });
}

describe('authentication', () => {
  it('answers 401 without a key, with an unknown key, and with a revoked key', async () => {
    expect((await call(validatePre, { body })).status).toBe(401);
    const unknown = await call(validatePre, { body, key: 'tg_unknown_0000000000000000000000000000' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('unauthorized');
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer');

    const extra = await createTestTenant();
    expect((await call(validatePre, { body, key: extra.agentKey })).status).toBe(200);
    const revoked = await call(revoke, { key: extra.adminKey, params: { id: extra.agentKeyId } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.api_key.revokedAt).not.toBeNull();
    expect((await call(validatePre, { body, key: extra.agentKey })).status).toBe(401);
  });

  it("never lets one tenant revoke or list another tenant's keys", async () => {
    const victim = await createTestTenant();
    const attempt = await call(revoke, { key: t.adminKey, params: { id: victim.agentKeyId } });
    expect(attempt.status).toBe(404);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: victim.agentKeyId } })).revokedAt).toBeNull();
    expect((await call(validatePre, { body, key: victim.agentKey })).status).toBe(200);
    const listed = await call(listKeys, { key: t.adminKey });
    expect(listed.body.api_keys.map((k: { id: string }) => k.id)).not.toContain(victim.agentKeyId);
    // Using a key stamps lastUsedAt (asynchronously, at most once a minute).
    await expect.poll(async () => (await db().apiKey.findUniqueOrThrow({ where: { id: victim.agentKeyId } })).lastUsedAt).not.toBeNull();
  });

  it('answers 403 when the key lacks the scope', async () => {
    const res = await call(verify, { key: t.agentKey });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'forbidden', details: { required_scope: 'admin' } });
    expect((await call(listContracts, { key: t.agentKey })).status).toBe(403);
  });

  it('stores keys hashed, never in clear', async () => {
    const rows = await db().apiKey.findMany({ where: { tenantId: t.tenant.id } });
    for (const row of rows) {
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.hash).not.toContain(t.agentKey);
      expect(t.agentKey.startsWith(row.prefix) || t.adminKey.startsWith(row.prefix)).toBe(true);
    }
  });
});

describe('hostile and malformed input', () => {
  it('answers 400 for malformed JSON and records nothing', async () => {
    const before = await evidenceCount();
    const res = await call(validatePre, { key: t.agentKey, rawBody: '{"tool": "orders.lookup", ' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bad_request');
    expect(res.body.error.message).toMatch(/not valid JSON/);
    expect(await evidenceCount()).toBe(before);
  });

  it('answers 400 naming the field for a wrong shape', async () => {
    const res = await call(validatePre, { key: t.agentKey, body: { ...body, arguments: [1, 2] } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues[0].path).toBe('arguments');
    const unknownField = await call(validatePre, { key: t.agentKey, body: { ...body, surprise: true } });
    expect(unknownField.status).toBe(400);
  });

  it('answers 413 for a 5 MB body, with and without Content-Length', async () => {
    const big = JSON.stringify({ ...body, arguments: { tenant_id: 'acme', order_id: 'ord_abc123', blob: 'x'.repeat(5 * 1024 * 1024) } });
    const declared = await call(validatePre, {
      key: t.agentKey,
      rawBody: big,
      headers: { 'content-length': String(Buffer.byteLength(big)) },
    });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('payload_too_large');
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
    const chunked = await call(validatePre, { key: t.agentKey, rawBody: stream });
    expect(chunked.status).toBe(413);
  });

  it('refuses JSON nested deeper than the limit', async () => {
    const deep = `{"tool":"orders.lookup","call_id":"d","arguments":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const res = await call(validatePre, { key: t.agentKey, rawBody: deep });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('json_too_deep');
  });

  it('answers 415 for a non-JSON content type', async () => {
    const res = await call(validatePre, {
      key: t.agentKey,
      rawBody: 'tool=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });

  it('answers 415 with Accept-Encoding: identity for a compressed body, which read as text was "not valid JSON"', async () => {
    const compressed = gzipSync(JSON.stringify(body));
    for (const coding of ['gzip', 'GZIP', ' br ']) {
      const res = await call(validatePre, {
        key: t.agentKey,
        rawBody: new ReadableStream({
          start(controller) {
            controller.enqueue(new Uint8Array(compressed));
            controller.close();
          },
        }),
        headers: { 'content-encoding': coding },
      });
      expect(res.status, coding).toBe(415);
      expect(res.headers.get('accept-encoding')).toBe('identity');
      expect(res.body.error).toMatchObject({ code: 'unsupported_media_type', details: { content_encoding: coding.trim().toLowerCase() } });
    }
    const identity = await call(validatePre, { key: t.agentKey, body, headers: { 'content-encoding': 'identity' } });
    expect(identity.status).toBe(200);
  });

  it('reads a body in the charset its Content-Type declares, and refuses bytes that are not UTF-8 instead of reading U+FFFD', async () => {
    const bytes = (text: string, encoding: BufferEncoding) =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(new Uint8Array(Buffer.from(text, encoding)));
          controller.close();
        },
      });
    const json = JSON.stringify({ ...body, call_id: 'café-1' });
    const latin1 = await call(validatePre, {
      key: t.agentKey,
      rawBody: bytes(json, 'latin1'),
      headers: { 'content-type': 'application/json; charset=ISO-8859-1' },
    });
    expect(latin1.status).toBe(200);
    expect(latin1.body.call_id).toBe('café-1');
    expect((await db().evidence.findUniqueOrThrow({ where: { id: latin1.body.evidence_id } })).callId).toBe('café-1');

    const before = await evidenceCount();
    const undeclared = await call(validatePre, { key: t.agentKey, rawBody: bytes(json, 'latin1') });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error).toMatchObject({ code: 'bad_request', details: { reason: 'invalid_utf8', offset: json.indexOf('é') } });
    const unknown = await call(validatePre, {
      key: t.agentKey,
      rawBody: bytes(json, 'utf8'),
      headers: { 'content-type': 'application/json; charset=x-unknown' },
    });
    expect(unknown.status).toBe(415);
    expect(unknown.body.error).toMatchObject({ code: 'unsupported_media_type', details: { charset: 'x-unknown' } });
    expect(await evidenceCount()).toBe(before);

    const bom = await call(validatePre, {
      key: t.agentKey,
      rawBody: bytes(`\ufeff${JSON.stringify({ ...body, call_id: 'bom-1' })}`, 'utf8'),
    });
    expect(bom.status).toBe(200);
    expect(bom.body.call_id).toBe('bom-1');
  });

  it('carries the request id through, or makes one', async () => {
    const res = await call(validatePre, { key: t.agentKey, body, headers: { 'x-request-id': 'req-abc.123' } });
    expect(res.headers.get('x-request-id')).toBe('req-abc.123');
    const evidence = await db().evidence.findUniqueOrThrow({ where: { id: res.body.evidence_id } });
    expect(evidence.requestId).toBe('req-abc.123');
    const generated = await call(validatePre, {
      key: t.agentKey,
      body,
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
    const withParent = await db().evidence.findUniqueOrThrow({ where: { id: generated.body.evidence_id } });
    expect(withParent.w3cTraceparent).toBe('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
  });
});

describe('public documents', () => {
  it('serves the tool contract JSON Schema without auth', async () => {
    const res = await call(contractSchema, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.body.$id).toBe('https://toolgate.dev/schemas/tool-contract.json');
    expect(res.body.properties.annotations).toBeDefined();
  });
});

describe('database outage', () => {
  it('answers 503 with Retry-After, never an allow, when the database is unreachable', async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgresql://postgres@127.0.0.1:1/unreachable';
    resetEnvForTests();
    try {
      const res = await call(validatePre, { key: t.agentKey, body });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect(res.body.error.code).toBe('unavailable');
      expect(res.body.decision).toBeUndefined();
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = saved;
      resetEnvForTests();
    }
    expect((await call(validatePre, { key: t.agentKey, body })).status).toBe(200);
  });
});
