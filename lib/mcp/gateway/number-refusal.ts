import { ErrorCode, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { llmMessage } from '@toolgate/sdk/core';
import { formatJsonPath } from '../../validation/json-path';
import { describeNumberFinding, numberIssue, type NumberFinding } from '../../validation/json-numbers';
import { refusal } from './call-tool';

const MAX_LISTED = 20;

/**
 * The answer to an agent's request holding numbers a double cannot hold (the stdio proxy reads
 * its messages with JSON.parse, which would change them). A tools/call is refused the way a deny
 * is: an isError tool result with the llm_message validate/pre gives for such arguments
 * (AXAG_NUMBER_UNREPRESENTABLE, paths rooted at `$.arguments`), so the model sends them again as
 * strings. Any other request gets a JSON-RPC "invalid params" error carrying what the hosted
 * gateway's 400 `number_unrepresentable` carries.
 */
export function numbersAnswer(request: JSONRPCRequest, findings: readonly NumberFinding[]): JSONRPCMessage {
  const name = request.params?.name;
  if (request.method === 'tools/call' && typeof name === 'string') {
    const errors = findings.slice(0, MAX_LISTED).map((finding) => {
      const inArguments = finding.segments[0] === 'params' && finding.segments[1] === 'arguments';
      return numberIssue(name, finding, inArguments ? formatJsonPath(finding.segments.slice(1)) : finding.path);
    });
    return { jsonrpc: '2.0', id: request.id, result: refusal(llmMessage({ tool: name, errors, warnings: [] })) };
  }
  const [first] = findings as [NumberFinding];
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `${describeNumberFinding(first)}; JSON numbers cannot carry it exactly. Send it as a string.`,
      data: {
        code: 'number_unrepresentable',
        path: first.path,
        problem: first.problem,
        paths: findings.slice(0, MAX_LISTED).map((finding) => finding.path),
      },
    },
  };
}
