import type { ExpandedArgs } from './expand-file-args';

/**
 * What every `toolgate` command reads and writes through. File access and output are injected
 * (bin/toolgate.mjs → scripts/toolgate.ts supplies Node's), so every path through a command is
 * unit-testable without a process.
 */
export interface CliIo {
  /** Rejects when the file cannot be read; the message is shown to the user. */
  readFile(file: string): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reported in SARIF's `tool.driver.version`. */
  toolVersion?: string;
  /**
   * Directories and glob patterns to files (lib/cli/expand-file-args.ts); without it every
   * argument is taken as a file name.
   */
  expandFiles?(args: readonly string[]): Promise<ExpandedArgs>;
}
