'use client';

import Link from 'next/link';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { DocumentFormat } from '@/lib/lint/types';
import { formatDate } from '@/components/format-date';
import { StatusBadge } from '@/components/status-badge';
import { DiffView } from './diff-view';
import { formatDocument, orderLikeSchema } from './document-format';
import { fetchVersionDocument } from './studio-api';
import type { StudioVersion } from './types';

export interface VersionHistoryProps {
  apiBase: string;
  pageBase: string;
  documentId: string;
  versions: readonly StudioVersion[];
  servedVersion: string | null;
  loadedVersion?: string;
  format: DocumentFormat;
  /** Orders members as the format lists them, as the editor shows them. */
  jsonSchema?: Record<string, unknown>;
}

type Comparison =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; left: string; right: string; original: string; modified: string };

/** Every stored version, which one the runtime serves, and a diff of any two. */
export function VersionHistory({
  apiBase,
  pageBase,
  documentId,
  versions,
  servedVersion,
  loadedVersion,
  format,
  jsonSchema,
}: VersionHistoryProps) {
  const [left, setLeft] = useState(versions[1]?.version ?? versions[0]?.version ?? '');
  const [right, setRight] = useState(versions[0]?.version ?? '');
  const [comparison, setComparison] = useState<Comparison>({ state: 'idle' });

  async function compare() {
    setComparison({ state: 'loading' });
    const [a, b] = await Promise.all([fetchVersionDocument(apiBase, documentId, left), fetchVersionDocument(apiBase, documentId, right)]);
    if (!a.ok || !b.ok) {
      const failure = !a.ok ? a.failure : !b.ok ? b.failure : undefined;
      setComparison({ state: 'failed', message: failure?.message ?? 'The versions could not be loaded.' });
      return;
    }
    setComparison({
      state: 'ready',
      left,
      right,
      original: formatDocument(orderLikeSchema(a.value, jsonSchema), format),
      modified: formatDocument(orderLikeSchema(b.value, jsonSchema), format),
    });
  }

  return (
    <section aria-label="Version history" className="card shrink-0 p-4">
      <h2 className="text-base font-semibold">Version history</h2>
      <p className="mt-1 text-sm text-zinc-600">
        {servedVersion ? (
          <>
            The runtime serves{' '}
            <span className="font-mono font-medium text-zinc-900" data-testid="served-version">
              v{servedVersion}
            </span>{' '}
            when a call does not pin a version.
          </>
        ) : (
          <span className="text-amber-700">Not served yet: publish a version to make the runtime use it.</span>
        )}
      </p>
      {versions.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-500">No saved versions yet.</p>
      ) : (
        // A list, not a table: the history sits in a narrow side panel, where five columns ran
        // their headers together and pushed "Open" out of sight.
        <ul className="mt-3 divide-y divide-zinc-100 text-sm">
          {versions.map((v) => (
            <li key={v.version} className="py-2" data-testid="version-row">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-mono [overflow-wrap:anywhere]">{v.version}</span>
                {v.version === servedVersion && (
                  <span className="rounded bg-zinc-900 px-1.5 py-0.5 font-sans text-[10px] font-medium text-white uppercase">served</span>
                )}
                <StatusBadge status={v.status} />
                <span className="ml-auto">
                  {v.version === loadedVersion ? (
                    <span className="text-xs text-zinc-500">in the editor</span>
                  ) : (
                    <Link
                      className="text-sm font-medium text-brand hover:underline"
                      href={`${pageBase}/${encodeURIComponent(documentId)}?version=${encodeURIComponent(v.version)}`}
                    >
                      Open
                    </Link>
                  )}
                </span>
              </div>
              <p className="mt-0.5 text-xs [overflow-wrap:anywhere] text-zinc-600">
                {v.publishedAt ? (
                  <span title={v.publishedAt}>Published {formatDate(new Date(v.publishedAt))}</span>
                ) : (
                  <span>Not published</span>
                )}
                {v.changeNote ? <> · {v.changeNote}</> : null}
              </p>
            </li>
          ))}
        </ul>
      )}
      {versions.length >= 2 && (
        <div className="mt-5">
          <h3 className="text-sm font-semibold">Compare versions</h3>
          <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
            <label className="flex items-center gap-1">
              From
              <select
                aria-label="Compare from version"
                className="input w-auto py-1"
                value={left}
                onChange={(e) => setLeft(e.target.value)}
              >
                {versions.map((v) => (
                  <option key={v.version} value={v.version}>
                    {v.version}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-1">
              to
              <select
                aria-label="Compare to version"
                className="input w-auto py-1"
                value={right}
                onChange={(e) => setRight(e.target.value)}
              >
                {versions.map((v) => (
                  <option key={v.version} value={v.version}>
                    {v.version}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => void compare()}
              disabled={comparison.state === 'loading' || left === right}
            >
              {comparison.state === 'loading' ? 'Loading…' : 'Show diff'}
            </button>
          </div>
          {comparison.state === 'failed' && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {comparison.message}
            </p>
          )}
          {comparison.state === 'ready' && (
            <DiffDialog title={`Changes from ${comparison.left} to ${comparison.right}`} onClose={() => setComparison({ state: 'idle' })}>
              <p className="mb-1 flex justify-between font-mono text-xs text-zinc-500">
                <span>v{comparison.left}</span>
                <span>v{comparison.right}</span>
              </p>
              <DiffView
                original={comparison.original}
                modified={comparison.modified}
                language={format}
                label={`Changes from ${comparison.left} to ${comparison.right}`}
              />
            </DiffDialog>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The diff over the page, as wide as the window: the history sits in a narrow panel, and a
 * side-by-side diff needs the room. A modal <dialog> keeps focus inside and closes on Escape.
 */
function DiffDialog({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-label={title}
      onClose={onClose}
      className="m-auto w-[min(96vw,1400px)] rounded-lg border border-zinc-200 bg-white p-4 shadow-xl backdrop:bg-zinc-900/30"
    >
      <div className="mb-2 flex items-center justify-between gap-3">
        <h3 className="text-sm font-semibold">{title}</h3>
        <button type="button" className="btn-secondary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {children}
    </dialog>
  );
}
