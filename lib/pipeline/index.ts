export { validateCore, validatePostStep, validatePreStep, validateToolCallManifest } from './validate-pipeline';
export {
  PIPELINE_RULES,
  PIPELINE_SHAPE_RULES,
  PIPELINE_STEP_PLAN,
  type ManifestPlan,
  type PipelineRule,
  type StepPhasePlan,
} from './rules';
export type { PipelineShapeRule } from './shape-rules';
export { RESPONSE_BUILDER_INVARIANT_FIELDS } from './step-rules';
export { MAX_ISSUES } from './issue-sink';
export { MAX_COMPARE_DEPTH } from './normalize-context';
export { PIPELINE_CONTEXT_JSON_SCHEMA, TOOL_CALL_MANIFEST_JSON_SCHEMA, PipelineContextSchema, ToolCallManifestSchema } from './json-schema';
export * from './types';
