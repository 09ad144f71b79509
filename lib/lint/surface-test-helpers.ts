import { stringify } from 'yaml';
import { lookupOrderContract } from '../contracts/examples';
import { lintDocument, type LintOptions } from './index';
import type { Diagnostic } from './types';

/** Shared by the surface linter's tests: a clean surface to mutate, and how to lint it. */

export type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A coherent surface: it lints without a single diagnostic (surface.test.ts asserts it). */
export function base(): Doc {
  return {
    id: 'support-agent',
    version: '1.0.0',
    tools: [
      { contract: 'orders.lookup', executor: 'orders-service' },
      {
        name: 'run_command',
        description: 'Runs a command',
        parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
        annotations: {
          kind: 'execute',
          side_effect_level: 'process_exec',
          emits_artifacts: true,
          result_readers: ['read_command_output'],
          arg_aliases: { cmd: 'command' },
        },
        executor: 'sandbox',
      },
      {
        name: 'read_command_output',
        parameters: { type: 'object', properties: { handle: { type: 'string' } } },
        annotations: { kind: 'query', side_effect_level: 'read_only' },
        executor: 'sandbox',
      },
    ],
    policy: {
      tools: ['orders.*', 'run_command', 'read_command_output'],
      side_effect_ceiling: 'process_exec',
      arg_constraints: [{ tool: 'run_command', key: 'command', allowed_values: ['ls', 'pwd'] }],
    },
    approval_policy: { rules: [{ tools: ['run_command'], roles: ['approver'] }] },
    system: 'Use orders.lookup to find orders and run_command({command: "ls"}) to list files.\n',
    tool_search: false,
  };
}

export const CONTRACTS = [lookupOrderContract];

export function lint(doc: Doc, options: LintOptions = {}): Diagnostic[] {
  return lintDocument('surface', stringify(doc), { contracts: CONTRACTS, ...options }).diagnostics;
}

export const codes = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => d.code);
export const withPrompt = (system: string) => (d: Doc) => {
  d.system = system;
};
