// What a context rule is, and the meanings of "populated", "present" and "empty" every rule
// shares:
//   populated / present  an object field is a non-null JSON object (`{}` counts); a string is
//                        non-empty after trimming; an array has at least one entry; Org and
//                        User are a populated string or a non-null object.
//   empty                absent, null, a string that is empty after trimming, or an empty array
//                        (exactly "not populated").
// Values are read after normalization, so a mistyped value is absent here and already reported
// as AGN036.SHAPE.INVALID_TYPE.
import type { Finding } from './issue-sink';
import type { NormalizedContext } from './normalize-context';
import { PIPELINE_CONTEXT_TYPES, RESPONSE_TYPES, type PipelineContextType, type PipelineStep, type ResponseType } from './types';

export interface RuleInput {
  ctx: NormalizedContext;
  /** The untouched `before` argument of validatePostStep (undefined elsewhere). */
  before: unknown;
  /** The untouched context, for rules that compare raw values rather than normalized ones. */
  raw: Record<string, unknown>;
}

export type Emit = (finding: Finding, code?: string) => void;

export interface ContextRule {
  id: string;
  entry: 'core' | 'pre_step' | 'post_step';
  step: PipelineStep | null;
  phase: 'core' | 'pre' | 'post';
  /** One sentence for the generated docs table. */
  checks: string;
  evaluate(input: RuleInput, emit: Emit): void;
}

export function isPopulated(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object';
}

/** A populated string; the type guard lets callers compare it without casts. */
export function hasText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export function contextTypeOf(ctx: NormalizedContext): PipelineContextType | undefined {
  return (PIPELINE_CONTEXT_TYPES as readonly string[]).includes(ctx.Type ?? '') ? ctx.Type : undefined;
}

export function responseTypeOf(ctx: NormalizedContext): ResponseType | undefined {
  return (RESPONSE_TYPES as readonly string[]).includes(ctx.ResponseType ?? '') ? ctx.ResponseType : undefined;
}

const MAX_QUOTED = 80;

/** Quotes an untrusted string for a message, cut short so a hostile value cannot bloat it. */
export function quote(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  const text = value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value;
  return `'${text}'`;
}

export function article(type: PipelineContextType): string {
  return type === 'Initial' ? 'an' : 'a';
}
