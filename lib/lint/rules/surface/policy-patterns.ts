import { isExactPattern } from '../../../policies/policy-schema';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { SurfaceContext } from './context';

/** An exact `policy.tools` pattern must name a declared tool: otherwise it is usually a typo. */
export const policyPatternsRule = defineRule({
  codes: {
    SURFACE_POLICY_PATTERN_NO_MATCH: { severity: 'warning', summary: 'An exact capability-policy tool pattern names no declared tool.' },
  },
  check({ model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    model.policy?.tools?.forEach((pattern, j) => {
      if (isExactPattern(pattern) && !model.byName.has(pattern)) {
        out.push(
          report('SURFACE_POLICY_PATTERN_NO_MATCH', `Policy pattern \`${pattern}\` has no \`*\` and names no declared tool.`, [
            'policy',
            'tools',
            j,
          ]),
        );
      }
    });
    return out;
  },
});
