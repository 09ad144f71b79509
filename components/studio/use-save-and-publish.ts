'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { expectedDraftHash } from './draft-base';
import { documentIdOf, documentVersion } from './markers';
import { fetchVersions, publishVersion, saveDraft, type ApiFailure } from './studio-api';
import { leaveFlash, takeFlash } from './studio-flash';
import type { Notice } from './studio-notice';
import type { StudioEditorProps, StudioVersion } from './types';
import type { StudioEditorState } from './use-studio-editor';

/**
 * Save draft and publish for the studio: the version the editor holds, the stored versions
 * beside it, the publish form's fields, and the notice that reports how the last action went.
 */
export function useSaveAndPublish(props: StudioEditorProps, editor: StudioEditorState) {
  const { kind, apiBase, pageBase, documentId } = props;
  const router = useRouter();
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [changeNote, setChangeNote] = useState('');
  const [shadowMode, setShadowMode] = useState(false);
  const [loadedVersion, setLoadedVersion] = useState(props.loadedVersion);
  const [history, setHistory] = useState<{ versions: readonly StudioVersion[]; servedVersion: string | null }>({
    versions: props.versions,
    servedVersion: props.servedVersion,
  });
  // The stored text this editor's work is based on: the draft as loaded, then as this editor last
  // saved it. A save or publish names it, so another tab's or author's newer save is not lost.
  const [base, setBase] = useState<{ version: string; contentHash: string } | null>(() => {
    const loaded = props.versions.find((v) => v.version === props.loadedVersion);
    return loaded ? { version: loaded.version, contentHash: loaded.contentHash } : null;
  });

  // A save or publish on another page (a "new" one) that opened this one says how it went here.
  useEffect(() => {
    if (!documentId) return;
    const flash = takeFlash(`${pageBase}/${documentId}`);
    // Read once, after the page has rendered: sessionStorage exists only in the browser.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (flash) setNotice(flash);
  }, [documentId, pageBase]);

  const loaded = history.versions.find((v) => v.version === loadedVersion);
  // A shadow version can still be promoted: publishing it again makes the runtime serve it.
  const frozen = loaded !== undefined && loaded.status !== 'draft' && loaded.status !== 'shadow' && !editor.dirty;
  const canShadow = (kind === 'contract' || kind === 'policy') && loaded?.status !== 'shadow';
  const publishBlocked =
    editor.liveErrors > 0
      ? 'Fix the errors in the problems panel first'
      : frozen
        ? `v${loaded.version} is already ${loaded.status}: change \`version\` to publish a new one`
        : undefined;

  /** The editor's document for save and publish; when it cannot be read, the notice says why. */
  function currentDocument(): ReturnType<StudioEditorState['readEditor']> {
    const read = editor.readEditor();
    if (!read.ok) setNotice({ tone: 'error', text: `Not saved: ${read.message}` });
    return read;
  }

  function fail(action: string, failure: ApiFailure) {
    editor.showServerProblems(failure.diagnostics);
    const hint = failure.status === 409 && failure.code === 'conflict' ? ' Change `version` to save your edits as a new version.' : '';
    setNotice({ tone: 'error', text: `${action} failed: ${failure.message}${hint}`, problems: failure.problems });
  }

  async function refreshHistory(id: string) {
    const list = await fetchVersions(apiBase, kind, id);
    if (list.ok) setHistory(list.value);
  }

  /** Saves the draft; resolves to the saved id, version and content hash, or null after showing why not. */
  async function save(): Promise<{ id: string; version: string; contentHash?: string } | null> {
    const doc = currentDocument();
    if (!doc.ok) return null;
    const expected = expectedDraftHash({
      openedId: documentId,
      id: documentIdOf(doc.value),
      version: documentVersion(doc.value),
      base,
      versions: history.versions,
    });
    const saved = await saveDraft(apiBase, doc.value, doc.source, expected);
    if (!saved.ok) {
      fail('Saving', saved.failure);
      return null;
    }
    editor.markSaved(doc.textVersion);
    setBase({ version: saved.value.version, contentHash: saved.value.contentHash });
    return saved.value;
  }

  /**
   * After a save: another document (or a new one) opens its own page; the same document stays
   * in this editor, keeping its undo history, with the address naming the saved version.
   */
  function openSaved(id: string, version: string, done: NonNullable<Notice>): boolean {
    setNotice(done);
    if (id !== documentId) {
      leaveFlash(`${pageBase}/${id}`, done);
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
      if (!openSaved(saved.id, saved.version, { tone: 'success', text: `Saved draft ${saved.version}` })) await refreshHistory(saved.id);
    } finally {
      setBusy(null);
    }
  }

  async function onPublish() {
    setBusy('publish');
    setNotice(null);
    try {
      const stored = history.versions.find((v) => v.version === documentVersion(editor.currentDocumentValue()));
      // A published version is immutable: publishing it again only needs no save.
      const saved =
        editor.dirty || !stored || stored.status === 'draft' || !documentId ? await save() : { id: documentId, version: stored.version };
      if (!saved) return;
      const mode = shadowMode && canShadow ? 'shadow' : 'enforce';
      const published = await publishVersion(apiBase, saved.id, saved.version, changeNote, mode, saved.contentHash ?? stored?.contentHash);
      if (!published.ok) {
        fail(`Publishing v${saved.version}`, published.failure);
        return;
      }
      setPublishing(false);
      setChangeNote('');
      setShadowMode(false);
      const text =
        mode === 'shadow'
          ? `Published ${saved.version} (shadow): evaluated and recorded beside the served version, deciding nothing`
          : kind === 'surface'
            ? `Published ${saved.version}: the runtime now serves it`
            : `Published ${saved.version} (enforced): the runtime now serves it`;
      if (!openSaved(saved.id, saved.version, { tone: 'success', text })) await refreshHistory(saved.id);
    } finally {
      setBusy(null);
    }
  }

  return {
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
  };
}
