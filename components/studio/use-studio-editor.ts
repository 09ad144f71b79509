'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DocumentSource } from '@/lib/documents/document-source';
import type { Diagnostic, DocumentFormat, LintOptions } from '@/lib/lint';
import { withEmbeddedJsonSchemas } from '@/lib/studio/json-schema-keywords';
import { convertDocument, readDocument } from './document-format';
import { failingPort, LiveLinter, workerPort, type LintOutcome, type LintPort } from './live-linter';
import { MARKER_OWNER, SERVER_MARKER_OWNER, toMarker } from './markers';
import { attachSchema, monaco } from './monaco-setup';
import type { ProblemsPanelProps } from './problems-panel';
import { registerQuickFixes, type LintedState } from './quick-fix-actions';
import type { StudioEditorProps, StudioProblem } from './types';

/**
 * Pause after a keystroke before linting. Short, because the linter never queues: while the
 * worker is busy only the newest text waits, so the pause merely merges a burst of keys, and
 * what a 2,000-line document costs is the lint itself (budget: 150 ms, keystroke to underline).
 */
const LINT_DELAY_MS = 10;

/**
 * The editor's text read as a document for the API, or why it cannot be. `source`: the text as
 * written, saved beside the document (absent when the prompt pane overrides a member the text
 * also holds, so the two would not read alike).
 */
export type EditorRead =
  { ok: true; value: Record<string, unknown>; textVersion: number; source?: DocumentSource } | { ok: false; message: string };

/**
 * The studio's Monaco editors (the document, and a surface's system prompt beside it) with
 * their live lint, the server's problems from the last failed save or publish, the notation
 * (JSON or YAML), and whether the text differs from the one last loaded or saved. `onEdit`
 * runs on every edit of the document.
 */
export function useStudioEditor(props: StudioEditorProps, onEdit: () => void) {
  const { kind, documentId, initialText, initialFormat, readOnly, readOnlyReason, jsonSchema, lintContext, prompt } = props;
  const host = useRef<HTMLDivElement>(null);
  const promptHost = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const promptEditorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const lintNowRef = useRef<(delayMs?: number) => void>(() => {});
  const formatRef = useRef<DocumentFormat>(initialFormat);
  /** Monaco's alternative version id of the text as last loaded or saved: undo back to it is clean. */
  const cleanVersionRef = useRef(0);
  const onEditRef = useRef(onEdit);
  /** The diagnostics of the last lint and the model version they were computed on (quick fixes). */
  const lintedRef = useRef<LintedState | undefined>(undefined);

  const [format, setFormat] = useState<DocumentFormat>(initialFormat);
  const [live, setLive] = useState<Diagnostic[]>([]);
  const [status, setStatus] = useState<ProblemsPanelProps['status']>({ state: 'checking' });
  const [serverProblems, setServerProblems] = useState<Diagnostic[]>([]);
  const [dirty, setDirty] = useState(false);

  const lintOptions = useCallback(
    (): LintOptions => ({
      format: formatRef.current,
      contracts: lintContext?.contracts,
      previousVersion: lintContext?.previousVersion,
      ...(prompt ? { prompt: promptEditorRef.current?.getValue() ?? prompt.initialText } : {}),
    }),
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
      // Hovers and suggestions are drawn outside the editor's box (position: fixed), so a hover
      // near the top is not cut off by the editor's edge or covered by the sticky-scroll header;
      // below the line first, where the sticky header never is.
      fixedOverflowWidgets: true,
      hover: { above: false },
      stickyScroll: { enabled: true, maxLineCount: 3 },
      // YAML's plain scalars are tokenized as strings; keys typed there still need suggestions.
      quickSuggestions: { other: true, strings: true, comments: false },
      ariaLabel: `${kind} document`,
    });
    cleanVersionRef.current = model.getAlternativeVersionId();
    editorRef.current = editor;
    // JSON Schema keywords complete and explain themselves inside the schemas a document carries.
    const detachSchema = attachSchema(uri.toString(), jsonSchema && withEmbeddedJsonSchemas(jsonSchema).schema);
    const lintedVersions = new Map<number, number>();
    const quickFixes = registerQuickFixes(model, () => lintedRef.current);

    const applyOutcome = (outcome: LintOutcome) => {
      if (!outcome.ok) {
        setStatus({ state: 'failed', message: outcome.message });
        return;
      }
      const versionId = lintedVersions.get(outcome.id);
      for (const id of lintedVersions.keys()) if (id <= outcome.id) lintedVersions.delete(id);
      lintedRef.current =
        versionId === undefined
          ? undefined
          : { versionId, diagnostics: outcome.diagnostics, format: formatRef.current, previousVersion: lintContext?.previousVersion };
      monaco.editor.setModelMarkers(model, MARKER_OWNER, outcome.diagnostics.filter((d) => d.target !== 'prompt').map(toMarker));
      const promptModel = promptEditorRef.current?.getModel();
      if (promptModel)
        monaco.editor.setModelMarkers(promptModel, MARKER_OWNER, outcome.diagnostics.filter((d) => d.target === 'prompt').map(toMarker));
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
    lintNowRef.current = (delayMs?: number) => {
      lintedVersions.set(linter.schedule(kind, model.getValue(), lintOptions(), delayMs), model.getVersionId());
    };
    lintNowRef.current(0);

    const changes = model.onDidChangeContent(() => {
      setDirty(model.getAlternativeVersionId() !== cleanVersionRef.current);
      setServerProblems([]);
      monaco.editor.setModelMarkers(model, SERVER_MARKER_OWNER, []);
      onEditRef.current();
      lintNowRef.current();
    });
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => document.getElementById('studio-save')?.click());
    return () => {
      changes.dispose();
      linter.dispose();
      quickFixes.dispose();
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
    const editor = monaco.editor.create(promptHost.current, {
      model,
      readOnly,
      automaticLayout: true,
      minimap: { enabled: false },
      wordWrap: 'on',
      fontSize: 13,
      ariaLabel: 'System prompt',
    });
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

  const problems = useMemo<StudioProblem[]>(
    () => [...serverProblems.map((d) => ({ ...d, source: 'server' as const })), ...live.map((d) => ({ ...d, source: 'live' as const }))],
    [live, serverProblems],
  );
  const liveErrors = live.filter((d) => d.severity === 'error').length;

  function reveal(problem: StudioProblem) {
    const editor = problem.target === 'prompt' ? promptEditorRef.current : editorRef.current;
    if (!editor) return;
    const position = { lineNumber: problem.range.startLine, column: problem.range.startColumn };
    editor.setPosition(position);
    editor.revealPositionInCenter(position);
    editor.focus();
  }

  /**
   * The same document in the other notation. Null when there is nothing to switch; not ok, with
   * the parser's message, when the text does not parse.
   */
  function switchFormat(next: DocumentFormat): { ok: true } | { ok: false; message: string } | null {
    const model = editorRef.current?.getModel();
    if (!model || next === formatRef.current) return null;
    const converted = convertDocument(model.getValue(), formatRef.current, next);
    if (!converted.ok) return { ok: false, message: converted.message };
    formatRef.current = next;
    setFormat(next);
    monaco.editor.setModelLanguage(model, next);
    const wasDirty = dirty;
    model.setValue(converted.text);
    // The same document in another notation: as clean (or not) as it was.
    if (!wasDirty) cleanVersionRef.current = model.getAlternativeVersionId();
    setDirty(wasDirty);
    return { ok: true };
  }

  /** Reads the editor into a document for the API, or says why it cannot. */
  function readEditor(): EditorRead {
    const model = editorRef.current?.getModel();
    const read = model ? readDocument(model.getValue(), formatRef.current) : { ok: false as const, message: 'The editor is not ready.' };
    if (!read.ok) return { ok: false, message: `the document does not parse. ${read.message}` };
    if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value))
      return { ok: false, message: 'the document must be an object.' };
    const value = read.value as Record<string, unknown>;
    const overridden = prompt !== undefined && Object.prototype.hasOwnProperty.call(value, prompt.field);
    if (prompt)
      Object.defineProperty(value, prompt.field, {
        value: promptEditorRef.current?.getValue() ?? '',
        enumerable: true,
        writable: true,
        configurable: true,
      });
    const source = overridden || !model ? undefined : { format: formatRef.current, text: model.getValue() };
    return { ok: true, value, textVersion: model?.getAlternativeVersionId() ?? 0, ...(source ? { source } : {}) };
  }

  /** The editor's text parsed, whatever it holds; undefined when it does not parse. */
  function currentDocumentValue(): unknown {
    const model = editorRef.current?.getModel();
    if (!model) return undefined;
    const read = readDocument(model.getValue(), formatRef.current);
    return read.ok ? read.value : undefined;
  }

  /** Shows what the server refused, in the problems panel and underlined, until the next edit. */
  function showServerProblems(diagnostics: Diagnostic[]) {
    setServerProblems(diagnostics);
    const model = editorRef.current?.getModel();
    if (model) monaco.editor.setModelMarkers(model, SERVER_MARKER_OWNER, diagnostics.filter((d) => d.target !== 'prompt').map(toMarker));
  }

  /** The text as of `textVersion` is saved: undo back to it is clean. */
  function markSaved(textVersion: number) {
    cleanVersionRef.current = textVersion;
    setDirty(editorRef.current?.getModel()?.getAlternativeVersionId() !== textVersion);
  }

  // The hosts apart from the rest: react-hooks/refs treats every member of an object holding a
  // ref as a ref, and would refuse the rest during render.
  return {
    host,
    promptHost,
    editor: {
      format,
      dirty,
      status,
      problems,
      liveErrors,
      reveal,
      switchFormat,
      readEditor,
      currentDocumentValue,
      showServerProblems,
      markSaved,
    },
  };
}

export type StudioEditorState = ReturnType<typeof useStudioEditor>['editor'];
