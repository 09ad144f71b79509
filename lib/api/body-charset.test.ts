import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { declaredCharset, decodeBody, firstInvalidUtf8 } from './body-charset';

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('declaredCharset', () => {
  it('reads the charset parameter however it is spelled, UTF-8 as none', () => {
    expect(declaredCharset('application/json')).toBeNull();
    expect(declaredCharset('application/json; charset=utf-8')).toBeNull();
    expect(declaredCharset('application/json;charset=UTF8')).toBeNull();
    expect(declaredCharset('application/json; CHARSET="utf-8"')).toBeNull();
    expect(declaredCharset('application/json; foo=bar; charset=ISO-8859-1')).toBe('windows-1252');
    expect(declaredCharset('application/json; charset=latin1')).toBe('windows-1252');
    expect(declaredCharset('application/json; charset=utf-16')).toBe('utf-16le');
    expect(declaredCharset('application/json; boundary; charset=  "Shift_JIS"  ')).toBe('shift_jis');
  });

  it('refuses a charset nobody can decode, and the replacement encodings, with 415', () => {
    for (const label of ['klingon', 'iso-2022-kr', '', '"', 'utf-8\u0000']) {
      const error = refusal(() => declaredCharset(`application/json; charset=${label}`));
      expect(error.code, label).toBe('unsupported_media_type');
      expect(error.details, label).toEqual({ charset: label.slice(0, 40) });
    }
    const long = refusal(() => declaredCharset(`application/json; charset=${'x'.repeat(5000)}`));
    expect((long.details as { charset: string }).charset).toHaveLength(40);
  });
});

describe('decodeBody', () => {
  it('reads UTF-8, dropping a byte order mark', () => {
    expect(decodeBody(Buffer.from('{"a":"café"}'), null)).toBe('{"a":"café"}');
    expect(decodeBody(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]), null)).toBe('{"a":1}');
    expect(decodeBody(Buffer.alloc(0), null)).toBe('');
  });

  it('refuses bytes that are not UTF-8 and says where, instead of reading them as U+FFFD', () => {
    const latin1 = Buffer.from('{"a":"café"}', 'latin1');
    const error = refusal(() => decodeBody(latin1, null));
    expect(error.code).toBe('bad_request');
    expect(error.details).toEqual({ reason: 'invalid_utf8', offset: 9 });
    // A surrogate encoded as UTF-8 (CESU-8) is not UTF-8 either.
    expect(refusal(() => decodeBody(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), null)).details).toEqual({
      reason: 'invalid_utf8',
      offset: 1,
    });
  });

  it('decodes the declared charset strictly', () => {
    expect(decodeBody(Buffer.from('{"a":"café"}', 'latin1'), 'windows-1252')).toBe('{"a":"café"}');
    expect(decodeBody(Buffer.from('\ufeff{"a":"é"}', 'utf16le'), 'utf-16le')).toBe('{"a":"é"}');
    const error = refusal(() => decodeBody(Buffer.from([0x7b, 0x00, 0x00, 0xd8]), 'utf-16le'));
    expect(error.details).toEqual({ reason: 'invalid_encoding', charset: 'utf-16le' });
  });
});

describe('firstInvalidUtf8', () => {
  it('finds the first bad sequence exactly where isUtf8 says there is one', () => {
    const cases: [number[], number][] = [
      [[0x41], -1],
      [[0xc0, 0x80], 0], // overlong
      [[0xe0, 0x80, 0x80], 0], // overlong
      [[0xf4, 0x90, 0x80, 0x80], 0], // past U+10FFFF
      [[0xf0, 0x9f, 0x98, 0x80], -1],
      [[0x41, 0xe2, 0x82], 1], // cut short
      [[0x41, 0x80], 1], // a lone continuation byte
      [[0xf8, 0x88, 0x80, 0x80, 0x80], 0],
    ];
    for (const [bytes, at] of cases) expect(firstInvalidUtf8(Uint8Array.from(bytes)), bytes.join(',')).toBe(at);
    // Random bytes, biased towards the interesting ranges, against Node's own validator.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const pool = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
    for (let n = 0; n < 20_000; n++) {
      const bytes = Uint8Array.from({ length: 1 + (next() % 8) }, () => pool[next() % pool.length] as number);
      expect(firstInvalidUtf8(bytes) === -1, Array.from(bytes).join(',')).toBe(isUtf8(bytes));
    }
  });
});
