import { z } from 'zod';

/**
 * Characters a name shown to people (a member's, an API key's) may not hold: controls (C0, DEL,
 * C1) and invisible or direction-changing format characters (bidi embeddings, overrides and
 * isolates, zero-width characters, the BOM). A name is shown beside other text, on the Members
 * page before an email, on approval cards as the key that asked: a U+202E in one reverses how
 * that text reads, and an invisible character makes two names look alike.
 */
const HIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

export const DISPLAY_NAME_PROBLEM = 'must not contain control, invisible or direction-changing characters';

/** Whether `name` holds a character DISPLAY_NAME_PROBLEM describes. */
export function hasHiddenCharacters(name: string): boolean {
  return HIDDEN_CHARACTERS.test(name);
}

/** A name as people see it: trimmed, 1 to `max` characters, no hidden characters. */
export function displayNameSchema(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((name) => !hasHiddenCharacters(name), DISPLAY_NAME_PROBLEM);
}
