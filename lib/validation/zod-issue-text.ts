import type { z } from 'zod';

type ZodIssue = z.ZodError['issues'][number];

/** Where a Zod issue is, as answers name it: `items.0.sku`, or `(root)` for the value itself. */
export function zodIssuePath(issue: ZodIssue): string {
  return issue.path.map(String).join('.') || '(root)';
}

/** A Zod issue as one line, `path: message`: the first of a refusal, where an answer has room for one. */
export function zodIssueText(issue: ZodIssue | undefined): string {
  return issue ? `${zodIssuePath(issue)}: ${issue.message}` : '(root): invalid';
}
