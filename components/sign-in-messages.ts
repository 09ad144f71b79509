/** What a failed Better Auth sign-in says, on every form that signs people in. */
export const TOO_MANY_ATTEMPTS = 'Too many attempts. Wait a few seconds and try again.';
export const SERVER_UNAVAILABLE = 'Toolgate cannot reach its database right now. Try again in a moment.';

export function signInErrorMessage(error: { status: number; message?: string }, wrongCredentials = 'Wrong email or password.'): string {
  if (error.status === 401) return wrongCredentials;
  if (error.status === 429) return TOO_MANY_ATTEMPTS;
  // Toolgate's own envelope (a write the database refused), which carries no top-level message.
  if (error.status === 503) return SERVER_UNAVAILABLE;
  return error.message || 'Sign-in failed. Try again.';
}
