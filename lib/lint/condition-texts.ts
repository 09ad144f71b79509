import { isPlainObject } from '../json';
import { ownValue } from '../validation/json-path';
import type { PathSegment } from './parse-document';

/** The contract fields that hold CEL conditions. */
export const CONDITION_FIELDS = ['preconditions', 'postconditions'] as const;

/** Past these the linter reads no further (the schemas refuse such documents on their own). */
const MAX_CONDITIONS = 50;
const MAX_RULES = 500;
const MAX_EXPRESSION_CHARS = 2000;

export interface ConditionText {
  /** Where the expression is, for `report` and `rangeInsideScalar`. */
  at: PathSegment[];
  expression: string;
  field: (typeof CONDITION_FIELDS)[number] | 'rules';
}

/** Every pre- and postcondition expression of a contract the linter reads, where it is. */
export function contractConditionTexts(document: unknown): ConditionText[] {
  const out: ConditionText[] = [];
  for (const field of CONDITION_FIELDS) {
    const conditions = ownValue(document, field);
    if (!Array.isArray(conditions)) continue;
    conditions.slice(0, MAX_CONDITIONS).forEach((condition, index) => {
      const expression = ownValue(condition, 'expression');
      if (typeof expression === 'string' && expression.length <= MAX_EXPRESSION_CHARS)
        out.push({ at: [field, index, 'expression'], expression, field });
    });
  }
  return out;
}

/** Every policy rule's `when` the linter reads, where it is. */
export function policyWhenTexts(document: unknown): ConditionText[] {
  const rules = ownValue(document, 'rules');
  if (!Array.isArray(rules)) return [];
  return rules.slice(0, MAX_RULES).flatMap((rule, index): ConditionText[] => {
    const when = isPlainObject(rule) ? ownValue(rule, 'when') : undefined;
    return typeof when === 'string' && when.length <= MAX_EXPRESSION_CHARS
      ? [{ at: ['rules', index, 'when'], expression: when, field: 'rules' }]
      : [];
  });
}
