import { randomBytes } from 'node:crypto';
import type { FirstRecordId } from '../evidence/first-record-id';
import type { Caller } from '../auth/caller';
import { exactNumberText, numberIssue, type ReportedNumbers } from './json-numbers';
import { canonicalJson, sha256Hex } from '../contracts/canonical-json';
import { resolveContract } from '../contracts/resolve-contract';
import { recordEvidence } from '../evidence/record-evidence';
import { redactArguments } from '../evidence/redact-arguments';
import { traceIdFor } from '../evidence/trace-id';
import { retainedPayloadJson } from '../retention/retained-payload';
import { getRuntimeSettings, mergeSensitivePaths } from '../tenants/tenant-settings';
import type { ValidationIssue } from './error-codes';
import { unresolvedContractIssue } from './unresolved-contract-issue';
import { buildValidationResponse, type ValidationResponse } from './validation-response';
import type { PreCallRequest } from './validate-pre-call';
import type { PostCallRequest } from './validate-post-call';

/** The parts of a validate body whose numbers are the agent's (or the tool's) to get right. */
export const CHECKED_NUMBER_FIELDS = ['arguments', 'context', 'result', 'error'] as const;

const MAX_LISTED = 20;

/**
 * validate/pre or validate/post for a call carrying numbers a double cannot hold as sent
 * (lib/validation/json-numbers.ts): a deny with AXAG_NUMBER_UNREPRESENTABLE per number, recorded as
 * evidence like any refused call. Nothing else is checked: every other check would read the
 * rounded value, which is not what was sent.
 *
 * The record keeps the call as sent. Its argsHash is SHA-256 of the arguments' canonical JSON
 * in which each such number is written with all its digits (`exactNumberText`), so the hash is
 * the one canonical JSON gives for the same arguments whenever every number is representable,
 * and never the hash of a rounded value. Retained arguments and payloads keep each such number
 * as the token the agent sent.
 */
export async function refuseUnrepresentableNumbers(options: {
  caller: Extract<Caller, { kind: 'api_key' }>;
  kind: 'pre' | 'post';
  request: PreCallRequest | PostCallRequest;
  numbers: ReportedNumbers;
  requestId: string;
  /** The request's, when Toolgate made its id: its first record takes that id (lib/evidence/first-record-id.ts). */
  firstRecordId?: FirstRecordId;
  traceparent: string | null;
}): Promise<ValidationResponse> {
  const started = performance.now();
  const { caller, request, kind } = options;
  const tenantId = caller.tenantId;
  const traceId = traceIdFor(tenantId, request.call_id);
  const sent = exactBody(options.numbers);
  const argsHash = sha256Hex(sent.canonical(canonicalJson(sent.body.arguments ?? {})));

  const errors: ValidationIssue[] = [];
  const resolved = await resolveContract({ tenantId, tool: request.tool, version: request.version });
  if (!resolved.found) errors.push(unresolvedContractIssue(resolved.reason, request.tool, request.version));
  for (const finding of options.numbers.findings.slice(0, MAX_LISTED)) errors.push(numberIssue(request.tool, finding));

  let storedArguments: string | null = null;
  let storedPayload: string | null = null;
  const settings = await getRuntimeSettings(tenantId);
  if (settings.storeRawArguments) {
    const sensitive = mergeSensitivePaths(
      resolved.found ? resolved.contract.compiled.document.sensitive : undefined,
      settings.sensitivePaths,
    );
    const body = sent.body;
    storedArguments = sent.verbatim(redactArguments((body.arguments ?? {}) as Record<string, unknown>, sensitive));
    const context = body.context && typeof body.context === 'object' && Object.keys(body.context).length > 0 ? body.context : undefined;
    const parts =
      kind === 'pre' ? { context } : body.result !== undefined ? { context, result: body.result } : { context, error: body.error };
    storedPayload = sent.verbatim(retainedPayloadJson(parts, sensitive));
  }

  const evidence = await recordEvidence({
    tenantId,
    kind,
    requestId: options.requestId,
    recordId: options.firstRecordId?.take(),
    traceId,
    callId: request.call_id,
    w3cTraceparent: options.traceparent,
    apiKeyId: caller.apiKeyId,
    tool: request.tool,
    argsHash,
    idempotencyKey: 'idempotency_key' in request ? (request.idempotency_key ?? null) : null,
    executionMs: 'execution_ms' in request ? (request.execution_ms ?? null) : null,
    mcpServer: request.mcp_server ?? null,
    contractVersion: resolved.found ? resolved.contract.version : null,
    contractHash: resolved.found ? resolved.contract.contentHash : null,
    arguments: storedArguments,
    payload: storedPayload,
    decision: 'deny',
    valid: false,
    errors,
    warnings: [],
    durationMs: performance.now() - started,
  });
  return buildValidationResponse({
    tool: request.tool,
    version: resolved.found ? resolved.contract.version : undefined,
    contractHash: resolved.found ? resolved.contract.contentHash : undefined,
    callId: request.call_id,
    traceId,
    evidenceId: evidence.id,
    errors,
    warnings: [],
    decision: 'deny',
    phase: kind,
  });
}

/**
 * The body as sent, each unrepresentable number swapped for a placeholder string that carries
 * an unguessable nonce, so JSON.parse keeps every other value (and drops shadowed duplicate keys)
 * exactly as it did. In JSON text made from it, `canonical` writes each number's exact value in
 * canonical layout (for hashes), `verbatim` writes its token as sent (for what is stored).
 */
function exactBody(numbers: ReportedNumbers): {
  body: Record<string, unknown>;
  canonical: (json: string) => string;
  verbatim: (json: string) => string;
} {
  const nonce = randomBytes(12).toString('hex');
  const marker = (index: number) => `\u0000tg-number:${nonce}:${index}`;
  let text = '';
  let at = 0;
  numbers.findings.forEach((finding, index) => {
    text += numbers.text.slice(at, finding.start) + JSON.stringify(marker(index));
    at = finding.end;
  });
  text += numbers.text.slice(at);
  const body = JSON.parse(text) as Record<string, unknown>;
  const pattern = new RegExp(`"\\\\u0000tg-number:${nonce}:(\\d+)"`, 'g');
  const token = (index: string) => numbers.findings[Number(index)]?.token ?? '0';
  return {
    body,
    canonical: (json) => json.replace(pattern, (_, index: string) => exactNumberText(token(index))),
    verbatim: (json) => json.replace(pattern, (_, index: string) => token(index)),
  };
}
