import { describe, expect, it } from 'vitest';
import { lintDocument, type DocumentFormat, type DocumentKind } from '../lint';
import { applyEdits } from './document-edits';
import { quickFixes, type QuickFix } from './quick-fixes';

// Each fix is checked the way the studio uses it: lint the text, take the real diagnostic, apply
// the fix's edits, and the text is exactly the expected one (the author's formatting kept) and
// lints without that finding.

function diagnosticOf(kind: DocumentKind, text: string, format: DocumentFormat, code: string, previousVersion?: string) {
  const found = lintDocument(kind, text, { format, previousVersion }).diagnostics.filter((d) => d.code === code);
  expect(found, `${code} in\n${text}`).toHaveLength(1);
  return found[0]!;
}

function fixesFor(kind: DocumentKind, text: string, format: DocumentFormat, code: string, previousVersion?: string): QuickFix[] {
  return quickFixes({ text, format, diagnostic: diagnosticOf(kind, text, format, code, previousVersion), previousVersion });
}

/** Applies the fix titled `title` and checks the finding is gone. */
function applied(kind: DocumentKind, text: string, format: DocumentFormat, code: string, title: RegExp, previousVersion?: string) {
  const fixes = fixesFor(kind, text, format, code, previousVersion);
  const chosen = fixes.find((f) => title.test(f.title));
  expect(chosen, `a fix matching ${title} among ${fixes.map((f) => f.title).join(', ')}`).toBeDefined();
  const out = applyEdits(text, chosen!.edits);
  const after = lintDocument(kind, out, { format, previousVersion });
  expect(after.value, out).toBeDefined();
  expect(after.diagnostics.map((d) => d.code)).not.toContain(code);
  return out;
}

const HEAD_YAML = 'id: orders.lookup\nversion: 1.0.0\ndescription: Looks up an order.\nowner: team-orders\n';
const TAIL_YAML = 'annotations: { kind: query, side_effect_level: read_only, idempotent: true }\n';
const yamlContract = (body: string) => `${HEAD_YAML}${body}${TAIL_YAML}`;
const jsonContract = (fields: Record<string, unknown>) =>
  `${JSON.stringify(
    {
      id: 'orders.lookup',
      version: '1.0.0',
      description: 'Looks up an order.',
      owner: 'team-orders',
      ...fields,
      annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true },
    },
    null,
    2,
  )}\n`;

describe('a required key no properties declare', () => {
  const code = 'CONTRACT_REQUIRED_NOT_IN_PROPERTIES';

  it('JSON: adds it after the last property, at its indentation; required stays first', () => {
    const text = jsonContract({
      input: { type: 'object', required: ['order_id', 'region'], properties: { order_id: { type: 'string' } } },
    });
    const out = applied('contract', text, 'json', code, /^Add "region" to properties$/);
    expect(out).toBe(text.replace('"type": "string"\n      }\n', '"type": "string"\n      },\n      "region": {}\n'));
  });

  it('YAML block: a new line at the column of the other properties', () => {
    const text = yamlContract(
      'input:\n  type: object\n  required: [order_id, region]\n  properties:\n    order_id:\n      type: string # the order\n',
    );
    const out = applied('contract', text, 'yaml', code, /^Add "region"/);
    expect(out).toBe(text.replace('# the order\n', '# the order\n    region: {}\n'));
  });

  it('YAML flow and an empty JSON properties object', () => {
    const flow = yamlContract('input: { type: object, required: [a], properties: { b: { type: string } } }\n');
    expect(applied('contract', flow, 'yaml', code, /^Add "a"/)).toBe(flow.replace('{ type: string } }', '{ type: string }, a: {} }'));
    const empty = jsonContract({ input: { type: 'object', required: ['a'], properties: {} } });
    expect(applied('contract', empty, 'json', code, /^Add "a"/)).toBe(
      empty.replace('"properties": {}', '"properties": {\n      "a": {}\n    }'),
    );
  });

  it('a schema without properties gets them', () => {
    const text = yamlContract('input:\n  type: object\n  required: [a]\n');
    expect(applied('contract', text, 'yaml', code, /^Add "a"/)).toBe(
      text.replace('required: [a]\n', 'required: [a]\n  properties:\n    a: {}\n'),
    );
    const json = jsonContract({ input: { type: 'object', required: ['a'] } });
    expect(applied('contract', json, 'json', code, /^Add "a"/)).toBe(
      json.replace('"required": [\n      "a"\n    ]', '"required": [\n      "a"\n    ],\n    "properties": {\n      "a": {}\n    }'),
    );
  });

  it('or removes it from required (flow, JSON and block lists)', () => {
    const flow = yamlContract('input: { type: object, required: [b, a], properties: { b: {} } }\n');
    expect(applied('contract', flow, 'yaml', code, /^Remove "a"/)).toBe(flow.replace('[b, a]', '[b]'));
    const block = yamlContract('input:\n  type: object\n  required:\n    - a\n    - b\n  properties:\n    b: {}\n');
    expect(applied('contract', block, 'yaml', code, /^Remove "a"/)).toBe(block.replace('    - a\n', ''));
    const json = jsonContract({ input: { type: 'object', required: ['a', 'b'], properties: { b: {} } } });
    expect(applied('contract', json, 'json', code, /^Remove "a"/)).toBe(json.replace('"a",\n      ', ''));
  });
});

describe('a lower bound above its upper bound', () => {
  const code = 'CONTRACT_MIN_GREATER_THAN_MAX';
  it.each([
    ['minimum', 'maximum', 'integer'],
    ['minLength', 'maxLength', 'string'],
    ['minItems', 'maxItems', 'array'],
  ])('swaps %s and %s, keeping how the numbers are written', (low, high, type) => {
    const text = yamlContract(`input:\n  type: object\n  properties:\n    n: { type: ${type}, ${low}: 10, ${high}: 2.0 }\n`);
    const out = applied('contract', text, 'yaml', code, new RegExp(`^Swap ${low} and ${high}`));
    expect(out).toBe(text.replace(`${low}: 10, ${high}: 2.0`, `${low}: 2.0, ${high}: 10`));
  });

  it('JSON too; equal bounds get no swap', () => {
    const text = jsonContract({ output: { type: 'string', minLength: 5, maxLength: 1 } });
    expect(applied('contract', text, 'json', code, /^Swap/)).toBe(
      text.replace('"minLength": 5,\n    "maxLength": 1', '"minLength": 1,\n    "maxLength": 5'),
    );
    const strict = jsonContract({ output: { type: 'number', exclusiveMinimum: 1, exclusiveMaximum: 1 } });
    expect(fixesFor('contract', strict, 'json', code)).toEqual([]);
  });
});

describe('a condition reading an undeclared argument', () => {
  const code = 'CONTRACT_CONDITION_UNKNOWN_ARGUMENT';
  const conditions = 'preconditions:\n  - id: known\n    expression: args.region != "" && args.order_id != ""\n    message: m\n';

  it('declares it in input.properties (YAML), the one the diagnostic underlines', () => {
    const text = yamlContract(`input:\n  type: object\n  properties:\n    order_id: { type: string }\n${conditions}`);
    const out = applied('contract', text, 'yaml', code, /^Declare "region" in input\.properties$/);
    expect(out).toBe(text.replace('order_id: { type: string }\n', 'order_id: { type: string }\n    region: {}\n'));
  });

  it('nested: inside the declared object that lacks it (JSON)', () => {
    const text = jsonContract({
      input: { type: 'object', properties: { order: { type: 'object', properties: { id: { type: 'string' } } } } },
      preconditions: [{ id: 'c', expression: 'args.order.region == "eu"', message: 'm' }],
    });
    const out = applied('contract', text, 'json', code, /^Declare "region" in input\.properties\.order\.properties$/);
    expect(JSON.parse(out).input.properties.order.properties).toEqual({ id: { type: 'string' }, region: {} });
  });
});

describe('other fixes', () => {
  it('an alias to an undeclared key declares it', () => {
    const text = yamlContract(
      'input:\n  type: object\n  properties:\n    order_id: { type: string }\nargument_aliases:\n  orderId: order_ref\n',
    );
    const out = applied('contract', text, 'yaml', 'CONTRACT_ALIAS_TARGET_UNKNOWN', /^Declare "order_ref"/);
    expect(out).toContain('    order_id: { type: string }\n    order_ref: {}\n');
  });

  it('a version that does not go up becomes the next patch, quoted as it was', () => {
    const text = jsonContract({ input: { type: 'object' } });
    const out = applied('contract', text, 'json', 'CONTRACT_VERSION_NOT_INCREASED', /^Set version to 1\.2\.4$/, '1.2.3');
    expect(out).toBe(text.replace('"version": "1.0.0"', '"version": "1.2.4"'));
    const yaml = yamlContract('input: { type: object }\n');
    expect(applied('contract', yaml, 'yaml', 'CONTRACT_VERSION_NOT_INCREASED', /1\.2\.4/, '1.2.3')).toBe(
      yaml.replace('version: 1.0.0', 'version: 1.2.4'),
    );
  });

  it('a repeated tool pattern is removed', () => {
    const text = 'id: p\nversion: 1.0.0\ncapability:\n  tools:\n    - orders.*\n    - payments.refund\n    - orders.*\n';
    const out = applied('policy', text, 'yaml', 'POLICY_DUPLICATE_TOOL_PATTERN', /^Remove the repeated "orders\.\*"$/);
    expect(out).toBe('id: p\nversion: 1.0.0\ncapability:\n  tools:\n    - orders.*\n    - payments.refund\n');
  });

  it('nothing for codes without a fix, prompt findings, or text that no longer parses', () => {
    const text = jsonContract({ input: { type: 'object', required: ['a'] } });
    const d = diagnosticOf('contract', text, 'json', 'CONTRACT_REQUIRED_NOT_IN_PROPERTIES');
    expect(quickFixes({ text, format: 'json', diagnostic: { ...d, code: 'CONTRACT_EMPTY_ENUM' } })).toEqual([]);
    expect(quickFixes({ text, format: 'json', diagnostic: { ...d, target: 'prompt' } })).toEqual([]);
    expect(quickFixes({ text: text.slice(0, 40), format: 'json', diagnostic: d })).toEqual([]);
  });
});
