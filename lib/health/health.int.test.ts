import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as nextGet, POST as nextPost } from '@/app/healthz/route';
import { db } from '@/lib/db';
import { createDataPlaneServer } from '@/lib/data-plane/server';
import { checkHealth } from './check-health';

// GET /healthz: what a load balancer or readiness probe asks every instance, without a key.

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = createDataPlaneServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /healthz', () => {
  it('answers 200 ok without credentials on a data-plane-only instance and through Next, HEAD too, and 405 to other methods', async () => {
    const answer = await fetch(`${base}/healthz`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ status: 'ok' });
    const head = await fetch(`${base}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${base}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');

    const viaNext = await nextGet(new Request('http://localhost/healthz'), { params: Promise.resolve({}) });
    expect(viaNext.status).toBe(200);
    expect(await viaNext.json()).toEqual({ status: 'ok' });
    expect((await nextPost(new Request('http://localhost/healthz', { method: 'POST' }), { params: Promise.resolve({}) })).status).toBe(405);
  });

  it('answers 503 when the database does not answer, saying only that', async () => {
    vi.spyOn(db(), '$queryRaw').mockImplementation((() =>
      Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2'))) as never);
    const answer = await fetch(`${base}/healthz`);
    expect(answer.status).toBe(503);
    const body = await answer.text();
    expect(JSON.parse(body)).toEqual({ status: 'unavailable', reason: 'database_unreachable' });
    expect(body).not.toContain('10.0.0.5');

    vi.spyOn(db(), '$queryRaw').mockImplementation((() => new Promise(() => undefined)) as never);
    expect(await checkHealth(50)).toEqual({ status: 'unavailable', reason: 'database_timeout' });
  });
});
