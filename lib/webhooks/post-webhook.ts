import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * POSTs one delivery and resolves with the receiver's status code. The agents refuse to
 * connect to any address outside the public unicast range, checked on the address DNS
 * returned, which the socket then connects to: a name that resolves (or is rebound) to a private
 * address fails here even though it passed at registration. Global fetch cannot take an agent,
 * hence node:http. Redirects are not followed; the response body is not kept.
 */
export function postWebhook(
  url: string,
  options: { headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean },
): Promise<number> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const agent = agents(options.allowPrivate)[secure ? 'https' : 'http'];
  const send = secure ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      { method: 'POST', agent, headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) } },
      (response) => {
        resolve(response.statusCode ?? 0);
        // The status is the answer. The body is read and dropped so the socket can serve the
        // next delivery, but only so much of it and only within the attempt's time: a receiver
        // that streams without end (or a byte a minute) must not hold a socket and a thread's
        // attention for ever.
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_DRAINED_BYTES) request.destroy();
        });
        response.on('error', () => undefined);
        response.on('close', () => clearTimeout(deadline));
      },
    );
    // The whole attempt, connecting and the receiver's body included, not only an idle socket.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(options.body);
  });
}

/** What of a receiver's response body is drained before its connection is dropped instead. */
export const MAX_DRAINED_BYTES = 64 * 1024;

const cached = new Map<boolean, { http: http.Agent; https: https.Agent }>();
function agents(allowPrivate: boolean) {
  let pair = cached.get(allowPrivate);
  if (!pair) {
    const filter = { allowPrivateIPAddress: allowPrivate, allowMetaIPAddress: false };
    pair = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
    cached.set(allowPrivate, pair);
  }
  return pair;
}
