import { z } from 'zod';

/**
 * Free text kept as sent in a text column (a comment, a change note, a description): what neither
 * database can keep as sent is refused, naming the field. PostgreSQL's text cannot hold NUL (it
 * answered a bare "out of the range the database can hold") while SQLite kept it; a lone
 * surrogate (half of a UTF-16 pair, which JSON carries as "\ud800") is written as UTF-8 and read
 * back as U+FFFD on PostgreSQL and as three of them on SQLite, so the text shown later is not the
 * text sent, and differs by database. JSON columns escape both and need none of this.
 */

/** Why `text` cannot be kept as sent in a text column, as "<field> …", or null when it can. */
export function storedTextProblem(field: string, text: string): string | null {
  if (text.includes('\0')) return `${field} cannot contain NUL (U+0000)`;
  if (!isWellFormedText(text)) return `${field} cannot contain a lone surrogate (half of a UTF-16 pair)`;
  return null;
}

/**
 * Whether `text` can be in a text column at all. A lookup by one that cannot names nothing: it is
 * answered as not found without the query, which PostgreSQL refuses for a NUL (22021, a bare 400)
 * while SQLite runs it and finds nothing.
 */
export function isStorableText(text: string): boolean {
  return storedTextProblem('', text) === null;
}

// String.prototype.isWellFormed and toWellFormed (ES2024, Node 20), past this project's lib.
type Es2024String = string & { isWellFormed(): boolean; toWellFormed(): string };

/** No lone surrogates. */
export function isWellFormedText(text: string): boolean {
  return (text as Es2024String).isWellFormed();
}

/** Each lone surrogate replaced by U+FFFD, as PostgreSQL reads it back. */
export function toWellFormedText(text: string): string {
  return (text as Es2024String).toWellFormed();
}

/** A string of at most `max` characters that a text column keeps as sent (storedTextProblem). */
export function storedTextSchema(field: string, max: number) {
  return z
    .string()
    .max(max)
    .superRefine((value, ctx) => {
      const problem = storedTextProblem(field, value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}
