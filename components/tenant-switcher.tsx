'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

/**
 * Switches the tenant a person with several acts in (POST /api/v1/session/tenant sets the
 * toolgate_tenant cookie), then opens the new tenant's overview: the page shown belonged to
 * the old one.
 */
export function TenantSwitcher({ current, tenants }: { current: string; tenants: { slug: string; name: string; role: string }[] }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function switchTo(slug: string) {
    if (slug === current) return;
    setPending(true);
    setError(null);
    try {
      const response = await fetch('/api/v1/session/tenant', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tenant: slug }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        setError(body?.error?.message ?? 'Could not switch tenants.');
        setPending(false);
        return;
      }
      router.push('/');
      router.refresh();
      setPending(false);
    } catch {
      setError('Could not reach the server. Try again.');
      setPending(false);
    }
  }

  return (
    <div className="flex items-center gap-2">
      <label htmlFor="tenant-switcher" className="text-zinc-500">
        Tenant
      </label>
      <select
        id="tenant-switcher"
        data-testid="tenant-switcher"
        value={current}
        disabled={pending}
        onChange={(e) => void switchTo(e.target.value)}
        className="input w-auto py-1"
      >
        {tenants.map((t) => (
          <option key={t.slug} value={t.slug}>
            {t.name} ({t.role})
          </option>
        ))}
      </select>
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
    </div>
  );
}
