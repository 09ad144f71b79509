// DDR section 5, the LOCKED validity definition of a ToolCallManifest. Every failing entry and
// pair is reported (the DDR makes any failure a hard gate and wants it bubbled with the tool
// id, name and reason, so the caller should not have to fix and resubmit one pair at a time).
import { hasText, isPopulated, quote } from './context-rule';
import type { Finding } from './issue-sink';
import type { NormalizedManifest } from './normalize-context';

export const MANIFEST_RULE = {
  TOOL_CALL_ID_MISSING: {
    id: 'AGN036.MANIFEST.TOOL_CALL_ID_MISSING',
    checks: 'Every entry of ToolCalls and ToolCallResults has a non-empty ToolCallId, so that ids can be matched at all.',
  },
  NAME_MISSING: {
    id: 'AGN036.MANIFEST.NAME_MISSING',
    checks: 'Every entry of ToolCalls and ToolCallResults has a non-empty Name, so that names can be matched at all.',
  },
  COUNT_MISMATCH: {
    id: 'AGN036.MANIFEST.COUNT_MISMATCH',
    checks: 'ToolCalls and ToolCallResults have the same count; each call without a result and each result without a call is reported.',
  },
  ORDER_MISMATCH: {
    id: 'AGN036.MANIFEST.ORDER_MISMATCH',
    checks: 'The result at each index belongs to the call at the same index, not to a call at another index.',
  },
  TOOL_CALL_ID_MISMATCH: {
    id: 'AGN036.MANIFEST.TOOL_CALL_ID_MISMATCH',
    checks: 'The result at each index has the ToolCallId of the call at the same index (reported when the id belongs to no call at all).',
  },
  NAME_MISMATCH: {
    id: 'AGN036.MANIFEST.NAME_MISMATCH',
    checks: 'The result at each index has the same Name as the call at the same index (checked once the ToolCallIds match).',
  },
  RESULT_JSON_MISSING: {
    id: 'AGN036.MANIFEST.RESULT_JSON_MISSING',
    checks: 'Every entry of ToolCallResults has a non-empty ResultJson.',
  },
} as const;

type Entry = NonNullable<NonNullable<NormalizedManifest['ToolCalls']>[number]>;
type ManifestEmit = (code: string, finding: Finding) => void;

const label = (entry: Entry | undefined) => {
  const id = entry?.ToolCallId;
  const name = entry?.Name;
  return `tool call ${isPopulated(id) ? quote(id) : 'without ToolCallId'}${isPopulated(name) ? ` named ${quote(name)}` : ''}`;
};

const identity = (entry: Entry | undefined, index: number, reason: string) => ({
  tool_call_id: entry?.ToolCallId ?? null,
  name: entry?.Name ?? null,
  index,
  reason,
});

/**
 * Checks a normalized manifest. `base` is where it sits: `$` for a manifest passed on its own,
 * `$.ToolCallManifest` inside a context.
 */
export function checkManifest(manifest: NormalizedManifest, base: string, emit: ManifestEmit): void {
  const calls = manifest.ToolCalls ?? [];
  const results = manifest.ToolCallResults ?? [];

  for (const [list, entries] of [
    ['ToolCalls', calls],
    ['ToolCallResults', results],
  ] as const) {
    entries.forEach((entry, index) => {
      if (!entry) return;
      for (const [field, rule, reason] of [
        ['ToolCallId', MANIFEST_RULE.TOOL_CALL_ID_MISSING, 'tool_call_id_missing'],
        ['Name', MANIFEST_RULE.NAME_MISSING, 'name_missing'],
      ] as const) {
        if (isPopulated(entry[field])) continue;
        emit(rule.id, {
          message: `${list}[${index}] (${label(entry)}): ${field} must be non-empty`,
          path: `${base}.${list}[${index}].${field}`,
          details: { ...identity(entry, index, reason), list },
        });
      }
    });
  }

  let callIds: Set<string> | undefined;
  const overlap = Math.min(calls.length, results.length);
  for (let index = 0; index < overlap; index++) {
    const call = calls[index];
    const result = results[index];
    const callId = call?.ToolCallId;
    const resultId = result?.ToolCallId;
    if (!hasText(callId) || !hasText(resultId)) continue;
    const pair = { tool_call_id: callId, name: call?.Name ?? null, index, result_tool_call_id: resultId, result_name: result?.Name ?? null };
    if (callId !== resultId) {
      callIds ??= new Set(calls.map((entry) => entry?.ToolCallId ?? ''));
      const misplaced = callIds.has(resultId);
      const rule = misplaced ? MANIFEST_RULE.ORDER_MISMATCH : MANIFEST_RULE.TOOL_CALL_ID_MISMATCH;
      const why = misplaced ? 'it belongs to another call: results are not in the order of the calls' : 'no call has that id';
      emit(rule.id, {
        message: `ToolCalls[${index}] (${label(call)}): ToolCallResults[${index}] has ToolCallId ${quote(resultId)}; ${why}`,
        path: `${base}.ToolCallResults[${index}].ToolCallId`,
        details: { ...pair, reason: misplaced ? 'out_of_order' : 'tool_call_id_mismatch' },
      });
      continue;
    }
    if (hasText(call?.Name) && hasText(result?.Name) && call.Name !== result.Name) {
      emit(MANIFEST_RULE.NAME_MISMATCH.id, {
        message: `ToolCalls[${index}] (${label(call)}): ToolCallResults[${index}].Name is ${quote(result.Name)}, expected ${quote(call.Name)}`,
        path: `${base}.ToolCallResults[${index}].Name`,
        details: { ...pair, reason: 'name_mismatch' },
      });
    }
  }

  if (calls.length !== results.length) {
    const counts = `ToolCalls has ${calls.length} entries, ToolCallResults has ${results.length}`;
    for (let index = overlap; index < calls.length; index++) {
      const call = calls[index];
      emit(MANIFEST_RULE.COUNT_MISMATCH.id, {
        message: `ToolCalls[${index}] (${label(call)}) has no result: ${counts}`,
        path: `${base}.ToolCalls[${index}]`,
        details: { ...identity(call, index, 'result_missing'), tool_calls: calls.length, tool_call_results: results.length },
      });
    }
    for (let index = overlap; index < results.length; index++) {
      const result = results[index];
      emit(MANIFEST_RULE.COUNT_MISMATCH.id, {
        message: `ToolCallResults[${index}] (${label(result)}) has no tool call: ${counts}`,
        path: `${base}.ToolCallResults[${index}]`,
        details: { ...identity(result, index, 'call_missing'), tool_calls: calls.length, tool_call_results: results.length },
      });
    }
  }

  results.forEach((result, index) => {
    if (!result || isPopulated(result.ResultJson)) return;
    emit(MANIFEST_RULE.RESULT_JSON_MISSING.id, {
      message: `ToolCallResults[${index}] (${label(result)}): ResultJson must be non-empty`,
      path: `${base}.ToolCallResults[${index}].ResultJson`,
      details: identity(result, index, 'result_json_missing'),
    });
  });
}
