import { fileRange, fullMessage, type FileDiagnostic } from './format-diagnostics';
import type { Severity, SourceRange } from './types';

/**
 * Diagnostics as a SARIF 2.1.0 log, the format code-scanning services (GitHub's among them)
 * ingest: one run, the tool `toolgate` with a rule per code seen, a result per diagnostic.
 * Our ranges already follow SARIF's text-region convention (1-based lines and columns, end
 * column exclusive, columns counted in UTF-16 code units like JavaScript strings).
 */

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface SarifLocation {
  physicalLocation: { artifactLocation: { uri: string }; region?: SarifRegion };
}

export interface SarifRule {
  id: string;
  shortDescription: { text: string };
  defaultConfiguration: { level: SarifLevel };
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: SarifLocation[];
  properties: { jsonPath: string; target: 'document' | 'prompt' };
}

export interface SarifNotification {
  level: 'error';
  message: { text: string };
  locations: SarifLocation[];
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: {
    tool: { driver: { name: 'toolgate'; version?: string; informationUri?: string; rules: SarifRule[] } };
    invocations: { executionSuccessful: boolean; toolExecutionNotifications: SarifNotification[] }[];
    columnKind: 'utf16CodeUnits';
    results: SarifResult[];
  }[];
}

export interface SarifOptions {
  toolVersion?: string;
  informationUri?: string;
  /** One-line description of a code for its rule; the code itself when there is none. */
  describeRule?: (code: string) => string | undefined;
  /** Files that could not be read: the run did not see everything, and says so. */
  unreadable?: readonly { file: string; message: string }[];
}

const LEVELS: Record<Severity, SarifLevel> = { error: 'error', warning: 'warning', info: 'note' };

/**
 * A file name as a URI reference: relative paths stay relative (code scanning resolves them
 * against the checkout), absolute ones become `file://` URIs, and each segment is
 * percent-encoded so spaces, `#` and `?` cannot change what the URI means.
 */
export function artifactUri(file: string): string {
  const slashed = file.replace(/\\/g, '/');
  const encode = (p: string) =>
    p
      .split('/')
      .map((segment) => encodeURIComponent(segment))
      .join('/');
  const drive = /^([A-Za-z]):\//.exec(slashed);
  if (drive) return `file:///${drive[1]}:/${encode(slashed.slice(3))}`;
  if (slashed.startsWith('/')) return `file://${encode(slashed)}`;
  return encode(slashed.replace(/^(\.\/)+/, ''));
}

/** SARIF requires lines and columns of at least 1 and an end that does not precede the start. */
export function sarifRegion(range: SourceRange): SarifRegion {
  const whole = (n: number) => (Number.isFinite(n) ? Math.max(1, Math.floor(n)) : 1);
  const startLine = whole(range.startLine);
  const startColumn = whole(range.startColumn);
  const endLine = Math.max(startLine, whole(range.endLine));
  const endColumn = endLine === startLine ? Math.max(startColumn, whole(range.endColumn)) : whole(range.endColumn);
  return { startLine, startColumn, endLine, endColumn };
}

function location(file: string, range?: SourceRange): SarifLocation {
  return { physicalLocation: { artifactLocation: { uri: artifactUri(file) }, ...(range ? { region: sarifRegion(range) } : {}) } };
}

export function buildSarifLog(diagnostics: readonly FileDiagnostic[], options: SarifOptions = {}): SarifLog {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: SarifResult[] = diagnostics.map((diagnostic) => {
    let index = ruleIndex.get(diagnostic.code);
    if (index === undefined) {
      index = rules.length;
      ruleIndex.set(diagnostic.code, index);
      rules.push({
        id: diagnostic.code,
        shortDescription: { text: options.describeRule?.(diagnostic.code) ?? diagnostic.code },
        defaultConfiguration: { level: LEVELS[diagnostic.severity] },
      });
    }
    return {
      ruleId: diagnostic.code,
      ruleIndex: index,
      level: LEVELS[diagnostic.severity],
      message: { text: fullMessage(diagnostic) },
      locations: [location(diagnostic.file, fileRange(diagnostic))],
      properties: { jsonPath: diagnostic.path, target: diagnostic.target },
    };
  });
  const unreadable = options.unreadable ?? [];
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'toolgate',
            ...(options.toolVersion ? { version: options.toolVersion } : {}),
            ...(options.informationUri ? { informationUri: options.informationUri } : {}),
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: unreadable.length === 0,
            toolExecutionNotifications: unreadable.map(({ file, message }) => ({
              level: 'error',
              message: { text: message },
              locations: [location(file)],
            })),
          },
        ],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}
