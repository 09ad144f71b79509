import { isExactPattern } from '../../../policies/policy-schema';
import type { Diagnostic } from '../../types';
import { activeToolsMatching } from '../../surface-model';
import { defineRule } from '../registry';
import { inactiveReason, type SurfaceContext } from './context';

/** An exact approval pattern that matches no active tool guards nothing. */
export const approvalPatternsRule = defineRule({
  codes: {
    TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH: {
      severity: 'warning',
      summary: 'An exact approval-policy tool pattern matches no active tool.',
    },
  },
  check({ model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    model.approval?.rules.forEach((rule, r) => {
      rule.tools.forEach((pattern, j) => {
        if (!isExactPattern(pattern) || activeToolsMatching(model, pattern).length > 0) return;
        out.push(
          report(
            'TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH',
            `Approval pattern \`${pattern}\` is exact (no \`*\`) and matches no active tool: \`${pattern}\` ${inactiveReason(model.byName.get(pattern))}.`,
            ['approval_policy', 'rules', r, 'tools', j],
          ),
        );
      });
    });
    return out;
  },
});
