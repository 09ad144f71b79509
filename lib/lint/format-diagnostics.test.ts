import { describe, expect, it } from 'vitest';
import {
  formatDiagnosticLine,
  formatDiagnosticsJson,
  formatDiagnosticsText,
  formatSummary,
  printable,
  type FileDiagnostic,
} from './format-diagnostics';

const range = (startLine: number, startColumn: number, endLine: number, endColumn: number) => ({
  startLine,
  startColumn,
  endLine,
  endColumn,
});
const error: FileDiagnostic = {
  file: 'contracts/a.json',
  code: 'DOCUMENT_PARSE_ERROR',
  severity: 'error',
  message: 'JSON syntax: bad',
  path: '$',
  range: range(3, 5, 3, 6),
  target: 'document',
};
const warning: FileDiagnostic = {
  ...error,
  code: 'CONTRACT_X',
  severity: 'warning',
  message: 'careful',
  path: '$.input',
  range: range(7, 2, 7, 9),
};
const prompt: FileDiagnostic = {
  file: 's.yaml',
  code: 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
  severity: 'warning',
  message: 'unknown',
  path: '$.system',
  range: range(2, 6, 2, 9),
  target: 'prompt',
  promptAt: range(10, 8, 10, 11),
};

describe('formatDiagnosticLine', () => {
  it('writes file:line:col severity CODE message, like a compiler', () => {
    expect(formatDiagnosticLine(error)).toBe('contracts/a.json:3:5 error DOCUMENT_PARSE_ERROR JSON syntax: bad');
    expect(formatDiagnosticLine(warning)).toBe('contracts/a.json:7:2 warning CONTRACT_X careful');
  });

  it('points a prompt finding at its place in the file and names its place in the prompt', () => {
    expect(formatDiagnosticLine(prompt)).toBe(
      's.yaml:10:8 warning TOOL_SURFACE_UNKNOWN_PROMPT_TOOL unknown (system prompt, line 2, column 6)',
    );
    expect(formatDiagnosticLine({ ...prompt, promptAt: undefined })).toBe(
      's.yaml:1:1 warning TOOL_SURFACE_UNKNOWN_PROMPT_TOOL unknown (system prompt, line 2, column 6)',
    );
  });

  it('never lets document text steer the terminal or break the one-line format', () => {
    const hostile = { ...error, message: 'key "\u001b[2J\u001b]0;owned\u0007" line\nbreak \u202Eevil' };
    expect(formatDiagnosticLine(hostile)).toBe(
      'contracts/a.json:3:5 error DOCUMENT_PARSE_ERROR key "\\u001b[2J\\u001b]0;owned\\u0007" line break \\u202eevil',
    );
    expect(printable('plain äöü 日本 ✓')).toBe('plain äöü 日本 ✓');
  });
});

describe('formatDiagnosticsText and formatSummary', () => {
  it('prints one line per diagnostic in the order given', () => {
    expect(formatDiagnosticsText([error, warning]).split('\n')).toEqual([formatDiagnosticLine(error), formatDiagnosticLine(warning)]);
    expect(formatDiagnosticsText([])).toBe('');
  });

  it('counts by severity and files', () => {
    expect(formatSummary([error, warning, { ...warning }], 2)).toBe('1 error, 2 warnings in 2 files.');
    expect(formatSummary([{ ...warning, severity: 'info' }], 1)).toBe('1 note in 1 file.');
    expect(formatSummary([], 3)).toBe('No problems in 3 files.');
  });
});

describe('formatDiagnosticsJson', () => {
  it('writes one array of {file, ...diagnostic}, without the CLI-only prompt placement', () => {
    expect(JSON.parse(formatDiagnosticsJson([error, prompt]))).toEqual([
      {
        file: 'contracts/a.json',
        code: 'DOCUMENT_PARSE_ERROR',
        severity: 'error',
        message: 'JSON syntax: bad',
        path: '$',
        range: range(3, 5, 3, 6),
        target: 'document',
      },
      {
        file: 's.yaml',
        code: 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
        severity: 'warning',
        message: 'unknown',
        path: '$.system',
        range: range(2, 6, 2, 9),
        target: 'prompt',
      },
    ]);
    expect(formatDiagnosticsJson([])).toBe('[]');
  });
});
