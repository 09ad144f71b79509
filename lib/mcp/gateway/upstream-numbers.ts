import { randomBytes } from 'node:crypto';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { log } from '../../log';
import { formatJsonPath } from '../../validation/json-path';
import {
  describeNumberFinding,
  findUnrepresentableNumbers,
  inspectJsonText,
  numberProblem,
  type NumberFinding,
  type NumberProblem,
} from '../../validation/json-numbers';

/**
 * Numbers a double cannot hold in what the UPSTREAM answers (docs/numbers.md). The MCP SDK's
 * client transports read every message with JSON.parse, so `9007199254740993` in a tool's
 * result reached the agent (and validate/post) as 9007199254740992: an agent talking to the
 * upstream directly would have had the exact value, and Toolgate in the path changed it.
 *
 * Each message text is screened before the SDK parses it (stdio-client-transport.ts for the
 * proxy's child, guarded-fetch.ts for a hosted upstream's JSON and event-stream answers). Only
 * a text that inspectJsonText flags pays for the exact scan. A response holding such a number
 * becomes a JSON-RPC error for the same id (-32603, `data.code` `number_unrepresentable`), so
 * the request fails instead of being answered with a changed value; a request or notification
 * from the upstream holding one is dropped. A tools/call result's error carries the result
 * with each such number as a marker and the numbers' tokens as sent, so the gateway can tell
 * the model which path held which number and record the result as sent (`exactJson`).
 */

export const NUMBERS_ERROR_CODE = 'number_unrepresentable';
const MAX_LISTED = 20;
/** Markers carry a per-process nonce: an upstream cannot write one that the gateway would take for a number. */
const NONCE = randomBytes(12).toString('hex');
const marker = (index: number) => `\u0000tg-upstream-number:${NONCE}:${index}`;
const MARKER_JSON = new RegExp(`"\\\\u0000tg-upstream-number:${NONCE}:(\\d+)"`, 'g');
const NUMBER_TOKEN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export interface UpstreamNumber {
  /** Where it was in the upstream's message (`$.result.structuredContent.id`). */
  path: string;
  segments: (string | number)[];
  /** The number token exactly as the upstream sent it. */
  token: string;
  problem: NumberProblem;
}

/** The `data` of the error that took the place of an upstream's answer holding such numbers. */
export interface UpstreamNumbersData {
  code: typeof NUMBERS_ERROR_CODE;
  path: string;
  problem: NumberProblem;
  paths: string[];
  numbers: UpstreamNumber[];
  /** The answer's `result` (or `error`), each such number replaced by a marker `exactJson` writes back as sent. */
  result?: unknown;
  error?: unknown;
}

/**
 * One message text from the upstream as the SDK may read it: the text itself when it holds no
 * number a double cannot hold (the usual case, after one linear pre-check), else the text of
 * what takes its place, or null when nothing does (a request or notification is dropped).
 * A JSON-RPC batch (an array, which a JSON answer may be) is screened message by message.
 */
export function screenUpstreamMessage(text: string, upstream: string): string | null {
  if (!inspectJsonText(text, Number.POSITIVE_INFINITY).numbersToCheck) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text; // not JSON: the SDK reports it as it always did
  }
  const findings = findUnrepresentableNumbers(text);
  if (findings.length === 0) return text;
  if (!Array.isArray(value)) {
    const replaced = screened(value, findings, upstream);
    return replaced === null ? null : JSON.stringify(replaced);
  }
  const items = value.flatMap((item, index) => {
    const own = findings
      .filter((finding) => finding.segments[0] === index)
      .map((finding) => ({ ...finding, segments: finding.segments.slice(1), path: formatJsonPath(finding.segments.slice(1)) }));
    if (own.length === 0) return [item];
    const replaced = screened(item, own, upstream);
    return replaced === null ? [] : [replaced];
  });
  return items.length === 0 ? null : JSON.stringify(items);
}

function screened(message: unknown, findings: readonly NumberFinding[], upstream: string): unknown {
  const [first] = findings as [NumberFinding];
  const record = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  const isResponse = 'id' in record && !('method' in record) && ('result' in record || 'error' in record);
  const usableId =
    typeof record.id === 'string' ||
    (typeof record.id === 'number' && !findings.some((finding) => finding.segments.length === 1 && finding.segments[0] === 'id'));
  log.warn('mcp upstream message refused', {
    upstream,
    reason: 'number_unrepresentable',
    path: first.path,
    problem: first.problem,
    ...(isResponse && usableId ? {} : { dropped: true }),
  });
  if (!isResponse || !usableId) return null;
  const part = 'result' in record ? 'result' : 'error';
  let answer = record[part];
  findings.forEach((finding, index) => {
    if (finding.segments[0] === part) answer = setAt(answer, finding.segments.slice(1), marker(index));
  });
  const data: UpstreamNumbersData = {
    code: NUMBERS_ERROR_CODE,
    path: first.path,
    problem: first.problem,
    paths: findings.slice(0, MAX_LISTED).map((finding) => finding.path),
    numbers: findings.map(({ path, segments, token, problem }) => ({ path, segments, token, problem })),
    [part]: answer,
  };
  return {
    jsonrpc: '2.0',
    id: record.id,
    error: {
      code: ErrorCode.InternalError,
      message: `The upstream's answer holds a number a double cannot hold: ${describeNumberFinding(first)}. Toolgate does not pass it on changed.`,
      data,
    },
  };
}

/** `root` with the value at `segments` replaced (in place where it is inside an object or array). */
function setAt(root: unknown, segments: readonly (string | number)[], value: unknown): unknown {
  if (segments.length === 0) return value;
  let node = root;
  for (const segment of segments.slice(0, -1)) node = (node as Record<string | number, unknown> | null)?.[segment];
  if (typeof node === 'object' && node !== null) (node as Record<string | number, unknown>)[segments[segments.length - 1]!] = value;
  return root;
}

/**
 * What an upstream's answer held when `error` is the error screenUpstreamMessage put in its
 * place (an upstream's own error that only looks like it carries no valid tokens and is not one).
 */
export function upstreamNumbers(error: unknown): UpstreamNumbersData | null {
  if (!(error instanceof McpError) || error.code !== ErrorCode.InternalError) return null;
  const data = error.data as Partial<UpstreamNumbersData> | undefined;
  if (data?.code !== NUMBERS_ERROR_CODE || !Array.isArray(data.numbers) || data.numbers.length === 0) return null;
  const valid = data.numbers.every(
    (number) =>
      typeof number?.path === 'string' &&
      Array.isArray(number.segments) &&
      typeof number.token === 'string' &&
      NUMBER_TOKEN.test(number.token) &&
      numberProblem(number.token) === number.problem,
  );
  return valid ? (data as UpstreamNumbersData) : null;
}

/** The JSON text of `value` with each marker written back as the number the upstream sent. */
export function exactJson(value: unknown, numbers: readonly UpstreamNumber[]): string {
  return JSON.stringify(value).replace(MARKER_JSON, (_, index: string) => numbers[Number(index)]?.token ?? 'null');
}

/** The finding of one such number, for numberIssue and describeNumberFinding. */
export function asFinding(number: UpstreamNumber): NumberFinding {
  return { ...number, start: 0, end: number.token.length };
}

/** The error data an agent may see (a tools/list that failed): where, not the answer itself. */
export function publicNumbersData(data: UpstreamNumbersData): Pick<UpstreamNumbersData, 'code' | 'path' | 'problem' | 'paths'> {
  return { code: data.code, path: data.path, problem: data.problem, paths: data.paths };
}
