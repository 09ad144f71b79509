import { detectFormat, lintDocument, parseDocument, type Diagnostic, type DocumentFormat, type DocumentKind } from '@/lib/lint';
import { CONTRACT_LINT_CODES } from '@/lib/lint/contract';
import { DOCUMENT_CODES } from '@/lib/lint/parse-document';
import {
  fileRange,
  formatDiagnosticsJson,
  formatDiagnosticsText,
  formatSummary,
  printable,
  type FileDiagnostic,
} from '@/lib/lint/format-diagnostics';
import { POLICY_LINT_CODES } from '@/lib/lint/policy';
import { buildSarifLog } from '@/lib/lint/sarif';
import { SURFACE_LINT_CODES } from '@/lib/lint/surface';
import { ownValue } from '@/lib/validation/json-path';
import type { CliIo } from './cli-io';
import { guessDocumentKind } from './guess-document-kind';
import { runTestCommand, TEST_USAGE } from './run-contract-tests-command';
import { promptBlockLocator } from './locate-prompt';

/**
 * `toolgate`, the command line face of the linter: what to run, on which files, and how to
 * print it. File access and output are injected (bin/toolgate.mjs → scripts/toolgate.ts
 * supplies Node's), so every path through here is unit-testable without a process.
 */

/** Exit statuses, as CI systems read them. */
export const EXIT = { ok: 0, errors: 1, usage: 2 } as const;

const FORMATS = ['text', 'json', 'sarif'] as const;
type OutputFormat = (typeof FORMATS)[number];
const KINDS: readonly DocumentKind[] = ['contract', 'policy', 'surface'];

/** Codes the CLI itself raises, beside the linter's. */
export const CLI_DIAGNOSTIC_CODES = {
  DOCUMENT_KIND_UNKNOWN: 'The file is not recognisably a contract, a policy or a surface, and no --kind was given.',
} as const;

interface Command {
  usage: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  lint: {
    usage: [
      'Usage: toolgate lint <files, directories or globs...> [--format text|json|sarif] [--kind contract|policy|surface]',
      '',
      'Lints tool contracts, policies and tool surfaces written in JSON or YAML. A directory stands for',
      'every .json, .yaml and .yml file under it; a quoted glob such as "contracts/**/*.yaml" for its matches.',
      '  --format  text (default): one "file:line:col severity CODE message" line per finding;',
      '            json: one array of {file, code, severity, message, path, range, target};',
      '            sarif: a SARIF 2.1.0 log for code scanning.',
      "  --kind    what every file is; by default each file's kind is read from its fields",
      '            (input + annotations: contract; tools: surface; capability, rules, approval',
      '            or arg_constraints: policy).',
      'Exit status: 0 no errors (warnings allowed), 1 error diagnostics, 2 usage error, unreadable file,',
      '             or a directory or glob with no files.',
    ].join('\n'),
    run: runLint,
  },
  test: { usage: TEST_USAGE, run: runTestCommand },
  // Imported when run: the linter's commands never load the database client.
  tenants: {
    usage: 'Usage: toolgate tenants create|list|rebuild-rollups (see toolgate tenants --help)',
    run: async (args, io) => (await import('./tenants-command')).runTenantsCommand(args, io),
  },
  members: {
    usage: 'Usage: toolgate members reset-password <email> (see toolgate members --help)',
    run: async (args, io) => (await import('./members-command')).runMembersCommand(args, io),
  },
  mcp: {
    usage: 'Usage: toolgate mcp proxy --server <name> -- <command> [args...] (see toolgate mcp --help)',
    run: async (args, io) => (await import('./mcp-command')).runMcpCommand(args, io),
  },
};

const USAGE = [
  'Usage: toolgate <command> [options]',
  '',
  'Commands:',
  '  lint <files...>   lint contracts, policies and tool surfaces (JSON or YAML)',
  '  test <files...>   run the test cases contracts carry',
  '  tenants create|list|rebuild-rollups  create a tenant with an admin invitation, list tenants, or recount their dashboards',
  '  members reset-password <email>  a link that sets a new password for someone who cannot sign in',
  "  mcp proxy --server <name> -- <command>  put an MCP server (stdio) behind Toolgate's gate",
  '',
  'Run "toolgate <command> --help" for its options.',
].join('\n');

export async function runToolgate(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(`${USAGE}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(`toolgate: unknown command "${printable(name)}".\n\n${USAGE}\n`);
    return EXIT.usage;
  }
  return command.run(rest, io);
}

interface LintArgs {
  files: string[];
  format: OutputFormat;
  kind?: DocumentKind;
}

export function parseLintArgs(args: readonly string[]): { ok: true; args: LintArgs } | { ok: false; help: boolean; message: string } {
  const files: string[] = [];
  let format: OutputFormat = 'text';
  let kind: DocumentKind | undefined;
  let optionsEnded = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (optionsEnded || !arg.startsWith('-') || arg === '-') {
      files.push(arg);
      continue;
    }
    if (arg === '--') {
      optionsEnded = true;
      continue;
    }
    if (arg === '--help' || arg === '-h') return { ok: false, help: true, message: COMMANDS.lint!.usage };
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (flag !== '--format' && flag !== '--kind') return { ok: false, help: false, message: `Unknown option ${printable(arg)}.` };
    const value = eq === -1 ? args[(i += 1)] : arg.slice(eq + 1);
    if (value === undefined || value === '') return { ok: false, help: false, message: `${flag} needs a value.` };
    if (flag === '--format') {
      if (!(FORMATS as readonly string[]).includes(value))
        return { ok: false, help: false, message: `--format must be one of ${FORMATS.join(', ')}; got "${printable(value)}".` };
      format = value as OutputFormat;
    } else {
      if (!(KINDS as readonly string[]).includes(value))
        return { ok: false, help: false, message: `--kind must be one of ${KINDS.join(', ')}; got "${printable(value)}".` };
      kind = value as DocumentKind;
    }
  }
  if (files.length === 0) return { ok: false, help: false, message: 'Name at least one file to lint.' };
  return { ok: true, args: { files, format, kind } };
}

function formatOf(file: string, text: string): DocumentFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return detectFormat(text);
}

/** Lints one file's text; exported for tests and for callers that already hold the text. */
export function lintFile(file: string, text: string, kind?: DocumentKind): FileDiagnostic[] {
  // Editors do not count a byte order mark as a column, and JSON.parse refuses one.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const format = formatOf(file, body);
  // Parsed here to read the kind and the prompt's place; lintDocument parses again for itself.
  const parsed = parseDocument(body, format);
  const chosen = kind ?? (parsed.value === undefined ? 'contract' : guessDocumentKind(parsed.value));
  let diagnostics: Diagnostic[];
  if (chosen === undefined) {
    diagnostics = [
      {
        code: 'DOCUMENT_KIND_UNKNOWN',
        severity: 'error',
        message:
          'Cannot tell what this document is: a contract has "input" and "annotations", a surface has "tools", a policy has "capability", "rules", "approval", "arg_constraints" or "limits". Pass --kind to say.',
        path: '$',
        range: parsed.locate([]),
        target: 'document',
      },
    ];
  } else {
    diagnostics = lintDocument(chosen, body, { format }).diagnostics;
  }
  // Prompt findings are ranged in the prompt text; in a file, the prompt is the `system` value.
  const promptValue = parsed.locate(['system'], 'value');
  const prompt = ownValue(parsed.value, 'system');
  const exact =
    diagnostics.some((d) => d.target === 'prompt') && typeof prompt === 'string'
      ? promptBlockLocator(body, promptValue, prompt)
      : undefined;
  const promptAt = (d: Diagnostic) => exact?.(d.range) ?? promptValue;
  const located: FileDiagnostic[] = diagnostics.map((d) => ({ file, ...d, ...(d.target === 'prompt' ? { promptAt: promptAt(d) } : {}) }));
  const line = (d: FileDiagnostic) => fileRange(d) ?? { startLine: 1, startColumn: 1 };
  return located.sort((a, b) => line(a).startLine - line(b).startLine || line(a).startColumn - line(b).startColumn);
}

async function runLint(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseLintArgs(args);
  if (!parsed.ok) {
    if (parsed.help) {
      io.stdout(`${parsed.message}\n`);
      return EXIT.ok;
    }
    io.stderr(`toolgate lint: ${parsed.message}\n\n${COMMANDS.lint!.usage}\n`);
    return EXIT.usage;
  }
  const { format, kind } = parsed.args;
  const expanded = io.expandFiles ? await io.expandFiles(parsed.args.files) : { ok: true as const, files: parsed.args.files };
  if (!expanded.ok) {
    io.stderr(`toolgate lint: ${printable(expanded.message)}\n`);
    return EXIT.usage;
  }
  const { files } = expanded;
  const diagnostics: FileDiagnostic[] = [];
  const unreadable: { file: string; message: string }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = await io.readFile(file);
    } catch (error) {
      const message = `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`;
      unreadable.push({ file, message });
      io.stderr(`toolgate lint: ${printable(message)}\n`);
      continue;
    }
    diagnostics.push(...lintFile(file, text, kind));
  }

  const linted = files.length - unreadable.length;
  if (format === 'json') io.stdout(`${formatDiagnosticsJson(diagnostics)}\n`);
  else if (format === 'sarif')
    io.stdout(`${JSON.stringify(buildSarifLog(diagnostics, { toolVersion: io.toolVersion, describeRule, unreadable }), null, 2)}\n`);
  else {
    // A summary of what was linted, never "No problems in 0 files" beside a file it could not read.
    const skipped =
      unreadable.length > 0 ? ` ${unreadable.length} of ${files.length} file${files.length === 1 ? '' : 's'} could not be read.` : '';
    const summary = linted > 0 ? `${formatSummary(diagnostics, linted)}${skipped}` : `Nothing linted:${skipped}`;
    io.stdout(`${diagnostics.length > 0 ? `${formatDiagnosticsText(diagnostics)}\n` : ''}${summary}\n`);
  }

  if (unreadable.length > 0) return EXIT.usage;
  return diagnostics.some((d) => d.severity === 'error') ? EXIT.errors : EXIT.ok;
}

// SARIF rules carry a one-line description each: the linters' own registries supply them.
const RULE_SUMMARIES = new Map<string, string>([
  ...Object.entries({ ...DOCUMENT_CODES, ...CONTRACT_LINT_CODES, ...POLICY_LINT_CODES, ...SURFACE_LINT_CODES }).map(
    ([code, rule]): [string, string] => [code, rule.summary],
  ),
  ...Object.entries(CLI_DIAGNOSTIC_CODES),
]);

function describeRule(code: string): string | undefined {
  return RULE_SUMMARIES.get(code);
}
