import { isPlainObject } from '../../../json';
import { ownValue } from '../../../validation/json-path';
import { historyCallsIn } from '../../history-calls';
import type { PathSegment } from '../../parse-document';
import { rangeInsideScalar } from '../../scalar-range';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { PolicyContext } from './context';

/** `history.*` calls the compiler would refuse, said plainly and underlined where they go wrong. */
export const historyCallsRule = defineRule({
  codes: {
    POLICY_HISTORY_CALL_INVALID: {
      severity: 'error',
      summary:
        "A `history.*` call in a rule's `when` names no history function (e.g. `history.average`), has the wrong number of arguments, computes one instead of writing it out, or names an unknown scope or a bad window (`1x`, `90d`: at most 31 days).",
    },
  },
  check({ parsed, document }: PolicyContext, report) {
    const out: Diagnostic[] = [];
    const rules = ownValue(document, 'rules');
    if (!Array.isArray(rules)) return out;
    rules.slice(0, 500).forEach((rule, index) => {
      const when = isPlainObject(rule) ? ownValue(rule, 'when') : undefined;
      if (typeof when !== 'string' || when.length > 2000) return;
      const at: PathSegment[] = ['rules', index, 'when'];
      for (const problem of historyCallsIn(when).problems) {
        const diagnostic = report('POLICY_HISTORY_CALL_INVALID', problem.message, at);
        out.push({ ...diagnostic, range: rangeInsideScalar(parsed, diagnostic.range, when, problem.start, problem.end) });
      }
    });
    return out;
  },
});
