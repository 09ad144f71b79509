/** The fields the register and settings forms share: names as the API's, so one parser reads both. */

export interface ServerSettings {
  list_unpublished: boolean;
  auto_accept_cosmetic: boolean;
  approval_wait_seconds: number;
}

export const DEFAULT_SETTINGS: ServerSettings = { list_unpublished: false, auto_accept_cosmetic: false, approval_wait_seconds: 30 };

export function SettingsFields({ id, settings }: { id: string; settings: ServerSettings }) {
  return (
    <div className="space-y-3">
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="list_unpublished"
          defaultChecked={settings.list_unpublished}
          className="mt-0.5 size-4 shrink-0 accent-zinc-900"
          data-testid={`${id}-list-unpublished`}
        />
        <span>
          <span className="font-medium">List unpublished tools</span>
          <span className="block text-zinc-500">Agents see tools whose contract is not published yet; every call of them is refused.</span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="auto_accept_cosmetic"
          defaultChecked={settings.auto_accept_cosmetic}
          className="mt-0.5 size-4 shrink-0 accent-zinc-900"
          data-testid={`${id}-auto-accept`}
        />
        <span>
          <span className="font-medium">Auto-accept cosmetic changes</span>
          <span className="block text-zinc-500">
            A changed definition whose only change is wording, with no text addressed to the model, is pinned without review.
          </span>
        </span>
      </label>
      <div className="max-w-xs space-y-1">
        <label htmlFor={`${id}-wait`} className="block text-sm font-medium">
          Approval wait (seconds)
        </label>
        <input
          id={`${id}-wait`}
          name="approval_wait_seconds"
          type="number"
          min={0}
          max={300}
          step={1}
          defaultValue={settings.approval_wait_seconds}
          className="input"
          data-testid={`${id}-wait`}
        />
        <p className="text-xs text-zinc-500">
          How long a call that needs approval is held before the agent is told it awaits approval (0 to 300).
        </p>
      </div>
    </div>
  );
}

export function AuthHeaderFields({ id, required = false }: { id: string; required?: boolean }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="space-y-1">
        <label htmlFor={`${id}-header-name`} className="block text-sm font-medium">
          Auth header name
        </label>
        <input
          id={`${id}-header-name`}
          name="auth_header_name"
          maxLength={100}
          required={required}
          placeholder="Authorization"
          autoComplete="off"
          className="input"
          data-testid={`${id}-header-name`}
        />
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-header-value`} className="block text-sm font-medium">
          Auth header value
        </label>
        <input
          id={`${id}-header-value`}
          name="auth_header_value"
          type="password"
          maxLength={8192}
          required={required}
          placeholder="Bearer …"
          autoComplete="off"
          className="input"
          data-testid={`${id}-header-value`}
        />
      </div>
    </div>
  );
}
