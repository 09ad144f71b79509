import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ACTION_BODY_MAX } from '@/lib/api/mount-route';
import { createDataPlaneServer } from './server';

// A Server Action (a POST with Next-Action to a page) whose body is past Next's limit was
// answered by Next with a bare 500 (its "Body exceeded 1 MB limit" error). The server in front
// of Next refuses one whose Content-Length says so with the API's 413, and never hands it on;
// one sent in chunks (no Content-Length) it reads up to the limit, and refuses the same way.
// e2e/server-action-body.spec.ts sends both to Next itself.

const handedOn: string[] = [];
/** What the stand-in for Next read of each request: its declared length and its body's. */
const bodies: { declared: string | undefined; chunked: boolean; bytes: number }[] = [];
const server = createDataPlaneServer({
  fallback: (req, res) => {
    handedOn.push(`${req.method} ${req.url}`);
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.once('end', () => {
      bodies.push({ declared: req.headers['content-length'], chunked: req.headers['transfer-encoding'] !== undefined, bytes });
      res.writeHead(200).end();
    });
  },
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Posts `bytes` bytes, declared in Content-Length, or (`chunked`) sent in 64 KiB chunks without one. */
function post(path: string, bytes: number, headers: Record<string, string>, chunked = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: chunked ? headers : { ...headers, 'content-length': String(bytes) } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    // The answer may come (and the connection close) before the whole body is written.
    req.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    if (!chunked) {
      req.end(Buffer.alloc(bytes, 'x'));
      return;
    }
    for (let sent = 0; sent < bytes; sent += 64 * 1024) req.write(Buffer.alloc(Math.min(64 * 1024, bytes - sent), 'x'));
    req.end();
  });
}

describe('a Server Action body past the limit', () => {
  it('is answered 413 payload_too_large before Next sees it', async () => {
    handedOn.length = 0;
    const res = await post('/api-keys', SERVER_ACTION_BODY_MAX + 1, {
      'next-action': '60abc',
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'payload_too_large', details: { max_bytes: SERVER_ACTION_BODY_MAX } });
    expect(handedOn).toEqual([]);
  });

  it('is answered the same 413 when it comes in chunks, with no Content-Length to say so', async () => {
    handedOn.length = 0;
    const res = await post('/api-keys', SERVER_ACTION_BODY_MAX + 1, { 'next-action': '60abc' }, true);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toEqual({
      code: 'payload_too_large',
      message: `The form's body exceeds the limit of ${SERVER_ACTION_BODY_MAX} bytes.`,
      details: { max_bytes: SERVER_ACTION_BODY_MAX },
    });
    expect(handedOn).toEqual([]);
  });

  it('in chunks and at the limit, is handed on whole, its length declared as a body read to its end has it', async () => {
    handedOn.length = 0;
    bodies.length = 0;
    expect((await post('/api-keys', SERVER_ACTION_BODY_MAX, { 'next-action': '60abc' }, true)).status).toBe(200);
    expect((await post('/api-keys', 0, { 'next-action': '60abc' }, true)).status).toBe(200);
    expect(handedOn).toEqual(['POST /api-keys', 'POST /api-keys']);
    expect(bodies).toEqual([
      { declared: String(SERVER_ACTION_BODY_MAX), chunked: false, bytes: SERVER_ACTION_BODY_MAX },
      { declared: '0', chunked: false, bytes: 0 },
    ]);
  });

  it('is a form posted to a page without JavaScript too (no Next-Action), but not a body for the API', async () => {
    handedOn.length = 0;
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    const encoded = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const chunked of [false, true]) {
      expect((await post('/settings', SERVER_ACTION_BODY_MAX + 1, multipart, chunked)).status).toBe(413);
      expect((await post('/settings', SERVER_ACTION_BODY_MAX + 1, encoded, chunked)).status).toBe(413);
    }
    expect(handedOn).toEqual([]);
    expect((await post('/api/auth/sign-in/email', SERVER_ACTION_BODY_MAX + 1, encoded)).status).toBe(200);
    expect((await post('/settings', SERVER_ACTION_BODY_MAX, multipart, true)).status).toBe(200);
    expect(handedOn).toEqual(['POST /api/auth/sign-in/email', 'POST /settings']);
  });

  it('is handed on at the limit, and so is any other request (Next and the API judge those)', async () => {
    handedOn.length = 0;
    expect((await post('/api-keys', SERVER_ACTION_BODY_MAX, { 'next-action': '60abc' })).status).toBe(200);
    expect((await post('/api-keys', SERVER_ACTION_BODY_MAX + 1, {})).status).toBe(200);
    expect(handedOn).toEqual(['POST /api-keys', 'POST /api-keys']);
  });
});
