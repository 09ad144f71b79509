import { errorCodesMarkdownTable } from '../validation/error-codes';
import { apiErrorsMarkdownTable } from '../api/errors';
import { CONTRACT_PROBLEM_CODES } from '../contracts/contract-problems';

/**
 * README sections generated from the registries that define them, so the docs cannot drift:
 * `npm run docs` rewrites them, and a unit test fails when the README is stale.
 */
export function generatedSections(): Record<string, string> {
  const problems = Object.entries(CONTRACT_PROBLEM_CODES).map(([code, meaning]) => `| \`${code}\` | ${meaning.replace(/\|/g, '\\|')} |`);
  return {
    'validation-codes': errorCodesMarkdownTable(),
    'api-errors': apiErrorsMarkdownTable(),
    'contract-problems': ['| code | meaning |', '|---|---|', ...problems].join('\n'),
  };
}

/** Replaces the body between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
export function renderGeneratedSections(readme: string): string {
  let out = readme;
  for (const [name, body] of Object.entries(generatedSections())) {
    const pattern = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out)) throw new Error(`README.md has no generated:${name} section`);
    out = out.replace(pattern, (_m, open: string, close: string) => `${open}${body}\n${close}`);
  }
  return out;
}
