import type { Diagnostic } from '../../types';
import { activeToolsMatching, declaredProperties, hasArgument, type DeclaredTool } from '../../surface-model';
import { defineRule } from '../registry';
import type { SurfaceContext } from './context';

/** An argument constraint must name an active tool, and a key that tool takes. */
export const argConstraintTargetsRule = defineRule({
  codes: {
    TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_TOOL: { severity: 'warning', summary: 'A ToolArgConstraint references no active tool.' },
    TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_KEY: {
      severity: 'warning',
      summary: 'A constrained argument key is absent from the schema and annotations.',
    },
  },
  check({ model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    model.policy?.arg_constraints?.forEach((constraint, j) => {
      const path = ['policy', 'arg_constraints', j];
      const tools = activeToolsMatching(model, constraint.tool);
      if (tools.length === 0) {
        out.push(
          report('TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_TOOL', `Constraint tool \`${constraint.tool}\` matches no active tool.`, [
            ...path,
            'tool',
          ]),
        );
        return;
      }
      // Only tools whose schema lists properties can say a key is absent.
      const checkable = tools.filter((t) => t.known && t.parameters && declaredProperties(t.parameters));
      const hasKey = (t: DeclaredTool) =>
        hasArgument(t.parameters ?? {}, constraint.key) || (t.annotations?.aliases.has(constraint.key) ?? false);
      if (checkable.length > 0 && !checkable.some(hasKey)) {
        out.push(
          report(
            'TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_KEY',
            `Key \`${constraint.key}\` is in neither the parameter schema nor the argument aliases of ${checkable
              .map((t) => `\`${t.name}\``)
              .slice(0, 5)
              .join(', ')}.`,
            [...path, 'key'],
          ),
        );
      }
    });
    return out;
  },
});
