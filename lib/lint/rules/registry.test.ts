import { describe, expect, it } from 'vitest';
import { CONTRACT_LINT_CODES } from '../contract';
import { DOCUMENT_CODES } from '../parse-document';
import { POLICY_LINT_CODES } from '../policy';
import { SURFACE_LINT_CODES } from '../surface';
import { CONTRACT_RULES } from './contract';
import { lintRulesMarkdown } from './docs-table';
import { POLICY_RULES } from './policy';
import { codesOf } from './registry';
import { SURFACE_RULES } from './surface';

describe('the rule registry', () => {
  it('refuses a code declared by two rules', () => {
    const rule = { codes: { X_ONE: { severity: 'error', summary: 'One.' } } } as const;
    expect(() => codesOf([rule, rule])).toThrow('X_ONE');
  });

  it('gives every code to exactly one rule module, across all kinds', () => {
    const declared = [...CONTRACT_RULES, ...POLICY_RULES, ...SURFACE_RULES].flatMap((rule) => Object.keys(rule.codes));
    expect(new Set(declared).size).toBe(declared.length);
    expect(declared).toEqual([...Object.keys(CONTRACT_LINT_CODES), ...Object.keys(POLICY_LINT_CODES), ...Object.keys(SURFACE_LINT_CODES)]);
  });

  it('renders one docs table row per code, in registry order', () => {
    const rows = lintRulesMarkdown()
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('`')[1]);
    const all = { ...DOCUMENT_CODES, ...CONTRACT_LINT_CODES, ...POLICY_LINT_CODES, ...SURFACE_LINT_CODES };
    expect(rows).toEqual(Object.keys(all));
    expect(lintRulesMarkdown()).toContain(
      '| `SURFACE_DUPLICATE_TOOL` | error | Two tools have the same name (inline `name` or contract id). |',
    );
  });
});
