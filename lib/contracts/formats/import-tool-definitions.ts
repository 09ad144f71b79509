import { isPlainObject } from '@/lib/json';
import { ownValue } from '@/lib/validation/json-path';
import { describeNumberFinding, findUnrepresentableNumbers, inspectJsonText } from '@/lib/validation/json-numbers';
import { draftFromAnthropicTool } from './anthropic';
import { path, type ImportContext, type ImportedContract, type ImportOptions, type ImportProblem, type ToolSource } from './draft-contract';
import { draftFromMcpTool } from './mcp';
import { draftFromOpenAiTool } from './openai';

/**
 * The studio's "paste what you have" box: an MCP `tools/list` result, OpenAI or Anthropic tool
 * definitions (one, a list, or a request body with `tools`), in, draft contracts out. Pasted
 * text is untrusted and often not what it claims to be, so nothing here throws: whatever cannot
 * be imported comes back as a problem, and the rest is still imported.
 */

export const MAX_IMPORT_CHARS = 1_000_000;
export const MAX_IMPORT_TOOLS = 500;
const MAX_IMPORT_DEPTH = 64;

export interface ImportResult {
  contracts: ImportedContract[];
  problems: ImportProblem[];
}

type Segments = (string | number)[];
type Classified = { source: ToolSource } | { unrecognized: string };

/** Which format one tool definition is in; order matters where the shapes overlap. */
export function classifyToolDefinition(value: unknown): Classified {
  if (!isPlainObject(value))
    return {
      unrecognized: `Expected a tool definition object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}.`,
    };
  const type = ownValue(value, 'type');
  if (type === 'function' && (isPlainObject(ownValue(value, 'function')) || typeof ownValue(value, 'name') === 'string'))
    return { source: 'openai' };
  if (ownValue(value, 'inputSchema') !== undefined) return { source: 'mcp' };
  if (ownValue(value, 'input_schema') !== undefined) return { source: 'anthropic' };
  if (type === undefined && ownValue(value, 'name') !== undefined && ownValue(value, 'parameters') !== undefined)
    return { source: 'openai' };
  if (typeof type === 'string') {
    return { unrecognized: `A tool of type "${type.slice(0, 60)}" is a built-in tool of its platform, with no schema to import.` };
  }
  return { unrecognized: 'Not an MCP tool (inputSchema), an OpenAI function tool (type "function") or an Anthropic tool (input_schema).' };
}

/** Iterative, so a hostile paste cannot overflow the stack before it is refused. */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

function problem(code: ImportProblem['code'], at: Segments, message: string): ImportResult {
  return { contracts: [], problems: [{ code, path: path(...at), message }] };
}

/** The list of tool definitions in a paste, and where it sits; a lone tool is a list of one. */
function findTools(value: unknown): { entries: readonly unknown[]; at: Segments; single: boolean } | ImportResult {
  if (Array.isArray(value)) return { entries: value, at: [], single: false };
  if (!isPlainObject(value))
    return problem(
      'IMPORT_UNRECOGNIZED',
      [],
      `Expected a tool definition, a list of them, or an object with "tools"; got ${value === null ? 'null' : typeof value}.`,
    );
  const containers: Segments[] = [['tools'], ['result', 'tools'], ['functions']];
  for (const at of containers) {
    let current: unknown = value;
    for (const key of at) current = ownValue(current, key as string);
    if (current === undefined) continue;
    if (!Array.isArray(current)) return problem('IMPORT_UNRECOGNIZED', at, `Expected "${at.join('.')}" to be a list of tool definitions.`);
    return { entries: current, at, single: false };
  }
  if ('source' in classifyToolDefinition(value)) return { entries: [value], at: [], single: true };
  return problem(
    'IMPORT_UNRECOGNIZED',
    [],
    'Expected a tool definition, a list of them, or an object with "tools" (an MCP tools/list result, or an OpenAI or Anthropic request body).',
  );
}

/** Imports already-parsed JSON (the API takes a JSON body). */
export function importParsedToolDefinitions(value: unknown, options: ImportOptions = {}): ImportResult {
  if (deeperThan(value, MAX_IMPORT_DEPTH)) return problem('IMPORT_TOO_LARGE', [], `The JSON nests deeper than ${MAX_IMPORT_DEPTH} levels.`);
  const found = findTools(value);
  if ('contracts' in found) return found;
  const { entries, at, single } = found;
  if (entries.length === 0) return problem('IMPORT_NO_TOOLS', at, 'The list of tools is empty.');
  if (entries.length > MAX_IMPORT_TOOLS) {
    return problem(
      'IMPORT_TOO_MANY_TOOLS',
      at,
      `${entries.length} tools in one paste; at most ${MAX_IMPORT_TOOLS} are imported at once. Split the list.`,
    );
  }

  const context: ImportContext = { options, takenIds: new Set() };
  const result: ImportResult = { contracts: [], problems: [] };
  entries.forEach((entry, index) => {
    const entryAt = single ? at : [...at, index];
    const kind = classifyToolDefinition(entry);
    if ('unrecognized' in kind) {
      result.problems.push({ code: 'IMPORT_TOOL_UNRECOGNIZED', path: path(...entryAt), message: kind.unrecognized });
      return;
    }
    const tool = entry as Record<string, unknown>;
    const outcome =
      kind.source === 'mcp'
        ? draftFromMcpTool(tool, entryAt, context)
        : kind.source === 'openai'
          ? draftFromOpenAiTool(tool, entryAt, context)
          : draftFromAnthropicTool(tool, entryAt, context);
    if ('problem' in outcome) result.problems.push(outcome.problem);
    else result.contracts.push(outcome.contract);
  });
  return result;
}

export function importToolDefinitions(text: string, options: ImportOptions = {}): ImportResult {
  if (typeof text !== 'string') return problem('IMPORT_NOT_JSON', [], 'Expected JSON text.');
  if (text.length > MAX_IMPORT_CHARS)
    return problem('IMPORT_TOO_LARGE', [], `The text is ${text.length} characters; the limit is ${MAX_IMPORT_CHARS}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return problem('IMPORT_NOT_JSON', [], `Not JSON: ${reason.split('\n')[0]!.slice(0, 200)}`);
  }
  // JSON.parse reads 1e400 as Infinity and 9007199254740993 as ...992: drafted from those, a
  // schema bound changed unseen (and Infinity failed the save). Refused, as every document is.
  const numbers = inspectJsonText(text, MAX_IMPORT_DEPTH + 1).numbersToCheck ? findUnrepresentableNumbers(text, 20) : [];
  if (numbers.length > 0) {
    return {
      contracts: [],
      problems: numbers.map((finding) => ({
        code: 'IMPORT_NUMBER_UNREPRESENTABLE' as const,
        path: finding.path,
        message: `${describeNumberFinding(finding)}: it would not be kept as written, so nothing was imported. Write it as a string, or leave it out.`,
      })),
    };
  }
  return importParsedToolDefinitions(value, options);
}
