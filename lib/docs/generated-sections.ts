import { errorCodesMarkdownTable } from '../validation/error-codes';
import { appErrorsMarkdownTable } from '../errors';
import { CONTRACT_PROBLEM_CODES } from '../contracts/contract-problems';
import { PIPELINE_RULES, PIPELINE_SHAPE_RULES, PIPELINE_STEP_PLAN } from '../pipeline';
import { PIPELINE_STEPS } from '../pipeline/types';
import { CONTRACT_LINT_CODES } from '../lint/contract';
import { POLICY_LINT_CODES } from '../lint/policy';
import { SURFACE_LINT_CODES } from '../lint/surface';
import { DOCUMENT_CODES } from '../lint/parse-document';

/**
 * README sections generated from the registries that define them, so the docs cannot drift:
 * `npm run docs` rewrites them, and a unit test fails when the README is stale.
 */
export function generatedSections(): Record<string, string> {
  const problems = Object.entries(CONTRACT_PROBLEM_CODES).map(([code, meaning]) => `| \`${code}\` | ${meaning.replace(/\|/g, '\\|')} |`);
  return {
    'validation-codes': errorCodesMarkdownTable(),
    'api-errors': appErrorsMarkdownTable(),
    'contract-problems': ['| code | meaning |', '|---|---|', ...problems].join('\n'),
    'pipeline-rules': pipelineRulesMarkdown(),
    'lint-codes': lintCodesMarkdown(),
  };
}

function lintCodesMarkdown(): string {
  const table = (title: string, codes: Record<string, { severity: string; summary: string }>) => [
    `**${title}**`,
    '',
    '| code | severity | meaning |',
    '|---|---|---|',
    ...Object.entries(codes).map(([code, c]) => `| \`${code}\` | ${c.severity} | ${cell(c.summary)} |`),
  ].join('\n');
  return [
    table('Any document', DOCUMENT_CODES),
    table('Contracts', CONTRACT_LINT_CODES),
    table('Policies', POLICY_LINT_CODES),
    table('Tool surfaces', SURFACE_LINT_CODES),
  ].join('\n\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function pipelineRulesMarkdown(): string {
  const rules = PIPELINE_RULES.map((r) => `| \`${r.id}\` | ${r.step ?? '(any)'} | ${r.phase} | ${cell(r.checks)} |`);
  const shape = PIPELINE_SHAPE_RULES.map((r) => `| \`${r.id}\` | (any) | ${r.severity === 'warning' ? 'shape (warning)' : 'shape'} | ${cell(r.checks)} |`);
  const also = (plan: { core: boolean; manifest: string }) =>
    [plan.core ? 'core rules' : '', plan.manifest === 'if_populated' ? 'manifest rules (when a manifest is present)' : plan.manifest === 'if_continuation' ? 'manifest rules (ClientToolCallContinuation)' : ''].filter(Boolean).join(', ') || '-';
  const steps = PIPELINE_STEPS.map((step) => `| ${step} | ${also(PIPELINE_STEP_PLAN[step].pre)} | ${also(PIPELINE_STEP_PLAN[step].post)} |`);
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
