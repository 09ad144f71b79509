import { z } from 'zod';
import { summarizeHiddenCharacters } from '../approvals/reveal-hidden-characters';

/**
 * Characters a name shown to people (a member's, an API key's) may not hold: what the approval
 * card reveals as hidden (lib/approvals/reveal-hidden-characters.ts): controls, bidi embeddings,
 * overrides and isolates, zero-width and other invisible format characters (soft hyphen, tag
 * characters), fillers that draw nothing (U+3164 HANGUL FILLER), unassigned code points and
 * lone surrogates (which the database stores as U+FFFD, so the name would silently change).
 * Spaces other than U+0020 are allowed (U+3000 separates names in Japanese). A name is shown
 * beside other text, on the Members page before an email, on approval cards as the key that
 * asked: a U+202E in one reverses how that text reads, and an invisible character makes two
 * names look alike.
 */
export const DISPLAY_NAME_PROBLEM = 'must not contain control, invisible or direction-changing characters';

/** Whether `name` holds a character DISPLAY_NAME_PROBLEM describes. */
export function hasHiddenCharacters(name: string): boolean {
  const { kinds } = summarizeHiddenCharacters(name);
  return kinds.some((kind) => kind !== 'space');
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
