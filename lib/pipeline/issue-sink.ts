import { SHAPE_RULE } from './shape-rules';
import type { PipelineIssue, PipelinePhase, PipelineStep, PipelineValidationResult } from './types';

// Untrusted input can make every entry of a huge manifest fail; past this many the result would
// only cost memory and bandwidth without telling the caller anything new.
export const MAX_ISSUES = 1000;

export interface Finding {
  message: string;
  path: string;
  details?: Record<string, unknown>;
}

/** Collects the issues of one validator call, stamped with the call's step and phase. */
export class IssueSink {
  readonly errors: PipelineIssue[] = [];
  readonly warnings: PipelineIssue[] = [];
  // Paths whose value had the wrong JSON type: the rules that read them would only restate it.
  private readonly invalidPaths = new Set<string>();
  private dropped = 0;

  constructor(
    readonly step: PipelineStep | null,
    readonly phase: PipelinePhase,
  ) {}

  /** Records a mistyped value and silences rule findings at or below its path. */
  invalid(finding: Finding): void {
    this.invalidPaths.add(finding.path);
    this.add(SHAPE_RULE.INVALID_TYPE.id, finding);
  }

  /** Adds a finding unless it is about a value already reported as mistyped. */
  add(code: string, finding: Finding, severity: 'error' | 'warning' = 'error'): void {
    if (this.invalidPaths.size > 0 && code !== SHAPE_RULE.INVALID_TYPE.id && this.isUnderInvalidPath(finding.path)) return;
    if (this.errors.length + this.warnings.length >= MAX_ISSUES) {
      this.dropped++;
      return;
    }
    const issue: PipelineIssue = { code, severity, message: finding.message, path: finding.path, step: this.step, phase: this.phase };
    if (finding.details) issue.details = finding.details;
    (severity === 'error' ? this.errors : this.warnings).push(issue);
  }

  result(): PipelineValidationResult {
    const warnings = [...this.warnings];
    if (this.dropped > 0) {
      warnings.push({
        code: SHAPE_RULE.ISSUES_TRUNCATED.id,
        severity: 'warning',
        message: `${this.dropped} more issue(s) were not reported: one call reports at most ${MAX_ISSUES}`,
        path: '$',
        step: this.step,
        phase: this.phase,
        details: { dropped: this.dropped, limit: MAX_ISSUES },
      });
    }
    return { valid: this.errors.length === 0, errors: [...this.errors], warnings };
  }

  // Looks up the path and each of its ancestors ("$.A[0].B" -> "$.A[0]", "$.A"), so the cost
  // does not grow with the number of mistyped values.
  private isUnderInvalidPath(path: string): boolean {
    if (this.invalidPaths.has(path)) return true;
    for (let i = path.length - 1; i > 0; i--) {
      const c = path[i];
      if ((c === '.' || c === '[') && this.invalidPaths.has(path.slice(0, i))) return true;
    }
    return false;
  }
}
