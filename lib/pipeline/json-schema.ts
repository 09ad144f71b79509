// JSON Schemas (draft 2020-12) for the pipeline context and the ToolCallManifest, generated with
// Zod 4 from the same field table the validator reads (context-fields.ts).
//
// What they say, honestly: the names and JSON types of the fields, under both spellings (every
// PascalCase property has a camelCase twin described as its alias), with null allowed wherever
// the validator treats null as absent and unknown extra properties allowed. What they cannot say:
// which fields are required, which depends on the context type and the pipeline step, and that
// the two spellings of a field must agree. Those are the validator's rules (PIPELINE_RULES,
// PIPELINE_SHAPE_RULES); a document can match these schemas and still fail them.
import { z } from 'zod';
import { camelCaseOf, PIPELINE_CONTEXT_FIELDS, TOOL_CALL_MANIFEST_FIELDS, type FieldMap, type FieldSpec } from './context-fields';

function shapeOf(fields: FieldMap): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [pascal, spec] of Object.entries(fields)) {
    const camel = camelCaseOf(pascal);
    shape[pascal] = schemaOf(spec).nullable().optional().describe(spec.description);
    shape[camel] = schemaOf(spec)
      .nullable()
      .optional()
      .describe(`camelCase spelling of ${pascal}, accepted as an alias; when both are present they must be equal. ${spec.description}`);
  }
  return shape;
}

function schemaOf(spec: FieldSpec): z.ZodType {
  switch (spec.kind) {
    case 'string':
      return spec.enum ? z.enum(spec.enum as [string, ...string[]]) : z.string();
    case 'boolean':
      return z.boolean();
    case 'entity':
      return z.union([z.string(), z.looseObject({})]);
    case 'object':
      return z.looseObject(spec.fields ? shapeOf(spec.fields) : {});
    case 'array':
      return z.array(spec.items ? schemaOf(spec.items).describe(spec.items.description) : z.unknown());
  }
}

const NOTE =
  'Every property may be spelled in PascalCase (as in the DDR) or camelCase. This schema checks names and JSON types only; which fields must be present depends on the context type and the pipeline step and is checked by the AGN-036 validator.';

export const PipelineContextSchema = z
  .looseObject(shapeOf(PIPELINE_CONTEXT_FIELDS))
  .meta({ title: 'AGN-036 IAgentPipelineContext', description: NOTE });

export const ToolCallManifestSchema = z
  .looseObject(shapeOf(TOOL_CALL_MANIFEST_FIELDS))
  .meta({ title: 'AGN-036 ToolCallManifest', description: `${NOTE} Validity (DDR 5) is checked by validateToolCallManifest.` });

export const PIPELINE_CONTEXT_JSON_SCHEMA = z.toJSONSchema(PipelineContextSchema);
export const TOOL_CALL_MANIFEST_JSON_SCHEMA = z.toJSONSchema(ToolCallManifestSchema);
