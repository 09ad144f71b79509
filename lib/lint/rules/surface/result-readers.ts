import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import { annotationPath, checkedTools, inactiveReason, type SurfaceContext } from './context';

/** Artifacts an execute tool emits must have an active reader; a named reader must be active. */
export const resultReadersRule = defineRule({
  codes: {
    TOOL_SURFACE_MISSING_RESULT_READER: {
      severity: 'error',
      summary: 'An execute tool can emit artifacts but no active reader can inspect them.',
    },
    TOOL_SURFACE_UNKNOWN_RESULT_READER: { severity: 'warning', summary: 'A declared result reader is not active.' },
  },
  check({ parsed, model }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    for (const tool of checkedTools(model)) {
      const facts = tool.annotations;
      if (!facts) continue;
      facts.readers.forEach((reader, j) => {
        const target = model.byName.get(reader);
        if (target?.active) return;
        out.push(
          report(
            'TOOL_SURFACE_UNKNOWN_RESULT_READER',
            `Result reader \`${reader}\` of \`${tool.name}\` ${inactiveReason(target)}, so it is not active.`,
            annotationPath(parsed.value, tool, 'result_readers', j),
          ),
        );
      });
      // `inline_result: true` is Harn's stated alternative to declaring a reader.
      if (
        facts.kind === 'execute' &&
        facts.emitsArtifacts &&
        !facts.inlineResult &&
        !facts.readers.some((r) => model.byName.get(r)?.active)
      ) {
        out.push(
          report(
            'TOOL_SURFACE_MISSING_RESULT_READER',
            `Execute tool \`${tool.name}\` can emit artifacts but no active tool in \`result_readers\` can read them; declare an active reader or set \`inline_result: true\`.`,
            annotationPath(parsed.value, tool, facts.readers.length > 0 ? 'result_readers' : 'emits_artifacts'),
          ),
        );
      }
    }
    return out;
  },
});
