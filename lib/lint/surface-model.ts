import type { z } from 'zod';
import { SIDE_EFFECT_LEVELS, type SideEffectLevel } from '../contracts/contract-schema';
import { isJsonObject, type JsonObject } from '../json';
import { isExactPattern, toolPatternMatches } from '../policies/policy-schema';
import {
  SurfaceApprovalPolicySchema,
  SurfaceCapabilityPolicySchema,
  SurfaceToolSchema,
  surfaceToolBranch,
  type Surface,
  type SurfaceApprovalPolicy,
  type SurfaceCapabilityPolicy,
  type SurfaceTool,
} from '../surfaces/surface-schema';
import { ownValue } from '../validation/json-path';

/**
 * What a tool surface declares, as the surface rules read it: its tools with their facts, and
 * which of them are active. Harn leaves some of this open; here it is settled:
 *
 * - **Active**: a tool is active when it is declared, allowed by `policy.tools` (no policy or no
 *   `tools` list allows every tool; `[]` allows none) and either not deferred or deferred while
 *   `tool_search` is on (deferred tools are only reachable through `tool_search`).
 * - **Exact pattern**: a tool pattern without `*`.
 * - An invalid entry or an unknown contract only declares its name (so references to it do not
 *   cascade); its properties are not checked (`known: false`).
 */

export interface ToolFacts {
  kind?: string;
  level?: SideEffectLevel;
  emitsArtifacts: boolean;
  readers: readonly string[];
  inlineResult: boolean;
  /** Deprecated alias -> canonical key. */
  aliases: ReadonlyMap<string, string>;
}

export interface DeclaredTool {
  name: string;
  index: number;
  origin: 'inline' | 'contract';
  /** False when the entry is invalid or its contract unknown: its properties are not checked. */
  known: boolean;
  parameters?: JsonObject;
  annotations?: ToolFacts;
  executor?: string;
  deferred: boolean;
  allowed: boolean;
  active: boolean;
}

export interface SurfaceModel {
  /** Declared tools in entry order, the first of each name only. */
  tools: DeclaredTool[];
  byName: Map<string, DeclaredTool>;
  policy?: SurfaceCapabilityPolicy;
  approval?: SurfaceApprovalPolicy;
  system?: unknown;
  toolSearch: boolean;
  /** Entries whose contract is not among the published ones, in entry order. */
  unknownContracts: { index: number; contract: string }[];
  /** Entries declaring a name an earlier entry already declared, in entry order. */
  duplicates: { index: number; name: string; origin: DeclaredTool['origin']; first: number }[];
}

/**
 * Builds the model from the parsed surface when the whole document conforms (`surface`), else
 * reads each part on its own, so one typo does not silence every other finding while the
 * author is typing.
 */
export function buildSurfaceModel(root: unknown, surface: Surface | undefined, contracts: readonly unknown[]): SurfaceModel {
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

  const tools: DeclaredTool[] = [];
  const byName = new Map<string, DeclaredTool>();
  const unknownContracts: SurfaceModel['unknownContracts'] = [];
  const duplicates: SurfaceModel['duplicates'] = [];
  for (let index = 0; index < entries.length; index++) {
    const { tool: entry, raw } = entries[index] ?? {};
    let name: string | undefined;
    let origin: DeclaredTool['origin'] = 'inline';
    let known = false;
    let parameters: JsonObject | undefined;
    let annotations: ToolFacts | undefined;
    if (entry && 'contract' in entry) {
      const contract = published.get(entry.contract);
      if (contract === undefined) unknownContracts.push({ index, contract: entry.contract });
      const input = ownValue(contract, 'input');
      name = entry.contract;
      origin = 'contract';
      known = contract !== undefined;
      parameters = isJsonObject(input) ? input : undefined;
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
      duplicates.push({ index, name, origin, first: first.index });
      continue;
    }
    const executor = ownValue(raw, 'executor');
    const deferred = ownValue(raw, 'defer_loading') === true;
    const isAllowed = allowed(name);
    const tool: DeclaredTool = {
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

  return {
    tools,
    byName,
    policy,
    approval,
    system: surface ? surface.system : ownValue(root, 'system'),
    toolSearch,
    unknownContracts,
    duplicates,
  };
}

/** The active tools a policy or approval pattern names. */
export function activeToolsMatching(model: SurfaceModel, pattern: string): DeclaredTool[] {
  if (isExactPattern(pattern)) {
    const tool = model.byName.get(pattern);
    return tool?.active ? [tool] : [];
  }
  return model.tools.filter((t) => t.active && toolPatternMatches(pattern, t.name));
}

function inlineFacts(annotations: NonNullable<Extract<SurfaceTool, { name: string }>['annotations']>): ToolFacts {
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
function contractFacts(contract: unknown): ToolFacts | undefined {
  const annotations = ownValue(contract, 'annotations');
  if (!isJsonObject(annotations)) return undefined;
  const kind = ownValue(annotations, 'kind');
  const level = ownValue(annotations, 'side_effect_level');
  const readers = ownValue(annotations, 'result_readers');
  const aliases = new Map<string, string>();
  const record = ownValue(contract, 'argument_aliases');
  if (isJsonObject(record))
    for (const [alias, canonical] of Object.entries(record)) if (typeof canonical === 'string') aliases.set(alias, canonical);
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
export function declaredProperties(schema: JsonObject): Set<string> | undefined {
  const properties = ownValue(schema, 'properties');
  return isJsonObject(properties) ? new Set(Object.keys(properties)) : undefined;
}

/** Whether a dotted key (`options.mode`) is declared, following `properties` and `allOf`/`anyOf`/`oneOf`. */
export function hasArgument(schema: unknown, dotted: string, depth = 0): boolean {
  if (depth > 16 || !isJsonObject(schema)) return false;
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
