'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LIVE = [
  { href: '/contracts', label: 'Contracts' },
  { href: '/policies', label: 'Policies' },
  { href: '/surfaces', label: 'Surfaces' },
  { href: '/api-keys', label: 'API keys' },
] as const;

// Areas that exist in the product plan but not yet in the dashboard; shown so people know
// where things will live, never as links to empty pages.
const COMING = [
  { label: 'Approvals', about: 'Pending human approvals for high-risk tool calls' },
  { label: 'Traces', about: 'Every validated tool call with its decision and evidence' },
  { label: 'Violations', about: 'Calls that broke a contract or policy' },
] as const;

export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-col gap-1 text-sm">
      {LIVE.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? 'page' : undefined}
            className={`rounded-md px-3 py-2 font-medium ${active ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-200'}`}
          >
            {item.label}
          </Link>
        );
      })}
      <p className="mt-4 px-3 text-xs font-semibold uppercase tracking-wide text-zinc-400">Coming soon</p>
      {COMING.map((item) => (
        <span key={item.label} title={item.about} aria-disabled="true" className="flex items-center justify-between rounded-md px-3 py-2 text-zinc-400">
          {item.label}
          <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-[10px] font-medium uppercase text-zinc-500">soon</span>
        </span>
      ))}
    </nav>
  );
}
