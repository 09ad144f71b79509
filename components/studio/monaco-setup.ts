import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/yaml/register';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import { hoverMarkdown, suggestionsAt, yamlCursorAt, type JsonSchema } from './yaml-schema-assist';

/**
 * Monaco, bundled from npm (the studio must work with no network), with its workers as bundled
 * module workers. Imported only in the browser: Monaco touches `window` as it loads.
 */
globalThis.MonacoEnvironment = {
  getWorker(_moduleId: string, label: string) {
    // Each `new Worker(new URL(…))` must stay literal for the bundler to emit the worker entry.
    if (label === 'json') return new Worker(new URL('./json.worker.ts', import.meta.url), { type: 'module', name: 'monaco-json' });
    return new Worker(new URL('./editor.worker.ts', import.meta.url), { type: 'module', name: 'monaco-editor' });
  },
};

/** JSON Schema per model URI, for JSON (Monaco's service) and YAML (our providers) alike. */
const schemas = new Map<string, JsonSchema>();

function applyJsonSchemas(): void {
  jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    // Never fetch a `$schema` or `$ref` URL named in a document.
    enableSchemaRequest: false,
    schemas: [...schemas].map(([modelUri, schema], n) => ({ uri: `inmemory://toolgate/schema-${n}.json`, fileMatch: [modelUri], schema })),
  });
}

// Markers come from the Toolgate linter alone: Monaco's own JSON validation would underline the
// same problems a second time, with other words, and knows less of JSON Schema 2020-12.
jsonDefaults.setModeConfiguration({ ...jsonDefaults.modeConfiguration, diagnostics: false });

export function attachSchema(modelUri: string, schema: JsonSchema | undefined): () => void {
  if (!schema) return () => {};
  schemas.set(modelUri, schema);
  applyJsonSchemas();
  return () => {
    schemas.delete(modelUri);
    applyJsonSchemas();
  };
}

monaco.languages.registerHoverProvider('yaml', {
  provideHover(model, position) {
    const schema = schemas.get(model.uri.toString());
    if (!schema) return null;
    const markdown = hoverMarkdown(schema, yamlCursorAt(model.getValue(), position.lineNumber, position.column));
    if (!markdown) return null;
    const word = model.getWordAtPosition(position);
    const range = word ? new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn) : undefined;
    return { contents: [{ value: markdown }], range };
  },
});

monaco.languages.registerCompletionItemProvider('yaml', {
  triggerCharacters: [' ', ':', '-'],
  provideCompletionItems(model, position) {
    const schema = schemas.get(model.uri.toString());
    if (!schema) return { suggestions: [] };
    const word = model.getWordUntilPosition(position);
    const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
    const suggestions = suggestionsAt(schema, yamlCursorAt(model.getValue(), position.lineNumber, position.column)).map((s) => ({
      label: s.label,
      insertText: s.insertText,
      kind: s.kind === 'property' ? monaco.languages.CompletionItemKind.Property : monaco.languages.CompletionItemKind.Value,
      detail: s.detail,
      documentation: s.documentation ? { value: s.documentation } : undefined,
      range,
    }));
    return { suggestions };
  },
});

export { monaco };
