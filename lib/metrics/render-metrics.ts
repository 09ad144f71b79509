import { countPendingApprovals } from './scrape-queries';
import { expositionText, type ExposedMetric } from './exposition-text';
import { PENDING_APPROVALS_METRIC, TENANT_METRICS, toolgateMetrics } from './metrics-registry';
import type { MetricsScope } from './metrics-access';
// Registers this copy's evidence observer, should it serve a scrape before anything else.
import './counters';

export { EXPOSITION_CONTENT_TYPE } from './exposition-text';

/**
 * The scrape, in the Prometheus text format. The operator's token gets the whole registry: every
 * tenant's series (labelled `tenant` with the tenant id), the instance's own metrics and the
 * default process metrics. An admin API key gets only its tenant's series of TENANT_METRICS,
 * without the `tenant` label: other tenants' tools, codes and counts never leave the registry.
 */
export async function renderMetrics(scope: MetricsScope): Promise<string> {
  const { registry } = toolgateMetrics();
  if (scope.kind === 'instance') return registry.metrics();

  const exposed: ExposedMetric[] = [];
  for (const name of TENANT_METRICS) {
    const metric = registry.getSingleMetric(name);
    if (!metric) continue;
    const { help, type, values } = await metric.get();
    exposed.push({
      name,
      help,
      // prom-client's types declare an enum; at run time it is the exposition's type name.
      type: String(type),
      values: values
        .filter((sample) => sample.labels.tenant === scope.tenantId)
        .map((sample) => {
          const labels: Record<string, string | number | undefined> = { ...sample.labels };
          delete labels.tenant;
          return { ...sample, labels };
        }),
    });
  }
  const pending = await countPendingApprovals({ tenantId: scope.tenantId });
  exposed.push({ ...PENDING_APPROVALS_METRIC, type: 'gauge', values: [{ value: pending, labels: {} }] });
  return expositionText(exposed);
}
