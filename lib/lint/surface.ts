import type { ParsedDocument } from './parse-document';
import { codesOf, runRules } from './rules/registry';
import { SURFACE_RULES } from './rules/surface';
import { surfaceContext } from './rules/surface/context';
import type { Diagnostic, LintOptions } from './types';

/**
 * Lints a tool surface the way Harn's `tool_surface_validate` does, with Harn's codes and
 * severities, plus Toolgate's own `SURFACE_*` codes. The rules are in rules/surface/; what
 * "active", "declared" and "referenced" mean where Harn leaves it open is settled in
 * surface-model.ts and rules/surface/prompt-references.ts.
 */

export const SURFACE_LINT_CODES = codesOf(SURFACE_RULES);
export type SurfaceLintCode = keyof typeof SURFACE_LINT_CODES;

export function lintSurface(parsed: ParsedDocument, options: LintOptions): Diagnostic[] {
  return runRules(SURFACE_RULES, surfaceContext(parsed, options));
}
