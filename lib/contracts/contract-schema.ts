import { z } from 'zod';
import { ToolContractSchema } from '@toolgate/sdk/core';

/**
 * The tool contract document as the server reads it. The format itself is defined in
 * packages/sdk/src/contract-schema.ts, because the SDK (which agents install alone) checks the contracts
 * it generates against it; what only the server does with it, publishing its JSON Schema for
 * editors and the API, is here.
 */

export {
  ARGUMENT_PATH_PATTERN,
  compareSideEffectLevels,
  SEMVER_PATTERN,
  SIDE_EFFECT_LEVELS,
  TOOL_ID_PATTERN,
  ToolContractSchema,
  type ContractCondition,
  type SideEffectLevel,
  type ToolContract,
  type ToolContractInput,
} from '@toolgate/sdk/core';

export const TOOL_CONTRACT_SCHEMA_ID = 'https://toolgate.dev/schemas/tool-contract.json';

/**
 * The JSON Schema of a document format, for editors and the API. Authors may omit defaulted
 * fields, so the input shape is described.
 */
export function documentJsonSchema(schema: z.ZodType, id: string): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: () => ({ type: 'object' }),
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, $id: id, ...rest };
}

export function toolContractJsonSchema(): Record<string, unknown> {
  return documentJsonSchema(ToolContractSchema, TOOL_CONTRACT_SCHEMA_ID);
}
