import { appendFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * What a fixture tool does when called. A listed tool acts as the built-in tool of the same
 * name, or as the one its `_meta[BEHAVIOUR_META_KEY]` names, so a test can list, say, a tool
 * named "Refund Order!" that refunds; any other tool answers with its own arguments.
 */
export const FIXTURE_BEHAVIOURS = ['echo', 'refund', 'crash', 'hang', 'malformed', 'huge', 'slow'] as const;
export type FixtureBehaviour = (typeof FIXTURE_BEHAVIOURS)[number];
export const BEHAVIOUR_META_KEY = 'toolgate.fixture/behaviour';

/** The tools file is written by tests; the bound only keeps a mistake from eating the memory. */
const MAX_TOOLS_FILE_BYTES = 4 * 1024 * 1024;

export const DEFAULT_FIXTURE_TOOLS: readonly Tool[] = [
  {
    name: 'echo',
    description: 'Returns the text it is given.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    outputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'refund',
    description: 'Refunds an amount of an order.',
    inputSchema: {
      type: 'object',
      properties: { order_id: { type: 'string' }, amount: { type: 'number' } },
      required: ['order_id', 'amount'],
    },
    outputSchema: {
      type: 'object',
      properties: { refunded: { type: 'number' }, order_id: { type: 'string' } },
      required: ['refunded', 'order_id'],
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  },
  {
    name: 'crash',
    description: 'Dies in the middle of the call (the stdio server exits with code 1; over HTTP the socket is destroyed).',
    inputSchema: { type: 'object', properties: {} },
    // A non-idempotent write that dies mid-call is the case where a retry would do harm.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  },
  {
    name: 'hang',
    description: 'Never answers.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'malformed',
    description: 'Answers with a result that is not a valid CallToolResult.',
    inputSchema: {
      type: 'object',
      properties: { shape: { type: 'string', enum: ['content_string', 'bad_content_item', 'not_jsonrpc'] } },
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'huge',
    description: 'Answers with one text content of `bytes` bytes (default 8 MB).',
    inputSchema: { type: 'object', properties: { bytes: { type: 'integer', minimum: 0 } } },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'slow',
    description: 'Answers after `ms` milliseconds.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] },
    annotations: { readOnlyHint: true },
  },
];

/**
 * The tools the fixture lists now: the tools file (a JSON array of MCP `Tool` objects) when one
 * is given and exists, else the defaults. Read on every call so a test changes the definitions
 * by rewriting the file; a file that is not a valid tool list throws, so a broken fixture is
 * seen rather than silently replaced by the defaults.
 */
export async function readFixtureTools(toolsFile: string | undefined): Promise<Tool[]> {
  if (toolsFile === undefined) return [...DEFAULT_FIXTURE_TOOLS];
  let text: string;
  try {
    text = await readFile(toolsFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [...DEFAULT_FIXTURE_TOOLS];
    throw error;
  }
  if (text.length > MAX_TOOLS_FILE_BYTES) throw new Error(`the fixture tools file is over ${MAX_TOOLS_FILE_BYTES} bytes`);
  const parsed = ToolSchema.array().safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`the fixture tools file is not a list of MCP tools: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Replaces the tools file in one step (write aside, then rename), so a `tools/list` that runs
 * meanwhile reads the old list or the new one, never half of one.
 */
export async function writeFixtureTools(toolsFile: string, tools: readonly Tool[]): Promise<void> {
  const aside = `${toolsFile}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(aside, JSON.stringify(tools, null, 2));
  await rename(aside, toolsFile);
}

/** The defaults with one tool's definition changed: the usual way a test makes drift. */
export function fixtureToolsWith(name: string, change: (tool: Tool) => Tool): Tool[] {
  return DEFAULT_FIXTURE_TOOLS.map((tool) => (tool.name === name ? change(structuredClone(tool)) : structuredClone(tool)));
}

export function behaviourOf(tool: Tool): FixtureBehaviour | undefined {
  const named = tool._meta?.[BEHAVIOUR_META_KEY];
  const candidate = typeof named === 'string' ? named : tool.name;
  return (FIXTURE_BEHAVIOURS as readonly string[]).includes(candidate) ? (candidate as FixtureBehaviour) : undefined;
}

export interface FixtureCall {
  tool: string;
  arguments: Record<string, unknown>;
  at: string;
}

/**
 * Synchronous on purpose: the line must be on disk before `crash` exits the process, so a test
 * can tell "the call reached the upstream, which then died" from "the call never arrived".
 */
export function recordFixtureCall(callsFile: string | undefined, call: FixtureCall): void {
  if (callsFile === undefined) return;
  appendFileSync(callsFile, `${JSON.stringify(call)}\n`);
}

/** The calls that reached the fixture, oldest first; none when the file does not exist yet. */
export async function readFixtureCalls(callsFile: string): Promise<FixtureCall[]> {
  let text: string;
  try {
    text = await readFile(callsFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as FixtureCall);
}
