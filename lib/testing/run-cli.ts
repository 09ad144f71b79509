import { runToolgate } from '../cli/run-toolgate';

/** Runs `toolgate <argv>` in process, as the command line would, and keeps what it printed. */
export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runToolgate(argv, {
    readFile: async () => '',
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}
