import type Ajv2020 from 'ajv/dist/2020.js';
import { _, type KeywordCxt } from 'ajv/dist/2020.js';
import { getSchemaTypes } from 'ajv/dist/compile/validate/dataType.js';
import type { CodeKeywordDefinition } from 'ajv/dist/types';
import { canonicalJson } from './canonical-json-core';
import { CHARACTERS_PER_STEP } from './condition-cost';
import { chargeSchemaSteps } from './schema-cost';

/**
 * `uniqueItems` and `enum` compare JSON values. Ajv compares each item with every other item
 * (uniqueItems on objects or arrays) and each value with every allowed value (enum), so a
 * 1 MB argument of 150,000 items against an enum of 20,000 strings took 9 s, and
 * `uniqueItems` on 20,000 small objects 4.7 s: the caller chooses the item count. Here each
 * value is reduced once to its canonical JSON text (equal JSON values, whatever their key
 * order, have the same text) and looked up in a hash table: linear in the size of the data.
 */

/**
 * The canonical JSON text of a value, or null when it has none (undefined, NaN, a function:
 * never in parsed JSON or YAML). Such values are compared by identity only.
 */
function jsonKey(value: unknown): string | null {
  try {
    return canonicalJson(value);
  } catch {
    return null;
  }
}

/**
 * The pair Ajv reports for a duplicate: the last item equal to an earlier one (`i`) and the
 * nearest earlier item it equals (`j`), or null when the items are unique.
 */
export function findDuplicateItems(items: readonly unknown[]): [number, number] | null {
  if (items.length <= SHORT_ARRAY) return findDuplicateFew(items);
  // Scalars are their own keys (a Map compares them as `===` does, NaN aside); objects and
  // arrays are keyed by their text, in a map of their own so that "1" never meets 1.
  const lastScalar = new Map<unknown, number>();
  const lastText = new Map<string, number>();
  let found: [number, number] | null = null;
  let characters = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    let j: number | undefined;
    if (typeof item !== 'object' || item === null) {
      if (typeof item === 'string') characters += item.length;
      j = lastScalar.get(item);
      lastScalar.set(item, i);
    } else {
      const key = jsonKey(item);
      if (key === null) continue;
      characters += key.length;
      j = lastText.get(key);
      lastText.set(key, i);
    }
    if (j !== undefined) found = [i, j];
  }
  // Linear, but repeated by every branch or reference that reaches the array (schema-cost.ts).
  chargeSchemaSteps(items.length + Math.ceil(characters / CHARACTERS_PER_STEP));
  return found;
}

/** Arrays this short are compared pair by pair: two hash tables cost more than a few comparisons. */
const SHORT_ARRAY = 8;

/** findDuplicateItems for a short array, with the same answer. */
function findDuplicateFew(items: readonly unknown[]): [number, number] | null {
  // An object's or array's text, computed once; undefined for scalars (compared with ===).
  const texts: (string | null | undefined)[] = [];
  let characters = 0;
  for (const item of items) {
    if (typeof item === 'string') characters += item.length;
    const text = typeof item === 'object' && item !== null ? jsonKey(item) : undefined;
    if (text) characters += text.length;
    texts.push(text);
  }
  let found: [number, number] | null = null;
  for (let i = 1; i < items.length; i++) {
    const text = texts[i];
    if (text === null) continue;
    for (let j = i - 1; j >= 0; j--) {
      if (text === undefined ? texts[j] === undefined && items[i] === items[j] : texts[j] === text) {
        found = [i, j];
        break;
      }
    }
  }
  chargeSchemaSteps(items.length + Math.ceil(characters / CHARACTERS_PER_STEP));
  return found;
}

/** The allowed values' texts, built once per enum (the schema's array lives as long as its validator). */
const enumKeys = new WeakMap<readonly unknown[], Set<string>>();

export function enumIncludes(allowed: readonly unknown[], value: unknown): boolean {
  let keys = enumKeys.get(allowed);
  if (keys === undefined) {
    keys = new Set();
    for (const option of allowed) {
      const key = jsonKey(option);
      if (key !== null) keys.add(key);
    }
    enumKeys.set(allowed, keys);
  }
  const key = jsonKey(value);
  chargeSchemaSteps(1 + Math.ceil((key?.length ?? 0) / CHARACTERS_PER_STEP));
  return key === null ? allowed.includes(value) : keys.has(key);
}

/**
 * Enums shorter than this keep Ajv's code, which compares a scalar with `===` inline: a few
 * comparisons cost less than serialising the value.
 */
const SHORT_ENUM = 16;

function codeOf(ajv: Ajv2020, keyword: string): CodeKeywordDefinition {
  const definition = ajv.getKeyword(keyword);
  if (typeof definition !== 'object' || typeof (definition as CodeKeywordDefinition).code !== 'function') {
    throw new Error(`Ajv has no ${keyword} keyword to adjust`);
  }
  return definition as CodeKeywordDefinition;
}

/** Same keywords, same errors and params; only the comparison is done by hashing. */
export function addLinearEquality(ajv: Ajv2020): void {
  const uniqueItems = codeOf(ajv, 'uniqueItems');
  const ajvUniqueItems = uniqueItems.code;
  uniqueItems.code = (cxt: KeywordCxt, ruleType) => {
    const { gen, data, schema, parentSchema } = cxt;
    // Items typed as scalars already take Ajv's linear loop (a hash by value).
    const itemTypes = parentSchema.items ? getSchemaTypes(parentSchema.items) : [];
    if (cxt.$data || (itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array'))) {
      ajvUniqueItems(cxt, ruleType);
      return;
    }
    if (!schema) return;
    const find = gen.scopeValue('func', { ref: findDuplicateItems });
    const duplicate = gen.const('duplicate', _`${find}(${data})`);
    cxt.setParams({ i: _`${duplicate}[0]`, j: _`${duplicate}[1]` });
    cxt.fail(_`${duplicate} !== null`);
  };

  const enumKeyword = codeOf(ajv, 'enum');
  const ajvEnum = enumKeyword.code;
  enumKeyword.code = (cxt: KeywordCxt, ruleType) => {
    if (cxt.$data || !Array.isArray(cxt.schema) || cxt.schema.length < SHORT_ENUM) {
      ajvEnum(cxt, ruleType);
      return;
    }
    const includes = cxt.gen.scopeValue('func', { ref: enumIncludes });
    cxt.pass(_`${includes}(${cxt.schemaCode}, ${cxt.data})`);
  };
}
