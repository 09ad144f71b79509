import { checkPattern } from '../../../contracts/json-schema-engine';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { SurfaceContext } from './context';

/** An argument constraint's pattern must run on RE2, as the runtime runs it. */
export const argConstraintPatternRule = defineRule({
  codes: {
    SURFACE_ARG_CONSTRAINT_PATTERN_INVALID: {
      severity: 'error',
      summary: 'An argument constraint pattern cannot run on the linear-time RE2 engine.',
    },
  },
  check({ model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    model.policy?.arg_constraints?.forEach((constraint, j) => {
      if (constraint.pattern === undefined) return;
      const check = checkPattern(constraint.pattern);
      if (!check.ok)
        out.push(
          report('SURFACE_ARG_CONSTRAINT_PATTERN_INVALID', `Pattern cannot run on RE2 (linear time): ${check.reason}`, [
            'policy',
            'arg_constraints',
            j,
            'pattern',
          ]),
        );
    });
    return out;
  },
});
