/**
 * A JSON parser that also says where every value sits in the text, and where the first syntax
 * error is. `JSON.parse` gives neither reliably (Node 20 often quotes a snippet instead of an
 * offset) and going through the YAML parser for JSON was ten times slower. Linear time; nesting
 * is bounded so recursion cannot overflow.
 */

/** Where a value (and, for object members, its key) sits; children mirror the value's shape. */
export interface SpanNode {
  key?: [number, number];
  value: [number, number];
  children?: Map<string, SpanNode> | SpanNode[];
}

export type JsonParseResult =
  { ok: true; value: unknown; spans: SpanNode } | { ok: false; offset: number; message: string; tooDeep?: boolean };

class JsonError extends Error {
  constructor(
    readonly offset: number,
    message: string,
    readonly tooDeep = false,
  ) {
    super(message);
  }
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const SIMPLE_STRING_END = /["\\\u0000-\u001f]/g;

export function parseJsonWithSpans(text: string, maxDepth = 64): JsonParseResult {
  let i = 0;
  const n = text.length;

  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const describe = (at: number) => (at >= n ? 'the end of the document' : `'${text[at]}'`);

  const string = (): string => {
    const start = i;
    SIMPLE_STRING_END.lastIndex = i + 1;
    const stop = SIMPLE_STRING_END.exec(text);
    if (stop && stop[0] === '"') {
      i = stop.index + 1;
      return text.slice(start + 1, stop.index);
    }
    // Escapes or a control character: validate by hand, then let JSON.parse decode.
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return JSON.parse(text.slice(start, i)) as string;
      }
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new JsonError(i, 'Invalid \\u escape in string');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new JsonError(i, 'Invalid escape in string');
      } else if (c < 32) throw new JsonError(i, 'Control character in string (use an escape such as \\n)');
      else i++;
    }
    throw new JsonError(n, 'Unterminated string');
  };

  const value = (depth: number, node: SpanNode): unknown => {
    if (depth > maxDepth) throw new JsonError(i, `The document nests deeper than ${maxDepth} levels.`, true);
    ws();
    const start = i;
    const ch = text[i];
    let result: unknown;
    if (ch === '{') {
      i++;
      const out: Record<string, unknown> = {};
      const children = new Map<string, SpanNode>();
      ws();
      if (text[i] === '}') i++;
      else {
        for (;;) {
          ws();
          if (text[i] !== '"') throw new JsonError(i, `Expected a double-quoted property name, found ${describe(i)}`);
          const keyStart = i;
          const key = string();
          const child: SpanNode = { key: [keyStart, i], value: [i, i] };
          ws();
          if (text[i] !== ':') throw new JsonError(i, `Expected ':' after the property name, found ${describe(i)}`);
          i++;
          // Defined, never assigned: an own `__proto__` key stays data, as with JSON.parse.
          Object.defineProperty(out, key, { value: value(depth + 1, child), enumerable: true, writable: true, configurable: true });
          if (children.has(key)) throw new JsonError(keyStart, `Duplicate key "${key.slice(0, 100)}"`);
          children.set(key, child);
          ws();
          if (text[i] === ',') {
            const comma = i++;
            ws();
            if (text[i] === '}') throw new JsonError(comma, 'Trailing comma');
            continue;
          }
          if (text[i] === '}') {
            i++;
            break;
          }
          throw new JsonError(i, `Expected ',' or '}', found ${describe(i)}`);
        }
      }
      node.children = children;
      result = out;
    } else if (ch === '[') {
      i++;
      const out: unknown[] = [];
      const children: SpanNode[] = [];
      ws();
      if (text[i] === ']') i++;
      else {
        for (;;) {
          const child: SpanNode = { value: [i, i] };
          out.push(value(depth + 1, child));
          children.push(child);
          ws();
          if (text[i] === ',') {
            const comma = i++;
            ws();
            if (text[i] === ']') throw new JsonError(comma, 'Trailing comma');
            continue;
          }
          if (text[i] === ']') {
            i++;
            break;
          }
          throw new JsonError(i, `Expected ',' or ']', found ${describe(i)}`);
        }
      }
      node.children = children;
      result = out;
    } else if (ch === '"') {
      result = string();
    } else if (text.startsWith('true', i)) {
      i += 4;
      result = true;
    } else if (text.startsWith('false', i)) {
      i += 5;
      result = false;
    } else if (text.startsWith('null', i)) {
      i += 4;
      result = null;
    } else {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m || m[0].length === 0)
        throw new JsonError(i, i >= n ? 'Unexpected end of the document' : `Expected a value, found ${describe(i)}`);
      i += m[0].length;
      result = Number(m[0]);
    }
    node.value = [start, i];
    return result;
  };

  try {
    const root: SpanNode = { value: [0, 0] };
    const result = value(0, root);
    ws();
    if (i < n) throw new JsonError(i, `Unexpected ${describe(i)} after the end of the document`);
    return { ok: true, value: result, spans: root };
  } catch (error) {
    if (error instanceof JsonError) return { ok: false, offset: Math.min(error.offset, n), message: error.message, tooDeep: error.tooDeep };
    throw error;
  }
}

/** The first syntax error, or null for valid JSON. */
export function findJsonSyntaxError(text: string): { offset: number; message: string } | null {
  const result = parseJsonWithSpans(text, 1000);
  return result.ok ? null : { offset: result.offset, message: result.message };
}
