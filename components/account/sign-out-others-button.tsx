'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { authClient } from '../auth-client';

/** Ends every session of this account but the one in this browser (a laptop left signed in). */
export function SignOutOthersButton({ others }: { others: number }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <div className="space-y-3">
      <button
        type="button"
        className="btn-secondary"
        disabled={pending || others === 0}
        onClick={async () => {
          setPending(true);
          setMessage(null);
          const result = await authClient.revokeOtherSessions().catch(() => null);
          setMessage(
            result && !result.error
              ? { ok: true, text: 'Signed out everywhere else.' }
              : { ok: false, text: 'The other sessions could not be ended. Reload the page and try again.' },
          );
          setPending(false);
          router.refresh();
        }}
      >
        {pending ? 'Signing out…' : 'Sign out my other sessions'}
      </button>
      {message && (
        <p
          role={message.ok ? 'status' : 'alert'}
          className={`text-sm ${message.ok ? 'text-emerald-800' : 'text-red-800'}`}
          data-testid="sign-out-others-result"
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
