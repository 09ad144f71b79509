import { isPlainObject } from '../../json';
import { ownValue } from '@/lib/validation/json-path';
import type { SideEffectLevel, ToolContractInput } from '../contract-schema';
import {
  deriveToolId,
  draftDescription,
  draftDocument,
  draftOwner,
  draftSchema,
  DRAFT_VERSION,
  readSchema,
  readToolName,
  type DraftAnnotations,
  type ImportContext,
  type ImportOutcome,
  type ReviewNote,
} from './draft-contract';

/**
 * MCP tool definitions (the `tools` of a `tools/list` result, protocol revision 2025-06-18) to
 * draft contracts and back. MCP's behaviour annotations are the only safety information any
 * foreign format carries, and the spec itself calls them untrusted hints, so every value derived
 * from them is returned as a note for a person to confirm.
 */

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}

type Hints = { [K in 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint']?: boolean };

const UNTRUSTED = 'MCP tool annotations are untrusted hints';

function readHints(annotations: unknown): Hints {
  const hints: Hints = {};
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    const value = ownValue(annotations, key);
    if (typeof value === 'boolean') hints[key] = value;
  }
  return hints;
}

/** `destructiveHint: false`, or `destructiveHint absent (MCP default: true)`. */
function said(hints: Hints, key: keyof Hints, byDefault: boolean): string {
  const value = hints[key];
  return value === undefined ? `${key} absent (MCP default: ${byDefault})` : `${key}: ${value}`;
}

/**
 * The spec's defaults are the cautious ones (not read-only, destructive, open world), so an
 * unannotated tool becomes destructive, which is what a client must assume of it too.
 */
export function annotationsFromMcpHints(annotations: unknown): { annotations: DraftAnnotations; notes: ReviewNote[] } {
  const hints = readHints(annotations);
  if (hints.readOnlyHint === true) {
    return {
      annotations: { kind: 'query', side_effect_level: 'read_only', idempotent: true, idempotency_strategy: 'natural' },
      notes: [
        {
          path: '$.annotations.side_effect_level',
          message: `read_only from readOnlyHint: true. ${UNTRUSTED}: confirm the tool changes nothing.`,
        },
        {
          path: '$.annotations.idempotent',
          message: 'A read-only tool is idempotent: repeating the call changes nothing. Confirm it with the readOnlyHint.',
        },
      ],
    };
  }
  const destructive = hints.destructiveHint !== false;
  const openWorld = hints.openWorldHint !== false;
  const level: SideEffectLevel = destructive ? 'destructive' : openWorld ? 'external' : 'write';
  const because = destructive
    ? said(hints, 'destructiveHint', true)
    : `${said(hints, 'destructiveHint', true)} and ${said(hints, 'openWorldHint', true)}`;
  const idempotent = hints.idempotentHint === true;
  return {
    annotations: {
      kind: 'mutation',
      side_effect_level: level,
      idempotent,
      ...(idempotent ? { idempotency_strategy: 'natural' as const } : {}),
    },
    notes: [
      {
        path: '$.annotations.side_effect_level',
        message: `${level} from ${said(hints, 'readOnlyHint', false)}, ${because}. ${UNTRUSTED}: confirm the level.`,
      },
      {
        path: '$.annotations.idempotent',
        message: idempotent
          ? `Idempotent (repeats recognised by their arguments) from idempotentHint: true. ${UNTRUSTED}: confirm that repeating a call has no further effect.`
          : `Not idempotent from ${said(hints, 'idempotentHint', false)}: repeated calls will get duplicate-call warnings. ${UNTRUSTED}.`,
      },
    ],
  };
}

export function draftFromMcpTool(tool: Record<string, unknown>, at: (string | number)[], context: ImportContext): ImportOutcome {
  const named = readToolName(ownValue(tool, 'name'), [...at, 'name']);
  if ('problem' in named) return named;
  const input = readSchema(ownValue(tool, 'inputSchema'), [...at, 'inputSchema']);
  if ('problem' in input) return input;
  const { options, takenIds } = context;
  const notes: ReviewNote[] = [];

  const { id, note } = deriveToolId(named.name, 'mcp', options, takenIds);
  if (note) notes.push(note);
  const annotations = ownValue(tool, 'annotations');
  const description = draftDescription(ownValue(tool, 'description'), ownValue(tool, 'title') ?? ownValue(annotations, 'title'), notes);
  const owner = draftOwner(options, notes);

  let inputSchema: Record<string, unknown>;
  if (input.schema) inputSchema = draftSchema(input.schema, 'input', notes);
  else {
    inputSchema = { type: 'object' };
    notes.push({
      path: '$.input',
      message: 'The MCP tool had no inputSchema (MCP requires one), so any object is accepted: describe the arguments.',
    });
  }
  let outputSchema: Record<string, unknown> | undefined;
  const output = ownValue(tool, 'outputSchema');
  if (isPlainObject(output)) outputSchema = draftSchema(output, 'output', notes);
  else if (output !== undefined && output !== null)
    notes.push({ path: '$.output', message: 'The MCP outputSchema was not a JSON object and was left out.' });

  const hints = annotationsFromMcpHints(annotations);
  notes.push(...hints.notes);
  const document = draftDocument({
    id,
    version: options.version ?? DRAFT_VERSION,
    description,
    owner,
    input: inputSchema,
    output: outputSchema,
    annotations: hints.annotations,
  });
  return { contract: { source: 'mcp', name: named.name, document, notes } };
}

/**
 * Hints for a side-effect level. Toolgate's levels are finer than MCP's hints, so where they
 * cannot be told apart the more cautious reading wins: `process_exec` is announced as open
 * world and comes back as `external`; a round trip never lowers a level.
 */
export function mcpHintsFor(level: SideEffectLevel, idempotent: boolean): McpToolAnnotations {
  switch (level) {
    case 'none':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    case 'read_only':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
    case 'write':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: idempotent, openWorldHint: false };
    case 'process_exec':
    case 'external':
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: idempotent, openWorldHint: true };
    case 'destructive':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: idempotent };
  }
}

/**
 * A contract as an MCP tool. MCP 2025-06-18 requires an `outputSchema` to describe an object
 * (it validates `structuredContent`), so other output schemas are not exported.
 */
export function toMcpTool(contract: ToolContractInput): McpTool {
  const output = contract.output;
  return {
    name: contract.id,
    description: contract.description,
    inputSchema: contract.input,
    ...(output && ownValue(output, 'type') === 'object' ? { outputSchema: output } : {}),
    annotations: mcpHintsFor(contract.annotations.side_effect_level, contract.annotations.idempotent),
  };
}
