'use client';

import { useActionState, useState } from 'react';
import { saveSettingsAction, type SaveSettingsState } from '@/app/(dashboard)/settings/actions';
import {
  APPROVAL_TTL_SECONDS,
  DUPLICATE_WINDOW_SECONDS,
  RETENTION_DAYS_MAX,
  LOADED_SETTINGS_FIELD,
  SENSITIVE_PATHS_MAX,
  type TenantSettings,
} from '@/lib/tenants/settings-schema';
import { submitWithoutReset } from '../submit-without-reset';
import { formatDuration } from './format-duration';
import { TenantField } from '../page-tenant-provider';

interface Props {
  settings: TenantSettings;
  defaults: { approval_ttl_seconds: number; duplicate_window_seconds: number };
  /** Why this person cannot change them; null for admins. */
  readOnlyReason: string | null;
}

/** The tenant's settings; admins edit them, everyone else sees them read-only and why. */
export function SettingsForm({ settings, defaults, readOnlyReason }: Props) {
  const [state, formAction, pending] = useActionState<SaveSettingsState, FormData>(saveSettingsAction, { status: 'idle' });
  const [retention, setRetention] = useState(settings.argument_retention_days === null ? 'off' : 'keep');
  const [edited, setEdited] = useState(false);
  // What the form shows, as last loaded or saved: sent back with each save, which then changes
  // only the fields the person changed and is refused when someone else changed one of those
  // since. The page's props are no guide: they follow the database (a webhook added re-renders
  // the page) while the fields keep what was typed.
  const [shown, setShown] = useState({ settings, after: state });
  if (shown.after !== state) setShown({ settings: state.status === 'saved' ? state.loaded : shown.settings, after: state });
  const readOnly = readOnlyReason !== null;
  const days = settings.argument_retention_days ?? 30;
  return (
    // Submitted without React's form reset, which would show the radios as the page loaded
    // (retention "Off" right after turning it on) and make the next save send that.
    <form
      action={formAction}
      onChange={() => setEdited(true)}
      onSubmit={submitWithoutReset(formAction, () => setEdited(false))}
      className="space-y-6"
      data-testid="settings-form"
    >
      <TenantField />
      <input type="hidden" name={LOADED_SETTINGS_FIELD} value={JSON.stringify(shown.settings)} />
      {readOnly && (
        <p className="card p-4 text-sm text-zinc-600" data-testid="settings-read-only">
          {readOnlyReason}
        </p>
      )}
      <fieldset disabled={readOnly || pending} className="card space-y-6 p-5">
        <section aria-labelledby="retention-heading">
          <h2 id="retention-heading" className="text-base font-semibold">
            Argument retention
          </h2>
          <p className="mt-1 text-sm text-zinc-600">
            Evidence always keeps a hash of every call&apos;s arguments. With retention on, it also keeps the arguments themselves, the
            context the agent sent, the tool&apos;s result or error and any arguments a policy or an approver rewrote, for the days chosen;
            then the retention purge removes them (the hashes and the chain stay). Sensitive paths, each contract&apos;s own and the
            tenant-wide ones below, are always stored as <code>[REDACTED]</code>. The impact preview and the traces need retention on to
            show calls.
          </p>
          <div className="mt-3 flex flex-col gap-2 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="retention"
                value="off"
                checked={retention === 'off'}
                onChange={() => setRetention('off')}
                className="size-4 accent-zinc-900"
                data-testid="settings-retention-off"
              />
              Off: hashes only
            </label>
            <label className="flex flex-wrap items-center gap-2">
              <input
                type="radio"
                name="retention"
                value="keep"
                checked={retention === 'keep'}
                onChange={() => setRetention('keep')}
                className="size-4 accent-zinc-900"
                data-testid="settings-retention-keep"
              />
              Keep for
              <input
                name="retention_days"
                type="number"
                min={1}
                max={RETENTION_DAYS_MAX}
                step={1}
                defaultValue={days}
                disabled={retention !== 'keep'}
                aria-label="Days to keep raw payloads"
                className="input w-24"
                data-testid="settings-retention-days"
              />
              days (1 to {RETENTION_DAYS_MAX.toLocaleString('en')})
            </label>
          </div>
        </section>

        <section aria-labelledby="sensitive-heading">
          <h2 id="sensitive-heading" className="text-base font-semibold">
            Sensitive argument paths
          </h2>
          <p className="mt-1 text-sm text-zinc-600">
            Dotted paths redacted in every stored payload of every tool, on top of each contract&apos;s <code>sensitive</code> list, e.g.{' '}
            <code>card.number</code>. One per line, at most {SENSITIVE_PATHS_MAX}.
          </p>
          <textarea
            name="sensitive_paths"
            rows={4}
            defaultValue={settings.sensitive_paths.join('\n')}
            className="input mt-2 max-w-md font-mono text-sm"
            aria-label="Sensitive argument paths, one per line"
            data-testid="settings-sensitive-paths"
          />
        </section>

        <DurationSetting
          name="approval_ttl"
          title="Default approval expiry"
          help="How long an approval stays pending before it expires (denied). A contract's approval_ttl_seconds and a policy's expires_in_seconds still win."
          value={settings.approval_ttl_seconds}
          instanceDefault={defaults.approval_ttl_seconds}
          range={APPROVAL_TTL_SECONDS}
        />
        <DurationSetting
          name="duplicate_window"
          title="Duplicate-call window"
          help="A call of a non-idempotent tool identical to one allowed this recently gets an AXAG_DUPLICATE_CALL warning."
          value={settings.duplicate_window_seconds}
          instanceDefault={defaults.duplicate_window_seconds}
          range={DUPLICATE_WINDOW_SECONDS}
        />

        {!readOnly && (
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" className="btn-primary" data-testid="settings-save">
              {pending ? 'Saving…' : 'Save settings'}
            </button>
            <SaveStatus state={state} pending={pending} edited={edited} />
          </div>
        )}
      </fieldset>
    </form>
  );
}

function SaveStatus({ state, pending, edited }: { state: SaveSettingsState; pending: boolean; edited: boolean }) {
  if (pending)
    return (
      <span role="status" className="text-sm text-zinc-600" data-testid="settings-status">
        Saving…
      </span>
    );
  if (state.status === 'error')
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="settings-error">
        {state.message}
      </p>
    );
  if (edited)
    return (
      <span className="text-sm text-amber-700" data-testid="settings-status">
        Unsaved changes
      </span>
    );
  if (state.status === 'saved')
    return (
      <span role="status" className="text-sm text-emerald-700" data-testid="settings-status">
        Saved. New calls use these settings.
      </span>
    );
  return null;
}

function DurationSetting(props: {
  name: string;
  title: string;
  help: string;
  value: number | null;
  instanceDefault: number;
  range: { min: number; max: number };
}) {
  const [mode, setMode] = useState(props.value === null ? 'default' : 'custom');
  return (
    <section aria-labelledby={`${props.name}-heading`}>
      <h2 id={`${props.name}-heading`} className="text-base font-semibold">
        {props.title}
      </h2>
      <p className="mt-1 text-sm text-zinc-600">{props.help}</p>
      <div className="mt-3 flex flex-col gap-2 text-sm">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name={`${props.name}_mode`}
            value="default"
            checked={mode === 'default'}
            onChange={() => setMode('default')}
            className="size-4 accent-zinc-900"
          />
          The instance default ({formatDuration(props.instanceDefault)})
        </label>
        <label className="flex flex-wrap items-center gap-2">
          <input
            type="radio"
            name={`${props.name}_mode`}
            value="custom"
            checked={mode === 'custom'}
            onChange={() => setMode('custom')}
            className="size-4 accent-zinc-900"
            data-testid={`settings-${props.name}-custom`}
          />
          <input
            name={`${props.name}_seconds`}
            type="number"
            min={props.range.min}
            max={props.range.max}
            step={1}
            defaultValue={props.value ?? props.instanceDefault}
            disabled={mode !== 'custom'}
            aria-label={`${props.title} in seconds`}
            className="input w-32"
            data-testid={`settings-${props.name}-seconds`}
          />
          seconds ({formatDuration(props.range.min)} to {formatDuration(props.range.max)})
        </label>
      </div>
    </section>
  );
}
