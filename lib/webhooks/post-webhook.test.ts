import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_DRAINED_BYTES, postWebhook } from './post-webhook';

/** Real receivers on loopback, each answering as a misbehaving one would. */
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function receiver(answer: (res: http.ServerResponse) => void): Promise<{ url: string; closed: Promise<number> }> {
  let markClosed: (sent: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (markClosed = resolve));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      let sent = 0;
      const write = res.write.bind(res) as (chunk: Buffer) => boolean;
      res.write = ((chunk: Buffer) => {
        sent += chunk.length;
        return write(chunk);
      }) as typeof res.write;
      res.on('close', () => markClosed(sent));
      answer(res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, closed };
}

const send = (url: string, timeoutMs = 10_000) =>
  postWebhook(url, { headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs, allowPrivate: true });

describe('postWebhook and the receiver’s response body', () => {
  it('answers the status of a receiver that streams its body without end, and drops its connection after 64 KiB', async () => {
    const { url, closed } = await receiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    expect(await send(url)).toBe(200);
    const sent = await closed;
    expect(sent).toBeGreaterThan(MAX_DRAINED_BYTES);
    // Socket buffers on both sides hold a few hundred KiB at most; unbounded draining would
    // never close at all.
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('drops a receiver that trickles its body past the attempt’s time limit', async () => {
    const { url, closed } = await receiver((res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write(Buffer.from('.')), 50);
      res.on('close', () => clearInterval(timer));
    });
    expect(await send(url, 400)).toBe(202);
    expect(await closed).toBeGreaterThan(0);
  });
});
