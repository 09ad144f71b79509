import Link from 'next/link';
import type { ViolationStats } from '@/lib/violations/get-violation-stats';
import { axisTicks } from './axis-ticks';
import { formatCount } from './format';

// Distinguishable fills, in the order of the noisiest codes; grey is "other".
const PALETTE = ['#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0891b2', '#2563eb', '#7c3aed', '#db2777'];
const OTHER = '#a1a1aa';
const WIDTH = 800;
const HEIGHT = 200;
const PAD = { left: 44, right: 8, top: 8, bottom: 24 };
/** At most this many time labels under the bars. */
const X_LABELS_MAX = 8;
// Hour labels fall on hours a clock reads easily: every 1, 2, 3, 6 or 12 hours, or at midnight.
const HOUR_LABEL_STEPS = [1, 2, 3, 6, 12, 24];

/** Which bars get a time label, and what it says: hours on round hours (the date at midnight), days evenly. */
function xLabels(stats: ViolationStats): Map<number, string> {
  const labels = new Map<number, string>();
  const n = stats.buckets.length;
  if (stats.bucket === 'day') {
    const every = Math.max(1, Math.ceil(n / X_LABELS_MAX));
    stats.buckets.forEach((b, i) => {
      if (i % every === 0) labels.set(i, b.start.slice(5, 10));
    });
    return labels;
  }
  const step = HOUR_LABEL_STEPS.find((s) => n / s <= X_LABELS_MAX) ?? 24;
  // Past a day of hours, a label every day at midnight; a range shorter than that still needs a date once.
  stats.buckets.forEach((b, i) => {
    const hour = Number(b.start.slice(11, 13));
    if (step === 24 ? hour === 0 : hour % step === 0) labels.set(i, hour === 0 ? b.start.slice(5, 10) : `${b.start.slice(11, 13)}:00`);
  });
  if (step < 24 && ![...labels.values()].some((l) => l.includes('-')) && n > 0) labels.set(0, `${stats.buckets[0]?.start.slice(5, 10)}`);
  return labels;
}

/**
 * Counts per code over time as stacked bars, drawn on the server as plain SVG (no chart script).
 * `bucketLinks`: the same view with hour or day bars, where the range allows both.
 */
export function ViolationsChart({ stats, bucketLinks }: { stats: ViolationStats; bucketLinks?: { hour: string; day: string } | null }) {
  const series = [...stats.codes, ...(stats.buckets.some((b) => (b.counts.other ?? 0) > 0) ? ['other'] : [])];
  const color = (code: string) => (code === 'other' ? OTHER : (PALETTE[stats.codes.indexOf(code) % PALETTE.length] ?? OTHER));
  const ticks = axisTicks(Math.max(0, ...stats.buckets.map((b) => b.total)));
  const top = ticks[ticks.length - 1] ?? 1;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, stats.buckets.length);
  const barW = Math.max(1, step * 0.8);
  const labels = xLabels(stats);
  const when = (iso: string) => (stats.bucket === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 13)}:00` : iso.slice(0, 10));
  const totals = new Map(series.map((code) => [code, stats.buckets.reduce((sum, b) => sum + (b.counts[code] ?? 0), 0)]));

  return (
    <figure className="card p-4" data-testid="violations-chart" data-bucket={stats.bucket}>
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <span className="font-medium">Violations per {stats.bucket} by code</span>
        <span className="flex items-baseline gap-3 text-zinc-500">
          {bucketLinks && (
            <span className="flex gap-1 text-xs" data-testid="violations-chart-bucket">
              {(['hour', 'day'] as const).map((size) =>
                size === stats.bucket ? (
                  <span key={size} className="rounded bg-zinc-900 px-2 py-0.5 font-medium text-white" aria-current="true">
                    per {size}
                  </span>
                ) : (
                  <Link
                    key={size}
                    href={bucketLinks[size]}
                    className="rounded px-2 py-0.5 text-brand ring-1 ring-zinc-300 hover:bg-zinc-100"
                  >
                    per {size}
                  </Link>
                ),
              )}
            </span>
          )}
          <span>{formatCount(stats.total)} in range · UTC</span>
        </span>
      </figcaption>
      {stats.total === 0 ? (
        <p className="py-10 text-center text-sm text-zinc-500">No violations in this range.</p>
      ) : (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="h-auto w-full"
          role="img"
          aria-label={`Violations per ${stats.bucket}, stacked by code; the highest ${stats.bucket} has ${formatCount(Math.max(...stats.buckets.map((b) => b.total)))}`}
        >
          {ticks.map((tick) => {
            const y = PAD.top + plotH * (1 - tick / top);
            return (
              <g key={tick}>
                <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} stroke="#e4e4e7" strokeWidth={1} />
                <text x={PAD.left - 6} y={y + 4} textAnchor="end" fontSize={11} fill="#52525b" data-testid="violations-chart-y-tick">
                  {formatCount(tick)}
                </text>
              </g>
            );
          })}
          {stats.buckets.map((bucket, i) => {
            const x = PAD.left + i * step + (step - barW) / 2;
            let y = PAD.top + plotH;
            const label = labels.get(i);
            return (
              <g key={bucket.start} data-testid={bucket.total > 0 ? 'violations-chart-bar' : undefined} data-start={bucket.start}>
                {series.map((code) => {
                  const n = bucket.counts[code] ?? 0;
                  if (n === 0) return null;
                  const h = (n / top) * plotH;
                  y -= h;
                  return (
                    <rect key={code} x={x} y={y} width={barW} height={h} fill={color(code)}>
                      <title>{`${when(bucket.start)} · ${code}: ${formatCount(n)}`}</title>
                    </rect>
                  );
                })}
                {label && (
                  <text x={x + barW / 2} y={HEIGHT - 6} textAnchor="middle" fontSize={11} fill="#52525b">
                    {label}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
      {series.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-700">
          {series.map((code) => (
            <li key={code} className="flex items-center gap-1.5">
              <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: color(code) }} />
              <span className="font-mono">{code}</span>
              <span className="text-zinc-500">{formatCount(totals.get(code) ?? 0)}</span>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
