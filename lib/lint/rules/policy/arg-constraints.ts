import { RE2JS } from 're2js';
import { isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import type { PathSegment } from '../../parse-document';
import type { Diagnostic } from '../../types';
import { defineRule, reporterFor, type Report } from '../registry';
import { fieldName, quote, type Locate } from '../report';
import type { PolicyContext } from './context';

/** Argument constraints that constrain nothing, everything, or the same argument twice. */
const codes = {
  POLICY_ARG_CONSTRAINT_NO_RULE: { severity: 'error', summary: 'An argument constraint has neither `allowed_values` nor `pattern`.' },
  POLICY_ARG_CONSTRAINT_BOTH_RULES: {
    severity: 'error',
    summary: 'An argument constraint has both `allowed_values` and `pattern`; give one.',
  },
  POLICY_ARG_CONSTRAINT_EMPTY_VALUES: {
    severity: 'error',
    summary: '`allowed_values` is empty, so every value of the argument would be refused.',
  },
  POLICY_ARG_CONSTRAINT_DUPLICATE: { severity: 'warning', summary: 'Two argument constraints name the same tool and key.' },
  POLICY_REGEX_UNSAFE: {
    severity: 'error',
    summary: 'An argument constraint `pattern` is invalid or cannot run on the linear-time RE2 engine.',
  },
} as const;

export const argConstraintsRule = defineRule({
  codes,
  check: ({ parsed, document }: PolicyContext, report) =>
    checkArgConstraints(ownValue(document, 'arg_constraints'), ['arg_constraints'], parsed.locate, report),
});

/** The same checks for any document with a list of argument constraints (a surface's `policy.arg_constraints`). */
export function lintArgConstraints(list: unknown, path: readonly PathSegment[], locate: Locate): Diagnostic[] {
  return checkArgConstraints(list, path, locate, reporterFor(codes, locate));
}

function checkArgConstraints(list: unknown, path: readonly PathSegment[], locate: Locate, report: Report<typeof codes>): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!Array.isArray(list)) return out;
  const seen = new Map<string, number>();
  list.slice(0, 1000).forEach((constraint, index) => {
    if (!isPlainObject(constraint)) return;
    const at = [...path, index];
    const values = ownValue(constraint, 'allowed_values');
    const pattern = ownValue(constraint, 'pattern');
    if (values === undefined && pattern === undefined) {
      const diagnostic = report(
        'POLICY_ARG_CONSTRAINT_NO_RULE',
        `${fieldName(at)} constrains nothing: give \`allowed_values\` or \`pattern\`.`,
        at,
      );
      out.push({ ...diagnostic, range: locate([...at, Object.keys(constraint)[0] ?? ''], 'key') });
    } else if (values !== undefined && pattern !== undefined) {
      out.push(
        report(
          'POLICY_ARG_CONSTRAINT_BOTH_RULES',
          `${fieldName(at)} has both \`allowed_values\` and \`pattern\`; give one.`,
          [...at, 'pattern'],
          'key',
        ),
      );
    }
    if (Array.isArray(values) && values.length === 0) {
      out.push(
        report('POLICY_ARG_CONSTRAINT_EMPTY_VALUES', '`allowed_values` is empty, so every value of the argument would be refused.', [
          ...at,
          'allowed_values',
        ]),
      );
    }
    if (typeof pattern === 'string' && pattern.length <= 1000) {
      try {
        RE2JS.compile(pattern);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        out.push(
          report('POLICY_REGEX_UNSAFE', `Pattern ${quote(pattern)} cannot run on the linear-time RE2 engine: ${reason.slice(0, 200)}`, [
            ...at,
            'pattern',
          ]),
        );
      }
    }
    const tool = ownValue(constraint, 'tool');
    const key = ownValue(constraint, 'key');
    if (typeof tool === 'string' && typeof key === 'string') {
      const identity = JSON.stringify([tool, key]);
      const earlier = seen.get(identity);
      if (earlier === undefined) seen.set(identity, index);
      else
        out.push(
          report(
            'POLICY_ARG_CONSTRAINT_DUPLICATE',
            `${quote(tool)} argument ${quote(key)} is already constrained at ${fieldName([...path, earlier])}.`,
            [...at, 'key'],
          ),
        );
    }
  });
  return out;
}
