import { MAX_PROMPT_CHARS, SurfaceSchema } from '../../../surfaces/surface-schema';
import { ownValue } from '../../../validation/json-path';
import type { ParsedDocument, PathSegment } from '../../parse-document';
import { scanPrompt, type PromptScan } from '../../prompt-scan';
import { buildSurfaceModel, type DeclaredTool, type SurfaceModel } from '../../surface-model';
import type { LintOptions } from '../../types';

/** What every surface rule reads. */
export interface SurfaceContext {
  parsed: ParsedDocument;
  options: LintOptions;
  conformance: ReturnType<typeof SurfaceSchema.safeParse>;
  model: SurfaceModel;
  /**
   * The system prompt: `options.prompt` when given, else the document's `system`. Prompt
   * diagnostics (`target: 'prompt'`) have ranges in this text, whichever it is.
   */
  prompt?: {
    text: string;
    fromOptions: boolean;
    /** Undefined when the prompt is over MAX_PROMPT_CHARS: it is not checked. */
    scan?: PromptScan;
  };
}

export function surfaceContext(parsed: ParsedDocument, options: LintOptions): SurfaceContext {
  const conformance = SurfaceSchema.safeParse(parsed.value);
  const model = buildSurfaceModel(parsed.value, conformance.success ? conformance.data : undefined, options.contracts ?? []);
  const fromOptions = typeof options.prompt === 'string';
  const text = fromOptions ? options.prompt : model.system;
  const prompt =
    typeof text === 'string' ? { text, fromOptions, scan: text.length > MAX_PROMPT_CHARS ? undefined : scanPrompt(text) } : undefined;
  return { parsed, options, conformance, model, prompt };
}

/** Where a finding about a tool as a whole goes: its `name` or `contract`. */
export function toolAnchor(tool: DeclaredTool): PathSegment[] {
  return ['tools', tool.index, tool.origin === 'inline' ? 'name' : 'contract'];
}

/** The annotation field when the author wrote it, else the tool's name. */
export function annotationPath(root: unknown, tool: DeclaredTool, ...rest: PathSegment[]): PathSegment[] {
  const path = ['tools', tool.index, 'annotations', ...rest];
  return tool.origin === 'inline' && valueAt(root, path) !== undefined ? path : toolAnchor(tool);
}

/** Why a tool a pattern or reader names is not active, for messages. */
export function inactiveReason(tool: DeclaredTool | undefined): string {
  return !tool ? 'is not declared' : !tool.allowed ? 'is not allowed by `policy.tools`' : 'is deferred while `tool_search` is off';
}

export function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current = root;
  for (const segment of path)
    current = typeof segment === 'number' ? (Array.isArray(current) ? current[segment] : undefined) : ownValue(current, segment);
  return current;
}

/** The tools per-tool rules check: active ones whose description is known. */
export function checkedTools(model: SurfaceModel): DeclaredTool[] {
  return model.tools.filter((tool) => tool.active && tool.known);
}
