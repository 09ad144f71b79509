'use client';

import type { StudioVersion } from './types';

/** Publish: a change note and, for contracts and policies, publishing as a shadow version. */
export function PublishForm(props: {
  changeNote: string;
  onChangeNote(note: string): void;
  canShadow: boolean;
  shadowMode: boolean;
  onShadowMode(shadow: boolean): void;
  busy: 'save' | 'publish' | null;
  liveErrors: number;
  loaded: StudioVersion | undefined;
  dirty: boolean;
  onSubmit(): void;
  onCancel(): void;
}) {
  const { changeNote, onChangeNote, canShadow, shadowMode, onShadowMode, busy, liveErrors, loaded, dirty, onSubmit, onCancel } = props;
  return (
    <form
      className="card mb-3 flex flex-wrap items-end gap-3 p-4"
      aria-label="Publish"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label className="min-w-64 flex-1 text-sm">
        <span className="mb-1 block font-medium">Change note</span>
        <input
          className="input"
          value={changeNote}
          maxLength={2000}
          onChange={(e) => onChangeNote(e.target.value)}
          placeholder="What changed, for the people who review it later"
          autoFocus
        />
      </label>
      {canShadow && (
        <label
          className="flex items-center gap-2 text-sm"
          title="Evaluate this version on every call and record what it would decide, beside the served version, without letting it decide anything."
        >
          <input type="checkbox" checked={shadowMode} onChange={(e) => onShadowMode(e.target.checked)} data-testid="publish-shadow" />
          Shadow (record only)
        </label>
      )}
      <button type="submit" className="btn-primary" disabled={busy !== null || liveErrors > 0}>
        {busy === 'publish'
          ? 'Publishing…'
          : loaded?.status === 'shadow' && !dirty
            ? 'Promote to served'
            : shadowMode && canShadow
              ? 'Publish as shadow'
              : 'Publish version'}
      </button>
      <button type="button" className="btn-secondary py-2" onClick={onCancel}>
        Cancel
      </button>
      <p className="w-full text-xs text-zinc-500">
        {shadowMode && canShadow
          ? 'A shadow version is frozen and evaluated on every call beside the served one; its would-be decisions are recorded, and the traces page shows where they differ. Promote it later by publishing it again.'
          : 'Publishing saves the draft, freezes this version and makes the runtime serve it.'}
      </p>
    </form>
  );
}
