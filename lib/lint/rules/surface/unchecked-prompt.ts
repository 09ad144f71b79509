import { MAX_PROMPT_CHARS } from '../../../surfaces/surface-schema';
import type { Diagnostic } from '../../types';
import { defineRule } from '../registry';
import type { SurfaceContext } from './context';

/** Prompt text the linter cannot check: all of it when too large, or the rest after an unclosed fence or marker. */
export const uncheckedPromptRule = defineRule({
  codes: {
    SURFACE_PROMPT_TOO_LARGE: { severity: 'error', summary: `The prompt exceeds ${MAX_PROMPT_CHARS} characters and is not checked.` },
    SURFACE_PROMPT_UNTERMINATED_IGNORE: {
      severity: 'warning',
      summary: 'An ignore-start marker has no ignore-end, so the rest of the prompt is not checked.',
    },
    SURFACE_PROMPT_UNMATCHED_IGNORE_END: { severity: 'warning', summary: 'An ignore-end marker has no ignore-start before it.' },
    SURFACE_PROMPT_UNTERMINATED_FENCE: {
      severity: 'warning',
      summary: 'A code fence is never closed, so the rest of the prompt is not checked.',
    },
  },
  check({ prompt }: SurfaceContext, report) {
    const out: Diagnostic[] = [];
    if (!prompt) return out;
    if (!prompt.scan) {
      // The document's own `system` field already fails the schema for this.
      if (prompt.fromOptions) {
        out.push(
          report.inPrompt('SURFACE_PROMPT_TOO_LARGE', `The prompt is ${prompt.text.length} characters; the limit is ${MAX_PROMPT_CHARS}.`, {
            startLine: 1,
            startColumn: 1,
            endLine: 1,
            endColumn: 2,
          }),
        );
      }
      return out;
    }
    for (const problem of prompt.scan.problems) {
      out.push(
        report.inPrompt(problem.code, problem.message, {
          startLine: problem.line,
          startColumn: problem.column,
          endLine: problem.line,
          endColumn: problem.endColumn,
        }),
      );
    }
    return out;
  },
});
