import { z } from 'zod';
import {
  AnnotationsSchema,
  SEMVER_PATTERN,
  TOOL_ID_PATTERN,
  ToolContractSchema,
  type ToolContract,
  type ToolContractInput,
} from './contract-schema.ts';
import { assertSupportedSchema, UnsupportedSchemaError } from './supported-zod-subset.ts';

/**
 * Zod schema -> the JSON Schema of a Toolgate contract, and a whole contract document.
 *
 * `io: 'input'` because the contract checks what the model sends: a field with a default may
 * be left out (Zod's output view would list it as required). The server compiles the result
 * with Ajv 2020 + ajv-formats + RE2 patterns; see supported-zod-subset.ts for what is refused
 * so that Ajv and Zod keep agreeing.
 */

export type JsonSchema = Record<string, unknown>;

/** `contract` for the server (exact agreement with Zod), `llm` for the model's tool definition. */
export type SchemaPurpose = 'contract' | 'llm';

// The formats ajv-formats implements. Zod also writes names such as `includes` or `lowercase`
// next to the pattern that does the real work; Ajv would only log "unknown format" for them.
const AJV_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

// Zod's email check is its regex, which Zod also writes as `pattern`. ajv-formats' `email` is
// stricter (a domain label may not end in "-": Zod accepts `a@b-.com`, Ajv refuses it), so
// keeping `format` would make the server refuse calls the agent accepted.
const EMAIL_COMMENT =
  'An email address, as the tool checks it (this pattern). format: "email" is left out because ajv-formats\' email check is stricter than the tool\'s.';

const SCHEMA_KEYWORDS = [
  'items',
  'additionalProperties',
  'propertyNames',
  'not',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;
const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Visits every subschema, following keywords only (a property named `format` is not one). */
function walkSchemaNodes(root: JsonSchema, visit: (node: JsonSchema) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isObject(node)) continue;
    visit(node);
    for (const keyword of SCHEMA_KEYWORDS) stack.push(node[keyword]);
    for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
      const list = node[keyword];
      if (Array.isArray(list)) stack.push(...(list as unknown[]));
    }
    for (const keyword of SCHEMA_MAP_KEYWORDS) {
      const map = node[keyword];
      if (isObject(map)) stack.push(...Object.values(map));
    }
  }
}

/**
 * The JSON Schema (2020-12) of a Zod schema, without `$schema`: the contract format documents
 * its schemas as 2020-12 already, and LLM tool definitions do not want the key.
 */
export function toJsonSchema(schema: z.ZodType, purpose: SchemaPurpose = 'contract'): JsonSchema {
  let generated: JsonSchema;
  try {
    generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  } catch (error) {
    throw new UnsupportedSchemaError('The schema', [{ path: 'schema', message: error instanceof Error ? error.message : String(error) }]);
  }
  const jsonSchema: JsonSchema = { ...generated };
  delete jsonSchema.$schema;
  walkSchemaNodes(jsonSchema, (node) => {
    if (typeof node.format !== 'string') return;
    if (!AJV_FORMATS.has(node.format)) delete node.format;
    else if (purpose === 'contract' && node.format === 'email') {
      delete node.format;
      node.$comment = EMAIL_COMMENT;
    }
  });
  return jsonSchema;
}

type Annotations = z.input<typeof AnnotationsSchema>;
const ANNOTATION_KEYS = Object.keys(AnnotationsSchema.shape) as (keyof Annotations)[];

/**
 * Contract fields other than the schemas, with the annotations flattened in: what
 * `defineTool({contract})` and `tool.toContract()` take.
 */
export type ContractFields = Partial<Omit<ToolContractInput, 'input' | 'output' | 'annotations'>> & Partial<Annotations>;

export class ContractDocumentError extends Error {
  readonly problems: { path: string; message: string }[];

  constructor(subject: string, problems: { path: string; message: string }[]) {
    super(`${subject} cannot become a contract:\n${problems.map((p) => `  - ${p.path}: ${p.message}`).join('\n')}`);
    this.name = 'ContractDocumentError';
    this.problems = problems;
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The friendly version of the few mistakes everyone makes first. */
function preflight(fields: ContractFields): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (!fields.id)
    problems.push({
      path: 'id',
      message:
        'missing: set contract.id to a dotted id such as "users.create" (LLM tool names cannot contain dots, so the name is not used)',
    });
  else if (!TOOL_ID_PATTERN.test(fields.id))
    problems.push({ path: 'id', message: `"${fields.id}" is not a contract id: lowercase dotted words such as "users.create"` });
  if (!fields.version) problems.push({ path: 'version', message: 'missing: pass a semantic version such as "1.0.0"' });
  else if (!SEMVER_PATTERN.test(fields.version))
    problems.push({ path: 'version', message: `"${fields.version}" is not a semantic version such as "1.0.0"` });
  if (!fields.owner) problems.push({ path: 'owner', message: 'missing: name the team or person responsible for the tool' });
  for (const key of ['kind', 'side_effect_level', 'idempotent'] as const) {
    if (fields[key] === undefined)
      problems.push({
        path: `annotations.${key}`,
        message: 'missing: safety annotations are never guessed; declare it in contract or toContract()',
      });
  }
  return problems;
}

export interface ZodToContractOptions extends ContractFields {
  input: z.ZodType;
  output?: z.ZodType;
}

/** A complete, parsed (defaults applied) Toolgate contract for a Zod-described tool. */
export function zodToContract(options: ZodToContractOptions): ToolContract {
  const { input, output, ...fields } = options;
  const subject = `Tool "${fields.id ?? '(no id)'}"`;
  assertSupportedSchema(input, 'input', subject);
  if (output) assertSupportedSchema(output, 'output', subject);
  const inputSchema = toJsonSchema(input, 'contract');
  if (inputSchema.type !== 'object') {
    throw new ContractDocumentError(subject, [
      { path: 'input', message: 'tool arguments are a JSON object: use z.object({...}) as the input schema' },
    ]);
  }
  const early = preflight(fields);
  if (early.length > 0) throw new ContractDocumentError(subject, early);

  const annotations: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if ((ANNOTATION_KEYS as string[]).includes(key)) annotations[key] = value;
    else rest[key] = value;
  }
  const { id, version, description, owner, ...others } = rest;
  const document = withoutUndefined({
    id,
    version,
    description,
    owner,
    input: inputSchema,
    output: output ? toJsonSchema(output, 'contract') : undefined,
    annotations: withoutUndefined(annotations),
    ...others,
  });
  const parsed = ToolContractSchema.safeParse(document);
  if (!parsed.success) {
    throw new ContractDocumentError(
      subject,
      parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message })),
    );
  }
  return parsed.data;
}
