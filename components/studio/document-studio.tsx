'use client';

import '@/components/zod-without-eval';

import { useCallback } from 'react';
import type { DocumentFormat } from '@/lib/lint';
import { ImpactPreviewPanel, useImpactPreview, type DraftRead } from './impact-preview-panel';
import { previewPolicyImpact } from './policy-impact-api';
import { PolicyImpactPanel } from './policy-impact-panel';
import { ProblemsPanel } from './problems-panel';
import { PublishForm } from './publish-form';
import { previewImpact as previewContractImpact } from './studio-api';
import { StudioNotice, StudioToast } from './studio-notice';
import { StudioPanes } from './studio-panes';
import { StudioToolbar } from './studio-toolbar';
import { TryRequestPanel } from './try-request-panel';
import type { StudioEditorProps } from './types';
import { useSaveAndPublish } from './use-save-and-publish';
import { useStudioEditor } from './use-studio-editor';
import { VersionHistory } from './version-history';

/** The editing surface behind `<StudioEditor>`; loaded only in the browser. */
export default function DocumentStudio(props: StudioEditorProps) {
  const { kind, apiBase, pageBase, documentId, readOnly, readOnlyReason, jsonSchema, prompt } = props;
  // Contracts and policies: surfaces have no replay endpoint. Both hooks always run (hooks
  // cannot be conditional); only the kind's own is ever asked.
  const contractImpact = useImpactPreview(apiBase, previewContractImpact);
  const policyImpact = useImpactPreview(apiBase, previewPolicyImpact);
  const impact = kind === 'policy' ? policyImpact : contractImpact;
  const { host, promptHost, editor } = useStudioEditor(props, impact.markEdited);
  const {
    notice,
    setNotice,
    busy,
    publishing,
    setPublishing,
    changeNote,
    setChangeNote,
    shadowMode,
    setShadowMode,
    loadedVersion,
    history,
    loaded,
    canShadow,
    publishBlocked,
    onSave,
    onPublish,
  } = useSaveAndPublish(props, editor);

  function switchFormat(next: DocumentFormat) {
    const switched = editor.switchFormat(next);
    if (!switched) return;
    setNotice(
      switched.ok ? null : { tone: 'error', text: `Fix the syntax error before switching to ${next.toUpperCase()}: ${switched.message}` },
    );
  }

  function previewImpact() {
    const read = editor.readEditor();
    const draft: DraftRead = read.ok ? { ok: true, value: read.value } : { ok: false, message: read.message };
    void impact.run(draft);
  }

  const closeToast = useCallback(() => setNotice((n) => (n?.tone === 'success' ? null : n)), [setNotice]);

  return (
    // `data-studio` lets the dashboard give the studio the page's whole width (app/(dashboard)/layout.tsx).
    <div data-studio="">
      <StudioToolbar
        kind={kind}
        readOnly={readOnly}
        format={editor.format}
        onFormat={switchFormat}
        loaded={loaded}
        dirty={editor.dirty}
        impactState={impact.state}
        onPreviewImpact={previewImpact}
        busy={busy}
        onSave={() => void onSave()}
        onPublish={() => setPublishing(true)}
        publishBlocked={publishBlocked}
      />

      {readOnly && (
        <p className="card mb-3 p-3 text-sm text-zinc-600" data-testid="read-only-notice">
          {readOnlyReason ?? 'This editor is read-only.'}
        </p>
      )}

      {publishing && !readOnly && (
        <PublishForm
          changeNote={changeNote}
          onChangeNote={setChangeNote}
          canShadow={canShadow}
          shadowMode={shadowMode}
          onShadowMode={setShadowMode}
          busy={busy}
          liveErrors={editor.liveErrors}
          loaded={loaded}
          dirty={editor.dirty}
          onSubmit={() => void onPublish()}
          onCancel={() => setPublishing(false)}
        />
      )}

      {notice?.tone === 'error' && <StudioNotice notice={notice} />}
      <StudioToast notice={notice} onClose={closeToast} />

      <StudioPanes
        editor={host}
        prompt={
          prompt && (
            <>
              <p className="mb-1 text-xs font-medium text-zinc-500 uppercase">System prompt</p>
              <div
                ref={promptHost}
                data-testid="studio-prompt-editor"
                className="min-h-0 w-full flex-1 overflow-hidden rounded-md border border-zinc-200 bg-white"
              />
            </>
          )
        }
        panels={
          <>
            {kind === 'contract' && (
              <ImpactPreviewPanel state={contractImpact.state} onRun={previewImpact} onClose={contractImpact.close} />
            )}
            {kind === 'policy' && <PolicyImpactPanel state={policyImpact.state} onRun={previewImpact} onClose={policyImpact.close} />}
            <ProblemsPanel problems={editor.problems} status={editor.status} onSelect={editor.reveal} />
            {kind === 'policy' && !readOnly && <TryRequestPanel readDraft={editor.readEditor} />}
            {documentId && (
              <VersionHistory
                key={history.versions.map((v) => `${v.version}:${v.status}`).join(',')}
                apiBase={apiBase}
                pageBase={pageBase}
                documentId={documentId}
                versions={history.versions}
                servedVersion={history.servedVersion}
                loadedVersion={loadedVersion}
                format={editor.format}
                jsonSchema={jsonSchema}
              />
            )}
          </>
        }
      />
    </div>
  );
}
