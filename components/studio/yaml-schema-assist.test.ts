import { describe, expect, it } from 'vitest';
import { toolContractJsonSchema } from '@/lib/contracts/contract-schema';
import { hoverMarkdown, schemaAt, suggestionsAt, yamlCursorAt, type JsonSchema } from './yaml-schema-assist';

const schema = toolContractJsonSchema();

/** Text with `|` marking the cursor; returns the text without it and the 1-based position. */
function at(marked: string): [string, number, number] {
  const offset = marked.indexOf('|');
  const before = marked.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return [marked.replace('|', ''), line, column];
}

describe('yamlCursorAt', () => {
  it('finds the mapping of a nested key from indentation', () => {
    expect(yamlCursorAt(...at('id: a\nannotations:\n  kind: query\n  side_eff|ect_level: write\n'))).toEqual({
      path: [{ key: 'annotations' }],
      key: 'side_effect_level',
      at: 'key',
      siblings: ['kind'],
    });
  });

  it('knows the cursor is on a value after the colon', () => {
    expect(yamlCursorAt(...at('annotations:\n  side_effect_level: wr|'))).toMatchObject({
      path: [{ key: 'annotations' }],
      key: 'side_effect_level',
      at: 'value',
    });
  });

  it('places a blank line by the cursor column, not by the line above', () => {
    const text = 'annotations:\n  kind: query\n  |\nowner: x';
    expect(yamlCursorAt(...at(text))).toEqual({ path: [{ key: 'annotations' }], key: undefined, at: 'key', siblings: ['kind'] });
    expect(yamlCursorAt(...at('annotations:\n  kind: query\n|\nowner: x'))).toMatchObject({ path: [], siblings: ['annotations', 'owner'] });
  });

  it('walks through sequence items, indented or flush with their key', () => {
    const indented = 'preconditions:\n  - id: a\n    expression: x\n    mess|';
    expect(yamlCursorAt(...at(indented))).toEqual({
      path: [{ key: 'preconditions' }, { item: true }],
      key: undefined,
      at: 'key',
      siblings: ['expression', 'id'],
    });
    const flush = 'preconditions:\n- id: a\n  mess|';
    expect(yamlCursorAt(...at(flush))).toMatchObject({ path: [{ key: 'preconditions' }, { item: true }], siblings: ['id'] });
  });

  it('treats `- ` followed by a scalar as an array item', () => {
    expect(yamlCursorAt(...at('annotations:\n  approver_roles:\n    - |'))).toMatchObject({
      path: [{ key: 'annotations' }, { key: 'approver_roles' }, { item: true }],
      at: 'item',
    });
  });
});

describe('schema lookups', () => {
  it('hover shows the description, type and allowed values', () => {
    const hover = hoverMarkdown(schema, yamlCursorAt(...at('annotations:\n  side_eff|ect_level: write')));
    expect(hover).toBe(
      '**side_effect_level** · `string`\n\nThe most severe effect the tool can have, from `none` to `destructive`.\n\nAllowed: `none`, `read_only`, `write`, `process_exec`, `external`, `destructive`',
    );
  });

  it('hover says nothing for a key the format does not have', () => {
    expect(hoverMarkdown(schema, yamlCursorAt(...at('annotations:\n  sideeffect|: write')))).toBeUndefined();
  });

  it('completes the keys not yet written, and enum values after a colon', () => {
    const keys = suggestionsAt(schema, yamlCursorAt(...at('annotations:\n  kind: query\n  |')));
    expect(keys.map((s) => s.label)).toContain('side_effect_level');
    expect(keys.map((s) => s.label)).not.toContain('kind');
    expect(keys.find((s) => s.label === 'side_effect_level')).toMatchObject({ insertText: 'side_effect_level: ', kind: 'property' });
    const values = suggestionsAt(schema, yamlCursorAt(...at('annotations:\n  side_effect_level: |')));
    expect(values.map((s) => s.label)).toEqual(['none', 'read_only', 'write', 'process_exec', 'external', 'destructive']);
    expect(suggestionsAt(schema, yamlCursorAt(...at('annotations:\n  idempotent: |'))).map((s) => s.label)).toEqual(['true', 'false']);
  });

  it('follows local $refs and anyOf branches but never a remote $ref', () => {
    const root: JsonSchema = {
      $defs: { level: { enum: ['low', 'high'], description: 'How loud' } },
      properties: {
        a: { anyOf: [{ type: 'string' }, { type: 'object', properties: { b: { $ref: '#/$defs/level' } } }] },
        r: { $ref: 'https://example.com/schema.json' },
        loop: { $ref: '#/properties/loop' },
      },
    };
    expect(schemaAt(root, [{ key: 'a' }, { key: 'b' }])).toEqual({ enum: ['low', 'high'], description: 'How loud' });
    expect(schemaAt(root, [{ key: 'r' }])).toBeUndefined();
    expect(schemaAt(root, [{ key: 'loop' }])).toEqual({ $ref: '#/properties/loop' });
    expect(schemaAt(root, [{ key: '__proto__' }])).toBeUndefined();
  });
});
