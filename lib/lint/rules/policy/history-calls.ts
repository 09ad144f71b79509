import { historyCallsIn } from '../../history-calls';
import { policyWhenTexts } from '../../condition-texts';
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
    for (const { at, expression } of policyWhenTexts(document)) {
      for (const problem of historyCallsIn(expression).problems) {
        const diagnostic = report('POLICY_HISTORY_CALL_INVALID', problem.message, at);
        out.push({ ...diagnostic, range: rangeInsideScalar(parsed, diagnostic.range, expression, problem.start, problem.end) });
      }
    }
    return out;
  },
});
