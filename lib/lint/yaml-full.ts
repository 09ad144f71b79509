import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument as parseYaml, type Node as YamlNode, type YAMLError } from 'yaml';
import type { SpanNode } from './json-syntax';
import { YAML_OPTIONS } from './yaml-fast-scalars';

/**
 * Any YAML through the `yaml` package (YAML 1.2 core schema, unique keys, strict), turned into
 * plain data and a span tree. The reference for yaml-fast.ts, and the path for everything it
 * does not accept, syntax errors included.
 */

export type FullYamlResult =
  { kind: 'ok'; value: unknown; spans: SpanNode } | { kind: 'errors'; errors: YAMLError[] } | { kind: 'limit'; message: string };

class LimitError extends Error {}

/**
 * `maxChars` bounds the characters of the strings and keys the value holds, aliases expanded:
 * 200,000 values may each be an alias of a 900 KB string, and everything after the parse
 * (canonical JSON, hashing, matching) reads each copy.
 */
export function parseYamlFull(text: string, maxNodes: number, maxDepth: number, maxChars = Number.POSITIVE_INFINITY): FullYamlResult {
  const doc = parseYaml(text, YAML_OPTIONS);
  if (doc.errors.length > 0) return { kind: 'errors', errors: doc.errors };

  let nodes = 0;
  let chars = 0;
  const countChars = (n: number) => {
    chars += n;
    if (chars > maxChars) throw new LimitError(`The document expands to more than ${maxChars} characters of strings (aliases included).`);
  };
  // An alias names the last anchor of that name before it in the text. `Alias.resolve` finds it
  // by walking the whole document for each alias, so a document of aliases took quadratic time
  // (a 519 KB policy: 20 s). The walk below visits nodes in text order, so it keeps that table
  // itself: anchors are recorded as first met, not again while an alias is being expanded.
  const anchors = new Map<string, YamlNode>();
  const note = (node: YamlNode | null | undefined, expanding: boolean) => {
    if (!expanding && node && !isAlias(node) && node.anchor) anchors.set(node.anchor, node);
  };
  const convert = (node: YamlNode | null | undefined, span: SpanNode, depth: number, expanding: boolean): unknown => {
    if (++nodes > maxNodes) throw new LimitError(`The document expands to more than ${maxNodes} values (aliases included).`);
    if (depth > maxDepth) throw new LimitError(`The document nests deeper than ${maxDepth} levels.`);
    if (node == null) return null;
    if (isAlias(node)) return convert(anchors.get(node.source), span, depth + 1, true);
    note(node, expanding);
    if (node.range) span.value = [node.range[0], node.range[1]];
    if (isScalar(node)) {
      if (typeof node.value === 'string') countChars(node.value.length);
      return node.value ?? null;
    }
    if (isSeq(node)) {
      const children: SpanNode[] = [];
      span.children = children;
      return node.items.map((item) => {
        const child: SpanNode = { value: span.value };
        children.push(child);
        return convert(item as YamlNode, child, depth + 1, expanding);
      });
    }
    if (isMap(node)) {
      // Members are defined, never assigned: an own `__proto__` key stays data (as with
      // JSON.parse) instead of replacing the object's prototype.
      const out: Record<string, unknown> = {};
      const children = new Map<string, SpanNode>();
      span.children = children;
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as YamlNode | null;
        note(keyNode, expanding);
        const rawKey = isScalar(keyNode) ? keyNode.value : keyNode == null ? null : undefined;
        if (rawKey === undefined) throw new LimitError('Only plain keys (strings and numbers) are allowed in maps.');
        const key = String(rawKey);
        countChars(key.length);
        const child: SpanNode = {
          value: span.value,
          ...(keyNode?.range ? { key: [keyNode.range[0], keyNode.range[1]] as [number, number] } : {}),
        };
        if (child.key) child.value = child.key;
        children.set(key, child);
        Object.defineProperty(out, key, {
          value: convert(pair.value as YamlNode | null, child, depth + 1, expanding),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return null;
  };

  try {
    const top: SpanNode = { value: [0, text.length] };
    const value = convert(doc.contents as YamlNode | null, top, 0, false);
    return { kind: 'ok', value, spans: top };
  } catch (error) {
    if (error instanceof LimitError) return { kind: 'limit', message: error.message };
    throw error;
  }
}
