import type { WebhookView } from '@/lib/webhooks/webhook-view';
import { formatDate } from '@/components/format-date';
import { DeleteWebhookButton } from './delete-webhook-button';

const DELIVERY_TONES: Record<string, string> = {
  delivered: 'text-emerald-700',
  failed: 'text-red-700',
  pending: 'text-amber-700',
  sending: 'text-amber-700',
};

/** The tenant's webhooks, each with its latest deliveries: what an admin checks when a receiver is silent. */
export function WebhookList({ webhooks }: { webhooks: WebhookView[] }) {
  if (webhooks.length === 0)
    return (
      <p className="text-sm text-zinc-600" data-testid="webhooks-empty">
        No webhooks yet.
      </p>
    );
  return (
    <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200" data-testid="webhook-list">
      {webhooks.map((hook) => (
        <li key={hook.id} className="p-3 text-sm" data-testid="webhook-row">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div>
              <p className="font-mono text-xs break-all">{hook.url}</p>
              <p className="text-xs text-zinc-500">
                {hook.events.join(', ')} · added {formatDate(new Date(hook.created_at))}
              </p>
            </div>
            <DeleteWebhookButton id={hook.id} url={hook.url} />
          </div>
          {hook.recent_deliveries.length === 0 ? (
            <p className="mt-2 text-xs text-zinc-500">No deliveries yet.</p>
          ) : (
            <table className="mt-2 w-full text-left text-xs">
              <thead className="text-zinc-500">
                <tr>
                  <th className="py-1 font-medium">Event</th>
                  <th className="font-medium">Status</th>
                  <th className="font-medium">Attempts</th>
                  <th className="font-medium">Created</th>
                  <th className="font-medium">Last error</th>
                </tr>
              </thead>
              <tbody>
                {hook.recent_deliveries.map((d) => (
                  <tr key={d.id}>
                    <td className="py-0.5 font-mono">{d.event}</td>
                    <td className={DELIVERY_TONES[d.status] ?? 'text-zinc-700'}>{d.status}</td>
                    <td>{d.attempts}</td>
                    <td>{formatDate(new Date(d.created_at))}</td>
                    <td className="max-w-64 truncate text-zinc-600" title={d.last_error ?? undefined}>
                      {d.last_error ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </li>
      ))}
    </ul>
  );
}
