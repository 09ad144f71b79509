import { isUtf8 } from 'node:buffer';
import { AppError } from '../errors';

/**
 * JSON travels as UTF-8 (RFC 8259 §8.1), and a body that is not valid UTF-8 must not be read
 * as if it were: decoding it with replacement characters would check, hash and record arguments
 * the agent never sent ("café" in Latin-1 becoming "caf\uFFFD"). So a body is decoded as its
 * Content-Type's charset says (a client library that labels its bytes ISO-8859-1 is read as
 * that), strictly; without a charset it must be valid UTF-8, and a byte order mark is dropped.
 */

/**
 * The encoding a Content-Type's `charset` names (WHATWG labels, as TextDecoder knows them), or
 * null for UTF-8 and for no charset. A charset nobody can decode is refused (415) before the body
 * is read.
 */
export function declaredCharset(contentType: string): string | null {
  if (!contentType.includes(';')) return null;
  for (const parameter of contentType.split(';').slice(1)) {
    const eq = parameter.indexOf('=');
    if (eq < 0 || parameter.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let label = parameter.slice(eq + 1).trim();
    if (label.length >= 2 && label.startsWith('"') && label.endsWith('"')) label = label.slice(1, -1);
    const encoding = encodingOf(label);
    if (encoding === null) {
      const shown = label.slice(0, 40);
      throw new AppError(
        'unsupported_media_type',
        `The body's charset "${shown}" is not one Toolgate can read; send JSON as UTF-8 (charset=utf-8, or no charset).`,
        { charset: shown },
      );
    }
    return encoding === 'utf-8' ? null : encoding;
  }
  return null;
}

function encodingOf(label: string): string | null {
  try {
    const { encoding } = new TextDecoder(label);
    // WHATWG maps ISO-2022-KR and a few others to "replacement", which decodes any body to U+FFFD.
    return encoding === 'replacement' ? null : encoding;
  } catch {
    return null;
  }
}

/** The body as text, decoded from `encoding` (null: UTF-8), refusing bytes that are not valid in it. */
export function decodeBody(bytes: Buffer, encoding: string | null): string {
  if (encoding !== null) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      throw new AppError('bad_request', `The request body is not valid ${encoding}, the charset its Content-Type declares.`, {
        reason: 'invalid_encoding',
        charset: encoding,
      });
    }
  }
  if (!isUtf8(bytes)) {
    const offset = firstInvalidUtf8(bytes);
    throw new AppError(
      'bad_request',
      `The request body is not valid UTF-8 (byte ${offset}); send JSON as UTF-8, or name its charset in Content-Type.`,
      { reason: 'invalid_utf8', offset },
    );
  }
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/**
 * Where the first byte that cannot start or continue a UTF-8 sequence is, or -1 (Unicode 15
 * §3.9, table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF). Only run on a body
 * isUtf8 already refused, to say where.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined) return i;
      const min = k === 1 ? low : 0x80;
      const max = k === 1 ? high : 0xbf;
      if (next < min || next > max) return i;
    }
    i += length;
  }
  return -1;
}
