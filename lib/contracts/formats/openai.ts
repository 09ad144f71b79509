import { isPlainObject } from '../../json';
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

/**
 * OpenAI function tools to draft contracts and back, in all three shapes teams have: Chat
 * Completions (`{type: 'function', function: {...}}`), the Responses API's flat
 * `{type: 'function', name, ...}`, and the legacy `functions` entries (`{name, parameters}`).
 */

export interface OpenAiFunction {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  strict?: boolean;
}

export interface OpenAiChatTool {
  type: 'function';
  function: OpenAiFunction;
}

export interface OpenAiResponsesTool extends OpenAiFunction {
  type: 'function';
}

export type OpenAiApi = 'chat_completions' | 'responses';

/** The function object of any of the three shapes, and where it sits in the paste. */
export function openAiFunctionOf(
  tool: Record<string, unknown>,
  at: (string | number)[],
): { fn: Record<string, unknown>; at: (string | number)[] } {
  const nested = ownValue(tool, 'function');
  return ownValue(tool, 'type') === 'function' && isPlainObject(nested) ? { fn: nested, at: [...at, 'function'] } : { fn: tool, at };
}

export function draftFromOpenAiTool(tool: Record<string, unknown>, at: (string | number)[], context: ImportContext): ImportOutcome {
  const { fn, at: fnAt } = openAiFunctionOf(tool, at);
  const named = readToolName(ownValue(fn, 'name'), [...fnAt, 'name']);
  if ('problem' in named) return named;
  const parameters = readSchema(ownValue(fn, 'parameters'), [...fnAt, 'parameters']);
  if ('problem' in parameters) return parameters;
  const { options, takenIds } = context;
  const notes: ReviewNote[] = [];

  const { id, note } = deriveToolId(named.name, 'openai', options, takenIds);
  if (note) notes.push(note);
  const description = draftDescription(ownValue(fn, 'description'), undefined, notes);
  const owner = draftOwner(options, notes);
  // OpenAI reads omitted parameters as "takes no arguments", and so does the contract.
  const input = parameters.schema
    ? draftSchema(parameters.schema, 'input', notes)
    : { type: 'object', properties: {}, additionalProperties: false };
  const effects = cautiousAnnotations('openai');
  notes.push(...effects.notes);
  const document = draftDocument({
    id,
    version: options.version ?? DRAFT_VERSION,
    description,
    owner,
    input,
    annotations: effects.annotations,
  });
  return { contract: { source: 'openai', name: named.name, document, notes } };
}

/**
 * A contract as an OpenAI function tool. `strict` is always off: strict mode requires every
 * property to be required and `additionalProperties: false` everywhere, which contract schemas
 * rarely are, and the Responses API would otherwise default it to on.
 */
export function toOpenAiTool(contract: ToolContractInput, api: 'chat_completions'): OpenAiChatTool;
export function toOpenAiTool(contract: ToolContractInput, api: 'responses'): OpenAiResponsesTool;
export function toOpenAiTool(contract: ToolContractInput, api?: OpenAiApi): OpenAiChatTool | OpenAiResponsesTool;
export function toOpenAiTool(contract: ToolContractInput, api: OpenAiApi = 'chat_completions'): OpenAiChatTool | OpenAiResponsesTool {
  const fn: OpenAiFunction = {
    name: providerToolName(contract.id),
    description: contract.description,
    parameters: contract.input,
    strict: false,
  };
  return api === 'responses' ? { type: 'function', ...fn } : { type: 'function', function: fn };
}
