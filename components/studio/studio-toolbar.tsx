'use client';

import type { DocumentFormat } from '@/lib/lint';
import { ImpactPreviewButton, type ImpactState } from './impact-preview-panel';
import type { StudioEditorProps, StudioVersion } from './types';

/** The row above the editor: notation, which version is loaded, impact preview, save and publish. */
export function StudioToolbar(props: {
  kind: StudioEditorProps['kind'];
  readOnly: boolean;
  format: DocumentFormat;
  onFormat(format: DocumentFormat): void;
  loaded: StudioVersion | undefined;
  dirty: boolean;
  impactState: ImpactState<unknown>;
  onPreviewImpact(): void;
  busy: 'save' | 'publish' | null;
  onSave(): void;
  /** Opens the publish form. */
  onPublish(): void;
  /** Why publishing is not possible now, as the button's title; undefined when it is. */
  publishBlocked: string | undefined;
}) {
  const { kind, readOnly, format, onFormat, loaded, dirty, impactState, onPreviewImpact, busy, onSave, onPublish, publishBlocked } = props;
  const status = loaded
    ? `Editing v${loaded.version} (${loaded.status}${loaded.status !== 'draft' && !readOnly ? ': immutable, change `version` to save a new draft' : ''})`
    : undefined;
  // One row at any width: the status text gives way (cut off, whole on hover), never the buttons.
  return (
    <div className="mb-2 flex flex-nowrap items-center gap-3" data-testid="studio-toolbar">
      <div role="group" aria-label="Format" className="inline-flex shrink-0 overflow-hidden rounded-md border border-zinc-300">
        {(['json', 'yaml'] as const).map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={format === f}
            onClick={() => onFormat(f)}
            className={`px-3 py-1.5 text-xs font-medium ${format === f ? 'bg-zinc-900 text-white' : 'bg-white text-zinc-700 hover:bg-zinc-100'}`}
          >
            {f.toUpperCase()}
          </button>
        ))}
      </div>
      <p className="min-w-0 flex-1 truncate text-sm text-zinc-600" title={status}>
        {status}
      </p>
      {dirty && !readOnly && <span className="shrink-0 text-xs text-amber-700">Unsaved changes</span>}
      <div className="flex shrink-0 items-center gap-2">
        {/* Viewers too: the replay reads recorded calls and changes nothing (session `read`). */}
        {(kind === 'contract' || kind === 'policy') && <ImpactPreviewButton state={impactState} onRun={onPreviewImpact} />}
        {!readOnly && (
          <>
            <button id="studio-save" type="button" className="btn-secondary whitespace-nowrap" onClick={onSave} disabled={busy !== null}>
              {busy === 'save' ? 'Saving…' : 'Save draft'}
            </button>
            <button
              type="button"
              className="btn-primary py-1.5 whitespace-nowrap"
              onClick={onPublish}
              disabled={busy !== null || publishBlocked !== undefined}
              title={publishBlocked}
            >
              Publish…
            </button>
          </>
        )}
      </div>
    </div>
  );
}
