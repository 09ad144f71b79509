import { codesByKind, VIOLATION_KIND_LABELS, VIOLATION_KINDS } from '@/lib/violations/violation-kinds';
import { Field } from './filter-fields';

export const KIND_OPTIONS = [
  { value: '', label: 'Any kind' },
  ...VIOLATION_KINDS.map((kind) => ({ value: kind, label: VIOLATION_KIND_LABELS[kind].label })),
];

/**
 * The code filter: every known code, grouped by kind, in a select as wide as its longest code
 * (a text box cut codes off at "AXAG_POLICY_TRANSF"). Codes seen in the range that this
 * version does not know, and the one in the address, are offered too.
 */
export function CodeField({ value, seen }: { value?: string; seen: readonly string[] }) {
  const groups = codesByKind();
  const known = new Set(groups.flatMap((g) => g.codes));
  const others = [...new Set([...seen, ...(value ? [value] : [])])].filter((code) => !known.has(code)).sort();
  return (
    <Field label="Code">
      <select className="input w-auto max-w-full font-mono" name="code" defaultValue={value ?? ''} data-testid="violations-code-filter">
        <option value="">any code</option>
        {groups.map((group) => (
          <optgroup key={group.kind} label={VIOLATION_KIND_LABELS[group.kind].label}>
            {group.codes.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </optgroup>
        ))}
        {others.length > 0 && (
          <optgroup label="Other codes">
            {others.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </optgroup>
        )}
      </select>
    </Field>
  );
}
