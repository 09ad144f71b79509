/**
 * A new password typed twice, with the policy in words (lib/auth/password-policy.ts decides).
 * `newPasswordProblem` compares the two on submit.
 */
export function NewPasswordFields({ idPrefix, label = 'Password' }: { idPrefix: string; label?: string }) {
  return (
    <>
      <div className="space-y-1">
        <label htmlFor={`${idPrefix}-password`} className="block text-sm font-medium">
          {label}
        </label>
        <input
          id={`${idPrefix}-password`}
          name="password"
          type="password"
          required
          minLength={8}
          maxLength={128}
          autoComplete="new-password"
          className="input"
        />
        <p className="text-xs text-zinc-500">8 to 128 characters, not a commonly used password or your email address.</p>
      </div>
      <div className="space-y-1">
        <label htmlFor={`${idPrefix}-confirm`} className="block text-sm font-medium">
          {label} again
        </label>
        <input
          id={`${idPrefix}-confirm`}
          name="confirm"
          type="password"
          required
          minLength={8}
          maxLength={128}
          autoComplete="new-password"
          className="input"
        />
      </div>
    </>
  );
}

/** The password typed, or why it cannot be sent. */
export function newPasswordFrom(form: FormData): { password: string } | { problem: string } {
  const password = String(form.get('password') ?? '');
  if (password !== String(form.get('confirm') ?? '')) return { problem: 'The two passwords differ.' };
  return { password };
}
