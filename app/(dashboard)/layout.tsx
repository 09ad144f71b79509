import type { ReactNode } from 'react';
import Link from 'next/link';
import { DashboardNav } from '@/components/dashboard-nav';
import { PageTenantProvider } from '@/components/page-tenant-provider';
import { SignOutButton } from '@/components/sign-out-button';
import { TenantSwitcher } from '@/components/tenant-switcher';
import { listMemberTenants } from '@/lib/auth/session';
import { requireMember } from './require-member';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const member = await requireMember();
  const tenants = await listMemberTenants(member.user.id);
  // Every form and fetch below names this tenant: the page keeps acting in it after the person
  // switched tenants in another tab (lib/auth/page-tenant.ts).
  return (
    <PageTenantProvider tenantId={member.tenant.id} several={tenants.length > 1}>
      <div className="flex min-h-screen">
        {/* The first stop for the Tab key: past the eleven navigation links to the page itself. */}
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-zinc-900 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        {/* Narrower below 1280 px, so the page beside it keeps room for its tables at 1024 px. */}
        <aside className="flex w-48 shrink-0 flex-col border-r border-zinc-200 bg-white px-3 py-5 xl:w-60">
          <p className="px-3 text-lg font-semibold tracking-tight">Toolgate</p>
          <p className="mb-6 px-3 text-sm text-zinc-500" data-testid="tenant-name">
            {member.tenant.name}
          </p>
          <DashboardNav />
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="flex items-center justify-end gap-4 border-b border-zinc-200 bg-white px-6 py-3 text-sm">
            {tenants.length > 1 && (
              <TenantSwitcher current={member.tenant.slug} tenants={tenants.map((t) => ({ slug: t.slug, name: t.name, role: t.role }))} />
            )}
            <span className="text-zinc-700">
              <Link href="/account" className="hover:underline" title="Your account">
                {member.user.email}
              </Link>{' '}
              <span className="ml-1 rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-medium text-zinc-600" data-testid="member-role">
                {member.role}
              </span>
            </span>
            <SignOutButton />
          </header>
          {/* The studio's editor takes the whole width and most of the height (components/studio marks itself data-studio);
              the traces table (data-wide) more width than reading pages: its rows stay one line each. */}
          <main
            id="main"
            tabIndex={-1}
            className="mx-auto w-full max-w-5xl flex-1 px-6 py-8 focus:outline-none has-[[data-studio]]:max-w-none has-[[data-studio]]:py-5 has-[[data-wide]]:max-w-7xl"
          >
            {children}
          </main>
        </div>
      </div>
    </PageTenantProvider>
  );
}
