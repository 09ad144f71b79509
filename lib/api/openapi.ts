import { z } from 'zod';
import type { RouteHandler } from './define-route';
import { APP_ERROR_CODES } from '../errors';
import { validatePreHandler, validatePostHandler } from './handlers/validate';
import { getApprovalHandler, decideApprovalHandler, listApprovalsHandler } from './handlers/approvals';
import { createWebhookHandler, deleteWebhookHandler, listWebhooksHandler } from './handlers/webhooks';
import { createConfirmationHandler } from './handlers/confirmations';
import { pipelineContextSchemaHandler, toolCallManifestSchemaHandler, validateManifestHandler, validatePipelineHandler } from './handlers/pipeline';
import { deprecateContractHandler, exportContractHandler, importContractsHandler, getContractVersionHandler, previewContractImpactHandler, listContractsHandler, publishContractVersionHandler, saveContractDraftHandler, toolContractSchemaHandler } from './handlers/contracts';
import { policySchemaHandler, surfaceSchemaHandler, getPolicyVersionHandler, getSurfaceVersionHandler, listPoliciesHandler, listSurfacesHandler, publishPolicyVersionHandler, publishSurfaceVersionHandler, savePolicyDraftHandler, saveSurfaceDraftHandler } from './handlers/studio-documents';
import { lintHandler } from './handlers/lint';
import { verifyEvidenceHandler } from './handlers/evidence';
import { listViolationsHandler, violationStatsHandler } from './handlers/violations';
import { overviewHandler } from './handlers/overview';
import { getTraceHandler, listTracesHandler } from './handlers/traces';
import { createApiKeyHandler, listApiKeysHandler, revokeApiKeyHandler } from './handlers/api-keys';
import { acceptInvitationHandler, changeMemberRoleHandler, inviteMemberHandler, listMembersHandler, listSessionTenantsHandler, removeMemberHandler, revokeInvitationHandler, switchSessionTenantHandler } from './handlers/members';
import { getSettingsHandler, updateSettingsHandler } from './handlers/settings';

interface Endpoint {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  handler: RouteHandler;
}

/** Every endpoint under /api/v1, for the OpenAPI document; a test keeps it equal to app/api/v1. */
export const ENDPOINTS: Endpoint[] = [
  { method: 'post', path: '/api/v1/validate/pre', summary: 'Check a proposed tool call before it runs', handler: validatePreHandler },
  { method: 'post', path: '/api/v1/validate/post', summary: 'Check what a tool returned', handler: validatePostHandler },
  { method: 'post', path: '/api/v1/confirmations', summary: "Record the user's confirmation of one exact call", handler: createConfirmationHandler },
  { method: 'post', path: '/api/v1/pipeline/validate', summary: 'Check an agent pipeline context against the AGN-036 rules', handler: validatePipelineHandler },
  { method: 'post', path: '/api/v1/manifests/validate', summary: 'Check a tool-call manifest (AGN-036 section 5)', handler: validateManifestHandler },
  { method: 'get', path: '/api/v1/approvals', summary: 'The approval queue, newest first', handler: listApprovalsHandler },
  { method: 'get', path: '/api/v1/approvals/{id}', summary: 'An approval, with its token once approved; long polling with ?wait=N', handler: getApprovalHandler },
  { method: 'post', path: '/api/v1/approvals/{id}/decision', summary: 'Approve (optionally with edited arguments), deny, or escalate', handler: decideApprovalHandler },
  { method: 'get', path: '/api/v1/webhooks', summary: 'Webhooks and their latest deliveries', handler: listWebhooksHandler },
  { method: 'post', path: '/api/v1/webhooks', summary: 'Register a webhook (its signing secret is shown once)', handler: createWebhookHandler },
  { method: 'delete', path: '/api/v1/webhooks/{id}', summary: 'Delete a webhook', handler: deleteWebhookHandler },
  { method: 'get', path: '/api/v1/contracts', summary: 'Contracts and their versions', handler: listContractsHandler },
  { method: 'post', path: '/api/v1/contracts', summary: 'Create or replace a contract draft', handler: saveContractDraftHandler },
  { method: 'get', path: '/api/v1/contracts/{tool}/versions/{version}', summary: 'One contract version', handler: getContractVersionHandler },
  { method: 'post', path: '/api/v1/contracts/{tool}/versions/{version}/publish', summary: 'Publish a draft', handler: publishContractVersionHandler },
  { method: 'post', path: '/api/v1/contracts/{tool}/impact', summary: 'Replay a draft against recent recorded calls (impact preview)', handler: previewContractImpactHandler },
  { method: 'post', path: '/api/v1/contracts/import', summary: 'Draft contracts from MCP, OpenAI or Anthropic tool definitions', handler: importContractsHandler },
  { method: 'get', path: '/api/v1/contracts/{tool}/versions/{version}/export', summary: 'A contract version as an MCP, OpenAI or Anthropic tool definition', handler: exportContractHandler },
  { method: 'post', path: '/api/v1/contracts/{tool}/deprecate', summary: 'Deprecate a version or a contract', handler: deprecateContractHandler },
  { method: 'get', path: '/api/v1/policies', summary: 'Policies and their versions', handler: listPoliciesHandler },
  { method: 'post', path: '/api/v1/policies', summary: 'Create or replace a policy draft', handler: savePolicyDraftHandler },
  { method: 'get', path: '/api/v1/policies/{id}/versions/{version}', summary: 'One policy version', handler: getPolicyVersionHandler },
  { method: 'post', path: '/api/v1/policies/{id}/versions/{version}/publish', summary: 'Publish a policy draft (refused with 409 lint_errors on error diagnostics)', handler: publishPolicyVersionHandler },
  { method: 'get', path: '/api/v1/surfaces', summary: 'Tool surfaces and their versions', handler: listSurfacesHandler },
  { method: 'post', path: '/api/v1/surfaces', summary: 'Create or replace a tool surface draft', handler: saveSurfaceDraftHandler },
  { method: 'get', path: '/api/v1/surfaces/{id}/versions/{version}', summary: 'One tool surface version', handler: getSurfaceVersionHandler },
  { method: 'post', path: '/api/v1/surfaces/{id}/versions/{version}/publish', summary: 'Publish a tool surface draft (refused with 409 lint_errors on error diagnostics)', handler: publishSurfaceVersionHandler },
  { method: 'post', path: '/api/v1/lint', summary: 'Lint contract, policy and surface documents', handler: lintHandler },
  { method: 'get', path: '/api/v1/schemas/policy.json', summary: 'The JSON Schema of policies', handler: policySchemaHandler },
  { method: 'get', path: '/api/v1/schemas/surface.json', summary: 'The JSON Schema of tool surfaces', handler: surfaceSchemaHandler },
  { method: 'get', path: '/api/v1/schemas/tool-contract.json', summary: 'The JSON Schema of tool contracts', handler: toolContractSchemaHandler },
  { method: 'get', path: '/api/v1/schemas/pipeline-context.json', summary: 'The JSON Schema of AGN-036 pipeline contexts', handler: pipelineContextSchemaHandler },
  { method: 'get', path: '/api/v1/schemas/tool-call-manifest.json', summary: 'The JSON Schema of tool-call manifests', handler: toolCallManifestSchemaHandler },
  { method: 'get', path: '/api/v1/evidence/verify', summary: "Verify the tenant's evidence hash chain", handler: verifyEvidenceHandler },
  { method: 'get', path: '/api/v1/violations', summary: 'Violations, filtered and paged (format=csv: a CSV download)', handler: listViolationsHandler },
  { method: 'get', path: '/api/v1/violations/stats', summary: 'Violation counts per code over time, and the top codes, tools and keys', handler: violationStatsHandler },
  { method: 'get', path: '/api/v1/traces', summary: 'Traces (one row per call), filtered and paged', handler: listTracesHandler },
  { method: 'get', path: '/api/v1/traces/{traceId}', summary: 'One trace: its evidence records, approvals and timeline', handler: getTraceHandler },
  { method: 'get', path: '/api/v1/overview', summary: 'The last 24 hours: calls, refusals, pending approvals, noisiest codes', handler: overviewHandler },
  { method: 'get', path: '/api/v1/api-keys', summary: 'API keys', handler: listApiKeysHandler },
  { method: 'post', path: '/api/v1/api-keys', summary: 'Create an API key (shown once)', handler: createApiKeyHandler },
  { method: 'post', path: '/api/v1/api-keys/{id}/revoke', summary: 'Revoke an API key', handler: revokeApiKeyHandler },
  { method: 'get', path: '/api/v1/members', summary: "The tenant's members and pending invitations", handler: listMembersHandler },
  { method: 'post', path: '/api/v1/members', summary: 'Invite a person by email with a role (the link is shown once, and e-mailed when SMTP is set up)', handler: inviteMemberHandler },
  { method: 'patch', path: '/api/v1/members/{id}', summary: "Change a member's role (the last admin cannot be demoted)", handler: changeMemberRoleHandler },
  { method: 'delete', path: '/api/v1/members/{id}', summary: 'Remove a member (the last admin cannot be removed)', handler: removeMemberHandler },
  { method: 'delete', path: '/api/v1/invitations/{id}', summary: 'Revoke a pending invitation', handler: revokeInvitationHandler },
  { method: 'post', path: '/api/v1/invitations/accept', summary: "Accept an invitation by setting a password (no auth: the link's token is the credential)", handler: acceptInvitationHandler },
  { method: 'get', path: '/api/v1/session/tenants', summary: 'The tenants the signed-in person belongs to', handler: listSessionTenantsHandler },
  { method: 'post', path: '/api/v1/session/tenant', summary: 'Switch the tenant the signed-in person acts in', handler: switchSessionTenantHandler },
  { method: 'get', path: '/api/v1/settings', summary: "The tenant's settings: argument retention, sensitive paths, approval expiry, duplicate window", handler: getSettingsHandler },
  { method: 'patch', path: '/api/v1/settings', summary: "Change the tenant's settings (admins; recorded as evidence)", handler: updateSettingsHandler },
];

function schema(zodSchema: z.ZodType, io: 'input' | 'output'): unknown {
  // `unrepresentable: 'any'`: the plain-object checks (see lib/json.ts) become `{}`.
  return z.toJSONSchema(zodSchema, { target: 'openapi-3.0', io, unrepresentable: 'any' });
}

/** The OpenAPI 3 document, generated from the same Zod schemas the handlers parse with. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    const spec = endpoint.handler.spec;
    const operation: Record<string, unknown> = { summary: endpoint.summary, responses: {} as Record<string, unknown> };
    const params = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (spec?.query) {
      const query = schema(spec.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(query.properties ?? {})) params.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema: s as { type: string } });
    }
    if (params.length) operation.parameters = params;
    if (spec?.body) operation.requestBody = { required: true, content: { 'application/json': { schema: schema(spec.body, 'input') } } };
    if (spec && spec.auth !== 'none') {
      operation.security = [...(spec.auth.apiKey ? [{ apiKey: typeof spec.auth.apiKey === 'string' ? [spec.auth.apiKey] : [...spec.auth.apiKey] }] : []), ...(spec.auth.session ? [{ session: [spec.auth.session] }] : [])];
    }
    (operation.responses as Record<string, unknown>)['200'] = { description: 'OK', content: { 'application/json': { schema: spec?.response ? schema(spec.response, 'output') : {} } } };
    (operation.responses as Record<string, unknown>).default = { description: 'Error envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    (paths[endpoint.path] ??= {})[endpoint.method] = operation;
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Toolgate API', version: '1' },
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A Toolgate API key; the required scope is listed per operation.' },
        session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token', description: 'A dashboard session; the required permission is listed per operation.' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'request_id'],
          properties: {
            error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string', enum: Object.keys(APP_ERROR_CODES) }, message: { type: 'string' }, details: { type: 'object' } } },
            request_id: { type: 'string' },
          },
        },
      },
    },
  };
}
