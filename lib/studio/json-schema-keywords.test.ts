import { describe, expect, it } from 'vitest';
// Monaco's own JSON language service (the code its JSON worker runs in the browser), from the
// monaco-editor package: completion and hover are checked against the real thing.
// @ts-expect-error an untyped ESM build inside monaco-editor, not among its package exports
import { getLanguageService } from '../../node_modules/monaco-editor/esm/external/vscode-json-languageservice/lib/esm/jsonLanguageService.js';
// @ts-expect-error as above
import { TextDocument } from '../../node_modules/monaco-editor/esm/external/vscode-languageserver-textdocument/lib/esm/main.js';
import { toolContractJsonSchema } from '../contracts/contract-schema';
import { policyJsonSchema } from '../policies/policy-schema';
import { surfaceJsonSchema } from '../surfaces/surface-schema';
import { jsonSchemaMetaSchema, META_DEF, withEmbeddedJsonSchemas, type JsonSchema } from './json-schema-keywords';

type Position = { line: number; character: number };
interface LanguageService {
  configure(settings: unknown): void;
  parseJSONDocument(document: unknown): unknown;
  doComplete(document: unknown, position: Position, json: unknown): Promise<{ items: { label: string }[] }>;
  doHover(document: unknown, position: Position, json: unknown): Promise<{ contents: unknown } | null>;
}

/** Completion labels and hover text at the `|` in `text`, as Monaco's JSON service gives them. */
async function monacoAt(schema: JsonSchema, marked: string) {
  const service = (getLanguageService as (params: object) => LanguageService)({});
  service.configure({ validate: false, schemas: [{ uri: 'inmemory://schema.json', fileMatch: ['inmemory://document.json'], schema }] });
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  const before = text.slice(0, offset).split('\n');
  const position = { line: before.length - 1, character: before[before.length - 1]!.length };
  const document = (TextDocument as { create(...args: unknown[]): unknown }).create('inmemory://document.json', 'json', 1, text);
  const json = service.parseJSONDocument(document);
  const completion = await service.doComplete(document, position, json);
  const hover = await service.doHover(document, position, json);
  return { labels: completion.items.map((i) => i.label), hover: JSON.stringify(hover?.contents ?? null) };
}

describe('the embedded JSON Schema positions', () => {
  it('contracts: input, output and errors; surfaces: an inline tool’s parameters; policies: none', () => {
    expect(withEmbeddedJsonSchemas(toolContractJsonSchema()).embeddedAt).toEqual([
      '/properties/input',
      '/properties/output',
      '/properties/errors',
    ]);
    expect(withEmbeddedJsonSchemas(surfaceJsonSchema()).embeddedAt).toEqual(['/properties/tools/items/anyOf/1/properties/parameters']);
    const policy = withEmbeddedJsonSchemas(policyJsonSchema());
    expect(policy.embeddedAt).toEqual([]);
    expect(policy.schema).toEqual(policyJsonSchema());
  });

  it('each points to the bundled 2020-12 meta-schema, added under $defs; the input schema is not changed', () => {
    const original = toolContractJsonSchema();
    const { schema } = withEmbeddedJsonSchemas(original);
    const properties = schema.properties as Record<string, JsonSchema>;
    expect(properties.input).toEqual({ $ref: `#/$defs/${META_DEF}`, description: 'JSON Schema (2020-12) for the call arguments.' });
    expect((schema.$defs as JsonSchema)[META_DEF]).toBe(jsonSchemaMetaSchema());
    expect(toolContractJsonSchema()).toEqual(original);
  });

  it('the meta-schema has every 2020-12 keyword, documented, and no dynamic references left', () => {
    const meta = jsonSchemaMetaSchema();
    const properties = meta.properties as Record<string, JsonSchema>;
    for (const keyword of [
      'maxLength',
      'minimum',
      'properties',
      'required',
      'items',
      'prefixItems',
      'unevaluatedProperties',
      '$defs',
      'format',
      'const',
    ])
      expect(typeof properties[keyword]?.description, keyword).toBe('string');
    expect(JSON.stringify(meta)).not.toContain('"$dynamicRef":"#meta"');
    expect(properties.items).toMatchObject({ $ref: `#/$defs/${META_DEF}` });
    expect(properties.maxLength).toMatchObject({ $ref: `#/$defs/${META_DEF}/$defs/nonNegativeInteger` });
  });
});

describe("Monaco's JSON service with the studio's schema", () => {
  const { schema } = withEmbeddedJsonSchemas(toolContractJsonSchema());

  it('completes JSON Schema keywords inside an input property, and explains them on hover', async () => {
    const inside = await monacoAt(
      schema,
      '{\n  "input": {\n    "type": "object",\n    "properties": {\n      "q": { "type": "string", | }\n    }\n  }\n}',
    );
    expect(inside.labels).toEqual(expect.arrayContaining(['maxLength', 'minLength', 'pattern', 'enum', 'format', 'description']));
    expect(inside.labels).not.toContain('annotations');
    const hover = await monacoAt(schema, '{\n  "output": { "type": "string", "max|Length": 3 }\n}');
    expect(hover.hover).toContain('at most this many characters');
  });

  it('suggests the allowed types as values, and still the contract’s own keys at the top', async () => {
    const types = await monacoAt(schema, '{\n  "errors": { "type": | }\n}');
    expect(types.labels).toEqual(expect.arrayContaining(['"string"', '"integer"', '"object"']));
    const top = await monacoAt(schema, '{\n  "id": "a.b",\n  |\n}');
    expect(top.labels).toEqual(expect.arrayContaining(['input', 'output', 'annotations']));
    expect(top.labels).not.toContain('maxLength');
  });

  it('surfaces: inside an inline tool’s parameters', async () => {
    const surface = withEmbeddedJsonSchemas(surfaceJsonSchema()).schema;
    const at = await monacoAt(surface, '{\n  "tools": [{ "name": "t", "parameters": { "properties": { "a": { | } } } }]\n}');
    expect(at.labels).toEqual(expect.arrayContaining(['maxLength', 'type']));
  });
});
