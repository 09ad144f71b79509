import { createToolgateClient, type FetchLike, type ToolgateClient } from './create-toolgate-client.ts';
import { isTool, type Tool } from './define-tool.ts';
import { ToolgateError } from './toolgate-error.ts';

/**
 * `npm run import-tools`: every defineTool export of the given modules becomes a DRAFT
 * contract on a Toolgate server. Drafts only: publishing stays a reviewed, deliberate step.
 * Module loading is injected (the script uses tsx), so this file stays free of Node APIs.
 */

export const IMPORT_TOOLS_USAGE = [
  'Usage: npm run import-tools -- --url <toolgate url> --key <api key> [--version <semver>] [--owner <owner>] <module.ts>...',
  '',
  'Saves every defineTool export of each module as a draft contract through POST /api/v1/contracts.',
  'The key needs the "author" (or "admin") scope. --url and --key default to TOOLGATE_URL and TOOLGATE_API_KEY.',
  '--version overrides the version each tool declares (default 1.0.0); --owner fills in tools that declare none.',
].join('\n');

export interface ImportToolsArgs {
  url: string;
  key: string;
  version?: string;
  owner?: string;
  modules: string[];
}

export type ParsedArgs = { ok: true; args: ImportToolsArgs } | { ok: false; help: boolean; message: string };

const FLAGS = ['url', 'key', 'version', 'owner'] as const;
type Flag = (typeof FLAGS)[number];

export function parseImportToolsArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): ParsedArgs {
  const values: Partial<Record<Flag, string>> = {};
  const modules: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { ok: false, help: true, message: IMPORT_TOOLS_USAGE };
    if (!arg.startsWith('--')) {
      modules.push(arg);
      continue;
    }
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const name = rawName as Flag;
    if (!(FLAGS as readonly string[]).includes(name))
      return { ok: false, help: false, message: `Unknown option ${arg}.\n\n${IMPORT_TOOLS_USAGE}` };
    const value = inline ?? argv[(i += 1)];
    if (value === undefined || value === '')
      return { ok: false, help: false, message: `--${name} needs a value.\n\n${IMPORT_TOOLS_USAGE}` };
    values[name] = value;
  }
  const url = values.url ?? env.TOOLGATE_URL;
  const key = values.key ?? env.TOOLGATE_API_KEY;
  const missing = [!url && '--url', !key && '--key', modules.length === 0 && 'at least one module'].filter(Boolean);
  if (missing.length > 0) return { ok: false, help: false, message: `Missing ${missing.join(', ')}.\n\n${IMPORT_TOOLS_USAGE}` };
  return { ok: true, args: { url: url!, key: key!, version: values.version, owner: values.owner, modules } };
}

export type ModuleLoader = (modulePath: string) => Promise<Record<string, unknown>>;

export interface ImportToolsOptions {
  client: Pick<ToolgateClient, 'saveContractDraft'>;
  modules: readonly string[];
  load: ModuleLoader;
  /** Overrides each tool's own version. */
  version?: string;
  /** For tools that declare no owner. */
  owner?: string;
}

export interface ImportedToolLine {
  ok: boolean;
  module: string;
  exportName?: string;
  tool?: string;
  version?: string;
  /** One printable line. */
  text: string;
}

export interface ImportToolsResult {
  ok: boolean;
  lines: ImportedToolLine[];
}

export const DEFAULT_CONTRACT_VERSION = '1.0.0';

function describeFailure(error: unknown): string {
  if (error instanceof ToolgateError) {
    const problems = Array.isArray(error.details?.problems) ? (error.details.problems as { path?: string; message?: string }[]) : [];
    const listed = problems.slice(0, 3).map((p) => `${p.path ?? '?'}: ${p.message ?? '?'}`);
    return `${error.status ? `${error.status} ` : ''}${error.code}: ${error.message}${listed.length > 0 ? ` [${listed.join('; ')}]` : ''}`;
  }
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
}

/** Tools exported by a module, each once even if exported under several names. */
function toolsOf(namespace: Record<string, unknown>): { exportName: string; tool: Tool }[] {
  const seen = new Set<Tool>();
  const found: { exportName: string; tool: Tool }[] = [];
  for (const [exportName, value] of Object.entries(namespace)) {
    if (!isTool(value) || seen.has(value)) continue;
    seen.add(value);
    found.push({ exportName, tool: value });
  }
  return found;
}

export async function importTools(options: ImportToolsOptions): Promise<ImportToolsResult> {
  const lines: ImportedToolLine[] = [];
  const savedIds = new Map<string, string>();
  for (const modulePath of options.modules) {
    let namespace: Record<string, unknown>;
    try {
      namespace = await options.load(modulePath);
    } catch (error) {
      lines.push({ ok: false, module: modulePath, text: `failed  ${modulePath}: cannot load the module: ${describeFailure(error)}` });
      continue;
    }
    const tools = toolsOf(namespace);
    if (tools.length === 0) {
      lines.push({ ok: false, module: modulePath, text: `failed  ${modulePath}: exports no defineTool tools` });
      continue;
    }
    for (const { exportName, tool } of tools) {
      const where = `${modulePath}#${exportName}`;
      const line = await importOne(tool, where, options, savedIds);
      lines.push({ ...line, module: modulePath, exportName });
    }
  }
  return { ok: lines.every((line) => line.ok), lines };
}

async function importOne(
  tool: Tool,
  where: string,
  options: ImportToolsOptions,
  savedIds: Map<string, string>,
): Promise<Omit<ImportedToolLine, 'module' | 'exportName'>> {
  let document;
  try {
    document = tool.toContract({
      version: options.version ?? tool.contract.version ?? DEFAULT_CONTRACT_VERSION,
      owner: tool.contract.owner ?? options.owner,
    });
  } catch (error) {
    return { ok: false, tool: tool.contractId, text: `failed  ${tool.contractId ?? tool.name} (${where}): ${describeFailure(error)}` };
  }
  const label = `${document.id}@${document.version}`;
  const earlier = savedIds.get(document.id);
  if (earlier) {
    return {
      ok: false,
      tool: document.id,
      version: document.version,
      text: `failed  ${label} (${where}): ${earlier} already defines ${document.id}`,
    };
  }
  savedIds.set(document.id, where);
  try {
    const saved = await options.client.saveContractDraft(document);
    return {
      ok: true,
      tool: saved.tool,
      version: saved.version,
      text: `saved   ${saved.tool}@${saved.version} as a ${saved.created ? 'new' : 'replaced'} draft (${where})`,
    };
  } catch (error) {
    return { ok: false, tool: document.id, version: document.version, text: `failed  ${label} (${where}): ${describeFailure(error)}` };
  }
}

export interface RunImportToolsOptions {
  argv: readonly string[];
  env?: Record<string, string | undefined>;
  load: ModuleLoader;
  fetch?: FetchLike;
  print: (line: string) => void;
}

/** The whole command; returns the exit code (0 all saved, 1 any failure, 2 usage error). */
export async function runImportTools(options: RunImportToolsOptions): Promise<number> {
  const parsed = parseImportToolsArgs(options.argv, options.env);
  if (!parsed.ok) {
    options.print(parsed.message);
    return parsed.help ? 0 : 2;
  }
  const { url, key, version, owner, modules } = parsed.args;
  const client = createToolgateClient({ baseUrl: url, apiKey: key, fetch: options.fetch });
  const result = await importTools({ client, modules, load: options.load, version, owner });
  for (const line of result.lines) options.print(line.text);
  const failed = result.lines.filter((line) => !line.ok).length;
  options.print(failed === 0 ? `${result.lines.length} saved as drafts.` : `${failed} of ${result.lines.length} failed.`);
  return failed === 0 ? 0 : 1;
}
