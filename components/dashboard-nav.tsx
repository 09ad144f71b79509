'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useState } from 'react';
import { pageTenantHeaders } from './page-tenant';

const LINKS = [
  { href: '/', label: 'Overview' },
  { href: '/approvals', label: 'Approvals' },
  { href: '/traces', label: 'Traces' },
  { href: '/violations', label: 'Violations' },
  { href: '/contracts', label: 'Contracts' },
  { href: '/policies', label: 'Policies' },
  { href: '/surfaces', label: 'Surfaces' },
  { href: '/mcp', label: 'MCP servers' },
  { href: '/api-keys', label: 'API keys' },
  { href: '/members', label: 'Members' },
  { href: '/settings', label: 'Settings' },
] as const;

/**
 * The pending approvals badge polls the list API with `limit=0`, which answers only the count
 * (one indexed COUNT). Every few seconds is enough for a badge, and hidden tabs skip it.
 */
const COUNT_POLL_MS = 5000;

function usePendingApprovals(): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    let cancelled = false;
    const load = async () => {
      if (document.hidden) return;
      try {
        const response = await fetch('/api/v1/approvals?status=pending&limit=0', {
          credentials: 'same-origin',
          headers: { accept: 'application/json', ...pageTenantHeaders() },
          cache: 'no-store',
        });
        if (!response.ok) return;
        const body = (await response.json()) as { counts?: { pending?: unknown } };
        if (!cancelled && typeof body.counts?.pending === 'number') setCount(body.counts.pending);
      } catch {
        /* offline for a moment: keep the last count */
      }
    };
    void load();
    const timer = setInterval(() => void load(), COUNT_POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, []);
  return count;
}

export function DashboardNav() {
  const pathname = usePathname();
  const pending = usePendingApprovals();
  return (
    <nav aria-label="Main" className="flex flex-col gap-1 text-sm">
      {LINKS.map((item) => {
        const active = item.href === '/' ? pathname === '/' : pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? 'page' : undefined}
            className={`flex items-center justify-between rounded-md px-3 py-2 font-medium ${active ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-200'}`}
          >
            {item.label}
            {item.href === '/approvals' && pending !== null && (
              <span
                data-testid="nav-approvals-count"
                aria-label={`${pending} pending approvals`}
                className={`rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${pending > 0 ? 'bg-amber-400 text-zinc-900' : active ? 'bg-zinc-700 text-zinc-200' : 'bg-zinc-200 text-zinc-600'}`}
              >
                {pending}
              </span>
            )}
          </Link>
        );
      })}
    </nav>
  );
}
