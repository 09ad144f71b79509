/** On an instance that sends no mail, only whoever runs it can make a reset link. */
export function OperatorResetNote() {
  return (
    <p className="text-sm text-zinc-600" data-testid="operator-reset-note">
      This instance does not send mail. Whoever runs Toolgate can make you a link to set a new password (
      <code>toolgate members reset-password</code>).
    </p>
  );
}
