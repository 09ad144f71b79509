import { ApiError } from './errors';
import type { IncomingCall } from './define-route';

/**
 * Reads a request body with a hard byte cap enforced while streaming, so a client that omits
 * or lies about Content-Length still cannot make us buffer more than `maxBytes`.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

export function tooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', `The request body exceeds the limit of ${maxBytes} bytes.`, { max_bytes: maxBytes });
}

/**
 * Linear scan for nesting depth before JSON.parse, so deeply nested input is refused cheaply
 * and nothing downstream (Ajv, canonicalisation, CEL) recurses without bound.
 */
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > maxDepth) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Parses a JSON body. `__proto__` and `constructor` keys stay plain data: JSON.parse defines
 * them as own properties and never touches prototypes, and nothing later merges them into
 * other objects.
 */
export async function readJsonBody(call: IncomingCall, limits: { maxBytes: number; maxDepth: number }): Promise<unknown> {
  const type = call.header('content-type') ?? '';
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError('unsupported_media_type', `Expected an application/json body, got "${type.slice(0, 100)}".`);
  }
  const text = await call.bodyText(limits.maxBytes);
  if (text.trim() === '') throw new ApiError('bad_request', 'The request body is empty; expected a JSON object.');
  if (jsonDepthExceeds(text, limits.maxDepth)) {
    throw new ApiError('json_too_deep', `The JSON body nests deeper than ${limits.maxDepth} levels.`, { max_depth: limits.maxDepth });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError('bad_request', `The request body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
}
