import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeFailure, previewImpact, readImpact } from './studio-api';

const diagnostic = {
  code: 'CONTRACT_SCHEMA_INVALID',
  severity: 'error',
  message: 'bad level',
  path: '$.annotations.side_effect_level',
  range: { startLine: 9, startColumn: 26, endLine: 9, endColumn: 37 },
  target: 'document',
};

describe('describeFailure', () => {
  it('reads lint diagnostics from a refused publish, whether under error or error.details', () => {
    expect(
      describeFailure(409, { error: { code: 'LINT_ERRORS', message: 'The document has 1 error.', diagnostics: [diagnostic] } }),
    ).toEqual({
      status: 409,
      code: 'LINT_ERRORS',
      message: 'The document has 1 error.',
      diagnostics: [diagnostic],
      problems: [],
    });
    expect(
      describeFailure(409, { error: { code: 'LINT_ERRORS', message: 'x', details: { diagnostics: [diagnostic] } } }).diagnostics,
    ).toEqual([diagnostic]);
  });

  it('drops entries that are not diagnostics instead of trusting the shape', () => {
    const junk = [{ code: 'X' }, 'text', null, { ...diagnostic, severity: 'fatal' }, { ...diagnostic, range: { startLine: '9' } }];
    expect(describeFailure(409, { error: { code: 'LINT_ERRORS', message: 'x', diagnostics: junk } }).diagnostics).toEqual([]);
  });

  it('lists schema problems of a refused save', () => {
    const body = {
      error: {
        code: 'contract_invalid',
        message: 'The contract document is invalid',
        details: { problems: [{ code: 'CONTRACT_SCHEMA_INVALID', path: 'annotations.side_effect_level', message: 'Invalid option' }] },
      },
    };
    expect(describeFailure(422, body)).toMatchObject({
      code: 'contract_invalid',
      problems: ['annotations.side_effect_level: Invalid option'],
    });
  });

  it('still says something when the body is not the error envelope', () => {
    expect(describeFailure(502, undefined)).toEqual({
      status: 502,
      code: 'http_502',
      message: 'The server answered 502.',
      diagnostics: [],
      problems: [],
    });
  });
});

// The answer of POST /api/v1/contracts/{tool}/impact as the server sends it (dates as ISO strings).
const impactAnswer = {
  tool: 'payments.quote',
  replayed: 5,
  notReplayable: 3,
  withoutArguments: 1,
  withoutContext: 2,
  changed: 2,
  newlyRefused: 2,
  newlyPassing: 0,
  codes: [{ code: 'AXAG_OUT_OF_RANGE', added: 2, removed: 0 }],
  examples: [
    { evidenceId: 'ev_2', callId: 'call-2', at: '2026-01-02T10:00:00.000Z', before: [], after: ['AXAG_OUT_OF_RANGE'] },
    { evidenceId: 'ev_1', callId: 'call-1', at: '2026-01-02T09:00:00.000Z', before: [], after: ['AXAG_OUT_OF_RANGE'] },
  ],
};

describe('readImpact', () => {
  it('keeps a well-formed answer as it is', () => {
    expect(readImpact(impactAnswer)).toEqual(impactAnswer);
  });

  it('reads counts it cannot trust as 0 and drops entries that are not codes or calls', () => {
    const read = readImpact({
      tool: 'x',
      replayed: -3,
      changed: '2',
      newlyRefused: Number.NaN,
      codes: [{ code: 'A', added: 1 }, { added: 4 }, null],
      examples: [{ callId: 'c', at: '2026-01-01T00:00:00Z', before: ['A', 7], after: null }, { callId: 3, at: 'x' }, 'junk'],
    });
    expect(read).toEqual({
      tool: 'x',
      replayed: 0,
      notReplayable: 0,
      withoutArguments: 0,
      withoutContext: 0,
      changed: 0,
      newlyRefused: 0,
      newlyPassing: 0,
      codes: [{ code: 'A', added: 1, removed: 0 }],
      examples: [{ evidenceId: '', callId: 'c', at: '2026-01-01T00:00:00Z', before: ['A'], after: [] }],
    });
  });
});

describe('previewImpact', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("posts the draft to the tool's impact route with the session cookie", async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify(impactAnswer), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const draft = { id: 'payments.quote', version: '1.1.0' };
    expect(await previewImpact('/api/v1/contracts', 'payments.quote', draft)).toEqual({ ok: true, value: impactAnswer });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/v1/contracts/payments.quote/impact',
      expect.objectContaining({ method: 'POST', body: JSON.stringify(draft), credentials: 'same-origin' }),
    );
  });

  it('passes on the error envelope of a draft that does not compile', async () => {
    const envelope = {
      error: {
        code: 'contract_invalid',
        message: 'The draft does not compile: bad type',
        details: { problems: [{ path: 'input.type', message: 'bad type' }] },
      },
      request_id: 'r',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(envelope), { status: 422 })),
    );
    expect(await previewImpact('/api/v1/contracts', 'a/b', {})).toEqual({
      ok: false,
      failure: {
        status: 422,
        code: 'contract_invalid',
        message: 'The draft does not compile: bad type',
        diagnostics: [],
        problems: ['input.type: bad type'],
      },
    });
  });
});
