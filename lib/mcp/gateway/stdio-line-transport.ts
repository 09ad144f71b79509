import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { log } from '../../log';
import { findUnrepresentableNumbers, inspectJsonText, type NumberFinding } from '../../validation/json-numbers';
import { numbersAnswer } from './number-refusal';

/**
 * The most one message from the agent may hold. The same bound the MCP SDK puts on a Streamable
 * HTTP request body (DEFAULT_MAX_REQUEST_BODY_SIZE): a larger line is discarded as it streams in,
 * never buffered whole.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** How much of an oversized line is kept to find its id: a top-level id sits at one end or the other. */
const EDGE_BYTES = 512;

type Answer = { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string; data?: unknown } };

/**
 * MCP over stdio, one JSON-RPC message per line, for the proxy's side facing the agent. It
 * replaces the SDK's StdioServerTransport, which reads lines with JSON.parse and drops what it
 * cannot use through `onerror`: a number a double cannot hold went upstream changed (1e-400 as
 * 0), and a line that was not JSON, a batch, or an oversized message got no answer at all (the
 * last one ended the proxy). Here every such line is answered, logged to stderr, and the
 * transport keeps serving.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The line being discarded: its first and last bytes, and its size so far. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  private started = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioLineTransport already started');
    this.started = true;
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onstreamerror);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onstreamerror);
    this.pending = [];
    this.skipping = null;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private readonly onstreamerror = (error: Error) => this.onerror?.(error);

  private readonly ondata = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let start = 0; ;) {
      const end = data.indexOf(10, start);
      this.take(data.subarray(start, end === -1 ? data.length : end));
      if (end === -1) return;
      this.endLine();
      start = end + 1;
    }
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.tail = Buffer.concat([this.skipping.tail, piece]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.pendingBytes + piece.length <= this.maxMessageBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const line = Buffer.concat([...this.pending, piece]);
    this.skipping = { head: Buffer.from(line.subarray(0, EDGE_BYTES)), tail: Buffer.from(line.subarray(-EDGE_BYTES)), bytes: line.length };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endLine(): void {
    const skipped = this.skipping;
    if (skipped) {
      this.skipping = null;
      const id = idAtEdges(skipped.head.toString('utf8'), skipped.tail.toString('utf8'));
      log.warn('mcp message refused', { reason: 'too_large', bytes: skipped.bytes, max_bytes: this.maxMessageBytes });
      void this.write(
        failure(
          id,
          ErrorCode.InvalidRequest,
          `Invalid Request: the message is ${skipped.bytes} bytes, over the proxy's limit of ${this.maxMessageBytes}; it was discarded.`,
        ),
      );
      return;
    }
    const text = Buffer.concat(this.pending, this.pendingBytes).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (text.trim() !== '') this.handleLine(text);
  }

  private handleLine(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      log.warn('mcp message refused', { reason: 'not_json', bytes: Buffer.byteLength(text) });
      void this.write(
        failure(null, ErrorCode.ParseError, `Parse error: the line is not JSON (${(error as Error).message.slice(0, 200)}).`),
      );
      return;
    }
    const findings = inspectJsonText(text, Number.POSITIVE_INFINITY).numbersToCheck ? findUnrepresentableNumbers(text) : [];
    if (Array.isArray(value)) return this.refuseBatch(value, findings);
    if (findings.some(isIdFinding)) {
      log.warn('mcp message refused', { reason: 'number_unrepresentable', path: '$.id' });
      void this.write(
        failure(null, ErrorCode.InvalidRequest, 'Invalid Request: the id is a number a double cannot hold; send it as a string.'),
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      log.warn('mcp message refused', { reason: 'not_json_rpc' });
      void this.write(failure(safeId(value, findings), ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message.'));
      return;
    }
    if (findings.length === 0) {
      this.onmessage?.(parsed.data);
      return;
    }
    // Never passed on: JSON.parse changed these numbers, and the upstream and Toolgate would act on the change.
    const message = parsed.data;
    log.warn('mcp message refused', { reason: 'number_unrepresentable', path: findings[0]!.path, problem: findings[0]!.problem });
    if (!('id' in message) || !('method' in message)) return; // a notification or a response: nothing to answer
    void this.write(numbersAnswer(message, findings));
  }

  /** MCP 2025-06-18 removed JSON-RPC batching (the SDK's stdio transport never read one): each request in it is refused. */
  private refuseBatch(items: unknown[], findings: NumberFinding[]): void {
    log.warn('mcp message refused', { reason: 'batch', messages: items.length });
    const message = 'Invalid Request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send each message on its own line.';
    const ids = items.flatMap((item, index) => {
      const own = findings
        .filter((finding) => finding.segments[0] === index)
        .map((finding) => ({ ...finding, segments: finding.segments.slice(1) }));
      const id = isRequest(item) ? safeId(item, own) : null;
      return id === null ? [] : [id];
    });
    void this.write(
      ids.length === 0 ? failure(null, ErrorCode.InvalidRequest, message) : ids.map((id) => failure(id, ErrorCode.InvalidRequest, message)),
    );
  }
}

function failure(id: RequestId | null, code: number, message: string): Answer {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isRequest(value: unknown): value is { id: unknown; method: unknown } {
  return typeof value === 'object' && value !== null && 'id' in value && typeof (value as { method?: unknown }).method === 'string';
}

/** The message's id when it has a usable one, as JSON.parse read it exactly. */
function safeId(value: unknown, findings: readonly NumberFinding[]): RequestId | null {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  if (typeof id === 'string') return id;
  return typeof id === 'number' && Number.isSafeInteger(id) && !findings.some(isIdFinding) ? id : null;
}

function isIdFinding(finding: NumberFinding): boolean {
  return finding.segments.length === 1 && finding.segments[0] === 'id';
}

/**
 * The top-level id of a message known only by its ends: `{"jsonrpc":"2.0","id":7,…` (id first,
 * as most clients write it) or `…,"id":7}` (last, as the TypeScript SDK writes it). A nested
 * `"id"` cannot match either: at the start only jsonrpc and method may come before it, at the end
 * nothing may follow it but the closing brace.
 */
function idAtEdges(head: string, tail: string): RequestId | null {
  const id = String.raw`("(?:[^"\\]|\\.){0,200}"|-?\d{1,15})`;
  const first = new RegExp(String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]{0,200}"\s*,\s*)*"id"\s*:\s*${id}\s*[,}]`).exec(head);
  const last = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${id}\s*\}\s*$`).exec(tail);
  const token = first?.[1] ?? last?.[1];
  if (token === undefined) return null;
  try {
    return JSON.parse(token) as RequestId;
  } catch {
    return null;
  }
}
