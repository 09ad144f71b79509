import { ownValue } from '@/lib/validation/json-path';
import type { ToolContractInput } from '../contract-schema';
import {
  cautiousAnnotations,
  deriveToolId,
  draftDescription,
  draftDocument,
  draftOwner,
  draftSchema,
  DRAFT_VERSION,
  providerToolName,
  readSchema,
  readToolName,
  type ImportContext,
  type ImportOutcome,
  type ReviewNote,
} from './draft-contract';

/** Anthropic custom tools (`{name, description, input_schema}`) to draft contracts and back. */

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export function draftFromAnthropicTool(tool: Record<string, unknown>, at: (string | number)[], context: ImportContext): ImportOutcome {
  const named = readToolName(ownValue(tool, 'name'), [...at, 'name']);
  if ('problem' in named) return named;
  const schema = readSchema(ownValue(tool, 'input_schema'), [...at, 'input_schema']);
  if ('problem' in schema) return schema;
  const { options, takenIds } = context;
  const notes: ReviewNote[] = [];

  const { id, note } = deriveToolId(named.name, 'anthropic', options, takenIds);
  if (note) notes.push(note);
  const description = draftDescription(ownValue(tool, 'description'), undefined, notes);
  const owner = draftOwner(options, notes);
  let input: Record<string, unknown>;
  if (schema.schema) input = draftSchema(schema.schema, 'input', notes);
  else {
    input = { type: 'object' };
    notes.push({
      path: '$.input',
      message: 'The Anthropic tool had no input_schema (Anthropic requires one), so any object is accepted: describe the arguments.',
    });
  }
  const effects = cautiousAnnotations('anthropic');
  notes.push(...effects.notes);
  const document = draftDocument({
    id,
    version: options.version ?? DRAFT_VERSION,
    description,
    owner,
    input,
    annotations: effects.annotations,
  });
  return { contract: { source: 'anthropic', name: named.name, document, notes } };
}

export function toAnthropicTool(contract: ToolContractInput): AnthropicTool {
  return { name: providerToolName(contract.id), description: contract.description, input_schema: contract.input };
}
