import { hasOwn, isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import type { PathSegment } from '../../parse-document';
import type { Diagnostic } from '../../types';
import { defineRule, reporterFor, type Report } from '../registry';
import { fieldName, type Locate } from '../report';
import type { PolicyContext } from './context';
import { duplicatePatterns, toolPatternsRule } from './tool-patterns';

/** Approval rules nobody could satisfy: no approver roles, or fewer than one approver. */
const codes = {
  POLICY_APPROVAL_NO_ROLES: { severity: 'error', summary: 'An approval rule has no `roles`: calls it matches could never be approved.' },
  POLICY_APPROVERS_REQUIRED_INVALID: { severity: 'error', summary: '`approvers_required` is below 1; at least one approver must decide.' },
} as const;

export const approvalRulesRule = defineRule({
  codes,
  check: ({ parsed, document }: PolicyContext, report) =>
    checkApprovalRules(ownValue(document, 'approval'), ['approval'], parsed.locate, report),
});

/**
 * The approval checks, duplicate tool patterns included, for any document with an approval
 * section of the policy's shape (a surface's `approval_policy`).
 */
export function lintApprovalPolicy(section: unknown, path: readonly PathSegment[], locate: Locate): Diagnostic[] {
  const patterns = reporterFor(toolPatternsRule.codes, locate);
  return checkApprovalRules(section, path, locate, reporterFor(codes, locate), (tools, at) => duplicatePatterns(tools, at, patterns));
}

function checkApprovalRules(
  section: unknown,
  path: readonly PathSegment[],
  locate: Locate,
  report: Report<typeof codes>,
  duplicates?: (tools: unknown, at: PathSegment[]) => Diagnostic[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const rules = ownValue(section, 'rules');
  if (!Array.isArray(rules)) return out;
  rules.slice(0, 500).forEach((rule, index) => {
    if (!isPlainObject(rule)) return;
    const at = [...path, 'rules', index];
    if (duplicates) out.push(...duplicates(ownValue(rule, 'tools'), [...at, 'tools']));
    const roles = ownValue(rule, 'roles');
    if (!Array.isArray(roles) || roles.length === 0) {
      const diagnostic = report(
        'POLICY_APPROVAL_NO_ROLES',
        `${fieldName(at)} names no approver roles: calls it matches could never be approved.`,
        hasOwn(rule, 'roles') ? [...at, 'roles'] : at,
      );
      // A rule without `roles` underlines its first key rather than the whole rule.
      out.push(hasOwn(rule, 'roles') ? diagnostic : { ...diagnostic, range: locate([...at, Object.keys(rule)[0] ?? ''], 'key') });
    }
    const required = ownValue(rule, 'approvers_required');
    if (typeof required === 'number' && required < 1) {
      out.push(
        report('POLICY_APPROVERS_REQUIRED_INVALID', `\`approvers_required\` is ${required}; at least one approver must decide.`, [
          ...at,
          'approvers_required',
        ]),
      );
    }
  });
  return out;
}
