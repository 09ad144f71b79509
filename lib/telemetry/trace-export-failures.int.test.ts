import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { log } from '@/lib/log';
import { EXAMPLE_CONTRACTS } from '@/lib/contracts/examples';
import { call } from '@/lib/testing/api-client';
import { createTestTenant, publishContract } from '@/lib/testing/fixtures';
import { validatePreHandler as validatePre, validatePostHandler as validatePost } from '@/lib/api/handlers/validate';
import { startOtlpReceiver } from './testing/otlp-receiver';
import { endTraceExport, restartTraceExport } from './testing/trace-export-env';
import { flushTraceExport, telemetryDropCounts } from './trace-export';

// A collector that is down, failing or stuck must cost a decision nothing: every answer below is
// the normal one, with its evidence, and the spans that could not go are counted.
let t: Awaited<ReturnType<typeof createTestTenant>>;

beforeAll(async () => {
  t = await createTestTenant();
  for (const contract of EXAMPLE_CONTRACTS) await publishContract(t.tenant.id, contract);
});

afterAll(async () => {
  await endTraceExport();
});

const lookupArgs = { tenant_id: 'acme', order_id: 'ord_abc123' };

/** A validate/pre and a validate/post that must be answered as if no collector were configured. */
async function expectNormalAnswers(callId: string): Promise<void> {
  const pre = await call(validatePre, {
    key: t.agentKey,
    headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
    body: { tool: 'orders.lookup', call_id: callId, arguments: lookupArgs, context: { tenant_id: 'acme' } },
  });
  expect(pre.status).toBe(200);
  expect(pre.body).toMatchObject({ decision: 'allow', valid: true, errors: [] });
  const refused = await call(validatePre, {
    key: t.agentKey,
    body: {
      tool: 'orders.lookup',
      call_id: `${callId}-bad`,
      arguments: { tenant_id: 'acme', order_id: 'BAD' },
      context: { tenant_id: 'acme' },
    },
  });
  expect(refused.status).toBe(200);
  expect(refused.body.decision).toBe('deny');
  const post = await call(validatePost, {
    key: t.agentKey,
    body: { tool: 'orders.lookup', call_id: callId, arguments: lookupArgs, result: { order_id: 'ord_abc123', status: 'paid' } },
  });
  expect(post.status).toBe(200);
  expect(post.body).toMatchObject({ decision: 'allow', valid: true });
  const committed = await db().evidence.count({ where: { tenant: { tenantId: t.tenant.id }, callId: { in: [callId, `${callId}-bad`] } } });
  expect(committed).toBe(3);
}

/** Waits for a condition the process reaches on its own (bounded, so a bug fails instead of hanging). */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a collector that cannot take the spans', () => {
  it('nobody listening: answers as usual, and the lost spans are counted as failed exports', async () => {
    const port = await closedPort();
    // A short exporter timeout ends the exporter's retries of the refused connection quickly.
    await restartTraceExport({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_TIMEOUT: '500' });
    const error = vi.spyOn(log, 'error');
    const before = telemetryDropCounts();
    await expectNormalAnswers('dead-port');
    await flushTraceExport();
    const after = telemetryDropCounts();
    expect(after.exportFailed - before.exportFailed).toBe(3);
    expect(after.exported).toBe(before.exported);
    // The operator learns why, not only that: the refused connection, once for the lot.
    const lines = error.mock.calls.filter(([message]) => message === 'trace export failed; spans are dropped and counted');
    expect(lines).toHaveLength(1);
    expect(String(lines[0]![1]?.error)).toContain('ECONNREFUSED');
    error.mockRestore();
  });

  it('a collector answering 500: answers as usual, and the refused spans are counted', async () => {
    const receiver = await startOtlpReceiver('fail');
    try {
      await restartTraceExport({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: '2000' });
      const before = telemetryDropCounts();
      await expectNormalAnswers('failing-collector');
      await flushTraceExport();
      expect(receiver.requests).toBeGreaterThan(0);
      expect(telemetryDropCounts().exportFailed - before.exportFailed).toBe(3);
    } finally {
      await receiver.close();
    }
  });

  it('a collector that never answers: answers as usual, a full queue refuses spans, and both losses are counted', async () => {
    const receiver = await startOtlpReceiver('hang');
    try {
      // One span per export and room for two in the queue: the first export hangs until
      // released, so of six spans one is in flight, two wait, and three find the queue full.
      await restartTraceExport({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_TIMEOUT: '600000',
        OTEL_BSP_MAX_QUEUE_SIZE: '2',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
      });
      const before = telemetryDropCounts();
      await expectNormalAnswers('stuck-collector-1');
      await expectNormalAnswers('stuck-collector-2');
      expect(receiver.requests).toBeLessThanOrEqual(1);
      expect(telemetryDropCounts().queueFull - before.queueFull).toBe(3);

      // Released with a 500, the stuck export and the two queued after it fail in turn.
      receiver.mode = 'fail';
      receiver.release();
      await flushTraceExport();
      // The released export's answer may still be on its way when the flush of the others ends.
      await until(() => telemetryDropCounts().exportFailed - before.exportFailed === 3);
      const after = telemetryDropCounts();
      expect(after.exportFailed - before.exportFailed).toBe(3);
      expect(after.exported).toBe(before.exported);
    } finally {
      await receiver.close();
    }
  });

  it('counts what a working collector accepted', async () => {
    const receiver = await startOtlpReceiver('ok');
    try {
      await restartTraceExport({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_TIMEOUT: undefined,
        OTEL_BSP_MAX_QUEUE_SIZE: undefined,
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: undefined,
      });
      const info = vi.spyOn(log, 'info');
      const before = telemetryDropCounts();
      await expectNormalAnswers('working-collector');
      await flushTraceExport();
      expect(receiver.spans).toHaveLength(3);
      expect(telemetryDropCounts()).toEqual({ ...before, exported: before.exported + 3 });
      // After the failures above, one line says the collector takes spans again.
      expect(
        info.mock.calls.filter(([message]) => message === 'trace export failed; spans are dropped and counted: works again'),
      ).toHaveLength(1);
      info.mockRestore();
    } finally {
      await receiver.close();
    }
  });
});
