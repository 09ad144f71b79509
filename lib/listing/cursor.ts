import { AppError } from '../errors';

/**
 * Opaque page cursors: the sort key of the last row shown, base64url-encoded JSON. Pages are
 * found by keyset (`WHERE key < cursor ORDER BY key DESC LIMIT n`), never by OFFSET, so a deep
 * page costs what the first one does.
 */
export function encodeCursor(key: (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The keys cursors carry are seqs and ids, as the database holds them: a seq is a 32-bit column
 * on PostgreSQL, and its text cannot hold NUL. A forged cursor past either failed the query
 * there (22003, 22021), which read as the database being down (503).
 */
const MAX_KEY_NUMBER = 2_147_483_647;

/** The cursor's key, checked against the shape the list expects; a bad cursor is a 400. */
export function decodeCursor<const K extends readonly ('string' | 'number')[]>(
  cursor: string,
  shape: K,
): { [I in keyof K]: K[I] extends 'number' ? number : string } {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const ok =
    Array.isArray(key) &&
    key.length === shape.length &&
    key.every((part, i) =>
      shape[i] === 'number'
        ? Number.isSafeInteger(part) && part >= 0 && part <= MAX_KEY_NUMBER
        : typeof part === 'string' && part.length <= 64 && !part.includes('\0'),
    );
  if (!ok) throw invalidCursor();
  return key as { [I in keyof K]: K[I] extends 'number' ? number : string };
}

export function invalidCursor(): AppError {
  return new AppError('bad_request', 'Invalid query: cursor: not a cursor this list handed out', {
    issues: [{ path: 'cursor', message: 'not a cursor this list handed out' }],
  });
}
