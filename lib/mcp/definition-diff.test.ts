import { describe, expect, it } from 'vitest';
import { diffDefinitions, MAX_DIFF_LINES, MAX_EDIT_LENGTH, printDefinition, type DiffLine } from './definition-diff';
import type { UpstreamToolDefinition } from './tool-definition';

const base = (): UpstreamToolDefinition => ({
  annotations: { readOnlyHint: true },
  inputSchema: { type: 'object', properties: { query: { type: 'string', maxLength: 100 } } },
  description: 'Searches the catalogue.',
  name: 'search',
});

const changes = (lines: DiffLine[]) => lines.filter((l) => l.op !== ' ');

describe('printDefinition', () => {
  it('prints the top-level keys in reading order and nested keys sorted', () => {
    expect(printDefinition(base())).toEqual([
      '{',
      '  "name": "search",',
      '  "description": "Searches the catalogue.",',
      '  "inputSchema": {',
      '    "properties": {',
      '      "query": {',
      '        "maxLength": 100,',
      '        "type": "string"',
      '      }',
      '    },',
      '    "type": "object"',
      '  },',
      '  "annotations": {',
      '    "readOnlyHint": true',
      '  }',
      '}',
    ]);
  });

  it('prints what JSON.stringify would parse back to the same value', () => {
    const definition = { ...base(), title: 'Search', outputSchema: { type: 'object', required: [], properties: {} } };
    expect(JSON.parse(printDefinition(definition).join('\n'))).toEqual(definition);
  });

  it('prints __proto__ as an ordinary key', () => {
    const definition = JSON.parse('{"name":"t","inputSchema":{"properties":{"__proto__":{"type":"string"}}}}');
    expect(printDefinition(definition)).toContain('      "__proto__": {');
  });

  it('prints nesting deeper than the stack would allow, with bounded indentation', () => {
    const depth = 20_000;
    const lines = printDefinition({ name: 't', inputSchema: { items: JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) } });
    expect(lines.length).toBeGreaterThan(2 * depth);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(100);
  });
});

describe('diffDefinitions', () => {
  it('has only context lines for the same definition in another key order', () => {
    const reordered = {
      name: 'search',
      description: 'Searches the catalogue.',
      inputSchema: base().inputSchema,
      annotations: { readOnlyHint: true },
    };
    const lines = diffDefinitions(base(), reordered);
    expect(changes(lines)).toEqual([]);
    expect(lines.map((l) => l.text)).toEqual(printDefinition(base()));
  });

  it('shows a changed value as a removed and an added line, in place', () => {
    const after = base();
    (after.inputSchema.properties as Record<string, Record<string, unknown>>).query!.maxLength = 1000;
    const lines = diffDefinitions(base(), after);
    expect(changes(lines)).toEqual([
      { op: '-', text: '        "maxLength": 100,' },
      { op: '+', text: '        "maxLength": 1000,' },
    ]);
    expect(lines[6]).toEqual({ op: '-', text: '        "maxLength": 100,' });
  });

  it('shows added and removed keys', () => {
    const lines = diffDefinitions(base(), { ...base(), title: 'Search', annotations: undefined });
    expect(changes(lines)).toEqual([
      { op: '+', text: '  "title": "Search",' },
      { op: '-', text: '  },' },
      { op: '-', text: '  "annotations": {' },
      { op: '-', text: '    "readOnlyHint": true' },
    ]);
  });

  it('shows hidden characters as escapes', () => {
    const lines = diffDefinitions(base(), { ...base(), description: 'Searches the\u200b catalogue.' });
    expect(changes(lines)).toEqual([
      { op: '-', text: '  "description": "Searches the catalogue.",' },
      { op: '+', text: '  "description": "Searches the\\u200b catalogue.",' },
    ]);
  });

  it(`shows a definition too different for ${MAX_EDIT_LENGTH} edits as its common ends and the rest replaced`, () => {
    const properties = (prefix: string) =>
      Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`${prefix}${i}`, { const: `${prefix}${i}` }]));
    const lines = diffDefinitions(
      { name: 't', inputSchema: { properties: properties('a') } },
      { name: 't', inputSchema: { properties: properties('b') } },
    );
    const ops = lines.map((l) => l.op).join('');
    expect(ops).toMatch(/^ {4}-+\++ {4}$/);
    // 700 properties of three lines each, but for the last one's closing brace, common to both.
    expect(lines.filter((l) => l.op === '-')).toHaveLength(2_099);
    expect(lines[4]).toEqual({ op: '-', text: '      "a0": {' });
  });

  it(`stops at ${MAX_DIFF_LINES} lines and says so`, () => {
    const properties = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const lines = diffDefinitions({ name: 't', inputSchema: {} }, { name: 't', inputSchema: { properties } });
    expect(lines).toHaveLength(MAX_DIFF_LINES + 1);
    expect(lines.at(-1)?.text).toMatch(/^… \d+ more lines not shown/);
  });
});
