'use client';

import '@/components/zod-without-eval';

import dynamic from 'next/dynamic';
import { Component, type ReactNode } from 'react';
import type { StudioEditorProps } from './types';

function EditorPlaceholder({ children }: { children?: ReactNode }) {
  return (
    <div
      className="flex h-[60vh] min-h-80 items-center justify-center rounded-md border border-zinc-200 bg-white text-sm text-zinc-500"
      data-testid="studio-loading"
    >
      {children ?? 'Loading the editor…'}
    </div>
  );
}

// Monaco needs `window` while it loads, so the editor is rendered in the browser only.
const DocumentStudio = dynamic(() => import('./document-studio'), { ssr: false, loading: () => <EditorPlaceholder /> });

class EditorErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (this.state.error) {
      return (
        <EditorPlaceholder>
          <span role="alert" className="text-red-700">
            The editor failed to load: {this.state.error.message}. Reload the page to try again.
          </span>
        </EditorPlaceholder>
      );
    }
    return this.props.children;
  }
}

/**
 * The studio editor for contracts, policies and surfaces: Monaco (bundled, no CDN) with live
 * diagnostics from the linter in a web worker, a problems panel, save draft, publish, version
 * history and a diff of any two versions. See `StudioEditorProps` for what a page passes in.
 */
export function StudioEditor(props: StudioEditorProps) {
  return (
    <EditorErrorBoundary>
      <DocumentStudio {...props} />
    </EditorErrorBoundary>
  );
}
