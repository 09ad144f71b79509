import { isJsonObject } from '../../lib/json';
/**
 * Hover docs and completions for YAML documents from the format's JSON Schema. Monaco's JSON
 * language service does this for JSON; for YAML the studio reads the cursor's place from the
 * indentation of the lines above it, which works on half-typed text that no parser accepts.
 */

export type JsonSchema = Record<string, unknown>;
/** A step from a value to a child: an object member, or any item of an array. */
export type SchemaStep = { key: string } | { item: true };

export interface YamlCursor {
  /** Path of the mapping (or sequence item) the cursor line belongs to. */
  path: SchemaStep[];
  /** The key written on the cursor line, if any. */
  key?: string;
  /** `key`: the cursor is on (or typing) a key; `value`: after `key:`; `item`: after `- `. */
  at: 'key' | 'value' | 'item';
  /** Keys already present beside the cursor line, so completions do not offer them again. */
  siblings: string[];
}

interface Line {
  blank: boolean;
  indent: number;
  dash: boolean;
  /** Column (0-based) where the line's content starts after any `- `. */
  content: number;
  key?: string;
  /** 0-based column just after the key's colon. */
  colon?: number;
  emptyValue: boolean;
}

const KEY = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"{[\]}&*!|>%@`-][^:#]*?|-[^\s:#][^:#]*?)\s*:(?=\s|$)/;
/** Lines are bounded so a pasted single-line megabyte cannot make each hover slow. */
const MAX_LINE = 2_000;

function readLine(raw: string): Line {
  const text = raw.length > MAX_LINE ? raw.slice(0, MAX_LINE) : raw;
  const indent = text.length - text.trimStart().length;
  const rest = text.slice(indent);
  if (rest === '' || rest.startsWith('#')) return { blank: true, indent, dash: false, content: indent, emptyValue: true };
  const dashMatch = /^-(?:\s+|$)/.exec(rest);
  const content = indent + (dashMatch ? dashMatch[0].length : 0);
  const body = text.slice(content);
  const keyMatch = KEY.exec(body);
  if (!keyMatch) return { blank: false, indent, dash: !!dashMatch, content, emptyValue: false };
  const rawKey = keyMatch[1] ?? '';
  const key = /^["']/.test(rawKey) ? rawKey.slice(1, -1) : rawKey.trim();
  const after = body.slice(keyMatch[0].length).trim();
  return {
    blank: false,
    indent,
    dash: !!dashMatch,
    content,
    key,
    colon: content + keyMatch[0].length,
    emptyValue: after === '' || after.startsWith('#'),
  };
}

/** Where the cursor is, structurally. `line` and `column` are 1-based (Monaco's positions). */
export function yamlCursorAt(text: string, line: number, column: number): YamlCursor {
  const lines = text.split('\n').map((l) => readLine(l.replace(/\r$/, '')));
  const index = Math.min(Math.max(line - 1, 0), lines.length - 1);
  const current = lines[index] ?? readLine('');
  const col = column - 1;

  let at: YamlCursor['at'] = 'key';
  let key = current.key;
  if (current.key !== undefined && current.colon !== undefined && col >= current.colon) at = 'value';
  else if (current.dash && current.key === undefined && col >= current.content) at = 'item';
  if (at === 'item') key = undefined;

  const path: SchemaStep[] = [];
  // Only lines indented less than `limit` can hold the cursor line.
  let limit = current.blank ? col : current.content;
  // A sequence written flush with its key (`key:\n- a`) has the key at the items' indent.
  let sequenceIndent: number | undefined;
  if (current.dash) {
    path.unshift({ item: true });
    limit = current.indent;
    sequenceIndent = current.indent;
  }
  for (let j = index - 1; j >= 0 && limit > 0; j--) {
    const above = lines[j];
    if (!above || above.blank) continue;
    if (above.key !== undefined && above.emptyValue && above.content < limit) {
      path.unshift({ key: above.key });
      if (above.dash) path.unshift({ item: true });
      limit = above.indent;
      sequenceIndent = above.dash ? above.indent : undefined;
    } else if (above.dash && above.indent < limit && above.content <= limit) {
      path.unshift({ item: true });
      limit = above.indent;
      sequenceIndent = above.indent;
    } else if (
      sequenceIndent !== undefined &&
      above.key !== undefined &&
      above.emptyValue &&
      !above.dash &&
      above.indent === sequenceIndent
    ) {
      path.unshift({ key: above.key });
      limit = above.indent;
      sequenceIndent = undefined;
    } else if (above.indent < limit) {
      break;
    }
  }
  // `limit > 0` stops the walk early at the top level, but a flush sequence there still has its key.
  if (limit === 0 && sequenceIndent === 0) {
    for (let j = index - 1; j >= 0; j--) {
      const above = lines[j];
      if (!above || above.blank || above.dash || above.indent > 0) continue;
      if (above.key !== undefined && above.emptyValue && above.indent === 0) path.unshift({ key: above.key });
      break;
    }
  }

  const siblings = at === 'key' ? siblingKeys(lines, index, current.blank ? col : current.content, current.dash) : [];
  return { path, key, at, siblings };
}

/** Keys of the same mapping as line `index`, whose keys start at `column`. */
function siblingKeys(lines: Line[], index: number, column: number, startsItem: boolean): string[] {
  const keys: string[] = [];
  for (let j = index - 1; j >= 0 && !startsItem; j--) {
    const l = lines[j];
    if (!l || l.blank) continue;
    if (l.content === column && l.key !== undefined) keys.push(l.key);
    if (l.indent < column || (l.dash && l.content === column)) break;
  }
  for (let j = index + 1; j < lines.length; j++) {
    const l = lines[j];
    if (!l || l.blank) continue;
    if (l.indent < column || (l.dash && l.indent <= column)) break;
    if (l.content === column && l.key !== undefined) keys.push(l.key);
  }
  return keys;
}

const MAX_REF_HOPS = 32;

function asSchema(value: unknown): JsonSchema | undefined {
  return isJsonObject(value) ? (value as JsonSchema) : undefined;
}

/**
 * Follows local `$ref`s (`#/$defs/x`); remote references are never fetched. A description
 * beside a `$ref` describes this use of the target, so it wins over the target's own.
 */
function deref(root: JsonSchema, schema: JsonSchema | undefined): JsonSchema | undefined {
  let current = schema;
  let description: string | undefined;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < MAX_REF_HOPS; hops++) {
    description ??= typeof current.description === 'string' ? current.description : undefined;
    const ref = current.$ref;
    if (!ref.startsWith('#')) return undefined;
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      const holder = asSchema(target) ?? (Array.isArray(target) ? (target as unknown as JsonSchema) : undefined);
      target = holder && Object.prototype.hasOwnProperty.call(holder, part) ? holder[part] : undefined;
    }
    current = asSchema(target);
  }
  return current && description !== undefined ? { ...current, description } : current;
}

/** The schema itself and its `anyOf`/`oneOf`/`allOf` branches, dereferenced. */
function variants(root: JsonSchema, schema: JsonSchema | undefined): JsonSchema[] {
  const resolved = deref(root, schema);
  if (!resolved) return [];
  const out = [resolved];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = resolved[keyword];
    if (Array.isArray(list)) for (const branch of list.slice(0, 20)) out.push(...variants(root, asSchema(branch)));
  }
  return out;
}

function ownProperty(schema: JsonSchema, keyword: string, name: string): JsonSchema | undefined {
  const holder = asSchema(schema[keyword]);
  return holder && Object.prototype.hasOwnProperty.call(holder, name) ? asSchema(holder[name]) : undefined;
}

export function schemaAt(root: JsonSchema, path: readonly SchemaStep[]): JsonSchema | undefined {
  let current: JsonSchema | undefined = root;
  for (const step of path) {
    const options = variants(root, current);
    let next: JsonSchema | undefined;
    for (const option of options) {
      next =
        'key' in step ? (ownProperty(option, 'properties', step.key) ?? asSchema(option.additionalProperties)) : asSchema(option.items);
      if (next) break;
    }
    if (!next) return undefined;
    current = next;
  }
  return deref(root, current);
}

export interface PropertyDoc {
  name: string;
  description?: string;
  type?: string;
  required: boolean;
}

export function propertiesOf(root: JsonSchema, schema: JsonSchema | undefined): PropertyDoc[] {
  const seen = new Map<string, PropertyDoc>();
  for (const option of variants(root, schema)) {
    const properties = asSchema(option.properties);
    const required = Array.isArray(option.required) ? (option.required as unknown[]) : [];
    if (!properties) continue;
    for (const name of Object.keys(properties)) {
      if (seen.has(name)) continue;
      const property = deref(root, asSchema(properties[name]));
      seen.set(name, { name, description: describe(property), type: typeName(property), required: required.includes(name) });
    }
  }
  return [...seen.values()];
}

/** Literal values a schema allows (enum, const, booleans), as YAML scalars. */
export function valuesOf(root: JsonSchema, schema: JsonSchema | undefined): string[] {
  const values: string[] = [];
  for (const option of variants(root, schema)) {
    if (Array.isArray(option.enum)) for (const v of option.enum) if (v === null || typeof v !== 'object') values.push(String(v));
    if ('const' in option && (option.const === null || typeof option.const !== 'object')) values.push(String(option.const));
    if (option.type === 'boolean') values.push('true', 'false');
  }
  return [...new Set(values)];
}

function describe(schema: JsonSchema | undefined): string | undefined {
  return typeof schema?.description === 'string' ? schema.description : undefined;
}

function typeName(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (typeof schema.type === 'string')
    return schema.type === 'array' && typeName(asSchema(schema.items)) ? `${typeName(asSchema(schema.items))}[]` : schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return undefined;
}

/** Markdown for hovering over `key` (or its value) at `path`. */
export function hoverMarkdown(root: JsonSchema, cursor: YamlCursor): string | undefined {
  if (cursor.key === undefined) return undefined;
  const schema = schemaAt(root, [...cursor.path, { key: cursor.key }]);
  if (!schema) return undefined;
  const parts = [`**${cursor.key}**${typeName(schema) ? ` · \`${typeName(schema)}\`` : ''}`];
  const description = describe(schema);
  if (description) parts.push(description);
  const values = valuesOf(root, schema).filter((v) => v !== 'true' && v !== 'false');
  if (values.length) parts.push(`Allowed: ${values.map((v) => `\`${v}\``).join(', ')}`);
  if ('default' in schema) parts.push(`Default: \`${JSON.stringify(schema.default)}\``);
  return parts.join('\n\n');
}

export interface Suggestion {
  label: string;
  insertText: string;
  kind: 'property' | 'value';
  detail?: string;
  documentation?: string;
}

export function suggestionsAt(root: JsonSchema, cursor: YamlCursor): Suggestion[] {
  if (cursor.at === 'key') {
    const taken = new Set(cursor.siblings);
    return propertiesOf(root, schemaAt(root, cursor.path))
      .filter((p) => !taken.has(p.name))
      .map((p) => ({
        label: p.name,
        insertText: `${p.name}: `,
        kind: 'property',
        detail: [p.type, p.required ? 'required' : undefined].filter(Boolean).join(' · ') || undefined,
        documentation: p.description,
      }));
  }
  const schema =
    cursor.at === 'value' && cursor.key !== undefined ? schemaAt(root, [...cursor.path, { key: cursor.key }]) : schemaAt(root, cursor.path);
  const values: Suggestion[] = valuesOf(root, schema).map((v) => ({ label: v, insertText: v, kind: 'value' }));
  // After `- ` the item may be a scalar or the first key of an object item.
  if (cursor.at !== 'item') return values;
  return [...values, ...suggestionsAt(root, { ...cursor, at: 'key', siblings: [] })];
}
