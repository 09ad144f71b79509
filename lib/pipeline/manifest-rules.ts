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
    checks:
      'ToolCalls and ToolCallResults have the same count; when they do not, calls and results are matched by ToolCallId and each call without a result and each result without a call is reported by its id.',
  },
  ORDER_MISMATCH: {
    id: 'AGN036.MANIFEST.ORDER_MISMATCH',
    checks:
      'The result at each index belongs to the call at the same index, not to a call at another index (with different counts: the results that have a call come in the order of their calls).',
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

  if (calls.length === results.length) checkPairsByIndex(calls, results, base, emit);
  else checkPairsById(calls, results, base, emit);

  results.forEach((result, index) => {
    if (!result || isPopulated(result.ResultJson)) return;
    emit(MANIFEST_RULE.RESULT_JSON_MISSING.id, {
      message: `ToolCallResults[${index}] (${label(result)}): ResultJson must be non-empty`,
      path: `${base}.ToolCallResults[${index}].ResultJson`,
      details: identity(result, index, 'result_json_missing'),
    });
  });
}

/** Equal counts: the result at each index must be the call's at that index. */
function checkPairsByIndex(
  calls: readonly (Entry | undefined)[],
  results: readonly (Entry | undefined)[],
  base: string,
  emit: ManifestEmit,
): void {
  let callIds: Set<string> | undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index];
    const result = results[index];
    const callId = call?.ToolCallId;
    const resultId = result?.ToolCallId;
    if (!hasText(callId) || !hasText(resultId)) continue;
    const pair = {
      tool_call_id: callId,
      name: call?.Name ?? null,
      index,
      result_tool_call_id: resultId,
      result_name: result?.Name ?? null,
    };
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
    checkNames(call, result, index, index, base, emit);
  }
}

/**
 * Different counts: positions no longer say which result is whose, so calls and results are
 * matched by ToolCallId (in order, so a repeated id pairs with its next unmatched twin; entries
 * without an id pair with each other in order, and are reported for the missing id anyway).
 * What is left over is named: each call without a result, each result without a call. The
 * matched pairs must still come in the same order and carry the same names.
 */
function checkPairsById(
  calls: readonly (Entry | undefined)[],
  results: readonly (Entry | undefined)[],
  base: string,
  emit: ManifestEmit,
): void {
  const keyOf = (entry: Entry | undefined) => (hasText(entry?.ToolCallId) ? `id:${entry.ToolCallId}` : 'none');
  const waiting = new Map<string, number[]>();
  calls.forEach((call, index) => {
    const key = keyOf(call);
    const queue = waiting.get(key);
    if (queue) queue.push(index);
    else waiting.set(key, [index]);
  });
  const resultOfCall = new Map<number, number>();
  const orphanResults: number[] = [];
  results.forEach((result, index) => {
    const callIndex = waiting.get(keyOf(result))?.shift();
    if (callIndex === undefined) orphanResults.push(index);
    else resultOfCall.set(callIndex, index);
  });

  const pairedCalls = [...resultOfCall.keys()].sort((a, b) => a - b);
  const pairedResults = [...resultOfCall.values()].sort((a, b) => a - b);
  pairedCalls.forEach((callIndex, k) => {
    const call = calls[callIndex];
    const resultIndex = pairedResults[k] as number;
    const result = results[resultIndex];
    const own = resultOfCall.get(callIndex) as number;
    if (resultIndex !== own && hasText(result?.ToolCallId)) {
      emit(MANIFEST_RULE.ORDER_MISMATCH.id, {
        message: `ToolCalls[${callIndex}] (${label(call)}): the result in its place, ToolCallResults[${resultIndex}], has ToolCallId ${quote(result.ToolCallId)}; results are not in the order of the calls`,
        path: `${base}.ToolCallResults[${resultIndex}].ToolCallId`,
        details: {
          tool_call_id: call?.ToolCallId ?? null,
          name: call?.Name ?? null,
          index: callIndex,
          result_index: resultIndex,
          result_tool_call_id: result.ToolCallId,
          result_name: result?.Name ?? null,
          reason: 'out_of_order',
        },
      });
      return;
    }
    checkNames(call, results[own], callIndex, own, base, emit);
  });

  const counts = { tool_calls: calls.length, tool_call_results: results.length };
  const summary = `ToolCalls has ${calls.length} entries, ToolCallResults has ${results.length}`;
  calls.forEach((call, index) => {
    if (resultOfCall.has(index)) return;
    emit(MANIFEST_RULE.COUNT_MISMATCH.id, {
      message: `ToolCalls[${index}] (${label(call)}) has no result: ${summary}`,
      path: `${base}.ToolCalls[${index}]`,
      details: { ...identity(call, index, 'result_missing'), ...counts },
    });
  });
  for (const index of orphanResults) {
    const result = results[index];
    emit(MANIFEST_RULE.COUNT_MISMATCH.id, {
      message: `ToolCallResults[${index}] (${label(result)}) has no tool call: ${summary}`,
      path: `${base}.ToolCallResults[${index}]`,
      details: { ...identity(result, index, 'call_missing'), ...counts },
    });
  }
}

function checkNames(
  call: Entry | undefined,
  result: Entry | undefined,
  callIndex: number,
  resultIndex: number,
  base: string,
  emit: ManifestEmit,
): void {
  if (!hasText(call?.Name) || !hasText(result?.Name) || call.Name === result.Name) return;
  emit(MANIFEST_RULE.NAME_MISMATCH.id, {
    message: `ToolCalls[${callIndex}] (${label(call)}): ToolCallResults[${resultIndex}].Name is ${quote(result.Name)}, expected ${quote(call.Name)}`,
    path: `${base}.ToolCallResults[${resultIndex}].Name`,
    details: {
      tool_call_id: call.ToolCallId ?? null,
      name: call.Name,
      index: callIndex,
      ...(resultIndex === callIndex ? {} : { result_index: resultIndex }),
      result_tool_call_id: result.ToolCallId ?? null,
      result_name: result.Name,
      reason: 'name_mismatch',
    },
  });
}
