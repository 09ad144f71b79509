import http from 'node:http';

/**
 * A Server Action: a POST with Next's `Next-Action` header, to any page; or a form posted to a
 * page without JavaScript (multipart or url-encoded, the action's id among the fields), which
 * Next handles as one, with the same body limit and the same bare 500 past it.
 */
export function isServerAction(req: http.IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  if (req.headers['next-action'] !== undefined) return true;
  // Route handlers (everything under /api/) read their own bodies; only pages run actions.
  if (req.url === undefined || req.url.startsWith('/api/')) return false;
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded');
}

/**
 * A Server Action whose body's size is not declared (Transfer-Encoding: chunked): its size is
 * only known once it has arrived, and Next answers one past its limit with a bare 500.
 */
export function undeclaredSize(req: http.IncomingMessage): boolean {
  return req.headers['content-length'] === undefined;
}

/**
 * The request Next is handed once the body of `req` has been read (and found within the limit):
 * the same method, target and headers on the same connection, the body the bytes read, now with
 * the Content-Length they add up to in place of Transfer-Encoding. It is a whole request from
 * the start, as a proxy that buffers request bodies hands one on.
 */
export function withReadBody(req: http.IncomingMessage, body: Buffer): http.IncomingMessage {
  const replay = new http.IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  const framing = new Set(['content-length', 'transfer-encoding']);
  const headers: http.IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!framing.has(name)) headers[name] = value;
  headers['content-length'] = String(body.length);
  replay.headers = headers;
  const raw: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    if (!framing.has((req.rawHeaders[i] as string).toLowerCase())) raw.push(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  replay.rawHeaders = [...raw, 'Content-Length', String(body.length)];
  // Everything is pushed here: reading it must not resume the socket, whose flow the HTTP server
  // (not this request) now governs (IncomingMessage's own _read resumes it).
  replay._read = () => undefined;
  replay.push(body);
  replay.push(null);
  replay.complete = true;
  return replay;
}
