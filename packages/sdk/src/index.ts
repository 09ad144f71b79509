/**
 * `@toolgate/sdk`: Toolgate's TypeScript SDK for agent code. Its modules import only each other
 * and Zod (the adapters also their framework), so it runs wherever the agent runs (Node, edge
 * runtimes, browsers); `npm run lint` fails otherwise (the sdk-imports-beyond-itself rule in
 * .dependency-cruiser.cjs). Tests, and their helpers in src/testing, may import the server to
 * prove the two agree; neither is part of the published package.
 */
export { defineTool, isTool, TOOL_BRAND } from './define-tool.ts';
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
} from './define-tool.ts';
export { createToolgateClient, LONG_POLL_SECONDS, parseRetryAfter } from './create-toolgate-client.ts';
export type { FetchLike, RequestOptions, ToolgateClient, ToolgateClientOptions, WaitForApprovalOptions } from './create-toolgate-client.ts';
export { ToolgateError } from './toolgate-error.ts';
export { ContractDocumentError, toJsonSchema, zodToContract } from './zod-to-contract.ts';
export type { ContractFields, JsonSchema, SchemaPurpose, ZodToContractOptions } from './zod-to-contract.ts';
export { findUnsupportedConstructs, SUPPORTED_STRING_FORMATS, UnsupportedSchemaError } from './supported-zod-subset.ts';
export type { SchemaProblem } from './supported-zod-subset.ts';
export { zodIssues } from './zod-issues.ts';
export { importTools, parseImportToolsArgs, runImportTools } from './import-tools.ts';
export type { ImportToolsOptions, ImportToolsResult, ImportedToolLine } from './import-tools.ts';
export type * from './wire-types.ts';
