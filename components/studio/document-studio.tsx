'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Diagnostic, DocumentFormat, LintOptions } from '@/lib/lint';
import { convertDocument, readDocument } from './document-format';
import { failingPort, LiveLinter, workerPort, type LintOutcome, type LintPort } from './live-linter';
import { documentVersion, MARKER_OWNER, SERVER_MARKER_OWNER, toMarker } from './markers';
import { ImpactPreviewButton, ImpactPreviewPanel, useImpactPreview, type DraftRead } from './impact-preview-panel';
import { attachSchema, monaco } from './monaco-setup';
import { ProblemsPanel, type ProblemsPanelProps } from './problems-panel';
import { fetchVersions, publishVersion, saveDraft, type ApiFailure } from './studio-api';
import type { StudioEditorProps, StudioProblem, StudioVersion } from './types';
import { VersionHistory } from './version-history';

/**
 * Pause after a keystroke before linting. Short, because the linter never queues: while the
 * worker is busy only the newest text waits, so the pause merely merges a burst of keys, and
 * what a 2,000-line document costs is the lint itself (budget: 150 ms, keystroke to underline).
 */
const LINT_DELAY_MS = 10;

type Notice = { tone: 'error' | 'success'; text: string; problems?: string[] } | null;

/** The editing surface behind `<StudioEditor>`; loaded only in the browser. */
export default function DocumentStudio(props: StudioEditorProps) {
  const { kind, apiBase, pageBase, documentId, initialText, initialFormat, readOnly, readOnlyReason, jsonSchema, lintContext, prompt } = props;
  const router = useRouter();
  const host = useRef<HTMLDivElement>(null);
  const promptHost = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const promptEditorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const lintNowRef = useRef<(delayMs?: number) => void>(() => {});
  const formatRef = useRef<DocumentFormat>(initialFormat);
  /** Monaco's alternative version id of the text as last loaded or saved: undo back to it is clean. */
  const cleanVersionRef = useRef(0);

  const [format, setFormat] = useState<DocumentFormat>(initialFormat);
  const [live, setLive] = useState<Diagnostic[]>([]);
  const [status, setStatus] = useState<ProblemsPanelProps['status']>({ state: 'checking' });
  const [serverProblems, setServerProblems] = useState<Diagnostic[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);
  const [dirty, setDirty] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const [changeNote, setChangeNote] = useState('');
  const [shadowMode, setShadowMode] = useState(false);
  const [loadedVersion, setLoadedVersion] = useState(props.loadedVersion);
  const [history, setHistory] = useState<{ versions: readonly StudioVersion[]; servedVersion: string | null }>({ versions: props.versions, servedVersion: props.servedVersion });
  // Contracts only: the replay endpoint exists for contracts, not for policies or surfaces.
  const impact = useImpactPreview(apiBase);
  const markImpactEditedRef = useRef(impact.markEdited);

  const lintOptions = useCallback(
    (): LintOptions => ({ format: formatRef.current, contracts: lintContext?.contracts, previousVersion: lintContext?.previousVersion, ...(prompt ? { prompt: promptEditorRef.current?.getValue() ?? prompt.initialText } : {}) }),
    [lintContext, prompt],
  );

  // One model and editor for the page's lifetime; format switches change the model's language.
  useEffect(() => {
    if (!host.current) return;
    const uri = monaco.Uri.parse(`inmemory://toolgate/${kind}/${encodeURIComponent(documentId ?? 'new')}`);
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(initialText, initialFormat, uri);
    const editor = monaco.editor.create(host.current, {
      model,
      readOnly,
      readOnlyMessage: readOnlyReason ? { value: readOnlyReason } : undefined,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
      tabSize: 2,
      fixedOverflowWidgets: true,
      // YAML's plain scalars are tokenized as strings; keys typed there still need suggestions.
      quickSuggestions: { other: true, strings: true, comments: false },
      ariaLabel: `${kind} document`,
    });
    cleanVersionRef.current = model.getAlternativeVersionId();
    editorRef.current = editor;
    const detachSchema = attachSchema(uri.toString(), jsonSchema);

    const applyOutcome = (outcome: LintOutcome) => {
      if (!outcome.ok) {
        setStatus({ state: 'failed', message: outcome.message });
        return;
      }
      monaco.editor.setModelMarkers(model, MARKER_OWNER, outcome.diagnostics.filter((d) => d.target !== 'prompt').map(toMarker));
      const promptModel = promptEditorRef.current?.getModel();
      if (promptModel) monaco.editor.setModelMarkers(promptModel, MARKER_OWNER, outcome.diagnostics.filter((d) => d.target === 'prompt').map(toMarker));
      setLive(outcome.diagnostics);
      setStatus({ state: 'ready', millis: outcome.millis });
    };
    let port: LintPort;
    try {
      port = workerPort(new Worker(new URL('./lint.worker.ts', import.meta.url), { type: 'module', name: 'toolgate-lint' }));
    } catch (error) {
      port = failingPort(error instanceof Error ? error.message : String(error));
    }
    const linter = new LiveLinter(port, applyOutcome, LINT_DELAY_MS);
    lintNowRef.current = (delayMs?: number) => linter.schedule(kind, model.getValue(), lintOptions(), delayMs);
    lintNowRef.current(0);

    const changes = model.onDidChangeContent(() => {
      setDirty(model.getAlternativeVersionId() !== cleanVersionRef.current);
      setServerProblems([]);
      monaco.editor.setModelMarkers(model, SERVER_MARKER_OWNER, []);
      markImpactEditedRef.current();
      lintNowRef.current();
    });
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => document.getElementById('studio-save')?.click());
    return () => {
      changes.dispose();
      linter.dispose();
      detachSchema();
      editor.dispose();
      model.dispose();
      editorRef.current = null;
    };
    // The editor is created once per document; later prop changes arrive through a navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!prompt || !promptHost.current) return;
    const model = monaco.editor.createModel(prompt.initialText, 'plaintext');
    const editor = monaco.editor.create(promptHost.current, { model, readOnly, automaticLayout: true, minimap: { enabled: false }, wordWrap: 'on', fontSize: 13, ariaLabel: 'System prompt' });
    promptEditorRef.current = editor;
    const changes = model.onDidChangeContent(() => {
      setDirty(true);
      lintNowRef.current();
    });
    return () => {
      changes.dispose();
      editor.dispose();
      model.dispose();
      promptEditorRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!dirty || readOnly) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty, readOnly]);

  const problems = useMemo<StudioProblem[]>(() => [...serverProblems.map((d) => ({ ...d, source: 'server' as const })), ...live.map((d) => ({ ...d, source: 'live' as const }))], [live, serverProblems]);
  const liveErrors = live.filter((d) => d.severity === 'error').length;

  function reveal(problem: StudioProblem) {
    const editor = problem.target === 'prompt' ? promptEditorRef.current : editorRef.current;
    if (!editor) return;
    const position = { lineNumber: problem.range.startLine, column: problem.range.startColumn };
    editor.setPosition(position);
    editor.revealPositionInCenter(position);
    editor.focus();
  }

  function switchFormat(next: DocumentFormat) {
    const model = editorRef.current?.getModel();
    if (!model || next === formatRef.current) return;
    const converted = convertDocument(model.getValue(), formatRef.current, next);
    if (!converted.ok) {
      setNotice({ tone: 'error', text: `Fix the syntax error before switching to ${next.toUpperCase()}: ${converted.message}` });
      return;
    }
    formatRef.current = next;
    setFormat(next);
    monaco.editor.setModelLanguage(model, next);
    const wasDirty = dirty;
    model.setValue(converted.text);
    // The same document in another notation: as clean (or not) as it was.
    if (!wasDirty) cleanVersionRef.current = model.getAlternativeVersionId();
    setDirty(wasDirty);
    setNotice(null);
  }

  /** Reads the editor into a document for the API, or says why it cannot. */
  function readEditor(): { ok: true; value: Record<string, unknown>; textVersion: number } | { ok: false; message: string } {
    const model = editorRef.current?.getModel();
    const read = model ? readDocument(model.getValue(), formatRef.current) : { ok: false as const, message: 'The editor is not ready.' };
    if (!read.ok) return { ok: false, message: `the document does not parse. ${read.message}` };
    if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) return { ok: false, message: 'the document must be an object.' };
    const value = read.value as Record<string, unknown>;
    if (prompt) Object.defineProperty(value, prompt.field, { value: promptEditorRef.current?.getValue() ?? '', enumerable: true, writable: true, configurable: true });
    return { ok: true, value, textVersion: model?.getAlternativeVersionId() ?? 0 };
  }

  /** The editor's document for save and publish; when it cannot be read, the notice says why. */
  function currentDocument(): { ok: true; value: Record<string, unknown>; textVersion: number } | { ok: false } {
    const read = readEditor();
    if (!read.ok) setNotice({ tone: 'error', text: `Not saved: ${read.message}` });
    return read.ok ? read : { ok: false };
  }

  function previewImpact() {
    const read = readEditor();
    const draft: DraftRead = read.ok ? { ok: true, value: read.value } : { ok: false, message: read.message };
    void impact.run(draft);
  }

  function fail(action: string, failure: ApiFailure) {
    setServerProblems(failure.diagnostics);
    const model = editorRef.current?.getModel();
    if (model) monaco.editor.setModelMarkers(model, SERVER_MARKER_OWNER, failure.diagnostics.filter((d) => d.target !== 'prompt').map(toMarker));
    const hint = failure.status === 409 && failure.code === 'conflict' ? ' Change `version` to save your edits as a new version.' : '';
    setNotice({ tone: 'error', text: `${action} failed: ${failure.message}${hint}`, problems: failure.problems });
  }

  async function refreshHistory(id: string) {
    const list = await fetchVersions(apiBase, kind, id);
    if (list.ok) setHistory(list.value);
  }

  /** Saves the draft; resolves to the saved id and version, or null after showing why not. */
  async function save(): Promise<{ id: string; version: string } | null> {
    const doc = currentDocument();
    if (!doc.ok) return null;
    const saved = await saveDraft(apiBase, doc.value);
    if (!saved.ok) {
      fail('Saving', saved.failure);
      return null;
    }
    cleanVersionRef.current = doc.textVersion;
    setDirty(editorRef.current?.getModel()?.getAlternativeVersionId() !== doc.textVersion);
    return saved.value;
  }

  /**
   * After a save: another document (or a new one) opens its own page; the same document stays
   * in this editor, keeping its undo history, with the address naming the saved version.
   */
  function openSaved(id: string, version: string): boolean {
    if (id !== documentId) {
      router.replace(`${pageBase}/${encodeURIComponent(id)}?version=${encodeURIComponent(version)}`);
      return true;
    }
    if (version !== loadedVersion) {
      setLoadedVersion(version);
      window.history.replaceState(null, '', `${pageBase}/${encodeURIComponent(id)}?version=${encodeURIComponent(version)}`);
    }
    return false;
  }

  async function onSave() {
    setBusy('save');
    setNotice(null);
    try {
      const saved = await save();
      if (!saved) return;
      setNotice({ tone: 'success', text: `Saved draft v${saved.version}.` });
      if (!openSaved(saved.id, saved.version)) await refreshHistory(saved.id);
    } finally {
      setBusy(null);
    }
  }

  async function onPublish() {
    setBusy('publish');
    setNotice(null);
    try {
      const stored = history.versions.find((v) => v.version === documentVersion(currentDocumentValue()));
      // A published version is immutable: publishing it again only needs no save.
      const saved = dirty || !stored || stored.status === 'draft' || !documentId ? await save() : { id: documentId, version: stored.version };
      if (!saved) return;
      const mode = shadowMode && canShadow ? 'shadow' : 'enforce';
      const published = await publishVersion(apiBase, saved.id, saved.version, changeNote, mode);
      if (!published.ok) {
        fail(`Publishing v${saved.version}`, published.failure);
        return;
      }
      setPublishing(false);
      setChangeNote('');
      setShadowMode(false);
      setNotice({
        tone: 'success',
        text: mode === 'shadow' ? `Published v${saved.version} as shadow: it is evaluated and recorded beside the served version, and decides nothing.` : `Published v${saved.version}. The runtime now serves it.`,
      });
      if (!openSaved(saved.id, saved.version)) await refreshHistory(saved.id);
    } finally {
      setBusy(null);
    }
  }

  function currentDocumentValue(): unknown {
    const model = editorRef.current?.getModel();
    if (!model) return undefined;
    const read = readDocument(model.getValue(), formatRef.current);
    return read.ok ? read.value : undefined;
  }

  const loaded = history.versions.find((v) => v.version === loadedVersion);
  // A shadow version can still be promoted: publishing it again makes the runtime serve it.
  const frozen = loaded !== undefined && loaded.status !== 'draft' && loaded.status !== 'shadow' && !dirty;
  const canShadow = (kind === 'contract' || kind === 'policy') && loaded?.status !== 'shadow';
  const publishBlocked = liveErrors > 0 ? 'Fix the errors in the problems panel first' : frozen ? `v${loaded.version} is already ${loaded.status}: change \`version\` to publish a new one` : undefined;

  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3 text-sm">
          <div role="group" aria-label="Format" className="inline-flex overflow-hidden rounded-md border border-zinc-300">
            {(['json', 'yaml'] as const).map((f) => (
              <button key={f} type="button" aria-pressed={format === f} onClick={() => switchFormat(f)} className={`px-3 py-1.5 text-xs font-medium ${format === f ? 'bg-zinc-900 text-white' : 'bg-white text-zinc-700 hover:bg-zinc-100'}`}>
                {f.toUpperCase()}
              </button>
            ))}
          </div>
          {loaded && (
            <span className="text-zinc-600">
              Editing <span className="font-mono">v{loaded.version}</span> ({loaded.status}
              {loaded.status !== 'draft' && !readOnly ? ': immutable, change `version` to save a new draft' : ''})
            </span>
          )}
          {dirty && !readOnly && <span className="text-xs text-amber-700">Unsaved changes</span>}
        </div>
        <div className="flex gap-2">
          {/* Viewers too: the replay reads recorded calls and changes nothing (session `read`). */}
          {kind === 'contract' && <ImpactPreviewButton state={impact.state} onRun={previewImpact} />}
          {!readOnly && (
            <>
              <button id="studio-save" type="button" className="btn-secondary" onClick={() => void onSave()} disabled={busy !== null}>
                {busy === 'save' ? 'Saving…' : 'Save draft'}
              </button>
              <button
                type="button"
                className="btn-primary py-1.5"
                onClick={() => setPublishing(true)}
                disabled={busy !== null || publishBlocked !== undefined}
                title={publishBlocked}
              >
                Publish…
              </button>
            </>
          )}
        </div>
      </div>

      {readOnly && <p className="card mb-3 p-3 text-sm text-zinc-600" data-testid="read-only-notice">{readOnlyReason ?? 'This editor is read-only.'}</p>}

      {publishing && !readOnly && (
        <form
          className="card mb-3 flex flex-wrap items-end gap-3 p-4"
          aria-label="Publish"
          onSubmit={(event) => {
            event.preventDefault();
            void onPublish();
          }}
        >
          <label className="min-w-64 flex-1 text-sm">
            <span className="mb-1 block font-medium">Change note</span>
            <input className="input" value={changeNote} maxLength={2000} onChange={(e) => setChangeNote(e.target.value)} placeholder="What changed, for the people who review it later" autoFocus />
          </label>
          {canShadow && (
            <label className="flex items-center gap-2 text-sm" title="Evaluate this version on every call and record what it would decide, beside the served version, without letting it decide anything.">
              <input type="checkbox" checked={shadowMode} onChange={(e) => setShadowMode(e.target.checked)} data-testid="publish-shadow" />
              Shadow (record only)
            </label>
          )}
          <button type="submit" className="btn-primary" disabled={busy !== null || liveErrors > 0}>
            {busy === 'publish' ? 'Publishing…' : loaded?.status === 'shadow' && !dirty ? 'Promote to served' : shadowMode && canShadow ? 'Publish as shadow' : 'Publish version'}
          </button>
          <button type="button" className="btn-secondary py-2" onClick={() => setPublishing(false)}>Cancel</button>
          <p className="w-full text-xs text-zinc-500">
            {shadowMode && canShadow
              ? 'A shadow version is frozen and evaluated on every call beside the served one; its would-be decisions are recorded, and the traces page shows where they differ. Promote it later by publishing it again.'
              : 'Publishing saves the draft, freezes this version and makes the runtime serve it.'}
          </p>
        </form>
      )}

      {notice && (
        <div role={notice.tone === 'error' ? 'alert' : 'status'} className={`mb-3 rounded-md border px-4 py-2 text-sm ${notice.tone === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-emerald-200 bg-emerald-50 text-emerald-800'}`}>
          {notice.text}
          {notice.problems && notice.problems.length > 0 && (
            <ul className="mt-1 list-disc pl-5">{notice.problems.map((p) => <li key={p}>{p}</li>)}</ul>
          )}
        </div>
      )}

      <div className={prompt ? 'grid grid-cols-1 gap-3 lg:grid-cols-2' : undefined}>
        <div ref={host} data-testid="studio-editor" className="h-[60vh] min-h-80 w-full overflow-hidden rounded-md border border-zinc-200 bg-white" />
        {prompt && (
          <div>
            <p className="mb-1 text-xs font-medium uppercase text-zinc-500">System prompt</p>
            <div ref={promptHost} data-testid="studio-prompt-editor" className="h-[calc(60vh-1.25rem)] min-h-80 w-full overflow-hidden rounded-md border border-zinc-200 bg-white" />
          </div>
        )}
      </div>

      <ProblemsPanel problems={problems} status={status} onSelect={reveal} />

      {kind === 'contract' && <ImpactPreviewPanel state={impact.state} onRun={previewImpact} onClose={impact.close} />}

      {documentId && (
        <VersionHistory
          key={history.versions.map((v) => `${v.version}:${v.status}`).join(',')}
          apiBase={apiBase}
          pageBase={pageBase}
          documentId={documentId}
          versions={history.versions}
          servedVersion={history.servedVersion}
          loadedVersion={loadedVersion}
          format={format}
          jsonSchema={jsonSchema}
        />
      )}
    </div>
  );
}
