import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DOCS, GENERATED_SECTION_FILES, renderGeneratedSections } from './generated-sections';
import { ERROR_CODES } from '../validation/error-codes';

const root = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const allDocs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('generated docs sections', () => {
  it.each(GENERATED_DOCS)('%s is up to date with the registries (run `npm run docs` to refresh)', (file) => {
    const text = read(file);
    expect(renderGeneratedSections(file, text)).toBe(text);
  });

  it('appear only in the file that owns them', () => {
    for (const file of allDocs) expect(() => renderGeneratedSections(file, read(file)), file).not.toThrow();
  });

  it('document every validation code', () => {
    const doc = read(GENERATED_SECTION_FILES['validation-codes']);
    for (const code of Object.keys(ERROR_CODES)) expect(doc).toContain(`\`${code}\``);
  });
});
