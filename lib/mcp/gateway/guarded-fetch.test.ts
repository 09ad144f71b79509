import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './guarded-fetch';

let server: http.Server;
let base = '';
/** Requests to /hang and /trickle whose connection is still open. */
const open = new Set<http.IncomingMessage>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'x'.repeat(200_000) }));
    } else if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      res.end('data: two\n\n');
    } else if (req.url === '/hang' || req.url === '/trickle') {
      // An upstream that never finishes: no answer at all, or an event stream that never ends.
      open.add(req);
      res.once('close', () => open.delete(req));
      if (req.url === '/trickle') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const beat = setInterval(() => res.write(': keepalive\n\n'), 20);
        res.once('close', () => clearInterval(beat));
      }
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/' });
      res.end();
    } else {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-seen-auth': req.headers.authorization ?? '' });
        res.end(JSON.stringify({ method: req.method, body }));
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('guardedFetch', () => {
  it('sends the method, headers and body and answers a Response', async () => {
    const fetch = guardedFetch({ allowPrivate: true, maxBytes: 1024 });
    const res = await fetch(`${base}/echo`, { method: 'POST', headers: { authorization: 'Bearer up' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen-auth')).toBe('Bearer up');
    expect(await res.json()).toEqual({ method: 'POST', body: '{"a":1}' });
  });

  it('refuses private addresses unless allowed, and does not follow redirects', async () => {
    await expect(guardedFetch({ allowPrivate: false, maxBytes: 1024 })(`${base}/echo`)).rejects.toThrow();
    const redirected = await guardedFetch({ allowPrivate: true, maxBytes: 1024 })(`${base}/redirect`);
    expect(redirected.status).toBe(302);
  });

  it('cuts off an answer past maxBytes instead of buffering it, and streams event streams', async () => {
    await expect(guardedFetch({ allowPrivate: true, maxBytes: 100_000 })(`${base}/big`)).rejects.toThrow(/exceeded 100000 bytes/);
    const big = await guardedFetch({ allowPrivate: true, maxBytes: 1_000_000 })(`${base}/big`);
    expect(((await big.json()) as { text: string }).text).toHaveLength(200_000);
    const events = await guardedFetch({ allowPrivate: true, maxBytes: 1024 })(`${base}/events`);
    expect(await events.text()).toBe('data: one\n\ndata: two\n\n');
  });

  it('ends a POST the upstream never finishes answering at requestTimeoutMs, and closes its connection', async () => {
    const fetch = guardedFetch({ allowPrivate: true, maxBytes: 1_000_000, requestTimeoutMs: 200 });
    const hung = Array.from({ length: 5 }, () => fetch(`${base}/hang`, { method: 'POST', body: '{}' }));
    await until(() => open.size === 5);
    expect(open.size).toBe(5);
    for (const result of await Promise.allSettled(hung)) {
      expect(result.status).toBe('rejected');
      expect(String((result as PromiseRejectedResult).reason)).toMatch(/did not finish answering within 200 ms/);
    }
    const stream = await fetch(`${base}/trickle`, { method: 'POST', body: '{}' });
    await expect(stream.text()).rejects.toThrow();
    await until(() => open.size === 0);
    expect(open.size).toBe(0);
  });

  it("leaves a GET (the SDK's long-lived event stream) and an answer that finishes in time alone", async () => {
    const fetch = guardedFetch({ allowPrivate: true, maxBytes: 1_000_000, requestTimeoutMs: 100 });
    const ok = await fetch(`${base}/echo`, { method: 'POST', body: '{"a":1}' });
    expect(await ok.json()).toEqual({ method: 'POST', body: '{"a":1}' });
    const controller = new AbortController();
    const stream = await fetch(`${base}/trickle`, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(open.size).toBe(1);
    controller.abort();
    await stream.text().catch(() => undefined);
    await until(() => open.size === 0);
    expect(open.size).toBe(0);
  });
});
