import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanPrompt } from '../lint/prompt-scan';
import { SURFACE_SCHEMA_ID, SurfaceArgConstraintSchema, SurfaceSchema, surfaceJsonSchema, surfaceToolBranch } from './surface-schema';
import { TOOL_NAME_PATTERN } from '@toolgate/sdk/core';

const valid = {
  id: 'support-agent',
  version: '1.0.0',
  tools: [
    { contract: 'orders.lookup', executor: 'orders-service', defer_loading: true },
    {
      name: 'run_command',
      parameters: { type: 'object', properties: { command: { type: 'string' } } },
      annotations: {
        kind: 'execute',
        side_effect_level: 'process_exec',
        emits_artifacts: true,
        result_readers: ['read_command_output'],
        inline_result: false,
        arg_aliases: { cmd: 'command' },
      },
      executor: 'sandbox',
    },
  ],
  policy: {
    tools: ['orders.*'],
    side_effect_ceiling: 'write',
    arg_constraints: [{ tool: 'run_command', key: 'command', pattern: '^ls( .*)?$' }],
  },
  approval_policy: { rules: [{ tools: ['payments.*'], roles: ['approver'], expires_in_seconds: 3600, approvers_required: 1 }] },
  system: 'Be brief.',
  tool_search: false,
};

function propertiesWithoutDescription(schema: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const missing: string[] = [];
  for (const [key, sub] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
    if (typeof sub.description !== 'string') missing.push(`${path}.${key}`);
    missing.push(...propertiesWithoutDescription(sub, `${path}.${key}`));
  }
  for (const keyword of ['items', 'anyOf', 'oneOf', 'additionalProperties']) {
    const sub = node[keyword];
    for (const s of Array.isArray(sub) ? sub : [sub]) missing.push(...propertiesWithoutDescription(s, `${path}.${keyword}`));
  }
  return missing;
}

describe('SurfaceSchema', () => {
  it('accepts the documented example and rejects unknown fields at every level', () => {
    expect(SurfaceSchema.safeParse(valid).success).toBe(true);
    expect(SurfaceSchema.safeParse({ ...valid, surprise: 1 }).success).toBe(false);
    expect(SurfaceSchema.safeParse({ ...valid, tools: [{ contract: 'orders.lookup', name: 'x' }] }).success).toBe(false);
    expect(SurfaceSchema.safeParse({ ...valid, policy: { ...valid.policy, ceiling: 'write' } }).success).toBe(false);
  });

  it('checks ids, versions, tool names and patterns', () => {
    expect(SurfaceSchema.safeParse({ ...valid, id: 'Support' }).success).toBe(false);
    expect(SurfaceSchema.safeParse({ ...valid, version: '1.0' }).success).toBe(false);
    for (const name of ['run_command', 'orders.lookup', 'get-weather', '_x1']) expect(TOOL_NAME_PATTERN.test(name)).toBe(true);
    for (const name of ['1tool', 'a..b', 'a.', 'a b', '']) expect(TOOL_NAME_PATTERN.test(name)).toBe(false);
    expect(SurfaceSchema.safeParse({ ...valid, policy: { tools: ['orders.(x)'] } }).success).toBe(false);
    expect(SurfaceSchema.safeParse({ ...valid, tools: Array.from({ length: 2001 }, (_, i) => ({ contract: `a.t${i}` })) }).success).toBe(
      false,
    );
  });

  it('requires exactly one of allowed_values and pattern in an argument constraint', () => {
    expect(SurfaceArgConstraintSchema.safeParse({ tool: 't', key: 'k', allowed_values: ['a'] }).success).toBe(true);
    expect(SurfaceArgConstraintSchema.safeParse({ tool: 't', key: 'k' }).success).toBe(false);
    expect(SurfaceArgConstraintSchema.safeParse({ tool: 't', key: 'k', allowed_values: ['a'], pattern: 'a' }).success).toBe(false);
  });

  it('tells a contract reference from an inline tool by its fields', () => {
    expect(surfaceToolBranch({ contract: 'a.b', name: 'x' })).toBe('contract');
    expect(surfaceToolBranch({ name: 'x' })).toBe('inline');
    expect(surfaceToolBranch({ executor: 'x' })).toBeUndefined();
    expect(surfaceToolBranch(Object.create({ contract: 'a.b' }))).toBeUndefined();
  });

  it('generates a 2020-12 JSON Schema with an $id and a description on every field', () => {
    const schema = surfaceJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(SURFACE_SCHEMA_ID);
    expect(propertiesWithoutDescription(schema)).toEqual([]);
    expect((schema.properties as Record<string, unknown>).tools).toMatchObject({
      items: { anyOf: [{ required: ['contract'] }, { required: ['name'] }] },
    });
  });

  it('every valid tool name is one word to the prompt scanner', () => {
    const name = fc.stringMatching(TOOL_NAME_PATTERN, { size: 'small' }).filter((s) => s.length <= 128);
    fc.assert(
      fc.property(name, (n) => {
        expect(scanPrompt(`Call ${n}(x), or ${n}.`).words.map((w) => w.text)).toEqual(['Call', n, 'x', 'or', n]);
      }),
      { numRuns: 300 },
    );
  });
});
