import { compareSideEffectLevels } from '../../../contracts/contract-schema';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import { annotationPath, checkedTools, type SurfaceContext } from './context';

/** No active tool may need more side effects than the policy's ceiling allows. */
export const sideEffectCeilingRule = defineRule({
  codes: {
    TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED: {
      severity: 'error',
      summary: 'A tool requires a higher side-effect level than the policy ceiling.',
    },
  },
  check({ parsed, model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    const ceiling = model.policy?.side_effect_ceiling;
    if (!ceiling) return out;
    for (const tool of checkedTools(model)) {
      const level = tool.annotations?.level;
      if (level && compareSideEffectLevels(level, ceiling) > 0) {
        out.push(
          report(
            'TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED',
            `\`${tool.name}\` has side-effect level \`${level}\`, above the policy ceiling \`${ceiling}\`.`,
            annotationPath(parsed.value, tool, 'side_effect_level'),
          ),
        );
      }
    }
    return out;
  },
});
