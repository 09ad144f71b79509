import { hashCanonical } from '../contracts/canonical-json';
import { isPlainObject } from '../json';
import { storedTextProblem } from '../stored-text';
import { TOOL_ID_PATTERN } from '../contracts/contract-schema';

/**
 * An upstream MCP server's definition of one tool, as the gateway pins it: only the parts that
 * change what a model is told or what the call may do (name, title, description, schemas,
 * annotations). Everything is read through own properties from an untrusted `tools/list`
 * answer, bounded, so a server cannot make the gateway store megabytes per tool or smuggle a
 * `__proto__` key into a later merge.
 */
export interface UpstreamToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** Upstream names longer than this are refused (the MCP spec suggests 1-128 characters). */
export const MAX_UPSTREAM_TOOL_NAME = 128;
/** A server may list, and have pinned, at most this many tools; the rest are ignored and logged. */
export const MAX_UPSTREAM_TOOLS = 500;
/** One tool definition as canonical JSON, at most. */
export const MAX_DEFINITION_BYTES = 256 * 1024;
/** Server names are the first segment of their tools' contract ids. */
export const MCP_SERVER_NAME_PATTERN = /^[a-z][a-z0-9_]{0,39}$/; // as McpServerNameSchema (lib/validation/call-context.ts)

const ANNOTATION_KEYS = ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * The definition a tool entry of `tools/list` gives, or why it cannot be used. JSON values are
 * copied through JSON text, which drops functions and keeps `__proto__` as a plain own key.
 */
export function readUpstreamTool(entry: unknown): { definition: UpstreamToolDefinition } | { problem: string } {
  if (!isPlainObject(entry)) return { problem: 'a tools/list entry is not an object' };
  const name = own(entry, 'name');
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_UPSTREAM_TOOL_NAME)
    return { problem: `a tool name must be a string of 1 to ${MAX_UPSTREAM_TOOL_NAME} characters` };
  // The name is a text column (and part of a unique key): a NUL failed the whole report on
  // PostgreSQL and was stored on SQLite; a lone surrogate was pinned as U+FFFD, which no later
  // report or call matched, so the tool vanished from the answer without a problem.
  const unstorable = storedTextProblem(`tool ${JSON.stringify(name)}: its name`, name);
  if (unstorable) return { problem: unstorable };
  const input = own(entry, 'inputSchema');
  if (!isPlainObject(input)) return { problem: `tool ${JSON.stringify(name)} has no inputSchema object` };
  const definition: UpstreamToolDefinition = { name, inputSchema: copyJson(input) };
  const title = own(entry, 'title');
  if (typeof title === 'string') definition.title = title;
  const description = own(entry, 'description');
  if (typeof description === 'string') definition.description = description;
  const output = own(entry, 'outputSchema');
  if (isPlainObject(output)) definition.outputSchema = copyJson(output);
  const annotations = own(entry, 'annotations');
  if (isPlainObject(annotations)) {
    const kept: Record<string, unknown> = {};
    for (const key of ANNOTATION_KEYS) {
      const value = own(annotations, key);
      if (key === 'title' ? typeof value === 'string' : typeof value === 'boolean') kept[key] = value;
    }
    if (Object.keys(kept).length > 0) definition.annotations = kept;
  }
  if (Buffer.byteLength(JSON.stringify(definition)) > MAX_DEFINITION_BYTES)
    return { problem: `tool ${JSON.stringify(name)} has a definition over ${MAX_DEFINITION_BYTES} bytes` };
  return { definition };
}

/** The pinned hash: SHA-256 of the definition's canonical JSON. */
export function definitionHash(definition: UpstreamToolDefinition): string {
  return hashCanonical(definition);
}

/**
 * The contract id of tool `tool` of server `server`: `server.tool`, the tool name lower-cased
 * and every character outside the contract id alphabet (`a-z`, `0-9`, `_`, `.` between
 * segments) made `_`; a segment that would not start with a letter gets a `t` in front.
 * `taken` makes it unique among one server's tools (`_2`, `_3`, …) when two names fold together.
 */
export function mcpContractId(server: string, tool: string, taken?: Set<string>): string {
  const segments = tool
    .toLowerCase()
    .split('.')
    .map((segment) => {
      let out = '';
      for (const ch of segment) out += /[a-z0-9_]/.test(ch) ? ch : '_';
      return /^[a-z]/.test(out) ? out : `t${out}`;
    });
  let base = `${server}.${segments.join('.')}`;
  if (base.length > 128) base = base.slice(0, 128).replace(/[._]+$/, '');
  if (!TOOL_ID_PATTERN.test(base)) base = `${server}.tool`;
  let id = base;
  for (let n = 2; taken?.has(id); n += 1) id = `${base.slice(0, 120)}_${n}`;
  taken?.add(id);
  return id;
}

function own(value: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}

function copyJson(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
