import { describe, expect, it } from 'vitest';
import {
  compareSideEffectLevels,
  SIDE_EFFECT_LEVELS,
  TOOL_CONTRACT_SCHEMA_ID,
  ToolContractSchema,
  toolContractJsonSchema,
} from './contract-schema';
import { EXAMPLE_CONTRACTS } from './examples';

function propertiesWithoutDescription(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const missing: string[] = [];
  const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [key, sub] of Object.entries(properties ?? {})) {
    if (typeof sub.description !== 'string') missing.push(`${path}.${key}`);
    missing.push(...propertiesWithoutDescription(sub, `${path}.${key}`));
  }
  for (const keyword of ['items', 'anyOf', 'oneOf']) {
    const sub = node[keyword];
    for (const s of Array.isArray(sub) ? sub : [sub]) missing.push(...propertiesWithoutDescription(s, `${path}.${keyword}`));
  }
  return missing;
}

describe('ToolContractSchema', () => {
  it('accepts the examples and rejects unknown fields (strict)', () => {
    for (const example of EXAMPLE_CONTRACTS) expect(ToolContractSchema.safeParse(example).success).toBe(true);
    const [first] = EXAMPLE_CONTRACTS;
    expect(ToolContractSchema.safeParse({ ...first, surprise: 1 }).success).toBe(false);
    expect(ToolContractSchema.safeParse({ ...first, annotations: { ...first!.annotations, extra: true } }).success).toBe(false);
  });

  it('checks ids and versions', () => {
    const [first] = EXAMPLE_CONTRACTS;
    for (const id of ['cart.begin_checkout', 'a.b.c_1']) expect(ToolContractSchema.safeParse({ ...first, id }).success).toBe(true);
    for (const id of ['cart', 'Cart.x', 'cart..x', 'cart.1x', `a.${'b'.repeat(130)}`]) {
      expect(ToolContractSchema.safeParse({ ...first, id }).success).toBe(false);
    }
    for (const version of ['1.2.3', '0.0.1-alpha.1']) expect(ToolContractSchema.safeParse({ ...first, version }).success).toBe(true);
    for (const version of ['1.2', '01.2.3', 'v1.2.3']) expect(ToolContractSchema.safeParse({ ...first, version }).success).toBe(false);
  });

  it('generates a 2020-12 JSON Schema with an $id and a description on every field', () => {
    const schema = toolContractJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(TOOL_CONTRACT_SCHEMA_ID);
    expect(propertiesWithoutDescription(schema)).toEqual([]);
    // Defaulted fields are optional for authors.
    const annotations = (schema.properties as Record<string, { required?: string[] }>).annotations;
    expect(annotations?.required).not.toContain('confirmation_required');
  });
});

describe('compareSideEffectLevels', () => {
  it('orders levels from none to destructive', () => {
    expect(compareSideEffectLevels('none', 'destructive')).toBeLessThan(0);
    expect(compareSideEffectLevels('external', 'write')).toBeGreaterThan(0);
    expect(compareSideEffectLevels('write', 'write')).toBe(0);
    const sorted = [...SIDE_EFFECT_LEVELS].reverse().sort(compareSideEffectLevels);
    expect(sorted).toEqual([...SIDE_EFFECT_LEVELS]);
  });
});
