import type { Diagnostic, DocumentFormat } from '@/lib/lint/types';
import { hasQuickFix, quickFixes } from '@/lib/studio/quick-fixes';
import { toMarker } from './markers';
import { monaco } from './monaco-setup';

/** What the quick fixes read: the diagnostics of the model version they were linted on. */
export interface LintedState {
  versionId: number;
  diagnostics: readonly Diagnostic[];
  format: DocumentFormat;
  previousVersion?: string;
}

const sameRange = (a: monaco.editor.IMarkerData, b: monaco.editor.IMarkerData) =>
  a.startLineNumber === b.startLineNumber &&
  a.startColumn === b.startColumn &&
  a.endLineNumber === b.endLineNumber &&
  a.endColumn === b.endColumn;

/**
 * Offers lib/studio/quick-fixes.ts as Monaco code actions (the light bulb, Ctrl+.) on the
 * document's markers. Only for the text the diagnostics were computed on: after an edit the
 * next lint answers first, since a fix built on stale ranges would edit the wrong place.
 */
export function registerQuickFixes(model: monaco.editor.ITextModel, linted: () => LintedState | undefined): monaco.IDisposable {
  return monaco.languages.registerCodeActionProvider(
    ['json', 'yaml'],
    {
      provideCodeActions(target, _range, context) {
        const none = { actions: [], dispose() {} };
        const state = linted();
        if (target !== model || !state || state.versionId !== model.getVersionId()) return none;
        const actions: monaco.languages.CodeAction[] = [];
        for (const marker of context.markers) {
          if (typeof marker.code !== 'string' || !hasQuickFix(marker.code)) continue;
          const diagnostic = state.diagnostics.find(
            (d) => d.code === marker.code && d.target !== 'prompt' && sameRange(toMarker(d), marker),
          );
          if (!diagnostic) continue;
          const fixes = quickFixes({ text: model.getValue(), format: state.format, diagnostic, previousVersion: state.previousVersion });
          for (const fix of fixes) {
            actions.push({
              title: fix.title,
              kind: 'quickfix',
              diagnostics: [marker],
              isPreferred: fix.preferred,
              edit: {
                edits: fix.edits.map((edit) => ({
                  resource: model.uri,
                  versionId: model.getVersionId(),
                  textEdit: {
                    range: new monaco.Range(edit.range.startLine, edit.range.startColumn, edit.range.endLine, edit.range.endColumn),
                    text: edit.text,
                  },
                })),
              },
            });
          }
        }
        return { actions, dispose() {} };
      },
    },
    { providedCodeActionKinds: ['quickfix'] },
  );
}
