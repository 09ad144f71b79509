/** The Prometheus text exposition format's media type (version 0.0.4), as prom-client's registry answers. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface ExposedMetric {
  name: string;
  help: string;
  type: string;
  values: { value: number; labels: Record<string, string | number | undefined>; metricName?: string }[];
}

/**
 * Writes metrics in the text exposition format. prom-client writes its registry itself; this is
 * for what the registry cannot give in one piece: a tenant's own series, filtered from it
 * (lib/metrics/render-metrics.ts).
 */
export function expositionText(metrics: readonly ExposedMetric[]): string {
  const blocks = metrics.map((metric) => {
    const lines = [`# HELP ${metric.name} ${escapeHelp(metric.help)}`, `# TYPE ${metric.name} ${metric.type}`];
    for (const sample of metric.values) {
      const labels = Object.entries(sample.labels)
        .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
        .map(([name, value]) => `${name}="${escapeLabelValue(String(value))}"`);
      lines.push(`${sample.metricName ?? metric.name}${labels.length ? `{${labels.join(',')}}` : ''} ${sampleValue(sample.value)}`);
    }
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function sampleValue(value: number): string {
  if (Number.isFinite(value)) return String(value);
  if (Number.isNaN(value)) return 'NaN';
  return value > 0 ? '+Inf' : '-Inf';
}
