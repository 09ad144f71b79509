// npm run docs: regenerates the README tables that come from code (error codes and friends).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderGeneratedSections } from '../lib/docs/generated-sections';

const file = path.resolve(import.meta.dirname, '..', 'README.md');
const before = readFileSync(file, 'utf8');
const after = renderGeneratedSections(before);
if (after !== before) writeFileSync(file, after);
console.log(after === before ? 'README.md is up to date' : 'README.md updated');
