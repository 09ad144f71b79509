import type { z } from 'zod';
import { compareSideEffectLevels, SIDE_EFFECT_LEVELS, type SideEffectLevel } from '../contracts/contract-schema';
import { checkPattern } from '../contracts/json-schema-engine';
import { isExactPattern, toolPatternMatches } from '../policies/policy-schema';
import {
  MAX_PROMPT_CHARS, SurfaceApprovalPolicySchema, SurfaceCapabilityPolicySchema, SurfaceContractToolSchema, SurfaceInlineToolSchema,
  SurfaceSchema, SurfaceToolSchema,
  surfaceToolBranch, type Surface, type SurfaceApprovalPolicy, type SurfaceCapabilityPolicy, type SurfaceTool,
} from '../surfaces/surface-schema';
import { ownValue } from '../validation/json-path';
import type { LintOptions } from './index';
import { jsonPath, type ParsedDocument, type PathSegment } from './parse-document';
import { scanPrompt, type PromptWord } from './prompt-scan';
import type { Diagnostic, Severity, SourceRange } from './types';

/**
 * Lints a tool surface the way Harn's `tool_surface_validate` does, with Harn's codes and
 * severities, plus Toolgate's own `SURFACE_*` codes. Harn leaves some rules open; here they are:
 *
 * - **Active**: a tool is active when it is declared, allowed by `policy.tools` (no policy or no
 *   `tools` list allows every tool; `[]` allows none) and either not deferred or deferred while
 *   `tool_search` is on (deferred tools are only reachable through `tool_search`).
 * - **Prompt references** (see prompt-scan.ts for what is not scanned): a declared tool name is
 *   referenced wherever it appears as a whole word; a name that is a plain word (letters only,
 *   such as `search`) only when written as a call `search(` or as inline code `` `search` ``.
 *   An undeclared name counts only as a call, `name(`, so ordinary prose never fires.
 * - **Argument aliases** are mentioned as a key (`cmd:` / `cmd=`) inside a call of the tool that
 *   declares them, or as inline code `` `cmd` `` when no tool uses `cmd` as a canonical key.
 * - **Exact pattern**: a tool pattern without `*`.
 * - Per-tool checks concern active tools whose description is known: an invalid entry or an
 *   unknown contract only declares its name (so references to it do not cascade).
 * - Prompt diagnostics (`target: 'prompt'`) have ranges in the prompt text, whether it came
 *   from `options.prompt` or from the document's `system` field.
 */

interface CodeInfo {
  severity: Severity;
  summary: string;
}

export const SURFACE_LINT_CODES = {
  TOOL_SURFACE_MISSING_SCHEMA: { severity: 'warning', summary: 'An active tool has no parameter schema.' },
  TOOL_SURFACE_MISSING_ANNOTATIONS: { severity: 'warning', summary: 'An active tool has no ToolAnnotations.' },
  TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL: { severity: 'warning', summary: 'An annotated tool left side_effect_level as none.' },
  TOOL_SURFACE_MISSING_EXECUTOR: { severity: 'warning', summary: 'An active tool has no declared executor.' },
  TOOL_SURFACE_MISSING_RESULT_READER: { severity: 'error', summary: 'An execute tool can emit artifacts but no active reader can inspect them.' },
  TOOL_SURFACE_UNKNOWN_RESULT_READER: { severity: 'warning', summary: 'A declared result reader is not active.' },
  TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_TOOL: { severity: 'warning', summary: 'A ToolArgConstraint references no active tool.' },
  TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_KEY: { severity: 'warning', summary: 'A constrained argument key is absent from the schema and annotations.' },
  TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH: { severity: 'warning', summary: 'An exact approval-policy tool pattern matches no active tool.' },
  TOOL_SURFACE_UNKNOWN_PROMPT_TOOL: { severity: 'warning', summary: 'Prompt text references a tool that is not declared.' },
  TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY: { severity: 'warning', summary: 'Prompt text references a declared tool outside the active policy.' },
  TOOL_SURFACE_DEFERRED_TOOL_PROMPT_REFERENCE: { severity: 'warning', summary: 'Prompt text references a deferred tool while tool_search is inactive.' },
  TOOL_SURFACE_DEPRECATED_ARG_ALIAS: { severity: 'warning', summary: 'Prompt text mentions an argument alias instead of its canonical key.' },
  TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED: { severity: 'error', summary: 'A tool requires a higher side-effect level than the policy ceiling.' },
  SURFACE_SCHEMA_INVALID: { severity: 'error', summary: 'The document does not match the tool surface format.' },
  SURFACE_UNKNOWN_CONTRACT: { severity: 'error', summary: 'A tool refers to a contract that is not among the published contracts.' },
  SURFACE_DUPLICATE_TOOL: { severity: 'error', summary: 'Two tools have the same name (inline `name` or contract id).' },
  SURFACE_ARG_ALIAS_UNKNOWN_KEY: { severity: 'warning', summary: "An argument alias points at a key the tool's schema does not declare." },
  SURFACE_ARG_CONSTRAINT_PATTERN_INVALID: { severity: 'error', summary: 'An argument constraint pattern cannot run on the linear-time RE2 engine.' },
  SURFACE_POLICY_PATTERN_NO_MATCH: { severity: 'warning', summary: 'An exact capability-policy tool pattern names no declared tool.' },
  SURFACE_PROMPT_TOO_LARGE: { severity: 'error', summary: `The prompt exceeds ${MAX_PROMPT_CHARS} characters and is not checked.` },
  SURFACE_PROMPT_UNTERMINATED_IGNORE: { severity: 'warning', summary: 'An ignore-start marker has no ignore-end, so the rest of the prompt is not checked.' },
  SURFACE_PROMPT_UNMATCHED_IGNORE_END: { severity: 'warning', summary: 'An ignore-end marker has no ignore-start before it.' },
  SURFACE_PROMPT_UNTERMINATED_FENCE: { severity: 'warning', summary: 'A code fence is never closed, so the rest of the prompt is not checked.' },
} as const satisfies Record<string, CodeInfo>;

export type SurfaceLintCode = keyof typeof SURFACE_LINT_CODES;

const MAX_SCHEMA_DIAGNOSTICS = 200;

// One matcher for tool patterns everywhere (policies, surfaces, and the runtime later on).
export { isExactPattern, toolPatternMatches };

interface Facts {
  kind?: string;
  level?: SideEffectLevel;
  emitsArtifacts: boolean;
  readers: readonly string[];
  inlineResult: boolean;
  /** Deprecated alias -> canonical key. */
  aliases: ReadonlyMap<string, string>;
}

interface Tool {
  name: string;
  index: number;
  origin: 'inline' | 'contract';
  /** False when the entry is invalid or its contract unknown: its properties are not checked. */
  known: boolean;
  parameters?: Record<string, unknown>;
  annotations?: Facts;
  executor?: string;
  deferred: boolean;
  allowed: boolean;
  active: boolean;
}

interface Model {
  tools: Tool[];
  byName: Map<string, Tool>;
  policy?: SurfaceCapabilityPolicy;
  approval?: SurfaceApprovalPolicy;
  system?: unknown;
  toolSearch: boolean;
}

export function lintSurface(parsed: ParsedDocument, options: LintOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (code: SurfaceLintCode, message: string, path: readonly PathSegment[], range: SourceRange, target: Diagnostic['target'] = 'document') =>
    out.push({ code, severity: SURFACE_LINT_CODES[code].severity, message, path: jsonPath(path), range, target });
  const atDocument = (code: SurfaceLintCode, message: string, path: readonly PathSegment[], part: 'key' | 'value' = 'value') =>
    report(code, message, path, parsed.locate(path, part));

  const root = parsed.value;
  const full = SurfaceSchema.safeParse(root);
  if (!full.success) {
    for (const d of schemaDiagnostics(full.error.issues, root).slice(0, MAX_SCHEMA_DIAGNOSTICS)) atDocument('SURFACE_SCHEMA_INVALID', d.message, d.path, d.part);
  }
  const model = buildModel(root, full.success ? full.data : undefined, options.contracts ?? [], atDocument);
  const anchor = (tool: Tool): PathSegment[] => ['tools', tool.index, tool.origin === 'inline' ? 'name' : 'contract'];
  // The annotation field when the author wrote it, else the tool's name.
  const annotationPath = (tool: Tool, ...rest: PathSegment[]): PathSegment[] => {
    const path = ['tools', tool.index, 'annotations', ...rest];
    return tool.origin === 'inline' && valueAt(root, path) !== undefined ? path : anchor(tool);
  };
  const inactiveReason = (tool: Tool | undefined): string =>
    !tool ? 'is not declared' : !tool.allowed ? 'is not allowed by `policy.tools`' : 'is deferred while `tool_search` is off';

  const ceiling = model.policy?.side_effect_ceiling;
  for (const tool of model.tools) {
    if (!tool.active || !tool.known) continue;
    const label = `Active tool \`${tool.name}\``;
    if (!tool.executor) atDocument('TOOL_SURFACE_MISSING_EXECUTOR', `${label} declares no \`executor\`, so nothing is known to run it.`, anchor(tool));
    const from = tool.origin === 'contract' ? ` (contract \`${tool.name}\`)` : '';
    if (!tool.parameters) atDocument('TOOL_SURFACE_MISSING_SCHEMA', `${label}${from} has no parameter schema.`, anchor(tool));
    const facts = tool.annotations;
    if (!facts) {
      atDocument('TOOL_SURFACE_MISSING_ANNOTATIONS', `${label}${from} has no annotations (kind, side_effect_level).`, anchor(tool));
      continue;
    }
    if (!facts.level || facts.level === 'none') {
      atDocument('TOOL_SURFACE_MISSING_SIDE_EFFECT_LEVEL', `${label} leaves \`side_effect_level\` as \`none\`; say what it can affect (\`read_only\` at least).`, annotationPath(tool, 'side_effect_level'));
    }
    if (ceiling && facts.level && compareSideEffectLevels(facts.level, ceiling) > 0) {
      atDocument('TOOL_SURFACE_SIDE_EFFECT_CEILING_EXCEEDED', `\`${tool.name}\` has side-effect level \`${facts.level}\`, above the policy ceiling \`${ceiling}\`.`, annotationPath(tool, 'side_effect_level'));
    }
    facts.readers.forEach((reader, j) => {
      const target = model.byName.get(reader);
      if (target?.active) return;
      atDocument('TOOL_SURFACE_UNKNOWN_RESULT_READER', `Result reader \`${reader}\` of \`${tool.name}\` ${inactiveReason(target)}, so it is not active.`, annotationPath(tool, 'result_readers', j));
    });
    // `inline_result: true` is Harn's stated alternative to declaring a reader.
    if (facts.kind === 'execute' && facts.emitsArtifacts && !facts.inlineResult && !facts.readers.some((r) => model.byName.get(r)?.active)) {
      atDocument(
        'TOOL_SURFACE_MISSING_RESULT_READER',
        `Execute tool \`${tool.name}\` can emit artifacts but no active tool in \`result_readers\` can read them; declare an active reader or set \`inline_result: true\`.`,
        annotationPath(tool, facts.readers.length > 0 ? 'result_readers' : 'emits_artifacts'),
      );
    }
    const properties = tool.parameters ? declaredProperties(tool.parameters) : undefined;
    if (properties) {
      for (const [alias, canonical] of facts.aliases) {
        if (!properties.has(canonical)) {
          atDocument('SURFACE_ARG_ALIAS_UNKNOWN_KEY', `Alias \`${alias}\` of \`${tool.name}\` points at \`${canonical}\`, which its parameter schema does not declare.`, annotationPath(tool, 'arg_aliases', alias));
        }
      }
    }
  }

  const activeTools = model.tools.filter((t) => t.active);
  const matchingActive = (pattern: string): Tool[] => {
    if (isExactPattern(pattern)) {
      const tool = model.byName.get(pattern);
      return tool?.active ? [tool] : [];
    }
    return activeTools.filter((t) => toolPatternMatches(pattern, t.name));
  };

  model.policy?.tools?.forEach((pattern, j) => {
    if (isExactPattern(pattern) && !model.byName.has(pattern)) {
      atDocument('SURFACE_POLICY_PATTERN_NO_MATCH', `Policy pattern \`${pattern}\` has no \`*\` and names no declared tool.`, ['policy', 'tools', j]);
    }
  });

  model.policy?.arg_constraints?.forEach((constraint, j) => {
    const path = ['policy', 'arg_constraints', j];
    if (constraint.pattern !== undefined) {
      const check = checkPattern(constraint.pattern);
      if (!check.ok) atDocument('SURFACE_ARG_CONSTRAINT_PATTERN_INVALID', `Pattern cannot run on RE2 (linear time): ${check.reason}`, [...path, 'pattern']);
    }
    const tools = matchingActive(constraint.tool);
    if (tools.length === 0) {
      atDocument('TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_TOOL', `Constraint tool \`${constraint.tool}\` matches no active tool.`, [...path, 'tool']);
      return;
    }
    // Only tools whose schema lists properties can say a key is absent.
    const checkable = tools.filter((t) => t.known && t.parameters && declaredProperties(t.parameters));
    const hasKey = (t: Tool) => hasArgument(t.parameters ?? {}, constraint.key) || (t.annotations?.aliases.has(constraint.key) ?? false);
    if (checkable.length > 0 && !checkable.some(hasKey)) {
      atDocument('TOOL_SURFACE_UNKNOWN_ARG_CONSTRAINT_KEY', `Key \`${constraint.key}\` is in neither the parameter schema nor the argument aliases of ${checkable.map((t) => `\`${t.name}\``).slice(0, 5).join(', ')}.`, [...path, 'key']);
    }
  });

  model.approval?.rules.forEach((rule, r) => {
    rule.tools.forEach((pattern, j) => {
      if (!isExactPattern(pattern) || matchingActive(pattern).length > 0) return;
      atDocument('TOOL_SURFACE_APPROVAL_PATTERN_NO_MATCH', `Approval pattern \`${pattern}\` is exact (no \`*\`) and matches no active tool: \`${pattern}\` ${inactiveReason(model.byName.get(pattern))}.`, ['approval_policy', 'rules', r, 'tools', j]);
    });
  });

  lintPrompt(model, options, report);
  return out;
}

type Report = (code: SurfaceLintCode, message: string, path: readonly PathSegment[], range: SourceRange, target?: Diagnostic['target']) => void;

function lintPrompt(model: Model, options: LintOptions, report: Report): void {
  const fromOptions = typeof options.prompt === 'string';
  const prompt = fromOptions ? options.prompt : model.system;
  if (typeof prompt !== 'string') return;
  const path = ['system'];
  if (prompt.length > MAX_PROMPT_CHARS) {
    // The document's own `system` field already fails the schema for this.
    if (fromOptions) report('SURFACE_PROMPT_TOO_LARGE', `The prompt is ${prompt.length} characters; the limit is ${MAX_PROMPT_CHARS}.`, path, { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 }, 'prompt');
    return;
  }
  const scan = scanPrompt(prompt);
  const at = (word: PromptWord): SourceRange => ({ startLine: word.line, startColumn: word.column, endLine: word.line, endColumn: word.column + word.text.length });
  for (const problem of scan.problems) {
    report(problem.code, problem.message, path, { startLine: problem.line, startColumn: problem.column, endLine: problem.line, endColumn: problem.endColumn }, 'prompt');
  }

  // Aliases are looked up once per word; an alias that is also some tool's canonical key is
  // too ambiguous to flag outside a call.
  const aliases = new Map<string, { tool: string; canonical: string }>();
  const canonicalKeys = new Set<string>();
  for (const tool of model.tools) {
    if (tool.parameters) for (const key of declaredProperties(tool.parameters) ?? []) canonicalKeys.add(key);
    for (const [alias, canonical] of tool.annotations?.aliases ?? []) if (!aliases.has(alias)) aliases.set(alias, { tool: tool.name, canonical });
  }

  const referenced = (tool: Tool, range: SourceRange) => {
    if (!tool.allowed) report('TOOL_SURFACE_PROMPT_TOOL_NOT_IN_POLICY', `The prompt mentions \`${tool.name}\`, which is declared but not allowed by \`policy.tools\`.`, path, range, 'prompt');
    if (tool.deferred && !model.toolSearch) {
      report('TOOL_SURFACE_DEFERRED_TOOL_PROMPT_REFERENCE', `The prompt mentions \`${tool.name}\`, which is deferred (\`defer_loading\`) while \`tool_search\` is off, so the model cannot reach it.`, path, range, 'prompt');
    }
  };

  for (const word of scan.words) {
    const range = at(word);
    const tool = model.byName.get(word.text);
    if (tool) {
      if (word.call || word.code || !isPlainWord(word.text)) referenced(tool, range);
    } else if (word.text.includes('-')) {
      // `run_command-style`: the scanner joins hyphenated words; a declared part still counts.
      let offset = 0;
      for (const part of word.text.split('-')) {
        const partTool = model.byName.get(part);
        if (partTool && !isPlainWord(part)) referenced(partTool, { ...range, startColumn: word.column + offset, endColumn: word.column + offset + part.length });
        offset += part.length + 1;
      }
    }
    if (!tool && word.call && !(word.text === 'tool_search' && model.toolSearch)) {
      report('TOOL_SURFACE_UNKNOWN_PROMPT_TOOL', `The prompt calls \`${word.text}(…)\`, but no tool of that name is declared.`, path, range, 'prompt');
    }

    const caller = word.key && word.enclosingCall >= 0 ? model.byName.get(scan.words[word.enclosingCall]?.text ?? '') : undefined;
    const canonical = caller?.annotations?.aliases.get(word.text);
    if (caller && canonical !== undefined) {
      report('TOOL_SURFACE_DEPRECATED_ARG_ALIAS', `\`${word.text}\` is a deprecated alias of \`${canonical}\` for \`${caller.name}\`; write \`${canonical}\`.`, path, range, 'prompt');
    } else if (word.code && !tool && !canonicalKeys.has(word.text)) {
      const alias = aliases.get(word.text);
      if (alias) report('TOOL_SURFACE_DEPRECATED_ARG_ALIAS', `\`${word.text}\` is a deprecated alias of \`${alias.canonical}\` for \`${alias.tool}\`; write \`${alias.canonical}\`.`, path, range, 'prompt');
    }
  }
}

/** Letters only (`search`, `Lookup`): too common in prose to count without call or code form. */
function isPlainWord(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}

type AtDocument = (code: SurfaceLintCode, message: string, path: readonly PathSegment[], part?: 'key' | 'value') => void;

function buildModel(root: unknown, surface: Surface | undefined, contracts: readonly unknown[], atDocument: AtDocument): Model {
  // The whole document parsed: use it. Otherwise read each part on its own, so one typo does
  // not silence every other finding while the author is typing.
  const rawTools = surface ? surface.tools : ownValue(root, 'tools');
  const entries: { tool?: SurfaceTool; raw: unknown }[] = Array.isArray(rawTools)
    ? rawTools.map((raw: unknown) => ({ raw, tool: surface ? (raw as SurfaceTool) : parseOrUndefined(SurfaceToolSchema, raw) }))
    : [];
  const policy = surface ? surface.policy : parseOrUndefined(SurfaceCapabilityPolicySchema, ownValue(root, 'policy'));
  const approval = surface ? surface.approval_policy : parseOrUndefined(SurfaceApprovalPolicySchema, ownValue(root, 'approval_policy'));
  const toolSearch = (surface ? surface.tool_search : ownValue(root, 'tool_search')) === true;

  const published = new Map<string, unknown>();
  for (const contract of contracts) {
    const id = ownValue(contract, 'id');
    // The caller passes the versions it serves; should one id appear twice, the first wins.
    if (typeof id === 'string' && !published.has(id)) published.set(id, contract);
  }

  const exact = new Set<string>();
  const wildcards: string[] = [];
  for (const pattern of policy?.tools ?? []) {
    if (isExactPattern(pattern)) exact.add(pattern);
    else wildcards.push(pattern);
  }
  const allowed = (name: string) => !policy?.tools || exact.has(name) || wildcards.some((p) => toolPatternMatches(p, name));

  const tools: Tool[] = [];
  const byName = new Map<string, Tool>();
  for (let index = 0; index < entries.length; index++) {
    const { tool: entry, raw } = entries[index] ?? {};
    let name: string | undefined;
    let origin: Tool['origin'] = 'inline';
    let known = false;
    let parameters: Record<string, unknown> | undefined;
    let annotations: Facts | undefined;
    if (entry && 'contract' in entry) {
      const contract = published.get(entry.contract);
      if (contract === undefined) {
        atDocument('SURFACE_UNKNOWN_CONTRACT', `No published contract \`${entry.contract}\` was found; publish it or fix the id.`, ['tools', index, 'contract']);
      }
      const input = ownValue(contract, 'input');
      name = entry.contract;
      origin = 'contract';
      known = contract !== undefined;
      parameters = isRecord(input) ? input : undefined;
      annotations = contractFacts(contract);
    } else if (entry) {
      name = entry.name;
      known = true;
      parameters = entry.parameters;
      annotations = entry.annotations && inlineFacts(entry.annotations);
    } else {
      // An invalid entry still declares its name, so references to it do not cascade.
      const branch = surfaceToolBranch(raw);
      const declared = branch ? ownValue(raw, branch === 'contract' ? 'contract' : 'name') : undefined;
      if (typeof declared === 'string' && declared !== '') name = declared;
      if (branch) origin = branch;
    }
    if (name === undefined) continue;
    const first = byName.get(name);
    if (first) {
      atDocument('SURFACE_DUPLICATE_TOOL', `\`${name}\` is declared twice (first as tools[${first.index}]); tool names must be unique.`, ['tools', index, origin === 'inline' ? 'name' : 'contract']);
      continue;
    }
    const executor = ownValue(raw, 'executor');
    const deferred = ownValue(raw, 'defer_loading') === true;
    const isAllowed = allowed(name);
    const tool: Tool = {
      name,
      index,
      origin,
      known,
      parameters,
      annotations,
      executor: typeof executor === 'string' && executor !== '' ? executor : undefined,
      deferred,
      allowed: isAllowed,
      active: isAllowed && (!deferred || toolSearch),
    };
    tools.push(tool);
    byName.set(name, tool);
  }

  return { tools, byName, policy, approval, system: surface ? surface.system : ownValue(root, 'system'), toolSearch };
}

function inlineFacts(annotations: NonNullable<Extract<SurfaceTool, { name: string }>['annotations']>): Facts {
  return {
    kind: annotations.kind,
    level: annotations.side_effect_level,
    emitsArtifacts: annotations.emits_artifacts === true,
    readers: annotations.result_readers ?? [],
    inlineResult: annotations.inline_result === true,
    aliases: new Map(Object.entries(annotations.arg_aliases ?? {})),
  };
}

/** Contracts arrive as stored documents; every field is read defensively. */
function contractFacts(contract: unknown): Facts | undefined {
  const annotations = ownValue(contract, 'annotations');
  if (!isRecord(annotations)) return undefined;
  const kind = ownValue(annotations, 'kind');
  const level = ownValue(annotations, 'side_effect_level');
  const readers = ownValue(annotations, 'result_readers');
  const aliases = new Map<string, string>();
  for (const record of [ownValue(contract, 'argument_aliases'), ownValue(annotations, 'arg_aliases')]) {
    if (!isRecord(record)) continue;
    for (const [alias, canonical] of Object.entries(record)) if (typeof canonical === 'string') aliases.set(alias, canonical);
  }
  return {
    kind: typeof kind === 'string' ? kind : undefined,
    level: (SIDE_EFFECT_LEVELS as readonly unknown[]).includes(level) ? (level as SideEffectLevel) : undefined,
    emitsArtifacts: ownValue(annotations, 'emits_artifacts') === true,
    readers: Array.isArray(readers) ? readers.filter((r): r is string => typeof r === 'string').slice(0, 50) : [],
    inlineResult: ownValue(annotations, 'inline_result') === true,
    aliases,
  };
}

/** Top-level argument keys a parameter schema declares, or undefined when it lists none. */
function declaredProperties(schema: Record<string, unknown>): Set<string> | undefined {
  const properties = ownValue(schema, 'properties');
  return isRecord(properties) ? new Set(Object.keys(properties)) : undefined;
}

/** Whether a dotted key (`options.mode`) is declared, following `properties` and `allOf`/`anyOf`/`oneOf`. */
function hasArgument(schema: unknown, dotted: string, depth = 0): boolean {
  if (depth > 16 || !isRecord(schema)) return false;
  const dot = dotted.indexOf('.');
  const head = dot === -1 ? dotted : dotted.slice(0, dot);
  const sub = ownValue(ownValue(schema, 'properties'), head);
  if (sub !== undefined && (dot === -1 || hasArgument(sub, dotted.slice(dot + 1), depth + 1))) return true;
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const members = ownValue(schema, keyword);
    if (Array.isArray(members) && members.some((m) => hasArgument(m, dotted, depth + 1))) return true;
  }
  return false;
}

function parseOrUndefined<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface SchemaFinding {
  message: string;
  path: PathSegment[];
  part: 'key' | 'value';
}

/**
 * Zod issues as findings at their paths. A failing tool entry is explained against the shape
 * its author chose (`contract` or `name`), never against both union branches: Zod alone would
 * sometimes pick the other branch and report `contract` as an unknown field of an inline tool.
 */
function schemaDiagnostics(issues: readonly z.core.$ZodIssue[], root: unknown): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  const failedTools = new Set<number>();
  const rawTools = ownValue(root, 'tools');
  for (const issue of issues) {
    const [first, index] = issue.path;
    if (first === 'tools' && typeof index === 'number' && Array.isArray(rawTools)) failedTools.add(index);
    else findings.push(...issueFindings(issue, [], root));
  }
  for (const index of failedTools) {
    const path = ['tools', index];
    const entry: unknown = Array.isArray(rawTools) ? rawTools[index] : undefined;
    const branch = surfaceToolBranch(entry);
    const schema = branch === 'contract' ? SurfaceContractToolSchema : branch === 'inline' ? SurfaceInlineToolSchema : undefined;
    const result = schema?.safeParse(entry);
    if (!result) findings.push({ message: 'A tool needs either `contract` (a published contract id) or `name` (an inline tool).', path, part: 'value' });
    else if (!result.success) for (const issue of result.error.issues) findings.push(...issueFindings(issue, path, root));
  }
  return findings;
}

function issueFindings(issue: z.core.$ZodIssue, prefix: readonly PathSegment[], root: unknown): SchemaFinding[] {
  const path = [...prefix, ...issue.path.filter((s): s is string | number => typeof s !== 'symbol')];
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ message: `Unknown field \`${key}\`.`, path: [...path, key], part: 'key' }));
  const missing = issue.code === 'invalid_type' && valueAt(root, path) === undefined;
  const field = path[path.length - 1];
  const message = missing && typeof field === 'string' ? `Missing required field \`${field}\`.` : `${jsonPath(path)}: ${issue.message}`;
  return [{ message, path, part: missing ? 'key' : 'value' }];
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of path) current = typeof segment === 'number' ? (Array.isArray(current) ? current[segment] : undefined) : ownValue(current, segment);
  return current;
}
