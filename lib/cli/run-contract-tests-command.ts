import { parseDocument } from '@/lib/lint';
import { printable } from '@/lib/lint/format-diagnostics';
import { compileContract } from '@/lib/contracts/compile-contract';
import { runContractTests } from '@/lib/validation/contract-tests';
import { compilePolicy } from '@/lib/policies/compile-policy';
import { runPolicyTests } from '@/lib/policies/policy-tests';
import type { CliIo } from './cli-io';
import { guessDocumentKind } from './guess-document-kind';

export const TEST_USAGE = [
  'Usage: toolgate test <files, directories or globs...>',
  '',
  'Runs the test cases a contract or policy carries in its `tests` list: each example call must get',
  'the decision (and rule, error codes) it expects from the same checks validate/pre runs.',
  'Exit status: 0 all cases pass, 1 a case fails or a contract does not compile, 2 usage error or unreadable file.',
].join('\n');

export async function runTestCommand(args: readonly string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(`${TEST_USAGE}\n`);
    return 0;
  }
  const unknown = args.find((a) => a.startsWith('-') && a !== '-');
  if (unknown !== undefined || args.length === 0) {
    io.stderr(`toolgate test: ${unknown ? `unknown option ${printable(unknown)}` : 'name at least one contract file'}.\n\n${TEST_USAGE}\n`);
    return 2;
  }
  const expanded = io.expandFiles ? await io.expandFiles(args) : { ok: true as const, files: args };
  if (!expanded.ok) {
    io.stderr(`toolgate test: ${printable(expanded.message)}\n`);
    return 2;
  }
  let passed = 0;
  let failed = 0;
  let broken = 0;
  let unreadable = 0;
  for (const file of expanded.files) {
    let text: string;
    try {
      text = await io.readFile(file);
    } catch (error) {
      io.stderr(`toolgate test: cannot read ${printable(file)}: ${printable(error instanceof Error ? error.message : String(error))}\n`);
      unreadable += 1;
      continue;
    }
    const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
    const parsed = parseDocument(body, /\.ya?ml$/i.test(file) ? 'yaml' : /\.json$/i.test(file) ? 'json' : undefined);
    if (parsed.value === undefined) {
      io.stdout(printable(`${file}: cannot run tests: ${parsed.diagnostics[0]?.message ?? 'does not parse'}`) + '\n');
      broken += 1;
      continue;
    }
    const kind = guessDocumentKind(parsed.value);
    let results: { name: string; passed: boolean; failure?: string }[];
    if (kind === 'contract') {
      const compiled = compileContract(parsed.value);
      if (!compiled.ok) {
        io.stdout(printable(`${file}: cannot run tests: the contract does not compile: ${compiled.problems[0]?.message ?? ''}`) + '\n');
        broken += 1;
        continue;
      }
      results = runContractTests(compiled.contract, compiled.contract.document.tests ?? []);
    } else if (kind === 'policy') {
      const compiled = compilePolicy(parsed.value);
      if (!compiled.ok) {
        io.stdout(printable(`${file}: cannot run tests: the policy does not compile: ${compiled.problems[0] ?? ''}`) + '\n');
        broken += 1;
        continue;
      }
      results = runPolicyTests(compiled.policy, compiled.policy.document.tests ?? []);
    } else {
      // A surface carries no test cases of its own; its tools' contracts and its policy do.
      io.stdout(
        printable(`${file}: skipped: test cases run for contracts and policies (this is ${kind ? `a ${kind}` : 'neither'})`) + '\n',
      );
      continue;
    }
    if (results.length === 0) io.stdout(printable(`${file}: no test cases`) + '\n');
    for (const result of results) {
      if (result.passed) passed += 1;
      else failed += 1;
      io.stdout(
        printable(`${file}: ${result.passed ? 'pass' : 'FAIL'} ${result.name}${result.failure ? `: ${result.failure}` : ''}`) + '\n',
      );
    }
  }
  io.stdout(`${passed} passed, ${failed} failed${broken ? `, ${broken} file${broken === 1 ? '' : 's'} could not run` : ''}\n`);
  if (unreadable > 0) return 2;
  return failed > 0 || broken > 0 ? 1 : 0;
}
