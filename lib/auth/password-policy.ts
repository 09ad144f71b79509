/**
 * What a password a person sets must be, wherever they set it (an invitation, the first admin,
 * `toolgate tenants create`, Better Auth's change-password): NIST SP 800-63B asks for at least 8
 * characters, room for long passphrases, and a check against values people commonly choose. The
 * common ones are zxcvbn-ts's list of 49,233 (compared without case: "Password" is "password").
 */

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

let common: Promise<ReadonlySet<string>> | undefined;

/** Loaded on the first password set, not with every module that can set one (the list is 0.5 MB). */
function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common']));
  return common;
}

/** The part of the policy that needs nothing loaded or read: checked before anything else is. */
export function passwordLengthProblem(password: string): string | null {
  return password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH
    ? `must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`
    : null;
}

/**
 * Why `password` cannot be set, as the end of a sentence that starts "The password …", or null.
 * `email` is the person's: their own address (or its name part) is the first thing tried.
 */
export async function passwordProblem(password: string, context: { email?: string } = {}): Promise<string | null> {
  const length = passwordLengthProblem(password);
  if (length) return length;
  const lower = password.toLowerCase();
  if ((await commonPasswords()).has(lower)) return 'is one of the most commonly used passwords; choose a longer or less predictable one';
  const email = context.email?.trim().toLowerCase();
  if (email && (lower === email || lower === email.split('@')[0])) return 'must not be your email address';
  return null;
}
