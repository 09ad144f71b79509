import type { Metadata } from 'next';
import { can } from '@/lib/tenants/roles';
import { getTenantSettings } from '@/lib/tenants/tenant-settings';
import { listWebhooks } from '@/lib/webhooks/list-webhooks';
import { SettingsForm } from '@/components/settings/settings-form';
import { CreateWebhookForm } from '@/components/settings/create-webhook-form';
import { WebhookList } from '@/components/settings/webhook-list';
import { requireMember } from '../require-member';

export const metadata: Metadata = { title: 'Settings' };

export default async function SettingsPage() {
  const member = await requireMember();
  const { instance_defaults: defaults, ...settings } = await getTenantSettings({ tenantId: member.tenant.id });
  const isAdmin = can(member.role, 'manage_members');
  // Receiver URLs often carry a token of their own (chat hooks do), so only admins see them.
  const webhooks = can(member.role, 'manage_keys') ? await listWebhooks({ tenantId: member.tenant.id }) : null;
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">
        How the tenant {member.tenant.name} keeps evidence and handles approvals and duplicates. Every change is recorded in the evidence
        chain.
      </p>
      <SettingsForm
        settings={settings}
        defaults={defaults}
        readOnlyReason={isAdmin ? null : `Only admins can change settings; your role is ${member.role}. These are the values in force.`}
      />
      <section className="card mt-8 p-5" aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading" className="text-base font-semibold">
          Webhooks
        </h2>
        <p className="mt-1 mb-4 text-sm text-zinc-600">
          Toolgate POSTs signed approval events to these receivers, retrying with backoff. Receivers must be on public addresses.
        </p>
        {webhooks ? (
          <>
            <WebhookList webhooks={webhooks} />
            <CreateWebhookForm />
          </>
        ) : (
          <p className="text-sm text-zinc-600" data-testid="webhooks-admin-only">
            Only admins see and manage webhooks (receiver URLs can carry secrets); your role is {member.role}.
          </p>
        )}
      </section>
    </>
  );
}
