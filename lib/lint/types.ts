import type { CostMeter } from '../contracts/condition-cost';

/**
 * What the linter says about a document. The same shape reaches the studio (Monaco markers),
 * `POST /api/v1/lint`, the CLI (text, JSON, SARIF) and a refused publish (409).
 */

export type Severity = 'error' | 'warning' | 'info';

/** 1-based lines and columns, end exclusive: the convention Monaco markers and SARIF use. */
export interface SourceRange {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface Diagnostic {
  /** Stable code, e.g. `TOOL_SURFACE_MISSING_SCHEMA` or `CONTRACT_REQUIRED_NOT_IN_PROPERTIES`. */
  code: string;
  severity: Severity;
  message: string;
  /** JSONPath of the offending value in the document, e.g. `$.input.required[1]`. */
  path: string;
  /**
   * Where to underline. `target: 'prompt'` ranges are in the surface's system prompt text
   * (shown in its own editor), otherwise in the document text.
   */
  range: SourceRange;
  target: 'document' | 'prompt';
}

export type DocumentKind = 'contract' | 'policy' | 'surface';
export type DocumentFormat = 'json' | 'yaml';

export interface LintResult {
  /** False when any diagnostic is an error: such a document cannot be published. */
  valid: boolean;
  diagnostics: Diagnostic[];
  /** The parsed document when the text parsed at all (even if it has diagnostics). */
  value?: unknown;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

export interface LintOptions {
  /** Defaults to a guess from the text (`{`/`[` first means JSON). */
  format?: DocumentFormat;
  /** Surfaces: the system prompt edited beside the document; overrides the document's `system`. */
  prompt?: string;
  /**
   * Surfaces: published contracts a `{contract: "<tool id>"}` tool entry may refer to.
   * Policies: the contracts whose input schemas declare the argument paths history reads.
   */
  contracts?: readonly unknown[];
  /** Contracts and policies: the latest published version, to catch versions that go backwards. */
  previousVersion?: string;
  /**
   * Publishing: compile every contract fully (Ajv code generation and test cases) however large.
   * The studio leaves it off so very large schemas stay within its per-keystroke budget.
   */
  thorough?: boolean;
  /**
   * Contracts and policies: the step budget their test cases run on, when several documents
   * share one (POST /api/v1/lint); by default each document's cases get their own.
   */
  testMeter?: CostMeter;
}
