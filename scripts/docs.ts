// npm run docs: regenerates the docs tables that come from code (error codes and friends), each
// in the docs file that owns it (lib/docs/generated-sections.ts has the map).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GENERATED_DOCS, renderGeneratedSections } from '../lib/docs/generated-sections';

const root = path.resolve(import.meta.dirname, '..');
for (const file of GENERATED_DOCS) {
  const before = readFileSync(path.join(root, file), 'utf8');
  const after = renderGeneratedSections(file, before);
  if (after !== before) writeFileSync(path.join(root, file), after);
  console.log(after === before ? `${file} is up to date` : `${file} updated`);
}
