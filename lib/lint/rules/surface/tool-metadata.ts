import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import { annotationPath, checkedTools, toolAnchor, type SurfaceContext } from './context';

/** What every active tool must say about itself: its parameters, its annotations, its side effects, who runs it. */
export const toolMetadataRule = defineRule({
  codes: {
    TOOL_SURFACE_MISSING_SCHEMA: { severity: 'warning', summary: 'An active tool has no parameter schema.' },
    TOOL_SURFACE_MISSING_ANNOTATIONS: { severity: 'warning', summary: 'An active tool has no ToolAnnotations.' },
    TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL: { severity: 'warning', summary: 'An annotated tool left side_effect_level as none.' },
    TOOL_SURFACE_MISSING_EXECUTOR: { severity: 'warning', summary: 'An active tool has no declared executor.' },
  },
  check({ parsed, model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    for (const tool of checkedTools(model)) {
      const label = `Active tool \`${tool.name}\``;
      if (!tool.executor)
        out.push(
          report('TOOL_SURFACE_MISSING_EXECUTOR', `${label} declares no \`executor\`, so nothing is known to run it.`, toolAnchor(tool)),
        );
      const from = tool.origin === 'contract' ? ` (contract \`${tool.name}\`)` : '';
      if (!tool.parameters) out.push(report('TOOL_SURFACE_MISSING_SCHEMA', `${label}${from} has no parameter schema.`, toolAnchor(tool)));
      const facts = tool.annotations;
      if (!facts) {
        out.push(
          report('TOOL_SURFACE_MISSING_ANNOTATIONS', `${label}${from} has no annotations (kind, side_effect_level).`, toolAnchor(tool)),
        );
      } else if (!facts.level || facts.level === 'none') {
        out.push(
          report(
            'TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL',
            `${label} leaves \`side_effect_level\` as \`none\`; say what it can affect (\`read_only\` at least).`,
            annotationPath(parsed.value, tool, 'side_effect_level'),
          ),
        );
      }
    }
    return out;
  },
});
