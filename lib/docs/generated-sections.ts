import { errorCodesMarkdownTable } from '../validation/error-codes';
import { appErrorsMarkdownTable } from '../errors';
import { CONTRACT_PROBLEM_CODES } from '../contracts/contract-problems';
import { PIPELINE_RULES, PIPELINE_SHAPE_RULES, PIPELINE_STEP_PLAN } from '../pipeline';
import { PIPELINE_STEPS } from '../pipeline/types';
import { lintRulesMarkdown } from '../lint/rules/docs-table';

/**
 * Which docs file owns each generated section (paths from the repository root). A table lives
 * beside the prose about its concept; `npm run docs` rewrites each one in place, and a unit test
 * fails when one is stale, so the docs cannot drift from the registries that define the codes.
 */
export const GENERATED_SECTION_FILES = {
  'validation-codes': 'docs/runtime-api.md',
  'api-errors': 'docs/runtime-api.md',
  'contract-problems': 'docs/contracts.md',
  'pipeline-rules': 'docs/pipeline.md',
  'lint-codes': 'docs/surfaces-and-linting.md',
} as const;

export type GeneratedSection = keyof typeof GENERATED_SECTION_FILES;

/** The files that hold generated sections, each once. */
export const GENERATED_DOCS: readonly string[] = [...new Set(Object.values(GENERATED_SECTION_FILES))];

export function generatedSections(): Record<GeneratedSection, string> {
  const problems = Object.entries(CONTRACT_PROBLEM_CODES).map(([code, meaning]) => `| \`${code}\` | ${meaning.replace(/\|/g, '\\|')} |`);
  return {
    'validation-codes': errorCodesMarkdownTable(),
    'api-errors': appErrorsMarkdownTable(),
    'contract-problems': ['| code | meaning |', '|---|---|', ...problems].join('\n'),
    'pipeline-rules': pipelineRulesMarkdown(),
    'lint-codes': lintRulesMarkdown(),
  };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function pipelineRulesMarkdown(): string {
  const rules = PIPELINE_RULES.map((r) => `| \`${r.id}\` | ${r.step ?? '(any)'} | ${r.phase} | ${cell(r.checks)} |`);
  const shape = PIPELINE_SHAPE_RULES.map(
    (r) => `| \`${r.id}\` | (any) | ${r.severity === 'warning' ? 'shape (warning)' : 'shape'} | ${cell(r.checks)} |`,
  );
  const also = (plan: { core: boolean; manifest: string }) =>
    [
      plan.core ? 'core rules' : '',
      plan.manifest === 'if_populated'
        ? 'manifest rules (when a manifest is present)'
        : plan.manifest === 'if_continuation'
          ? 'manifest rules (ClientToolCallContinuation)'
          : '',
    ]
      .filter(Boolean)
      .join(', ') || '-';
  const steps = PIPELINE_STEPS.map(
    (step) => `| ${step} | ${also(PIPELINE_STEP_PLAN[step].pre)} | ${also(PIPELINE_STEP_PLAN[step].post)} |`,
  );
  return [
    '| rule id | step | phase | checks |',
    '|---|---|---|---|',
    ...rules,
    ...shape,
    '',
    'Besides its own rules, a step also runs:',
    '',
    '| step | PRE also runs | POST also runs |',
    '|---|---|---|',
    ...steps,
  ].join('\n');
}

const MARKER = /<!-- generated:([a-z-]+) -->/g;

/** The names of the generated sections a document marks, in order. */
export function markedSections(text: string): string[] {
  return [...text.matchAll(MARKER)].map((m) => m[1] ?? '');
}

/**
 * Replaces the body between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` for every
 * section `file` owns. A section the file owns but does not mark, or marks but does not own, is
 * an error: a table must have exactly one home.
 */
export function renderGeneratedSections(file: string, text: string): string {
  const owned = (Object.keys(GENERATED_SECTION_FILES) as GeneratedSection[]).filter((name) => GENERATED_SECTION_FILES[name] === file);
  const stray = markedSections(text).filter((name) => GENERATED_SECTION_FILES[name as GeneratedSection] !== file);
  if (stray.length > 0) throw new Error(`${file} marks generated sections it does not own: ${stray.join(', ')}`);
  const bodies = generatedSections();
  let out = text;
  for (const name of owned) {
    const pattern = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out)) throw new Error(`${file} has no generated:${name} section`);
    out = out.replace(pattern, (_m, open: string, close: string) => `${open}${bodies[name]}\n${close}`);
  }
  return out;
}
