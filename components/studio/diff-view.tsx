'use client';

import { useEffect, useRef } from 'react';
import { monaco } from './monaco-setup';

/** Monaco's side-by-side diff of two texts, read-only. */
export function DiffView({ original, modified, language, label }: { original: string; modified: string; language: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const left = monaco.editor.createModel(original, language);
    const right = monaco.editor.createModel(modified, language);
    const diff = monaco.editor.createDiffEditor(host.current, {
      readOnly: true,
      originalEditable: false,
      renderSideBySide: true,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
      ariaLabel: label,
    });
    diff.setModel({ original: left, modified: right });
    return () => {
      diff.dispose();
      left.dispose();
      right.dispose();
    };
  }, [original, modified, language, label]);
  return (
    <div ref={host} data-testid="version-diff" className="h-[min(70vh,40rem)] w-full overflow-hidden rounded-md border border-zinc-200" />
  );
}
