import { DriftFindings, jsonEqual, own, show, type DriftReport } from './drift-findings';
import { findNewInstructions } from './drift-instructions';
import { compareSchemas } from './drift-schema';
import type { UpstreamToolDefinition } from './tool-definition';

export { DRIFT_CLASSES, MAX_FINDINGS, type DriftClass, type DriftFinding, type DriftReport } from './drift-findings';

/**
 * What changed between the definition of an upstream tool the gateway pinned and the one the
 * upstream now lists, for the author who must accept the change before the tool is served again:
 *
 * - `cosmetic`: only wording (titles, descriptions, schema annotations) changed and no new text
 *   addressed to the model came with it; then the classes are exactly `['cosmetic']`, the one
 *   class a server may be set to accept on its own.
 * - `schema_widened` / `schema_narrowed`: the input or output schema accepts values it refused,
 *   or refuses values it accepted (drift-schema.ts). Both when the direction cannot be told.
 * - `side_effect_raised` / `side_effect_lowered`: the annotations promise less or more safety,
 *   reading absent hints as MCP's defaults.
 * - `instructions_added`: new imperative or injection-like text, calls, or hidden characters
 *   (drift-instructions.ts).
 *
 * Pure and bounded: definitions come from untrusted servers, so every walk is capped and reads
 * own properties only (`__proto__` is a key like any other).
 */
export function classifyDrift(pinned: UpstreamToolDefinition, upstream: UpstreamToolDefinition): DriftReport {
  const sink = new DriftFindings();
  const oldName = own(pinned, 'name');
  const newName = own(upstream, 'name');
  if (oldName !== newName) sink.both('name', `The tool's name changed: ${show(oldName, 64)} → ${show(newName, 64)}.`);
  for (const key of ['title', 'description']) {
    if (!jsonEqual(own(pinned, key), own(upstream, key))) sink.wordingChanged(key, `The tool's ${key} changed.`);
  }
  compareSchemas(own(pinned, 'inputSchema'), own(upstream, 'inputSchema'), 'inputSchema', sink);
  compareOutputSchemas(own(pinned, 'outputSchema'), own(upstream, 'outputSchema'), sink);
  compareAnnotations(own(pinned, 'annotations'), own(upstream, 'annotations'), sink);
  findNewInstructions(pinned, upstream, sink);
  return sink.report(!jsonEqual(pinned, upstream));
}

/** A whole output schema appearing or going is one finding, not one per keyword it holds. */
function compareOutputSchemas(before: unknown, after: unknown, sink: DriftFindings): void {
  if (before === undefined && after !== undefined) {
    sink.add('schema_narrowed', 'outputSchema', 'An output schema was added: results are now checked against it.');
  } else if (before !== undefined && after === undefined) {
    sink.add('schema_widened', 'outputSchema', 'The output schema was removed: results are no longer described.');
  } else compareSchemas(before, after, 'outputSchema', sink);
}

interface Hint {
  key: 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';
  /** MCP's reading of an absent hint. */
  fallback: boolean;
  /** The value that means more risk. */
  risky: boolean;
  raised: string;
  lowered: string;
}

const HINTS: Hint[] = [
  { key: 'readOnlyHint', fallback: false, risky: false, raised: 'may now modify its environment', lowered: 'now says it only reads' },
  {
    key: 'destructiveHint',
    fallback: true,
    risky: true,
    raised: 'may now make destructive updates',
    lowered: 'now says its updates are not destructive',
  },
  {
    key: 'idempotentHint',
    fallback: false,
    risky: false,
    raised: 'no longer says repeated calls are harmless',
    lowered: 'now says repeated calls are harmless',
  },
  {
    key: 'openWorldHint',
    fallback: true,
    risky: true,
    raised: 'may now reach outside systems',
    lowered: 'now says it stays within a closed domain',
  },
];

function compareAnnotations(before: unknown, after: unknown, sink: DriftFindings): void {
  if (!jsonEqual(own(before, 'title'), own(after, 'title'))) sink.wordingChanged('annotations.title', "The annotations' title changed.");
  for (const hint of HINTS) {
    const old = own(before, hint.key);
    const now = own(after, hint.key);
    const oldValue = typeof old === 'boolean' ? old : hint.fallback;
    const newValue = typeof now === 'boolean' ? now : hint.fallback;
    if (oldValue === newValue) continue;
    const shown = (value: unknown) => (typeof value === 'boolean' ? String(value) : `absent (read as ${hint.fallback})`);
    const raised = newValue === hint.risky;
    sink.add(
      raised ? 'side_effect_raised' : 'side_effect_lowered',
      `annotations.${hint.key}`,
      `${hint.key} ${shown(old)} → ${shown(now)}: the tool ${raised ? hint.raised : hint.lowered}.`,
    );
  }
}
