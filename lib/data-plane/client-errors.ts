import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_SECURITY_HEADERS } from '../http/security-headers';

/**
 * Answers for what Node's HTTP parser refuses before any handler runs: a request line or headers
 * it cannot parse (an unknown method, a bad header), headers past --max-http-header-size (a URL
 * of 16 kB), a request that took too long to arrive, and CONNECT (never served here). Node's own
 * answers carry no body at all; callers get the API's error envelope and headers like every other
 * answer, and the connection is closed (what is left of its bytes cannot be trusted).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // Nothing can be written to a connection reset or half gone, nor into an answer under way.
  const busy = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || busy) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return endWith(socket, 431, 'Request Header Fields Too Large', 'headers_too_large', 'The request line and headers exceed 16 kB.');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return endWith(socket, 408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time.');
  endWith(socket, 400, 'Bad Request', 'bad_request', 'The request line or headers could not be parsed as HTTP/1.1.');
}

/** CONNECT: no proxying or tunnels here. */
export function answerConnect(req: IncomingMessage, socket: Duplex): void {
  endWith(socket, 405, 'Method Not Allowed', 'method_not_allowed', `${req.method} is not allowed here.`);
}

function endWith(socket: Duplex, status: number, reason: string, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...API_SECURITY_HEADERS,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head.join('')}\r\n${body}`);
}

export type RequestTarget = { path: string; host?: string } | { asterisk: true } | { invalid: true };

/**
 * The request target in origin form (`/path?query`), which every route and Next expect. Node
 * passes the other forms on as they came. Absolute form (`GET http://host/path`), which an
 * HTTP/1.1 server must accept (RFC 9112, section 3.2.2), becomes its path and query, and its
 * host replaces the Host header as that section says; asterisk form (`OPTIONS *`) has no path.
 * Next answered absolute form with a 308 to the URL as given (to this server: a loop; to
 * another host: a redirect there), and `*` with a bare 500.
 */
export function requestTarget(url: string): RequestTarget {
  if (url.startsWith('/')) return { path: url };
  if (url === '*') return { asterisk: true };
  if (!/^https?:\/\//i.test(url)) return { invalid: true };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { invalid: true };
  }
  // The path as sent, not as URL normalised it (dot segments, percent-encoding): the routes
  // judge it as they judge any other.
  const afterAuthority = url.slice(url.indexOf('//') + 2);
  const slash = afterAuthority.search(/[/?#]/);
  const rest = slash === -1 ? '' : afterAuthority.slice(slash);
  const path = rest.startsWith('/') ? rest : `/${rest}`;
  return { path: path.split('#', 1)[0] ?? '/', host: parsed.host };
}
