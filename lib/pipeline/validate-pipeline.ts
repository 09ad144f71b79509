// The four LOCKED entry points of AGN-036 (DDR 2.1). Stateless and non-mutating: each call
// normalizes its input into a new object (normalize-context.ts), runs the rules the plan in
// rules.ts names, and returns every issue found. Inputs are untrusted JSON; a value of the
// wrong shape is reported as an AGN036.SHAPE.* issue, never thrown.
//
// "populated", "present" and "empty" are defined once, in context-rule.ts:
//   populated/present: object non-null; string non-empty after trim; array non-empty;
//   empty: absent, null, blank string or empty array.
// Both the DDR's PascalCase names and their camelCase spellings are read; issue paths always
// use PascalCase. Every entry point first checks the JSON types of all known fields, so a
// mistyped field anywhere in the context fails every entry point.
import { CORE_RULES } from './core-rules';
import { contextTypeOf, isPopulated, quote, type ContextRule, type RuleInput } from './context-rule';
import { IssueSink } from './issue-sink';
import { checkManifest } from './manifest-rules';
import { jsonTypeOf, normalizeContext, normalizeManifest } from './normalize-context';
import { STEP_PLAN, type StepPhasePlan } from './rules';
import { SHAPE_RULE } from './shape-rules';
import { PIPELINE_STEPS, type PipelineStep, type PipelineValidationResult } from './types';
import { isJsonObject } from '../json';

export function validateCore(ctx: unknown): PipelineValidationResult {
  const sink = new IssueSink(null, 'core');
  const input = readContext(ctx, undefined, sink);
  if (input) runRules(CORE_RULES, input, sink);
  return sink.result();
}

export function validatePreStep(ctx: unknown, step: PipelineStep): PipelineValidationResult {
  return validateStep(ctx, step, 'pre', undefined);
}

/**
 * `before` is the context as it was when the step started. Only ResponseBuilder's POST needs it
 * ("Context invariants unchanged (PRE == POST)"); without it that step reports
 * AGN036.RESPONSE_BUILDER.POST.BEFORE_PRESENT. Other steps ignore it.
 */
export function validatePostStep(ctx: unknown, step: PipelineStep, before?: unknown): PipelineValidationResult {
  return validateStep(ctx, step, 'post', before);
}

/** DDR section 5 on a manifest passed on its own; paths are relative to the manifest (`$.ToolCalls[0]`). */
export function validateToolCallManifest(manifest: unknown): PipelineValidationResult {
  const sink = new IssueSink(null, 'manifest');
  if (!isJsonObject(manifest)) {
    sink.add(SHAPE_RULE.NOT_OBJECT.id, { message: `The ToolCallManifest must be a JSON object, got ${jsonTypeOf(manifest)}`, path: '$' });
    return sink.result();
  }
  checkManifest(normalizeManifest(manifest, sink), '$', (code, finding) => sink.add(code, finding));
  return sink.result();
}

function validateStep(ctx: unknown, step: PipelineStep, phase: 'pre' | 'post', before: unknown): PipelineValidationResult {
  // The signature says PipelineStep, but the step may come from JSON over HTTP.
  if (!(PIPELINE_STEPS as readonly unknown[]).includes(step)) {
    const sink = new IssueSink(null, phase);
    sink.add(SHAPE_RULE.UNKNOWN_STEP.id, {
      message: `Unknown pipeline step ${typeof step === 'string' ? quote(step) : jsonTypeOf(step)}; expected one of ${PIPELINE_STEPS.join(', ')}`,
      path: '$',
    });
    return sink.result();
  }
  const sink = new IssueSink(step, phase);
  const input = readContext(ctx, before, sink);
  if (input) runPlan(STEP_PLAN[step][phase], input, sink);
  return sink.result();
}

function readContext(ctx: unknown, before: unknown, sink: IssueSink): RuleInput | undefined {
  if (!isJsonObject(ctx)) {
    sink.add(SHAPE_RULE.NOT_OBJECT.id, { message: `The pipeline context must be a JSON object, got ${jsonTypeOf(ctx)}`, path: '$' });
    return undefined;
  }
  return { ctx: normalizeContext(ctx, sink), raw: ctx, before };
}

function runPlan(plan: StepPhasePlan<ContextRule>, input: RuleInput, sink: IssueSink): void {
  if (plan.core) runRules(CORE_RULES, input, sink);
  runRules(plan.rules, input, sink);
  const manifest = input.ctx.ToolCallManifest;
  if (plan.manifest === 'never' || !manifest || !isPopulated(manifest)) return;
  if (plan.manifest === 'if_continuation' && contextTypeOf(input.ctx) !== 'ClientToolCallContinuation') return;
  checkManifest(manifest, '$.ToolCallManifest', (code, finding) => sink.add(code, finding));
}

function runRules(rules: readonly ContextRule[], input: RuleInput, sink: IssueSink): void {
  for (const rule of rules) rule.evaluate(input, (finding, code = rule.id) => sink.add(code, finding));
}
