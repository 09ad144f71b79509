// Monaco's base worker (diffs, word ranges), bundled from npm as its own entry: no CDN.
import 'monaco-editor/editor/editor.worker';
