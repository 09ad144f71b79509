import { describe, expect, it } from 'vitest';
import { exampleManifest } from './examples';
import { MAX_ISSUES } from './issue-sink';
import { validateToolCallManifest } from './validate-pipeline';

describe('validateToolCallManifest', () => {
  it('reports every failing pair with tool call id, name, index and reason', () => {
    const manifest = {
      ToolCalls: [
        { ToolCallId: 'call_a', Name: 'read_file' },
        { ToolCallId: 'call_b', Name: 'search_code' },
        { ToolCallId: 'call_c', Name: 'run_tests' },
        { ToolCallId: 'call_d', Name: 'open_pr' },
        { ToolCallId: 'call_e', Name: 'lint' },
      ],
      ToolCallResults: [
        { ToolCallId: 'call_a', Name: 'read_files', ResultJson: '{}' },
        { ToolCallId: 'call_x', Name: 'search_code', ResultJson: '{}' },
        { ToolCallId: 'call_c', Name: 'run_tests' },
        { ToolCallId: 'call_e', Name: 'lint', ResultJson: '{}' },
      ],
    };
    const result = validateToolCallManifest(manifest);
    expect(result.valid).toBe(false);
    expect(
      result.errors.map((issue) => [
        issue.code,
        issue.details?.tool_call_id,
        issue.details?.name,
        issue.details?.index,
        issue.details?.reason,
      ]),
    ).toEqual([
      ['AGN036.MANIFEST.NAME_MISMATCH', 'call_a', 'read_file', 0, 'name_mismatch'],
      // Five calls, four results: matched by id, call_b and call_d have none and call_x's
      // result has no call; call_e's result is there (one place earlier than its call).
      ['AGN036.MANIFEST.COUNT_MISMATCH', 'call_b', 'search_code', 1, 'result_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', 'call_d', 'open_pr', 3, 'result_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', 'call_x', 'search_code', 1, 'call_missing'],
      ['AGN036.MANIFEST.RESULT_JSON_MISSING', 'call_c', 'run_tests', 2, 'result_json_missing'],
    ]);
    for (const issue of result.errors) {
      expect(issue.message).toContain(String(issue.details?.tool_call_id));
      expect(issue.message).toContain(String(issue.details?.name));
      expect(issue.phase).toBe('manifest');
    }
    expect(result.errors[0]?.message).toContain("'read_files'");
    expect(result.errors[1]?.message).toContain('ToolCalls has 5 entries, ToolCallResults has 4');
  });

  const calls = (...ids: string[]) => ids.map((id) => ({ ToolCallId: id, Name: `tool_${id}` }));
  const results = (...ids: string[]) => ids.map((id) => ({ ToolCallId: id, Name: `tool_${id}`, ResultJson: '{}' }));
  const manifestIssues = (manifest: object) =>
    validateToolCallManifest(manifest).errors.map((issue) => [issue.code, issue.path, issue.details?.tool_call_id, issue.details?.reason]);

  it('names the call that has no result by its id, not by its position', () => {
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c2') })).toEqual([
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[0]', 'c1', 'result_missing'],
    ]);
    const [issue] = validateToolCallManifest({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c2') }).errors;
    expect(issue?.message).toBe(
      "ToolCalls[0] (tool call 'c1' named 'tool_c1') has no result: ToolCalls has 2 entries, ToolCallResults has 1",
    );
    // Near twins: the last call missing, a result with no call, nothing missing at all.
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c1') })).toEqual([
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[1]', 'c2', 'result_missing'],
    ]);
    expect(manifestIssues({ ToolCalls: calls('c2'), ToolCallResults: results('c1', 'c2') })).toEqual([
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCallResults[0]', 'c1', 'call_missing'],
    ]);
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2'), ToolCallResults: results('c1', 'c2') })).toEqual([]);
  });

  it('matches a repeated id with its next unmatched twin, and calls without ids with results without ids', () => {
    expect(manifestIssues({ ToolCalls: calls('c1', 'c1'), ToolCallResults: results('c1') })).toEqual([
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[1]', 'c1', 'result_missing'],
    ]);
    expect(manifestIssues({ ToolCalls: [...calls('c1'), { Name: 'anon' }], ToolCallResults: results('c1') })).toEqual([
      ['AGN036.MANIFEST.TOOL_CALL_ID_MISSING', '$.ToolCalls[1].ToolCallId', null, 'tool_call_id_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[1]', null, 'result_missing'],
    ]);
  });

  it('with different counts still reports results out of the order of their calls, and names that differ', () => {
    expect(manifestIssues({ ToolCalls: calls('c1', 'c2', 'c3'), ToolCallResults: results('c2', 'c1') })).toEqual([
      ['AGN036.MANIFEST.ORDER_MISMATCH', '$.ToolCallResults[0].ToolCallId', 'c1', 'out_of_order'],
      ['AGN036.MANIFEST.ORDER_MISMATCH', '$.ToolCallResults[1].ToolCallId', 'c2', 'out_of_order'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[2]', 'c3', 'result_missing'],
    ]);
    const renamed = [{ ToolCallId: 'c2', Name: 'other', ResultJson: '{}' }];
    expect(
      validateToolCallManifest({ ToolCalls: calls('c1', 'c2'), ToolCallResults: renamed }).errors.map((issue) => [
        issue.code,
        issue.path,
        issue.details?.index,
        issue.details?.result_index,
      ]),
    ).toEqual([
      ['AGN036.MANIFEST.NAME_MISMATCH', '$.ToolCallResults[0].Name', 1, 0],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCalls[0]', 0, undefined],
    ]);
  });

  it('reports each result without a call when there are more results than calls', () => {
    const { ToolCalls, ToolCallResults } = exampleManifest();
    const result = validateToolCallManifest({ ToolCalls: ToolCalls.slice(0, 1), ToolCallResults });
    expect(result.errors.map((issue) => [issue.code, issue.path, issue.details?.reason])).toEqual([
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCallResults[1]', 'call_missing'],
      ['AGN036.MANIFEST.COUNT_MISMATCH', '$.ToolCallResults[2]', 'call_missing'],
    ]);
  });

  it('treats absent lists as empty, and reports entries that are not objects once', () => {
    expect(validateToolCallManifest({}).errors).toEqual([]);
    const result = validateToolCallManifest({
      ToolCalls: [null, { ToolCallId: 'c', Name: 'n' }],
      ToolCallResults: ['x', { ToolCallId: 'c', Name: 'n', ResultJson: '1' }],
    });
    expect(result.errors.map((issue) => [issue.code, issue.path])).toEqual([
      ['AGN036.SHAPE.INVALID_TYPE', '$.ToolCalls[0]'],
      ['AGN036.SHAPE.INVALID_TYPE', '$.ToolCallResults[0]'],
    ]);
  });

  it(`caps one call at ${MAX_ISSUES} issues and says how many were left out`, () => {
    const calls = Array.from({ length: 5000 }, (_, i) => ({ ToolCallId: `c${i}`, Name: 'n' }));
    const result = validateToolCallManifest({ ToolCalls: calls, ToolCallResults: [] });
    expect(result.errors).toHaveLength(MAX_ISSUES);
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: 'AGN036.SHAPE.ISSUES_TRUNCATED', details: { dropped: 4000, limit: MAX_ISSUES } }),
    ]);
  });
});
