import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { SERVER_ACTION_BODY_MAX } from '../lib/api/mount-route';
import { signIn } from './sign-in';
import { E2E_ADMIN, E2E_INIT_API_KEY } from './test-env';

// A Server Action whose body is past Next's limit, against the built server: Next itself answers
// one with a bare 500, so the server in front of it answers 413 payload_too_large, whether the
// body's size is declared (Content-Length) or only known as it arrives (Transfer-Encoding: chunked).

type Answer = { status: number; body: string };

/** The real Server Action the Create key form posts (its action id, headers and body), kept unsent. */
async function captureCreateKey(page: Page, name: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  await page.goto('/api-keys');
  let captured: { headers: Record<string, string>; body: Buffer } | undefined;
  await page.route('**/api-keys', async (route) => {
    const sent = route.request();
    if (sent.method() !== 'POST' || !sent.headers()['next-action']) return route.continue();
    captured = { headers: sent.headers(), body: sent.postDataBuffer() ?? Buffer.alloc(0) };
    return route.abort();
  });
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect.poll(() => captured !== undefined).toBe(true);
  await page.unroute('**/api-keys');
  return captured as NonNullable<typeof captured>;
}

/**
 * The action posted again with node:http, which (unlike Playwright's request) can send a body in
 * chunks with no Content-Length. `declare` sends Content-Length instead.
 */
function post(baseURL: string, headers: Record<string, string>, body: Buffer, declare: boolean, path = '/api-keys'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, baseURL),
      { method: 'POST', headers: declare ? { ...headers, 'content-length': String(body.length) } : headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    // The answer may come (and the connection close) before the whole body is written.
    req.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    if (declare) {
      req.end(body);
      return;
    }
    // Several writes before end: Node sends them as chunks, with Transfer-Encoding: chunked.
    for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
    req.end();
  });
}

/** The captured multipart body with a field of `padding` bytes in front of its own fields. */
function padded(action: { headers: Record<string, string>; body: Buffer }, padding: number): Buffer {
  const boundary = /boundary=(.+)$/.exec(action.headers['content-type'] ?? '')?.[1];
  expect(boundary).toBeTruthy();
  const field = `--${boundary}\r\nContent-Disposition: form-data; name="padding"\r\n\r\n${'x'.repeat(padding)}\r\n`;
  return Buffer.concat([Buffer.from(field), action.body]);
}

async function keyNames(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/v1/api-keys', { headers: { authorization: `Bearer ${E2E_INIT_API_KEY}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { api_keys: { name: string }[] }).api_keys.map((key) => key.name);
}

test('a Server Action body past the limit is answered 413, declared or chunked; one within it is obeyed, chunked too', async ({
  page,
  baseURL,
}) => {
  const base = baseURL as string;
  await signIn(page.request, base, E2E_ADMIN);
  const cookie = (await page.context().cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ');
  const action = await captureCreateKey(page, 'chunked-action-body');
  const headers = {
    'next-action': action.headers['next-action'] as string,
    'next-router-state-tree': action.headers['next-router-state-tree'] ?? '',
    'content-type': action.headers['content-type'] as string,
    accept: 'text/x-component',
    origin: new URL(base).origin,
    cookie,
  };

  const over = padded(action, SERVER_ACTION_BODY_MAX);
  expect(over.length).toBeGreaterThan(SERVER_ACTION_BODY_MAX);
  for (const declare of [true, false]) {
    const answer = await post(base, headers, over, declare);
    expect(answer.status, declare ? 'Content-Length' : 'chunked').toBe(413);
    expect(JSON.parse(answer.body).error, declare ? 'Content-Length' : 'chunked').toEqual({
      code: 'payload_too_large',
      message: `The form's body exceeds the limit of ${SERVER_ACTION_BODY_MAX} bytes.`,
      details: { max_bytes: SERVER_ACTION_BODY_MAX },
    });
  }
  expect(await keyNames(page)).not.toContain('chunked-action-body');

  // The same action within the limit, sent in chunks: Next runs it (the key is made).
  const within = padded(action, 256 * 1024);
  const obeyed = await post(base, headers, within, false);
  expect(obeyed.status).toBe(200);
  expect(await keyNames(page)).toContain('chunked-action-body');
});

test('a form posted without JavaScript (multipart, no Next-Action) past the limit is answered 413 too, not 500', async ({
  page,
  baseURL,
}) => {
  const base = baseURL as string;
  await signIn(page.request, base, E2E_ADMIN);
  const cookie = (await page.context().cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ');
  const action = await captureCreateKey(page, 'no-js-form-body');
  // What a browser without JavaScript posts: the form's fields (the action's id among them), no
  // Next-Action header. Next handles it as a Server Action too, with the same 1 MB limit.
  const headers = { 'content-type': action.headers['content-type'] as string, origin: new URL(base).origin, cookie };
  const over = padded(action, SERVER_ACTION_BODY_MAX);
  for (const declare of [true, false]) {
    const answer = await post(base, headers, over, declare, '/settings');
    expect(answer.status, declare ? 'Content-Length' : 'chunked').toBe(413);
    expect(JSON.parse(answer.body).error.code, declare ? 'Content-Length' : 'chunked').toBe('payload_too_large');
  }
  // A url-encoded form is a Server Action to Next as well.
  const encoded = Buffer.from(`padding=${'x'.repeat(SERVER_ACTION_BODY_MAX)}`);
  const answer = await post(base, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, encoded, true, '/settings');
  expect(answer.status).toBe(413);
  expect(await keyNames(page)).not.toContain('no-js-form-body');
});
