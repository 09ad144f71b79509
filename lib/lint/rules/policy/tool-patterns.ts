import { isPlainObject } from '../../../json';
import { toolPatternMatches } from '../../../policies/policy-schema';
import { ownValue } from '../../../validation/json-path';
import type { PathSegment } from '../../parse-document';
import type { Diagnostic } from '../../types';
import { defineRule, type Report } from '../registry';
import { fieldName, quote } from '../report';
import type { PolicyContext } from './context';

/** Tool patterns that can never matter: one listed twice, a rule every call reaches another rule first. */
const codes = {
  POLICY_DUPLICATE_TOOL_PATTERN: { severity: 'warning', summary: 'A tool pattern appears twice in the same list.' },
  POLICY_RULE_UNREACHABLE: {
    severity: 'warning',
    summary: 'A rule can never fire: an earlier rule without `when` covers all its tools and decides first.',
  },
} as const;

export const toolPatternsRule = defineRule({
  codes,
  check({ document }: PolicyContext, report) {
    const out: Diagnostic[] = [];
    out.push(...duplicatePatterns(ownValue(ownValue(document, 'capability'), 'tools'), ['capability', 'tools'], report));
    const approvals = ownValue(ownValue(document, 'approval'), 'rules');
    if (Array.isArray(approvals)) {
      approvals.slice(0, 500).forEach((rule, index) => {
        if (isPlainObject(rule)) out.push(...duplicatePatterns(ownValue(rule, 'tools'), ['approval', 'rules', index, 'tools'], report));
      });
    }
    const rules = ownValue(document, 'rules');
    if (!Array.isArray(rules)) return out;
    const earlier: { index: number; id: string; tools: string[]; decision: unknown }[] = [];
    rules.slice(0, 500).forEach((rule, index) => {
      if (!isPlainObject(rule)) return;
      const at: PathSegment[] = ['rules', index];
      const id = ownValue(rule, 'id');
      const decision = ownValue(rule, 'decision');
      const toolsValue = ownValue(rule, 'tools');
      const tools = Array.isArray(toolsValue) ? toolsValue.filter((t): t is string => typeof t === 'string') : [];
      out.push(...duplicatePatterns(toolsValue, [...at, 'tools'], report));
      // First match decides, but a matching `deny` anywhere wins: an unconditional earlier rule
      // shadows a later one unless the later one denies and the earlier one does not.
      const shadow =
        tools.length === 0
          ? undefined
          : earlier.find(
              (e) => (e.decision === 'deny' || decision !== 'deny') && tools.every((t) => e.tools.some((p) => toolPatternMatches(p, t))),
            );
      if (shadow) {
        out.push(
          report(
            'POLICY_RULE_UNREACHABLE',
            `Rule ${quote(typeof id === 'string' ? id : index)} can never fire: rule ${quote(shadow.id)} (rules[${shadow.index}]) has no \`when\`, covers all its tools and comes first.`,
            typeof id === 'string' ? [...at, 'id'] : at,
          ),
        );
      }
      if (ownValue(rule, 'when') === undefined && tools.length > 0)
        earlier.push({ index, id: typeof id === 'string' ? id : String(index), tools, decision });
    });
    return out;
  },
});

export function duplicatePatterns(list: unknown, path: readonly PathSegment[], report: Report<typeof codes>): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!Array.isArray(list)) return out;
  const first = new Map<string, number>();
  list.slice(0, 500).forEach((pattern, index) => {
    if (typeof pattern !== 'string') return;
    const earlier = first.get(pattern);
    if (earlier === undefined) first.set(pattern, index);
    else
      out.push(
        report('POLICY_DUPLICATE_TOOL_PATTERN', `Tool pattern ${quote(pattern)} already appears at ${fieldName([...path, earlier])}.`, [
          ...path,
          index,
        ]),
      );
  });
  return out;
}
