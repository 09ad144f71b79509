import { describe, expect, it } from 'vitest';
import { memberTexts, retainedView } from './retained-view';

const DIGEST = 'd'.repeat(64);

describe('retainedView of a call refused for a number a double cannot hold', () => {
  it('gives each part holding one as the text the agent sent, never the rounded value', () => {
    const view = retainedView({
      arguments: '{"n":1e309,"m":9007199254740993,"ok":1}',
      payload: '{"context":{"state":{"q":1e-400}},"result":{"fine":0.5}}',
      payloadHash: DIGEST,
    });
    expect(view).toEqual({
      status: 'kept',
      too_large: false,
      arguments: '{"n":1e309,"m":9007199254740993,"ok":1}',
      context: '{"state":{"q":1e-400}}',
      result: { fine: 0.5 },
      as_sent: ['arguments', 'context'],
    });
    // What the trace API answers: the tokens survive serialisation, nothing reads as null.
    const answered = JSON.stringify(view);
    expect(answered).toContain('1e309');
    expect(answered).toContain('9007199254740993');
    expect(answered).toContain('1e-400');
    expect(answered).not.toContain('null');
  });

  it('parses every other record as before, with no as_sent', () => {
    expect(retainedView({ arguments: '{"n":9007199254740991,"x":1.5e-300}', payload: '{"result":[1,2]}', payloadHash: DIGEST })).toEqual({
      status: 'kept',
      too_large: false,
      arguments: { n: 9007199254740991, x: 1.5e-300 },
      result: [1, 2],
    });
  });
});

describe('memberTexts', () => {
  it('splits an object text into its members, strings and nesting included', () => {
    const texts = memberTexts('{"context":{"a":"}\\",{[","b":[1,{"c":2}]},"result" : 1e999 ,"error":"x"}');
    expect([...texts.entries()]).toEqual([
      ['context', '{"a":"}\\",{[","b":[1,{"c":2}]}'],
      ['result', '1e999'],
      ['error', '"x"'],
    ]);
    expect(memberTexts('{}').size).toBe(0);
    expect(memberTexts('[1]').size).toBe(0);
  });
});
