'use client';

import { useState } from 'react';

const MAIL_TEXT = {
  sent: 'It was also e-mailed to them.',
  not_configured: 'E-mail is not set up on this instance (TOOLGATE_SMTP_URL), so nothing was sent: pass the link on yourself.',
  failed: 'The e-mail could not be sent: pass the link on yourself.',
} as const;

/** Shows a new invitation link. Only its hash is stored, so this is the one chance to copy it. */
export function InvitationLinkNotice({
  email,
  role,
  url,
  mail,
}: {
  email: string;
  role: string;
  url: string;
  mail: keyof typeof MAIL_TEXT;
}) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div role="status" className="mb-5 rounded-lg border-2 border-amber-300 bg-amber-50 p-4 text-sm">
      <p className="font-semibold text-amber-900">
        {email} is invited as {role}. This link is shown once: copy it now.
      </p>
      <p className="mt-1 text-amber-800" data-testid="invitation-mail-status">
        {MAIL_TEXT[mail]} The link works once and expires; anyone holding it can join as {role}.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          data-testid="invitation-link"
          className="rounded border border-amber-200 bg-white px-2 py-1.5 font-mono text-sm break-all select-all"
        >
          {url}
        </code>
        <button type="button" onClick={copy} className="btn-secondary">
          {copied === 'copied' ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={() => setDismissed(true)} className="btn-secondary">
          Done
        </button>
      </div>
      {copied === 'failed' && <p className="mt-2 text-amber-900">The browser blocked copying; select the link and copy it by hand.</p>}
    </div>
  );
}
