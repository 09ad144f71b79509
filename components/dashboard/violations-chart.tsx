import type { ViolationStats } from '@/lib/violations/get-violation-stats';
import { formatCount } from './format';

// Distinguishable fills, in the order of the noisiest codes; grey is "other".
const PALETTE = ['#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0891b2', '#2563eb', '#7c3aed', '#db2777'];
const OTHER = '#a1a1aa';
const WIDTH = 800;
const HEIGHT = 200;
const PAD = { left: 44, right: 8, top: 8, bottom: 24 };

/** Counts per code over time as stacked bars, drawn on the server as plain SVG (no chart script). */
export function ViolationsChart({ stats }: { stats: ViolationStats }) {
  const series = [...stats.codes, ...(stats.buckets.some((b) => (b.counts.other ?? 0) > 0) ? ['other'] : [])];
  const color = (code: string) => (code === 'other' ? OTHER : (PALETTE[stats.codes.indexOf(code) % PALETTE.length] ?? OTHER));
  const max = Math.max(1, ...stats.buckets.map((b) => b.total));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, stats.buckets.length);
  const barW = Math.max(1, step * 0.8);
  const labelEvery = Math.max(1, Math.ceil(stats.buckets.length / 8));
  const label = (iso: string) => (stats.bucket === 'hour' ? `${iso.slice(5, 10)} ${iso.slice(11, 13)}h` : iso.slice(5, 10));
  const totals = new Map(series.map((code) => [code, stats.buckets.reduce((sum, b) => sum + (b.counts[code] ?? 0), 0)]));

  return (
    <figure className="card p-4" data-testid="violations-chart">
      <figcaption className="mb-2 flex items-baseline justify-between text-sm">
        <span className="font-medium">Violations per {stats.bucket} by code</span>
        <span className="text-zinc-500">{formatCount(stats.total)} in range · UTC</span>
      </figcaption>
      {stats.total === 0 ? (
        <p className="py-10 text-center text-sm text-zinc-500">No violations in this range.</p>
      ) : (
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          className="h-auto w-full"
          role="img"
          aria-label={`Violations per ${stats.bucket}, stacked by code`}
        >
          {[0, 0.5, 1].map((f) => {
            const y = PAD.top + plotH * (1 - f);
            return (
              <g key={f}>
                <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} stroke="#e4e4e7" strokeWidth={1} />
                <text x={PAD.left - 6} y={y + 4} textAnchor="end" fontSize={11} fill="#71717a">
                  {formatCount(Math.round(max * f))}
                </text>
              </g>
            );
          })}
          {stats.buckets.map((bucket, i) => {
            const x = PAD.left + i * step + (step - barW) / 2;
            let y = PAD.top + plotH;
            return (
              <g key={bucket.start}>
                {series.map((code) => {
                  const n = bucket.counts[code] ?? 0;
                  if (n === 0) return null;
                  const h = (n / max) * plotH;
                  y -= h;
                  return (
                    <rect key={code} x={x} y={y} width={barW} height={h} fill={color(code)}>
                      <title>{`${label(bucket.start)} · ${code}: ${formatCount(n)}`}</title>
                    </rect>
                  );
                })}
                {i % labelEvery === 0 && (
                  <text x={x + barW / 2} y={HEIGHT - 6} textAnchor="middle" fontSize={11} fill="#71717a">
                    {label(bucket.start)}
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
