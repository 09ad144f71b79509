import { AppError } from '../errors';
import { declaredCharset, decodeBody } from './body-charset';
import type { IncomingCall } from './incoming-call';
import {
  describeNumberFinding,
  findUnrepresentableNumbers,
  inspectJsonText,
  type NumberFinding,
  type ReportedNumbers,
} from '../validation/json-numbers';

/**
 * Reads a request body with a hard byte cap enforced while streaming, so a client that omits
 * or lies about Content-Length still cannot make us buffer more than `maxBytes`.
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return Buffer.alloc(0);
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
  return Buffer.concat(chunks, total);
}

export function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The request body exceeds the limit of ${maxBytes} bytes.`, { max_bytes: maxBytes });
}

const reportingSchemas = new WeakMap<object, readonly string[]>();
const reported = new WeakMap<IncomingCall, ReportedNumbers>();

/**
 * Marks a body schema whose route answers numbers a double cannot hold under these top-level
 * fields itself, as a decision, instead of the 400 every other route gives: validate/pre and
 * validate/post refuse such a call with AXAG_NUMBER_UNREPRESENTABLE and record it. Returns the
 * schema, so it can wrap the one given to defineRoute.
 */
export function reportNumbersUnder<S extends object>(schema: S, fields: readonly string[]): S {
  reportingSchemas.set(schema, fields);
  return schema;
}

/** What readJsonBody found for this call on a route that reports numbers itself. */
export function reportedNumbers(call: IncomingCall): ReportedNumbers | undefined {
  return reported.get(call);
}

/**
 * Parses a JSON body. `__proto__` and `constructor` keys stay plain data: JSON.parse defines
 * them as own properties and never touches prototypes, and nothing later merges them into
 * other objects. Nesting deeper than `maxDepth` is refused before parsing, so nothing
 * downstream (Ajv, canonicalisation, CEL) recurses without bound; a number a double cannot hold
 * as sent is refused after it (lib/validation/json-numbers.ts), unless `schema` reports them itself.
 */
export async function readJsonBody(call: IncomingCall, limits: { maxBytes: number; maxDepth: number }, schema?: object): Promise<unknown> {
  const type = call.header('content-type') ?? '';
  if (type && !/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new AppError('unsupported_media_type', `Expected an application/json body, got "${type.slice(0, 100)}".`);
  }
  // A compressed body read as text is bytes JSON.parse calls "Unexpected token": say what it is.
  const coding = call.header('content-encoding')?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    throw new AppError(
      'unsupported_media_type',
      `The body is sent with Content-Encoding "${coding.slice(0, 40)}"; send it uncompressed (no Content-Encoding, or identity).`,
      { content_encoding: coding.slice(0, 40) },
      { 'accept-encoding': 'identity' },
    );
  }
  const charset = declaredCharset(type);
  const text = decodeBody(await call.bodyBytes(limits.maxBytes), charset);
  if (text.trim() === '') throw new AppError('bad_request', 'The request body is empty; expected a JSON object.');
  const inspected = inspectJsonText(text, limits.maxDepth);
  if (inspected.tooDeep) {
    throw new AppError('json_too_deep', `The JSON body nests deeper than ${limits.maxDepth} levels.`, { max_depth: limits.maxDepth });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError('bad_request', `The request body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  if (inspected.numbersToCheck) {
    const findings = findUnrepresentableNumbers(text);
    if (findings.length > 0) {
      const fields = schema ? reportingSchemas.get(schema) : undefined;
      if (fields && findings.every((f) => fields.includes(String(f.segments[0])))) reported.set(call, { text, findings });
      else throw unrepresentable(findings);
    }
  }
  return value;
}

function unrepresentable(findings: readonly NumberFinding[]): AppError {
  const [first] = findings as [NumberFinding];
  // A top-level field is one of the API's own numbers (execution_ms), which a string would not
  // pass either; deeper, it is in a value passed on as given (arguments, a side effect's details).
  const advice = first.segments.length === 1 ? 'Send a number a double holds exactly.' : 'Send it as a string.';
  return new AppError('number_unrepresentable', `${describeNumberFinding(first)}; JSON numbers cannot carry it exactly. ${advice}`, {
    path: first.path,
    problem: first.problem,
    paths: findings.slice(0, 20).map((f) => f.path),
  });
}
