import type { ToolContractInput } from '../contract-schema';
import { toAnthropicTool, type AnthropicTool } from './anthropic';
import { toMcpTool, type McpTool } from './mcp';
import { toOpenAiTool, type OpenAiChatTool, type OpenAiResponsesTool } from './openai';

/**
 * Tool definitions in the formats teams already use, to draft contracts (import) and from
 * published contracts (export). Pure functions: the studio runs them in the browser.
 */

export {
  DRAFT_VERSION,
  IMPORT_PROBLEM_CODES,
  providerToolName,
  type ImportedContract,
  type ImportOptions,
  type ImportProblem,
  type ImportProblemCode,
  type ReviewNote,
  type ToolSource,
} from './draft-contract';
export {
  importToolDefinitions,
  importParsedToolDefinitions,
  classifyToolDefinition,
  MAX_IMPORT_CHARS,
  MAX_IMPORT_TOOLS,
  type ImportResult,
} from './import-tool-definitions';
export { annotationsFromMcpHints, mcpHintsFor, toMcpTool, type McpTool, type McpToolAnnotations } from './mcp';
export { toOpenAiTool, type OpenAiApi, type OpenAiChatTool, type OpenAiFunction, type OpenAiResponsesTool } from './openai';
export { toAnthropicTool, type AnthropicTool } from './anthropic';

export const EXPORT_FORMATS = ['mcp', 'openai_chat_completions', 'openai_responses', 'anthropic'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function exportToolDefinition(
  contract: ToolContractInput,
  format: ExportFormat,
): McpTool | OpenAiChatTool | OpenAiResponsesTool | AnthropicTool {
  switch (format) {
    case 'mcp':
      return toMcpTool(contract);
    case 'openai_chat_completions':
      return toOpenAiTool(contract, 'chat_completions');
    case 'openai_responses':
      return toOpenAiTool(contract, 'responses');
    case 'anthropic':
      return toAnthropicTool(contract);
  }
}
