import { formatJsonPath } from '../../validation/json-path';
import type { ParsedDocument, PathSegment } from '../parse-document';
import type { Diagnostic, Severity, SourceRange } from '../types';
import { diagnosticAt, type Locate } from './report';

/**
 * The linter's rules, as a registry of small uniform modules (the idea of Ajv's vocabularies
 * and Spectral's rulesets). A module under `rules/<kind>/` declares the codes it reports, each
 * with its severity and a one-line summary (the README's tables are generated from these), and
 * one check function. A kind's index lists its modules; its driver (contract.ts, policy.ts,
 * surface.ts) builds what the checks share and runs them in the index's order, which is also
 * the order of the docs table. Adding a rule is one module and one line in an index.
 *
 * Codes are never renamed: agents match on them and stored diagnostics keep them. The prefix
 * says whose rule it is, which is why tool surfaces have two: `TOOL_SURFACE_*` codes are Harn's
 * (its `tool_surface_validate`; their names and severities are requirements Toolgate keeps),
 * `SURFACE_*` codes are Toolgate's own checks of the same document.
 */

export interface CodeInfo {
  severity: Severity;
  /** One line for the docs table: what the finding means. */
  summary: string;
}
export type CodeRegistry = Readonly<Record<string, CodeInfo>>;

export interface LintRule<Context, Codes extends CodeRegistry = CodeRegistry> {
  readonly codes: Codes;
  check(context: Context): Diagnostic[];
}

/** A rule module: its codes, and a check that reports them through `report`. */
export function defineRule<Context extends { parsed: ParsedDocument }, const Codes extends CodeRegistry>(rule: {
  codes: Codes;
  check: (context: Context, report: Report<Codes>) => Diagnostic[];
}): LintRule<Context, Codes> {
  return { codes: rule.codes, check: (context) => rule.check(context, reporterFor(rule.codes, context.parsed.locate)) };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
export type CodesOf<Rules extends readonly { codes: CodeRegistry }[]> = UnionToIntersection<Rules[number]['codes']>;

/** A kind's codes in its modules' order, as `{ [code]: { severity, summary } }`. */
export function codesOf<const Rules extends readonly { codes: CodeRegistry }[]>(rules: Rules): CodesOf<Rules> {
  const out: Record<string, CodeInfo> = {};
  for (const rule of rules) {
    for (const [code, info] of Object.entries(rule.codes)) {
      if (code in out) throw new Error(`Lint code ${code} is declared by two rules.`);
      out[code] = info;
    }
  }
  return out as CodesOf<Rules>;
}

/** Runs a kind's rules in order: the diagnostics come out rule by rule. */
export function runRules<Context>(rules: readonly LintRule<NoInfer<Context>>[], context: Context): Diagnostic[] {
  return rules.flatMap((rule) => rule.check(context));
}

/** Builds one rule's diagnostics, taking each code's severity from the rule's own codes. */
export interface Report<Codes extends CodeRegistry> {
  /** A finding at `path` in the document, underlining the member's key or its value. */
  (code: keyof Codes & string, message: string, path: readonly PathSegment[], part?: 'key' | 'value'): Diagnostic;
  /** A finding in a surface's system prompt (`$.system`), at `range` in the prompt's own text. */
  inPrompt(code: keyof Codes & string, message: string, range: SourceRange): Diagnostic;
}

export function reporterFor<Codes extends CodeRegistry>(codes: Codes, locate: Locate): Report<Codes> {
  const report = (code: keyof Codes & string, message: string, path: readonly PathSegment[], part: 'key' | 'value' = 'value'): Diagnostic =>
    diagnosticAt(locate, code, codes[code]!.severity, message, path, part);
  const inPrompt = (code: keyof Codes & string, message: string, range: SourceRange): Diagnostic => ({
    code,
    severity: codes[code]!.severity,
    message,
    path: formatJsonPath(['system']),
    range,
    target: 'prompt',
  });
  return Object.assign(report, { inPrompt });
}
