// Rules about the form of the input rather than the DDR's content rules. They apply at every
// entry point: a field whose JSON type is wrong cannot be judged by the rules that read it.

export interface PipelineShapeRule {
  id: string;
  severity: 'error' | 'warning';
  checks: string;
}

export const SHAPE_RULE = {
  NOT_OBJECT: {
    id: 'AGN036.SHAPE.NOT_OBJECT',
    severity: 'error',
    checks: 'The context passed to any entry point (or the manifest passed to validateToolCallManifest) is a JSON object.',
  },
  INVALID_TYPE: {
    id: 'AGN036.SHAPE.INVALID_TYPE',
    severity: 'error',
    checks:
      'Every known field has its documented JSON type (null counts as absent); rules that read a mistyped field are not reported for it.',
  },
  AMBIGUOUS_FIELD: {
    id: 'AGN036.SHAPE.AMBIGUOUS_FIELD',
    severity: 'error',
    checks: 'A field spelled both in PascalCase and in camelCase carries the same value in both (the PascalCase value is the one judged).',
  },
  TOO_DEEP: {
    id: 'AGN036.SHAPE.TOO_DEEP',
    severity: 'error',
    checks: 'Values the validator must compare (both spellings of a field, PRE and POST snapshots) nest no deeper than 64 levels.',
  },
  UNKNOWN_STEP: {
    id: 'AGN036.SHAPE.UNKNOWN_STEP',
    severity: 'error',
    checks: 'The step passed to validatePreStep or validatePostStep is one of the ten pipeline steps.',
  },
  ISSUES_TRUNCATED: {
    id: 'AGN036.SHAPE.ISSUES_TRUNCATED',
    severity: 'warning',
    checks: 'One call reports at most 1,000 issues; this warning says how many more were left out.',
  },
} as const satisfies Record<string, PipelineShapeRule>;
