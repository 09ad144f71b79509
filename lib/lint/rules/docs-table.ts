import { CONTRACT_LINT_CODES } from '../contract';
import { DOCUMENT_CODES } from '../parse-document';
import { POLICY_LINT_CODES } from '../policy';
import { SURFACE_LINT_CODES } from '../surface';
import type { CodeRegistry } from './registry';

/**
 * The table of lint codes in docs/surfaces-and-linting.md, generated from the registry so the docs cannot drift:
 * the parser's codes (any document), then each kind's rules in their order.
 */
export function lintRulesMarkdown(): string {
  return [
    table('Any document', DOCUMENT_CODES),
    table('Contracts', CONTRACT_LINT_CODES),
    table('Policies', POLICY_LINT_CODES),
    table('Tool surfaces', SURFACE_LINT_CODES),
  ].join('\n\n');
}

function table(title: string, codes: CodeRegistry): string {
  return [
    `**${title}**`,
    '',
    '| code | severity | meaning |',
    '|---|---|---|',
    ...Object.entries(codes).map(([code, c]) => `| \`${code}\` | ${c.severity} | ${cell(c.summary)} |`),
  ].join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
