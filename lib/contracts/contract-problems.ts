/**
 * Why a contract document was refused at compile time. Each code is documented here, where it
 * is defined, so the docs table and the compiler cannot drift apart.
 */
export const CONTRACT_PROBLEM_CODES = {
  CONTRACT_SCHEMA_INVALID: 'The document does not match the tool contract format.',
  CONTRACT_TOO_LARGE: 'The document exceeds the size (256 KiB canonical JSON) or nesting depth bound.',
  CONTRACT_INPUT_SCHEMA_INVALID: '`input` is not a valid JSON Schema 2020-12 document.',
  CONTRACT_OUTPUT_SCHEMA_INVALID: '`output` is not a valid JSON Schema 2020-12 document.',
  CONTRACT_ERRORS_SCHEMA_INVALID: '`errors` is not a valid JSON Schema 2020-12 document.',
  CONTRACT_REGEX_UNSAFE:
    'A `pattern` or `patternProperties` regex cannot run on the linear-time RE2 engine (backreferences, lookaround, ...).',
  CONTRACT_REMOTE_REF:
    'A `$ref` or `$dynamicRef` points outside the schema; only local `#...` references and the `$id` of a schema embedded in the same document are allowed.',
  CONTRACT_DATA_REF: 'A `$data` reference was used; contract constraints must be static.',
  CONTRACT_EXPRESSION_INVALID: 'A pre/postcondition is not valid CEL, is not boolean, uses unknown variables, or uses a refused function.',
  CONTRACT_SCOPE_PATH_UNKNOWN: 'A scope or sensitive path does not exist in the input schema properties.',
} as const;

export type ContractProblemCode = keyof typeof CONTRACT_PROBLEM_CODES;

export type ContractProblem = {
  code: ContractProblemCode;
  message: string;
  /** JSONPath into the contract document, e.g. `$.input.properties.sku.pattern`. */
  path: string;
};
