import { describe, expect, it } from 'vitest';
import { parseRetainedPayload, retainedPayloadJson } from './retained-payload';
import { retainedView } from './retained-view';

describe('retainedPayloadJson', () => {
  it('redacts every part like the arguments and leaves absent parts out', () => {
    const json = retainedPayloadJson(
      {
        context: { user_id: 'u_1', card: { number: '4242' } },
        result: { card: { number: '4242' }, ok: true },
        transformed_arguments: { card: { number: '1111' }, amount: 5 },
      },
      ['card.number'],
    );
    expect(JSON.parse(json)).toEqual({
      context: { user_id: 'u_1', card: { number: '[REDACTED]' } },
      result: { card: { number: '[REDACTED]' }, ok: true },
      transformed_arguments: { card: { number: '[REDACTED]' }, amount: 5 },
    });
    expect(json).not.toContain('error');
  });

  it('keeps results that are not objects as they are, and an empty payload as {}', () => {
    expect(JSON.parse(retainedPayloadJson({ result: ['a', 1] }, ['a']))).toEqual({ result: ['a', 1] });
    expect(JSON.parse(retainedPayloadJson({ error: 'timeout' }, []))).toEqual({ error: 'timeout' });
    expect(JSON.parse(retainedPayloadJson({ result: null }, []))).toEqual({ result: null });
    expect(retainedPayloadJson({}, ['x'])).toBe('{}');
  });

  it('never writes through a __proto__ path', () => {
    const parsed = JSON.parse(
      retainedPayloadJson({ context: JSON.parse('{"__proto__": {"polluted": 1}}') }, ['__proto__.polluted']),
    ) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(parsed.context as object)).toEqual(['__proto__']);
  });
});

describe('parseRetainedPayload and retainedView', () => {
  it('reads what was stored, and nothing from junk', () => {
    expect(parseRetainedPayload('{"context":{}}')).toEqual({ context: {} });
    expect(parseRetainedPayload('[1]')).toBeNull();
    expect(parseRetainedPayload('not json')).toBeNull();
    expect(parseRetainedPayload(null)).toBeNull();
  });

  it('tells kept, purged and never-kept records apart', () => {
    expect(retainedView({ arguments: null, payload: null, payloadHash: null })).toBeNull();
    expect(retainedView({ arguments: null, payload: null, payloadHash: 'd'.repeat(64) })).toEqual({ status: 'purged' });
    expect(retainedView({ arguments: '{"a":1}', payload: '{"context":{"user_id":"u"},"result":2}', payloadHash: 'd'.repeat(64) })).toEqual({
      status: 'kept',
      too_large: false,
      arguments: { a: 1 },
      context: { user_id: 'u' },
      result: 2,
    });
    expect(retainedView({ arguments: `"${'x'.repeat(70_000)}"`, payload: null, payloadHash: 'd'.repeat(64) })).toEqual({
      status: 'kept',
      too_large: true,
    });
  });
});
