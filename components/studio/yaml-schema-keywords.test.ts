import { describe, expect, it } from 'vitest';
import { toolContractJsonSchema } from '@/lib/contracts/contract-schema';
import { withEmbeddedJsonSchemas } from '@/lib/studio/json-schema-keywords';
import { surfaceJsonSchema } from '@/lib/surfaces/surface-schema';
import { hoverMarkdown, suggestionsAt, yamlCursorAt } from './yaml-schema-assist';

// The YAML assist with the studio's schema: JSON Schema keywords inside the schemas a document
// carries, from the bundled 2020-12 meta-schema.

const contract = withEmbeddedJsonSchemas(toolContractJsonSchema()).schema;

function at(marked: string): [string, number, number] {
  const offset = marked.indexOf('|');
  const before = marked.slice(0, offset);
  return [marked.replace('|', ''), before.split('\n').length, offset - before.lastIndexOf('\n')];
}

const labels = (schema: typeof contract, marked: string) => suggestionsAt(schema, yamlCursorAt(...at(marked))).map((s) => s.label);

describe('YAML: JSON Schema keywords inside embedded schemas', () => {
  it('inside an input property: maxLength and the other keywords, not the contract’s keys', () => {
    const found = labels(contract, 'input:\n  type: object\n  properties:\n    q:\n      type: string\n      max|\n');
    expect(found).toEqual(expect.arrayContaining(['maxLength', 'minLength', 'pattern', 'format']));
    expect(found).not.toContain('type');
    expect(found).not.toContain('annotations');
  });

  it('at the top of output, with the keyword documented', () => {
    const [suggestion] = suggestionsAt(contract, yamlCursorAt(...at('output:\n  |\n'))).filter((s) => s.label === 'maxLength');
    expect(suggestion?.documentation).toContain('at most this many characters');
    expect(suggestion?.detail).toBe('integer');
  });

  it('allowed types as values, and hover docs on a keyword', () => {
    expect(labels(contract, 'errors:\n  type: |\n')).toEqual(expect.arrayContaining(['string', 'object', 'integer']));
    expect(hoverMarkdown(contract, yamlCursorAt(...at('output:\n  type: string\n  maxLen|gth: 3\n')))).toContain(
      'at most this many characters',
    );
  });

  it('a surface tool’s parameters', () => {
    const surface = withEmbeddedJsonSchemas(surfaceJsonSchema()).schema;
    expect(labels(surface, 'tools:\n  - name: t\n    parameters:\n      properties:\n        a:\n          |\n')).toEqual(
      expect.arrayContaining(['maxLength', 'type']),
    );
  });
});
