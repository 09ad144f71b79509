import type { ReactNode } from 'react';

/** Plain GET forms: filters live in the URL, need no client script, and a filtered view is a link. */
export function FilterForm({ action, children, resetHref }: { action: string; children: ReactNode; resetHref: string }) {
  return (
    <form method="get" action={action} className="card mb-6 flex flex-wrap items-end gap-3 p-4 text-sm" data-testid="filters">
      {children}
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          Apply
        </button>
        <a href={resetHref} className="btn-secondary">
          Reset
        </a>
      </div>
    </form>
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex min-w-36 flex-col gap-1">
      <span className="text-xs font-medium text-zinc-600">{label}</span>
      {children}
    </label>
  );
}

export function TextField({
  label,
  name,
  value,
  placeholder,
  list,
  width = 'w-44',
}: {
  label: string;
  name: string;
  value?: string;
  placeholder?: string;
  list?: string;
  width?: string;
}) {
  return (
    <Field label={label}>
      <input className={`input ${width}`} name={name} defaultValue={value ?? ''} placeholder={placeholder} list={list} maxLength={128} />
    </Field>
  );
}

export function SelectField({
  label,
  name,
  value,
  options,
}: {
  label: string;
  name: string;
  value?: string;
  options: { value: string; label: string }[];
}) {
  return (
    <Field label={label}>
      <select className="input w-44" name={name} defaultValue={value ?? ''}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function DataList({ id, values }: { id: string; values: string[] }) {
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

const RANGE_OPTIONS = [
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'all', label: 'All time' },
  { value: 'custom', label: 'From / to below' },
];

/** A quick range, or exact bounds (UTC) for "custom". */
export function TimeRangeFields({ range, since, until }: { range: string; since?: string; until?: string }) {
  return (
    <>
      <SelectField label="Time" name="range" value={range} options={RANGE_OPTIONS} />
      <Field label="From (UTC)">
        <input className="input w-52" type="datetime-local" name="since" defaultValue={since?.slice(0, 16) ?? ''} />
      </Field>
      <Field label="To (UTC)">
        <input className="input w-52" type="datetime-local" name="until" defaultValue={until?.slice(0, 16) ?? ''} />
      </Field>
    </>
  );
}

export const DECISION_OPTIONS = [
  { value: '', label: 'Any decision' },
  { value: 'allow', label: 'allow' },
  { value: 'deny', label: 'deny' },
  { value: 'require_approval', label: 'require approval' },
  { value: 'transform', label: 'transform' },
  { value: 'escalate', label: 'escalate' },
];

export function Problems({ problems }: { problems: string[] }) {
  if (problems.length === 0) return null;
  return (
    <div role="alert" className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
      {problems.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </div>
  );
}
