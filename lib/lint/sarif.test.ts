import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import type { FileDiagnostic } from './format-diagnostics';
import { artifactUri, buildSarifLog, SARIF_SCHEMA_URI, sarifRegion } from './sarif';

/**
 * The parts of the SARIF 2.1.0 schema (OASIS, errata 01) that cover what the builder emits:
 * required properties, enums and the 1-based minimums of regions, as the official schema states
 * them. Unknown properties are refused here so a misspelt key cannot slip through.
 */
const region = {
  type: 'object',
  additionalProperties: false,
  properties: {
    startLine: { type: 'integer', minimum: 1 },
    startColumn: { type: 'integer', minimum: 1 },
    endLine: { type: 'integer', minimum: 1 },
    endColumn: { type: 'integer', minimum: 1 },
  },
};
const message = { type: 'object', required: ['text'], additionalProperties: false, properties: { text: { type: 'string' } } };
const location = {
  type: 'object',
  additionalProperties: false,
  properties: {
    physicalLocation: {
      type: 'object',
      required: ['artifactLocation'],
      additionalProperties: false,
      properties: {
        artifactLocation: {
          type: 'object',
          required: ['uri'],
          additionalProperties: false,
          properties: { uri: { type: 'string', format: 'uri-reference' } },
        },
        region,
      },
    },
  },
};
const level = { enum: ['none', 'note', 'warning', 'error'] };
const sarifSubset = {
  type: 'object',
  required: ['version', 'runs'],
  additionalProperties: false,
  properties: {
    $schema: { const: SARIF_SCHEMA_URI },
    version: { const: '2.1.0' },
    runs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['tool'],
        additionalProperties: false,
        properties: {
          tool: {
            type: 'object',
            required: ['driver'],
            additionalProperties: false,
            properties: {
              driver: {
                type: 'object',
                required: ['name'],
                additionalProperties: false,
                properties: {
                  name: { type: 'string' },
                  version: { type: 'string' },
                  informationUri: { type: 'string', format: 'uri' },
                  rules: {
                    type: 'array',
                    uniqueItems: true,
                    items: {
                      type: 'object',
                      required: ['id'],
                      additionalProperties: false,
                      properties: {
                        id: { type: 'string' },
                        shortDescription: message,
                        defaultConfiguration: { type: 'object', additionalProperties: false, properties: { level } },
                      },
                    },
                  },
                },
              },
            },
          },
          invocations: {
            type: 'array',
            items: {
              type: 'object',
              required: ['executionSuccessful'],
              additionalProperties: false,
              properties: {
                executionSuccessful: { type: 'boolean' },
                toolExecutionNotifications: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['message'],
                    additionalProperties: false,
                    properties: { level, message, locations: { type: 'array', items: location } },
                  },
                },
              },
            },
          },
          columnKind: { enum: ['utf16CodeUnits', 'unicodeCodePoints'] },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['message'],
              additionalProperties: false,
              properties: {
                ruleId: { type: 'string' },
                ruleIndex: { type: 'integer', minimum: -1 },
                level,
                message,
                locations: { type: 'array', items: location },
                properties: { type: 'object' },
              },
            },
          },
        },
      },
    },
  },
};

function validSarif(log: unknown): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const validate = ajv.compile(sarifSubset);
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const range = (startLine: number, startColumn: number, endLine: number, endColumn: number) => ({
  startLine,
  startColumn,
  endLine,
  endColumn,
});

const diagnostics: FileDiagnostic[] = [
  {
    file: 'contracts/refund.json',
    code: 'DOCUMENT_PARSE_ERROR',
    severity: 'error',
    message: 'JSON syntax: bad',
    path: '$',
    range: range(3, 5, 3, 6),
    target: 'document',
  },
  {
    file: 'contracts/refund.json',
    code: 'CONTRACT_X',
    severity: 'warning',
    message: 'w',
    path: '$.input',
    range: range(4, 1, 6, 2),
    target: 'document',
  },
  {
    file: 'surfaces/support.yaml',
    code: 'DOCUMENT_PARSE_ERROR',
    severity: 'error',
    message: 'again',
    path: '$',
    range: range(1, 1, 1, 2),
    target: 'document',
  },
  {
    file: 'surfaces/support.yaml',
    code: 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
    severity: 'info',
    message: 'p',
    path: '$.system',
    range: range(2, 6, 2, 23),
    target: 'prompt',
    promptAt: range(10, 8, 10, 25),
  },
];

describe('buildSarifLog', () => {
  it('produces a SARIF 2.1.0 log with one rule per code and a result per diagnostic', () => {
    const log = buildSarifLog(diagnostics, {
      toolVersion: '0.1.0',
      describeRule: (code) => (code === 'CONTRACT_X' ? 'X happened.' : undefined),
    });
    expect(validSarif(log)).toEqual([]);
    const [run] = log.runs;
    expect(run!.tool.driver).toEqual({
      name: 'toolgate',
      version: '0.1.0',
      rules: [
        { id: 'DOCUMENT_PARSE_ERROR', shortDescription: { text: 'DOCUMENT_PARSE_ERROR' }, defaultConfiguration: { level: 'error' } },
        { id: 'CONTRACT_X', shortDescription: { text: 'X happened.' }, defaultConfiguration: { level: 'warning' } },
        {
          id: 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL',
          shortDescription: { text: 'TOOL_SURFACE_UNKNOWN_PROMPT_TOOL' },
          defaultConfiguration: { level: 'note' },
        },
      ],
    });
    expect(run!.columnKind).toBe('utf16CodeUnits');
    expect(run!.results.map((r) => [r.ruleId, r.ruleIndex, r.level])).toEqual([
      ['DOCUMENT_PARSE_ERROR', 0, 'error'],
      ['CONTRACT_X', 1, 'warning'],
      ['DOCUMENT_PARSE_ERROR', 0, 'error'],
      ['TOOL_SURFACE_UNKNOWN_PROMPT_TOOL', 2, 'note'],
    ]);
    expect(run!.results[0]).toEqual({
      ruleId: 'DOCUMENT_PARSE_ERROR',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'JSON syntax: bad' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'contracts/refund.json' },
            region: { startLine: 3, startColumn: 5, endLine: 3, endColumn: 6 },
          },
        },
      ],
      properties: { jsonPath: '$', target: 'document' },
    });
  });

  it('places a prompt finding where the prompt is in the file and keeps its prompt position in the message', () => {
    const result = buildSarifLog(diagnostics).runs[0]!.results[3]!;
    expect(result.locations[0]!.physicalLocation.region).toEqual({ startLine: 10, startColumn: 8, endLine: 10, endColumn: 25 });
    expect(result.message.text).toBe('p (system prompt, line 2, column 6)');
    expect(result.properties).toEqual({ jsonPath: '$.system', target: 'prompt' });
  });

  it('is a valid log with no findings, and reports unreadable files as failed execution', () => {
    const empty = buildSarifLog([]);
    expect(validSarif(empty)).toEqual([]);
    expect(empty.runs[0]!.results).toEqual([]);
    expect(empty.runs[0]!.invocations).toEqual([{ executionSuccessful: true, toolExecutionNotifications: [] }]);
    const failed = buildSarifLog([], { unreadable: [{ file: 'gone.json', message: 'Cannot read gone.json: ENOENT' }] });
    expect(validSarif(failed)).toEqual([]);
    expect(failed.runs[0]!.invocations).toEqual([
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: { text: 'Cannot read gone.json: ENOENT' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'gone.json' } } }],
          },
        ],
      },
    ]);
  });

  it('the subset schema does catch a broken log', () => {
    const log = buildSarifLog(diagnostics) as unknown as {
      runs: { results: { locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[];
    };
    log.runs[0]!.results[0]!.locations[0]!.physicalLocation.region.startLine = 0;
    expect(validSarif(log)).toEqual(['/runs/0/results/0/locations/0/physicalLocation/region/startLine must be >= 1']);
  });
});

describe('sarifRegion', () => {
  it('keeps valid 1-based regions as they are, end column exclusive', () => {
    expect(sarifRegion(range(2, 3, 2, 9))).toEqual(range(2, 3, 2, 9));
    expect(sarifRegion(range(2, 3, 5, 1))).toEqual(range(2, 3, 5, 1));
  });

  it('repairs regions SARIF would refuse: below 1, end before start, not integers', () => {
    expect(sarifRegion(range(0, 0, 0, 0))).toEqual(range(1, 1, 1, 1));
    expect(sarifRegion(range(4, 7, 3, 1))).toEqual(range(4, 7, 4, 7));
    expect(sarifRegion(range(2, 5, 2, 2))).toEqual(range(2, 5, 2, 5));
    expect(sarifRegion(range(Number.NaN, 2.7, 1, 9))).toEqual(range(1, 2, 1, 9));
  });
});

describe('artifactUri', () => {
  it.each([
    ['contracts/a.json', 'contracts/a.json'],
    ['./contracts/a.json', 'contracts/a.json'],
    ['contracts\\a.json', 'contracts/a.json'],
    ['my contracts/a#1?.json', 'my%20contracts/a%231%3F.json'],
    ['/home/me/a.json', 'file:///home/me/a.json'],
    ['C:\\work\\a b.json', 'file:///C:/work/a%20b.json'],
  ])('%s -> %s', (file, uri) => {
    expect(artifactUri(file)).toBe(uri);
  });
});
