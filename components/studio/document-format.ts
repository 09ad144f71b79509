import { stringify as stringifyYaml } from 'yaml';
import { parseDocument } from '@/lib/lint/parse-document';
import type { DocumentSource } from '@/lib/documents/document-source';
import type { DocumentFormat } from '@/lib/lint/types';
import { isJsonObject } from '../../lib/json';

/**
 * Converts a document between the two text formats the studio edits. Parsing goes through the
 * linter's bounded parser (size, depth and alias limits; `__proto__` kept as data), never a bare
 * YAML parse, because the text is whatever an author pasted.
 */
export type Conversion = { ok: true; text: string; value: unknown } | { ok: false; message: string };

export function readDocument(text: string, format: DocumentFormat): Conversion {
  const parsed = parseDocument(text, format);
  if (parsed.value === undefined) {
    const first = parsed.diagnostics[0];
    const where = first ? ` (line ${first.range.startLine}, column ${first.range.startColumn})` : '';
    return { ok: false, message: `${first?.message ?? 'The document does not parse.'}${where}` };
  }
  return { ok: true, text, value: parsed.value };
}

export function formatDocument(value: unknown, format: DocumentFormat): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  // No anchors or aliases in the output: a reader must see every value where it applies.
  return stringifyYaml(value, { aliasDuplicateObjects: false, lineWidth: 0 });
}

export function convertDocument(text: string, from: DocumentFormat, to: DocumentFormat): Conversion {
  const read = readDocument(text, from);
  if (!read.ok || from === to) return read;
  return { ok: true, text: formatDocument(read.value, to), value: read.value };
}

type Schema = Record<string, unknown>;

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isJsonObject(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Stored documents come back in canonical JSON (keys sorted, for the content hash); authors read
 * them better in the format's own order (`id`, `version`, `description` first), so members the
 * JSON Schema lists come in its order and any others follow, sorted as they were.
 */
export function orderLikeSchema(value: unknown, schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => orderLikeSchema(item, asObject(schema.items), depth + 1));
  const object = asObject(value);
  const properties = asObject(schema.properties);
  if (!object || !properties) return value;
  const keys = Object.keys(object);
  const known = Object.keys(properties).filter((k) => Object.prototype.hasOwnProperty.call(object, k));
  const out: Record<string, unknown> = {};
  for (const key of [...known, ...keys.filter((k) => !known.includes(k))]) {
    const member = Object.prototype.hasOwnProperty.call(properties, key) ? asObject(properties[key]) : undefined;
    Object.defineProperty(out, key, {
      value: orderLikeSchema(object[key], member, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * What the editor opens a stored version with: the text the author saved it as, when it was
 * saved from the studio (their notation, key order and comments), else the canonical document
 * in the format's order as JSON. `leaveOut`: members edited beside the text (a surface's prompt).
 */
export function editorText(
  stored: { document: unknown; source: DocumentSource | null },
  schema: Schema | undefined,
  leaveOut: readonly string[] = [],
): { text: string; format: DocumentFormat } {
  if (stored.source) return { text: stored.source.text, format: stored.source.format };
  const ordered = orderLikeSchema(stored.document, schema);
  const object = asObject(ordered);
  const shown = object ? Object.fromEntries(Object.entries(object).filter(([key]) => !leaveOut.includes(key))) : ordered;
  return { text: formatDocument(shown, 'json'), format: 'json' };
}
