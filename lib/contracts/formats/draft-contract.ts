import { formatJsonPath, ownValue } from '@/lib/validation/json-path';
import { TOOL_ID_PATTERN, type SideEffectLevel, type ToolContractInput } from '../contract-schema';
import { isPlainObject } from '../../json';

/**
 * What the importers share: deriving a contract id from a foreign tool name, filling the fields
 * a foreign definition does not have, and the review notes that say which values are guesses.
 * Everything here reads untrusted data through own properties only and never assigns a key
 * taken from the input, so a pasted `__proto__` stays data.
 */

export type ToolSource = 'mcp' | 'openai' | 'anthropic';

/** A value in the draft that a person must confirm before publishing. */
export interface ReviewNote {
  /** JSONPath into the draft document, e.g. `$.annotations.side_effect_level`. */
  path: string;
  message: string;
}

export interface ImportOptions {
  /**
   * First segment(s) of every derived id; defaults to the source (`mcp`, `openai`,
   * `anthropic`). An empty string keeps names that already are dotted ids (`orders.lookup`)
   * as they are, which is how an exported contract comes back under its own id.
   */
  namespace?: string;
  /** Defaults to `unknown`, flagged for review. */
  owner?: string;
  /** Defaults to `0.1.0`: a draft, not a promise. */
  version?: string;
}

export const DRAFT_VERSION = '0.1.0';
export const UNKNOWN_OWNER = 'unknown';
/** Longer names are refused rather than truncated into something nobody recognises. */
export const MAX_TOOL_NAME_CHARS = 256;
const MAX_ID_CHARS = 128;
const MAX_DESCRIPTION_CHARS = 4000;
const MAX_OWNER_CHARS = 200;
const JSON_SCHEMA_2020_12 = new Set(['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#']);

export const SOURCE_LABELS: Record<ToolSource, string> = { mcp: 'MCP', openai: 'OpenAI', anthropic: 'Anthropic' };

export function path(...segments: (string | number)[]): string {
  return formatJsonPath(segments);
}

/** `getWeather`, `get-weather` and `Get Weather` all become `get_weather`; dots keep segments. */
function idSegments(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split('.')
    .map((segment) =>
      segment
        .replace(/[^a-z0-9_]+/g, '_')
        .replace(/_+/g, '_')
        .replace(/^_/, '')
        .replace(/_$/, ''),
    )
    .filter((segment) => segment !== '')
    .map((segment) => (/^[0-9]/.test(segment) ? `tool_${segment}` : segment));
}

/** Cuts an id to `max` characters without leaving it ending in a separator. */
function clampId(id: string, max = MAX_ID_CHARS): string {
  if (id.length <= max) return id;
  return id.slice(0, max).replace(/[._]+$/, '');
}

/**
 * Derives a contract id (TOOL_ID_PATTERN) from a tool name, unique among `taken`. Returns a
 * note when the id is not simply `namespace.name`, so the author sees what was changed.
 */
export function deriveToolId(
  name: string,
  source: ToolSource,
  options: ImportOptions,
  taken: Set<string>,
): { id: string; note?: ReviewNote } {
  const nameSegments = idSegments(name);
  const requested = options.namespace ?? source;
  let prefix = idSegments(requested);
  if (requested !== '' && prefix.length === 0) prefix = [source];
  // Without a namespace the name must already be dotted; otherwise fall back to the source.
  if (prefix.length === 0 && nameSegments.length < 2) prefix = [source];
  let base = clampId([...prefix, ...(nameSegments.length > 0 ? nameSegments : ['tool'])].join('.'));
  if (!TOOL_ID_PATTERN.test(base)) base = `${source}.tool`;

  let id = base;
  for (let n = 2; taken.has(id); n += 1) {
    id = `${clampId(base, MAX_ID_CHARS - String(n).length - 1)}_${n}`;
    if (!TOOL_ID_PATTERN.test(id)) id = `${source}.tool_${n}`;
  }
  taken.add(id);

  const plain = [...prefix, name].join('.');
  if (id === plain) return { id };
  const why = id !== base ? ` (another imported tool already has ${base})` : '';
  return {
    id,
    note: {
      path: '$.id',
      message: `Derived from the ${SOURCE_LABELS[source]} tool name "${name.slice(0, 100)}"${why}: contract ids are dotted lowercase names. Runtimes must call the tool by this id.`,
    },
  };
}

/** The tool's description, else its title, else a placeholder; too long is cut with a note. */
export function draftDescription(description: unknown, title: unknown, notes: ReviewNote[]): string {
  let text = typeof description === 'string' ? description.trim() : '';
  if (text === '' && typeof title === 'string' && title.trim() !== '') {
    text = title.trim();
    notes.push({
      path: '$.description',
      message: 'The source had no description, so its title is used: describe what the tool does for the model that calls it.',
    });
  }
  if (text === '') {
    notes.push({ path: '$.description', message: 'The source had no description: write what the tool does for the model that calls it.' });
    return 'TODO: describe what this tool does, for the model that calls it.';
  }
  if (text.length > MAX_DESCRIPTION_CHARS) {
    notes.push({ path: '$.description', message: `The description was cut to ${MAX_DESCRIPTION_CHARS} characters, the contract limit.` });
    text = text.slice(0, MAX_DESCRIPTION_CHARS);
  }
  return text;
}

export function draftOwner(options: ImportOptions, notes: ReviewNote[]): string {
  const owner = options.owner?.trim() ?? '';
  if (owner !== '' && owner.length <= MAX_OWNER_CHARS) return owner;
  notes.push({ path: '$.owner', message: 'No owner was given: name the team or person responsible for this tool.' });
  return UNKNOWN_OWNER;
}

/**
 * Contract schemas are JSON Schema 2020-12. Tool definitions often declare draft-07 (what
 * zod-to-json-schema emits); that `$schema` would make the contract refuse the schema, so it is
 * dropped with a note, and the keywords whose meaning changed stay for a person to check.
 */
export function draftSchema(schema: Record<string, unknown>, field: 'input' | 'output', notes: ReviewNote[]): Record<string, unknown> {
  const declared = ownValue(schema, '$schema');
  if (declared === undefined || (typeof declared === 'string' && JSON_SCHEMA_2020_12.has(declared))) return schema;
  const copy = { ...schema };
  delete copy.$schema;
  notes.push({
    path: path(field),
    message: `Removed "$schema": ${JSON.stringify(declared).slice(0, 100)}. Contract schemas are read as JSON Schema 2020-12; check keywords that changed since draft-07 (array-form "items", "additionalItems", "dependencies").`,
  });
  return copy;
}

export interface DraftAnnotations {
  kind: 'query' | 'mutation';
  side_effect_level: SideEffectLevel;
  idempotent: boolean;
  idempotency_strategy?: 'natural';
}

/** The document every importer produces, in the order authors read it. */
export function draftDocument(fields: {
  id: string;
  version: string;
  description: string;
  owner: string;
  input: Record<string, unknown>;
  output?: Record<string, unknown>;
  annotations: DraftAnnotations;
}): ToolContractInput & Record<string, unknown> {
  return {
    id: fields.id,
    version: fields.version,
    description: fields.description,
    owner: fields.owner,
    input: fields.input,
    ...(fields.output ? { output: fields.output } : {}),
    annotations: {
      ...fields.annotations,
      confirmation_required: false,
      approval_required: false,
      approver_roles: [],
    },
  };
}

/** Why (part of) a paste was not imported. Documented here, where each code is defined. */
export const IMPORT_PROBLEM_CODES = {
  IMPORT_TOO_LARGE: 'The pasted text is over 1,000,000 characters or nests deeper than 64 levels.',
  IMPORT_NOT_JSON: 'The pasted text is not JSON.',
  IMPORT_NUMBER_UNREPRESENTABLE:
    'A number in the paste cannot be held exactly by a double (beyond ±1.8e308, an integer beyond ±(2^53−1), or a non-zero number that reads as 0); nothing was imported.',
  IMPORT_UNRECOGNIZED: 'The JSON is neither a tool definition, a list of them, nor an object with a `tools` list.',
  IMPORT_NO_TOOLS: 'The list of tools is empty.',
  IMPORT_TOO_MANY_TOOLS: 'More than 500 tools in one paste; nothing was imported.',
  IMPORT_TOOL_UNRECOGNIZED:
    'An entry is not an MCP, OpenAI function or Anthropic custom tool definition (built-in tools have no schema to import).',
  IMPORT_TOOL_NAME_INVALID: 'A tool has no name, or one that is not a string of 1 to 256 characters.',
  IMPORT_TOOL_SCHEMA_INVALID: "A tool's input schema is not a JSON object.",
} as const;

export type ImportProblemCode = keyof typeof IMPORT_PROBLEM_CODES;

export interface ImportProblem {
  code: ImportProblemCode;
  /** JSONPath into the pasted JSON, e.g. `$.tools[3].inputSchema`. */
  path: string;
  message: string;
}

export interface ImportedContract {
  source: ToolSource;
  /** The tool's name in its source, before it became a contract id. */
  name: string;
  document: ToolContractInput & Record<string, unknown>;
  notes: ReviewNote[];
}

/** Shared across one paste, so ids stay unique among the tools imported together. */
export interface ImportContext {
  options: ImportOptions;
  takenIds: Set<string>;
}

export type ImportOutcome = { contract: ImportedContract } | { problem: ImportProblem };

export function readToolName(value: unknown, at: (string | number)[]): { name: string } | { problem: ImportProblem } {
  if (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_TOOL_NAME_CHARS) return { name: value.trim() };
  const got =
    typeof value === 'string'
      ? value.trim() === ''
        ? 'an empty name'
        : `a name of ${value.length} characters`
      : value === undefined
        ? 'no name'
        : `a ${value === null ? 'null' : typeof value} name`;
  return {
    problem: {
      code: 'IMPORT_TOOL_NAME_INVALID',
      path: path(...at),
      message: `The tool has ${got}; a name is a string of 1 to ${MAX_TOOL_NAME_CHARS} characters.`,
    },
  };
}

/** A schema field that must be a JSON object when present (null counts as absent). */
export function readSchema(value: unknown, at: (string | number)[]): { schema?: Record<string, unknown> } | { problem: ImportProblem } {
  if (value === undefined || value === null) return {};
  if (isPlainObject(value)) return { schema: value };
  const got = Array.isArray(value) ? 'an array' : typeof value;
  return { problem: { code: 'IMPORT_TOOL_SCHEMA_INVALID', path: path(...at), message: `Expected a JSON Schema object, got ${got}.` } };
}

/**
 * OpenAI and Anthropic definitions say nothing about effects. Until someone who knows the tool
 * says otherwise it is treated like an unannotated MCP tool: destructive and not idempotent,
 * so policies with a side-effect ceiling hold it back instead of letting it through.
 */
export function cautiousAnnotations(source: ToolSource): { annotations: DraftAnnotations; notes: ReviewNote[] } {
  const label = SOURCE_LABELS[source];
  return {
    annotations: { kind: 'mutation', side_effect_level: 'destructive', idempotent: false },
    notes: [
      {
        path: '$.annotations.side_effect_level',
        message: `${label} tool definitions carry no safety hints, so the most cautious level is set: lower it to what the tool really does.`,
      },
      {
        path: '$.annotations.idempotent',
        message: `${label} tool definitions do not say whether repeating a call is safe, so the tool is assumed not idempotent: confirm.`,
      },
    ],
  };
}

/**
 * OpenAI and Anthropic tool names allow only `[A-Za-z0-9_-]{1,64}`, so the dots of a contract id
 * become underscores; ids too long keep a hash of the full id so two stay distinct.
 */
export function providerToolName(id: string): string {
  const name = id.replace(/\./g, '_');
  if (name.length <= 64) return name;
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return `${name.slice(0, 55)}_${hash.toString(16).padStart(8, '0')}`;
}
