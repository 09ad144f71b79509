import applicator from 'ajv/dist/refs/json-schema-2020-12/meta/applicator.json';
import content from 'ajv/dist/refs/json-schema-2020-12/meta/content.json';
import core from 'ajv/dist/refs/json-schema-2020-12/meta/core.json';
import formatAnnotation from 'ajv/dist/refs/json-schema-2020-12/meta/format-annotation.json';
import metaData from 'ajv/dist/refs/json-schema-2020-12/meta/meta-data.json';
import unevaluated from 'ajv/dist/refs/json-schema-2020-12/meta/unevaluated.json';
import validation from 'ajv/dist/refs/json-schema-2020-12/meta/validation.json';
import { isPlainObject } from '../json';

/**
 * The JSON Schema 2020-12 meta-schema as editors can use it, so completion and hover work inside
 * the schemas a document carries (a contract's `input`, `output` and `errors`, a surface tool's
 * `parameters`). The meta-schema itself is the one Ajv ships (bundled: the studio never fetches
 * a schema), with two changes editors need:
 * - its vocabularies are merged into one schema and `$dynamicRef: "#meta"` becomes a plain `$ref`
 *   to it, which is what the dynamic reference resolves to when this meta-schema is the dialect
 *   (Monaco's JSON service and the studio's YAML assist follow `$ref` only);
 * - each keyword gets a short description, shown on hover and beside completions.
 */

export type JsonSchema = Record<string, unknown>;

/** Where the meta-schema sits in a document schema's `$defs`. */
export const META_DEF = 'json-schema-2020-12';
const ROOT_REF = `#/$defs/${META_DEF}`;

const KEYWORD_DOCS: Record<string, string> = {
  $id: 'Identifies this schema (a URI); `$ref`s elsewhere in the document may point to it.',
  $schema: 'The dialect; Toolgate reads JSON Schema 2020-12 (`https://json-schema.org/draft/2020-12/schema`), or leave it out.',
  $ref: 'Applies another schema here: `#/$defs/name`, or the `$id` of a schema in this document. Remote references are refused.',
  $anchor: 'A plain name for this subschema, for `$ref: "#name"`.',
  $dynamicRef: 'A reference resolved in the dynamic scope (recursive schemas). Must stay inside the document.',
  $dynamicAnchor: 'A name `$dynamicRef` can resolve to.',
  $vocabulary: 'Meta-schemas only: the vocabularies a dialect uses.',
  $comment: 'A note for people reading the schema; ignored by validation.',
  $defs: 'Reusable subschemas, referenced as `#/$defs/<name>`.',
  prefixItems: 'Schemas for the first items of an array, by position (tuples).',
  items: 'The schema every array item (after `prefixItems`) must match.',
  contains: 'At least one array item must match this schema (see `minContains`, `maxContains`).',
  additionalProperties: 'The schema for object members not named in `properties` or matched by `patternProperties`; `false` forbids them.',
  properties: 'The schema of each named object member. Members are optional unless listed in `required`.',
  patternProperties: 'Schemas for object members whose names match a regex (RE2 syntax: no lookaround or backreferences).',
  dependentSchemas: 'When the named member is present, the whole object must also match this schema.',
  propertyNames: 'The schema every member name must match (a string schema).',
  if: 'When the value matches `if`, it must match `then`; otherwise `else`.',
  then: 'Applies when `if` matches.',
  else: 'Applies when `if` does not match.',
  allOf: 'The value must match every schema in the list.',
  anyOf: 'The value must match at least one schema in the list.',
  oneOf: 'The value must match exactly one schema in the list.',
  not: 'The value must not match this schema.',
  unevaluatedItems: 'The schema for array items no other keyword (here or in applied subschemas) evaluated.',
  unevaluatedProperties: 'The schema for members no other keyword evaluated; `false` forbids them, seeing through `allOf`/`$ref`.',
  type: 'The JSON type(s) allowed: `string`, `number`, `integer`, `boolean`, `object`, `array`, `null`, or a list of them.',
  const: 'The value must equal this exactly.',
  enum: 'The value must equal one of these. An empty list admits nothing (CONTRACT_EMPTY_ENUM).',
  multipleOf: 'A number must be a multiple of this (greater than 0).',
  maximum: 'A number must be at most this.',
  exclusiveMaximum: 'A number must be less than this.',
  minimum: 'A number must be at least this.',
  exclusiveMinimum: 'A number must be greater than this.',
  maxLength: 'A string may have at most this many characters (a non-negative integer).',
  minLength: 'A string must have at least this many characters (a non-negative integer).',
  pattern:
    'A string must match this regex, unanchored: write `^…$` to match the whole string. RE2 syntax (no lookaround or backreferences).',
  maxItems: 'An array may have at most this many items.',
  minItems: 'An array must have at least this many items.',
  uniqueItems: 'When true, no two array items may be equal.',
  maxContains: 'At most this many items may match `contains`.',
  minContains: 'At least this many items must match `contains` (default 1).',
  maxProperties: 'An object may have at most this many members.',
  minProperties: 'An object must have at least this many members.',
  required: 'Members the object must have. Each should be declared in `properties` (CONTRACT_REQUIRED_NOT_IN_PROPERTIES).',
  dependentRequired: 'When the named member is present, these members are required too.',
  title: 'A short name for the value, for people and models.',
  description: 'What the value means, written for the model that fills it in.',
  default: 'The value assumed when none is given (an annotation: not filled in by validation).',
  deprecated: 'Marks the value as deprecated.',
  readOnly: 'The value is managed by the tool and should not be sent.',
  writeOnly: 'The value is sent but never returned.',
  examples: 'Example values, for people and models.',
  format:
    'A string format (`date-time`, `email`, `uri`, `uuid`, …), checked at run time; one Toolgate does not know is refused (CONTRACT_UNKNOWN_FORMAT).',
  contentEncoding: 'How a string encodes binary data (`base64`, …); an annotation.',
  contentMediaType: 'The media type of a string’s content (`application/json`, …); an annotation.',
  contentSchema: 'The schema of a string’s decoded content; an annotation.',
};

const VOCABULARIES = [core, applicator, unevaluated, validation, metaData, formatAnnotation, content] as unknown as JsonSchema[];

/** References inside the meta-schema, made relative to where it is embedded. */
function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (!isPlainObject(value)) return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '$dynamicRef' && inner === '#meta') out.$ref = ROOT_REF;
    else if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')) out.$ref = `${ROOT_REF}${inner.slice(1)}`;
    else out[key] = rewrite(inner);
  }
  return out;
}

let cached: JsonSchema | undefined;

/** The merged, documented 2020-12 meta-schema, meant for `$defs[META_DEF]` of a document schema. */
export function jsonSchemaMetaSchema(): JsonSchema {
  if (cached) return cached;
  const properties: JsonSchema = {};
  const defs: JsonSchema = {};
  for (const vocabulary of VOCABULARIES) {
    for (const [keyword, schema] of Object.entries(vocabulary.properties as JsonSchema)) {
      // `true` (any value) as `{}`, the same schema, which can carry the keyword's docs.
      const rewritten = schema === true ? {} : rewrite(schema);
      const docs = KEYWORD_DOCS[keyword];
      // Monaco's hover renders `markdownDescription`; the YAML assist renders `description`.
      properties[keyword] = docs && isPlainObject(rewritten) ? { ...rewritten, description: docs, markdownDescription: docs } : rewritten;
    }
    Object.assign(defs, rewrite(vocabulary.$defs ?? {}));
  }
  cached = {
    title: 'JSON Schema 2020-12',
    description: 'A JSON Schema (2020-12).',
    type: ['object', 'boolean'],
    properties,
    $defs: defs,
  };
  return cached;
}

/** Where a document schema embeds a JSON Schema: an object value described as one, with no shape of its own. */
function embedsJsonSchema(node: JsonSchema): boolean {
  return (
    typeof node.description === 'string' && /^JSON Schema\b/.test(node.description) && node.type === 'object' && !('properties' in node)
  );
}

/**
 * The document format's schema with every embedded JSON Schema position pointing to the 2020-12
 * meta-schema (added to its `$defs`), so editors complete and explain keywords there too.
 * Returns a copy; JSON pointers of the positions are in `embeddedAt` for tests.
 */
export function withEmbeddedJsonSchemas(documentSchema: JsonSchema): { schema: JsonSchema; embeddedAt: string[] } {
  const embeddedAt: string[] = [];
  const walk = (node: unknown, pointer: string, depth: number): unknown => {
    if (depth > 64) return node;
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${pointer}/${i}`, depth + 1));
    if (!isPlainObject(node)) return node;
    if (pointer !== '' && embedsJsonSchema(node)) {
      embeddedAt.push(pointer);
      return { $ref: ROOT_REF, description: node.description };
    }
    const out: JsonSchema = {};
    for (const [key, inner] of Object.entries(node))
      out[key] = walk(inner, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
    return out;
  };
  const schema = walk(documentSchema, '', 0) as JsonSchema;
  if (embeddedAt.length === 0) return { schema: documentSchema, embeddedAt };
  schema.$defs = { ...(isPlainObject(schema.$defs) ? schema.$defs : {}), [META_DEF]: jsonSchemaMetaSchema() };
  return { schema, embeddedAt };
}
