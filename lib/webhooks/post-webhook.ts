import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * POSTs one delivery and resolves with the receiver's status code. The agents refuse to
 * connect to any address outside the public unicast range, checked on the address DNS
 * returned, which the socket then connects to: a name that resolves (or is rebound) to a private
 * address fails here even though it passed at registration. Global fetch cannot take an agent,
 * hence node:http. Redirects are not followed; the response body is not read.
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
        clearTimeout(deadline);
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    // The whole attempt, connecting included, not only an idle socket.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(options.body);
  });
}

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
