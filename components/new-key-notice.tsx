'use client';

import { useState } from 'react';

/** Shows a freshly created key. The server keeps only its hash, so this is the one chance to copy it. */
export function NewKeyNotice({ name, value }: { name: string; value: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div role="status" className="mb-5 rounded-lg border-2 border-amber-300 bg-amber-50 p-4 text-sm">
      <p className="font-semibold text-amber-900">Key “{name}” created. This key is shown once: copy it now.</p>
      <p className="mt-1 text-amber-800">Toolgate stores only a hash of it; if you lose it, revoke it and create another.</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          data-testid="new-api-key"
          className="rounded border border-amber-200 bg-white px-2 py-1.5 font-mono text-sm break-all select-all"
        >
          {value}
        </code>
        <button type="button" onClick={copy} className="btn-secondary">
          {copied === 'copied' ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={() => setDismissed(true)} className="btn-secondary">
          I have saved it
        </button>
      </div>
      {copied === 'failed' && <p className="mt-2 text-amber-900">The browser blocked copying; select the key and copy it by hand.</p>}
    </div>
  );
}
