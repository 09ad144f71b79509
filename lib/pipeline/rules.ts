// The AGN-036 rule registry: every rule of DDR sections 3, 3.1, 4.1-4.10 and 5 with a stable
// id, and the plan that says which rules each entry point runs. The docs table is generated
// from PIPELINE_RULES, PIPELINE_SHAPE_RULES and PIPELINE_STEP_PLAN, so a rule exists for the
// docs exactly when it exists for the validator.
import type { ContextRule } from './context-rule';
import { CORE_RULES } from './core-rules';
import { MANIFEST_RULE } from './manifest-rules';
import { SHAPE_RULE, type PipelineShapeRule } from './shape-rules';
import { STEP_RULES } from './step-rules';
import { PIPELINE_STEPS, type PipelineStep } from './types';

export interface PipelineRule {
  id: string;
  entry: 'core' | 'pre_step' | 'post_step' | 'manifest';
  step: PipelineStep | null;
  phase: 'core' | 'pre' | 'post' | 'manifest';
  checks: string;
}

/**
 * When a step runs the manifest rules: `if_populated` whenever ToolCallManifest is an object
 * (its absence is the step's own rule), `if_continuation` only for ClientToolCallContinuation.
 */
export type ManifestPlan = 'never' | 'if_populated' | 'if_continuation';

export interface StepPhasePlan<R = string> {
  /** The DDR says "ValidateCore(ctx) must succeed" or "Core context valid": the core rules run first. */
  core: boolean;
  manifest: ManifestPlan;
  rules: readonly R[];
}

type StepPlan<R> = Record<PipelineStep, { pre: StepPhasePlan<R>; post: StepPhasePlan<R> }>;

const COMPOSITION: Record<PipelineStep, { pre: Omit<StepPhasePlan, 'rules'>; post: Omit<StepPhasePlan, 'rules'> }> = {
  RequestHandler: { pre: { core: false, manifest: 'never' }, post: { core: true, manifest: 'never' } },
  SessionRestorer: { pre: { core: false, manifest: 'never' }, post: { core: false, manifest: 'never' } },
  AgentContextResolver: { pre: { core: false, manifest: 'never' }, post: { core: false, manifest: 'never' } },
  ClientToolContinuationResolver: { pre: { core: false, manifest: 'never' }, post: { core: false, manifest: 'if_populated' } },
  AgentSessionCreator: { pre: { core: false, manifest: 'never' }, post: { core: false, manifest: 'never' } },
  AgentContextLoader: { pre: { core: false, manifest: 'never' }, post: { core: false, manifest: 'never' } },
  PromptContentProviderInitializer: { pre: { core: false, manifest: 'never' }, post: { core: false, manifest: 'never' } },
  Reasoner: { pre: { core: true, manifest: 'never' }, post: { core: false, manifest: 'never' } },
  LLMClient: { pre: { core: false, manifest: 'if_continuation' }, post: { core: false, manifest: 'never' } },
  ResponseBuilder: { pre: { core: false, manifest: 'never' }, post: { core: false, manifest: 'never' } },
};

function planOf<R>(pick: (rule: ContextRule) => R): StepPlan<R> {
  const plan = {} as StepPlan<R>;
  for (const step of PIPELINE_STEPS) {
    plan[step] = {
      pre: { ...COMPOSITION[step].pre, rules: STEP_RULES[step].pre.map(pick) },
      post: { ...COMPOSITION[step].post, rules: STEP_RULES[step].post.map(pick) },
    };
  }
  return plan;
}

/** The plan with rule objects, for the validator. */
export const STEP_PLAN: StepPlan<ContextRule> = planOf((rule) => rule);

/** Which rule sets and rule ids each step's PRE and POST run, for docs and for callers. */
export const PIPELINE_STEP_PLAN: StepPlan<string> = planOf((rule) => rule.id);

const describe = ({ id, entry, step, phase, checks }: PipelineRule): PipelineRule => ({ id, entry, step, phase, checks });

export const PIPELINE_RULES: readonly PipelineRule[] = [
  ...CORE_RULES.map(describe),
  ...PIPELINE_STEPS.flatMap((step) => [...STEP_RULES[step].pre, ...STEP_RULES[step].post].map(describe)),
  ...Object.values(MANIFEST_RULE).map(({ id, checks }) => describe({ id, entry: 'manifest', step: null, phase: 'manifest', checks })),
];

/** Rules about the input's form; they apply at every entry point. */
export const PIPELINE_SHAPE_RULES: readonly PipelineShapeRule[] = Object.values(SHAPE_RULE).map(({ id, severity, checks }) => ({
  id,
  severity,
  checks,
}));
