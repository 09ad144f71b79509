import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderGeneratedSections } from './generated-sections';
import { ERROR_CODES } from '../validation/error-codes';

describe('README generated sections', () => {
  it('are up to date with the registries (run `npm run docs` to refresh)', () => {
    const readme = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    expect(renderGeneratedSections(readme)).toBe(readme);
  });

  it('document every validation code', () => {
    const readme = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    for (const code of Object.keys(ERROR_CODES)) expect(readme).toContain(`\`${code}\``);
  });
});
