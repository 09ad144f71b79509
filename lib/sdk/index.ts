/**
 * Toolgate's TypeScript SDK for agent code. Its modules import only each other and Zod, so it
 * runs wherever the agent runs (Node, edge runtimes, browsers); `npm run lint` fails otherwise
 * (the sdk-imports-beyond-itself rule in .dependency-cruiser.cjs). Tests, and their helpers in
 * lib/sdk/testing, may import the server to prove the two agree.
 */
export { defineTool, isTool, TOOL_BRAND } from './define-tool';
export type {
  ExecuteContext,
  FailureStage,
  RunOptions,
  Tool,
  ToolConfig,
  ToolDefinition,
  ToolFailure,
  ToolResult,
  ToolSuccess,
} from './define-tool';
export { createToolgateClient, LONG_POLL_SECONDS, parseRetryAfter } from './create-toolgate-client';
export type { FetchLike, RequestOptions, ToolgateClient, ToolgateClientOptions, WaitForApprovalOptions } from './create-toolgate-client';
export { ToolgateError } from './toolgate-error';
export { ContractDocumentError, toJsonSchema, zodToContract } from './zod-to-contract';
export type { ContractFields, JsonSchema, SchemaPurpose, ZodToContractOptions } from './zod-to-contract';
export { findUnsupportedConstructs, SUPPORTED_STRING_FORMATS, UnsupportedSchemaError } from './supported-zod-subset';
export type { SchemaProblem } from './supported-zod-subset';
export { zodIssues } from './zod-issues';
export { importTools, parseImportToolsArgs, runImportTools } from './import-tools';
export type { ImportToolsOptions, ImportToolsResult, ImportedToolLine } from './import-tools';
export type * from './wire-types';
