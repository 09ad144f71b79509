import { redactArguments } from '../evidence/redact-arguments';
import { isJsonObject } from '../json';

/**
 * The raw payloads of a call other than its arguments, as evidence keeps them with argument
 * retention on (the `payload` column). Its digest, not its text, is in the hash chain, so the
 * retention purge can remove it later.
 */
export interface RetainedPayload {
  /** The context the agent sent: what preconditions read, so the impact preview can replay them. */
  context?: unknown;
  result?: unknown;
  error?: unknown;
  /** Arguments rewritten by a policy transform or an approver's edit. */
  transformed_arguments?: unknown;
}

/**
 * JSON text of the payload, each part redacted like the arguments: a sensitive path is replaced
 * wherever it occurs from the top of a part (an argument echoed at the same place in a result
 * stays hidden too). Absent parts are left out.
 */
export function retainedPayloadJson(payload: RetainedPayload, sensitivePaths: readonly string[]): string {
  let json = '';
  for (const key of PARTS) {
    const value = payload[key];
    if (value === undefined) continue;
    json += `${json === '' ? '{' : ','}"${key}":${redactPart(value, sensitivePaths)}`;
  }
  return json === '' ? '{}' : `${json}}`;
}

const PARTS = ['context', 'result', 'error', 'transformed_arguments'] as const;

function redactPart(value: unknown, sensitivePaths: readonly string[]): string {
  if (sensitivePaths.length > 0 && isJsonObject(value)) return redactArguments(value, sensitivePaths);
  return JSON.stringify(value) ?? 'null';
}

/** The stored payload read back; null when there is none or it is not an object. */
export function parseRetainedPayload(text: string | null | undefined): RetainedPayload | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as RetainedPayload) : null;
  } catch {
    return null;
  }
}
