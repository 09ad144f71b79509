// Monaco's JSON language service (completions and hover docs from the JSON Schema).
import 'monaco-editor/languages/features/json/json.worker';
