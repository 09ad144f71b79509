import { z } from 'zod';
import { defineRoute } from '../define-route';
import { lintDocument } from '../../lint';
import { publishedContractDocuments } from '../../documents/lint-before-publish';
import { createCostMeter, LINT_REQUEST_COST_LIMIT } from '../../contracts/condition-cost';
import { timeSlices } from '../../jobs/time-slice';

const LintRequest = z
  .object({
    documents: z
      .array(
        z
          .object({
            name: z.string().max(500).optional().describe('Echoed back, e.g. a file name.'),
            kind: z.enum(['contract', 'policy', 'surface']),
            text: z.string().max(1_000_000).describe('The document as JSON or YAML text.'),
            format: z.enum(['json', 'yaml']).optional().describe('Guessed from the text when absent.'),
            prompt: z.string().max(200_000).optional().describe("Surfaces: the system prompt, overriding the document's `system`."),
            previous_version: z.string().max(64).optional().describe('The published version this one must move beyond.'),
          })
          .strict(),
      )
      .min(1)
      .max(50),
  })
  .strict();

const DiagnosticSchema = z
  .object({
    code: z.string(),
    severity: z.enum(['error', 'warning', 'info']),
    message: z.string(),
    path: z.string(),
    range: z
      .object({ startLine: z.number().int(), startColumn: z.number().int(), endLine: z.number().int(), endColumn: z.number().int() })
      .strict(),
    target: z.enum(['document', 'prompt']),
  })
  .strict();

const LintResponse = z
  .object({
    valid: z.boolean().describe('False when any document has an error diagnostic.'),
    results: z.array(
      z
        .object({
          name: z.string().nullable(),
          kind: z.enum(['contract', 'policy', 'surface']),
          valid: z.boolean(),
          diagnostics: z.array(DiagnosticSchema),
        })
        .strict(),
    ),
  })
  .strict();

/**
 * POST /api/v1/lint — the studio's linter over HTTP, for CI and other editors. Surfaces and
 * policies are linted against the tenant's published contracts, as publishing does.
 */
export const lintHandler = defineRoute({
  auth: { apiKey: 'author', session: 'read' },
  body: LintRequest,
  response: LintResponse,
  handler: async ({ caller, body }) => {
    const contracts = body.documents.some((d) => d.kind !== 'contract') ? await publishedContractDocuments(caller.tenantId) : undefined;
    // The test cases of every document share one budget: a request may carry 50 documents.
    const testMeter = createCostMeter(LINT_REQUEST_COST_LIMIT);
    // Up to 50 documents, each a fraction of a second at its size cap, on the thread that answers
    // the gate: other calls are answered between documents.
    const pause = timeSlices();
    const results = [];
    for (const d of body.documents) {
      await pause();
      // A file's byte order mark is not part of its text: `toolgate lint` drops it, and strict JSON
      // stopped at it ("Expected a value, found '\uFEFF'", an invisible character).
      const text = d.text.startsWith('\uFEFF') ? d.text.slice(1) : d.text;
      const result = lintDocument(d.kind, text, {
        format: d.format,
        prompt: d.prompt,
        previousVersion: d.previous_version,
        contracts,
        testMeter,
      });
      results.push({ name: d.name ?? null, kind: d.kind, valid: result.valid, diagnostics: result.diagnostics });
    }
    return { body: { valid: results.every((r) => r.valid), results } };
  },
});
