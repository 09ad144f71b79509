import type { ApiRoute } from './define-route';
import { createRouteMatcher } from './match-route';
import { mountRoute } from './mount-route';
import { validatePreHandler, validatePostHandler } from './handlers/validate';
import { getApprovalHandler, decideApprovalHandler, listApprovalsHandler } from './handlers/approvals';
import { createWebhookHandler, deleteWebhookHandler, listWebhooksHandler } from './handlers/webhooks';
import { createConfirmationHandler } from './handlers/confirmations';
import { hostedMcpHandler } from './handlers/mcp-gateway';
import {
  acceptMcpDriftHandler,
  deleteMcpServerHandler,
  getMcpDriftHandler,
  getMcpServerHandler,
  listMcpServersHandler,
  registerMcpServerHandler,
  reportMcpToolsHandler,
  updateMcpServerHandler,
} from './handlers/mcp-servers';
import { validateManifestHandler } from './handlers/manifests';
import { validatePipelineHandler } from './handlers/pipeline';
import { pipelineContextSchemaHandler, toolCallManifestSchemaHandler } from './handlers/schemas';
import {
  deprecateContractHandler,
  exportContractHandler,
  importContractsHandler,
  getContractVersionHandler,
  previewContractImpactHandler,
  listContractsHandler,
  publishContractVersionHandler,
  saveContractDraftHandler,
} from './handlers/contracts';
import { toolContractSchemaHandler } from './handlers/schemas';
import {
  getPolicyVersionHandler,
  listPoliciesHandler,
  previewPolicyImpactHandler,
  publishPolicyVersionHandler,
  savePolicyDraftHandler,
} from './handlers/policies';
import { tryPolicyHandler } from './handlers/try-policy';
import { policySchemaHandler, surfaceSchemaHandler } from './handlers/schemas';
import { getSurfaceVersionHandler, listSurfacesHandler, publishSurfaceVersionHandler, saveSurfaceDraftHandler } from './handlers/surfaces';
import { lintHandler } from './handlers/lint';
import {
  getVerificationRunHandler,
  listVerificationRunsHandler,
  startVerificationRunHandler,
  verifyEvidenceHandler,
} from './handlers/evidence';
import { listViolationsHandler, violationStatsHandler } from './handlers/violations';
import { overviewHandler } from './handlers/overview';
import { getTraceHandler, listTracesHandler } from './handlers/traces';
import { createApiKeyHandler, listApiKeysHandler, revokeApiKeyHandler } from './handlers/api-keys';
import { acceptInvitationHandler, revokeInvitationHandler } from './handlers/invitations';
import { completePasswordResetHandler, requestPasswordResetHandler } from './handlers/password-resets';
import { changeMemberRoleHandler, inviteMemberHandler, listMembersHandler, removeMemberHandler } from './handlers/members';
import { listSessionTenantsHandler, switchSessionTenantHandler } from './handlers/session';
import { getSettingsHandler, updateSettingsHandler } from './handlers/settings';
import { openApiHandler } from './handlers/openapi';

/**
 * Every route under /api/v1, declared once. Next serves them through route files generated from
 * this table (`npm run routes`, lib/api/route-files.ts; a test fails when they are stale), with one
 * catch-all (app/api/v1/[...path]/route.ts) answering paths no template matches; the data plane
 * serves those marked `dataPlane`; the OpenAPI document and the Allow headers are generated from
 * them. Adding an endpoint is a handler in lib/api/handlers/<resource>.ts, one row here, then
 * `npm run routes`. Better Auth's routes (app/api/auth) are
 * not in the table: they are Better Auth's own.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/validate/pre',
    summary: 'Check a proposed tool call before it runs',
    handler: validatePreHandler,
    dataPlane: true,
  },
  { method: 'POST', path: '/api/v1/validate/post', summary: 'Check what a tool returned', handler: validatePostHandler, dataPlane: true },
  {
    method: 'POST',
    path: '/api/v1/confirmations',
    summary: "Record the user's confirmation of one exact call",
    handler: createConfirmationHandler,
    dataPlane: true,
  },
  {
    method: 'POST',
    path: '/api/v1/pipeline/validate',
    summary: 'Check an agent pipeline context against the AGN-036 rules',
    handler: validatePipelineHandler,
    dataPlane: true,
  },
  {
    method: 'POST',
    path: '/api/v1/manifests/validate',
    summary: 'Check a tool-call manifest (AGN-036 section 5)',
    handler: validateManifestHandler,
    dataPlane: true,
  },
  { method: 'GET', path: '/api/v1/approvals', summary: 'The approval queue, newest first', handler: listApprovalsHandler },
  {
    method: 'GET',
    path: '/api/v1/approvals/{id}',
    summary: 'An approval, with its token once approved; long polling with ?wait=N',
    handler: getApprovalHandler,
    dataPlane: true,
  },
  {
    method: 'POST',
    path: '/api/v1/approvals/{id}/decision',
    summary: 'Approve (optionally with edited arguments), deny, or escalate',
    handler: decideApprovalHandler,
  },
  { method: 'GET', path: '/api/v1/webhooks', summary: 'Webhooks and their latest deliveries', handler: listWebhooksHandler },
  {
    method: 'POST',
    path: '/api/v1/webhooks',
    summary: 'Register a webhook (its signing secret is shown once)',
    handler: createWebhookHandler,
  },
  { method: 'DELETE', path: '/api/v1/webhooks/{id}', summary: 'Delete a webhook', handler: deleteWebhookHandler },
  {
    method: 'POST',
    path: '/api/v1/mcp/{server}',
    summary: "The hosted MCP gateway: MCP over Streamable HTTP (stateless), the agent's API key as Bearer",
    handler: hostedMcpHandler,
    dataPlane: true,
  },
  {
    method: 'GET',
    path: '/api/v1/mcp-servers',
    summary: 'MCP servers (hosted and proxied) and their tools',
    handler: listMcpServersHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/mcp-servers',
    summary: 'Register a hosted MCP server (Streamable HTTP)',
    handler: registerMcpServerHandler,
  },
  { method: 'GET', path: '/api/v1/mcp-servers/{server}', summary: 'One MCP server and its tools', handler: getMcpServerHandler },
  { method: 'PATCH', path: '/api/v1/mcp-servers/{server}', summary: "Change an MCP server's settings", handler: updateMcpServerHandler },
  { method: 'DELETE', path: '/api/v1/mcp-servers/{server}', summary: 'Forget an MCP server and its pins', handler: deleteMcpServerHandler },
  {
    method: 'POST',
    path: '/api/v1/mcp-servers/{server}/tools',
    summary: "The stdio proxy reports its upstream's tools; answers how each stands",
    handler: reportMcpToolsHandler,
    dataPlane: true,
  },
  {
    method: 'GET',
    path: '/api/v1/mcp-servers/{server}/tools/{tool}/drift',
    summary: "A tool's changed upstream definition, for review",
    handler: getMcpDriftHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/mcp-servers/{server}/tools/{tool}/drift/accept',
    summary: "Accept a tool's changed upstream definition",
    handler: acceptMcpDriftHandler,
  },
  { method: 'GET', path: '/api/v1/contracts', summary: 'Contracts and their versions', handler: listContractsHandler },
  { method: 'POST', path: '/api/v1/contracts', summary: 'Create or replace a contract draft', handler: saveContractDraftHandler },
  { method: 'GET', path: '/api/v1/contracts/{id}/versions/{version}', summary: 'One contract version', handler: getContractVersionHandler },
  {
    method: 'POST',
    path: '/api/v1/contracts/{id}/versions/{version}/publish',
    summary: 'Publish a draft',
    handler: publishContractVersionHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/contracts/{id}/impact',
    summary: 'Replay a draft against recent recorded calls (impact preview)',
    handler: previewContractImpactHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/contracts/import',
    summary: 'Draft contracts from MCP, OpenAI or Anthropic tool definitions',
    handler: importContractsHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/contracts/{id}/versions/{version}/export',
    summary: 'A contract version as an MCP, OpenAI or Anthropic tool definition',
    handler: exportContractHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/contracts/{id}/deprecate',
    summary: 'Deprecate a version or a contract',
    handler: deprecateContractHandler,
  },
  { method: 'GET', path: '/api/v1/policies', summary: 'Policies and their versions', handler: listPoliciesHandler },
  { method: 'POST', path: '/api/v1/policies', summary: 'Create or replace a policy draft', handler: savePolicyDraftHandler },
  { method: 'GET', path: '/api/v1/policies/{id}/versions/{version}', summary: 'One policy version', handler: getPolicyVersionHandler },
  {
    method: 'POST',
    path: '/api/v1/policies/{id}/versions/{version}/publish',
    summary: 'Publish a policy draft (refused with 409 lint_errors on error diagnostics)',
    handler: publishPolicyVersionHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/policies/{id}/impact',
    summary: 'Replay a policy draft against recent recorded calls beside the enforced policies (impact preview)',
    handler: previewPolicyImpactHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/policies/try',
    summary: 'Try a call against a draft policy with a simulated history (the policy playground); nothing is recorded',
    handler: tryPolicyHandler,
  },
  { method: 'GET', path: '/api/v1/surfaces', summary: 'Tool surfaces and their versions', handler: listSurfacesHandler },
  { method: 'POST', path: '/api/v1/surfaces', summary: 'Create or replace a tool surface draft', handler: saveSurfaceDraftHandler },
  {
    method: 'GET',
    path: '/api/v1/surfaces/{id}/versions/{version}',
    summary: 'One tool surface version',
    handler: getSurfaceVersionHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/surfaces/{id}/versions/{version}/publish',
    summary: 'Publish a tool surface draft (refused with 409 lint_errors on error diagnostics)',
    handler: publishSurfaceVersionHandler,
  },
  { method: 'POST', path: '/api/v1/lint', summary: 'Lint contract, policy and surface documents', handler: lintHandler },
  { method: 'GET', path: '/api/v1/schemas/policy.json', summary: 'The JSON Schema of policies', handler: policySchemaHandler },
  { method: 'GET', path: '/api/v1/schemas/surface.json', summary: 'The JSON Schema of tool surfaces', handler: surfaceSchemaHandler },
  {
    method: 'GET',
    path: '/api/v1/schemas/tool-contract.json',
    summary: 'The JSON Schema of tool contracts',
    handler: toolContractSchemaHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/schemas/pipeline-context.json',
    summary: 'The JSON Schema of AGN-036 pipeline contexts',
    handler: pipelineContextSchemaHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/schemas/tool-call-manifest.json',
    summary: 'The JSON Schema of tool-call manifests',
    handler: toolCallManifestSchemaHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/evidence/verify',
    summary: "Verify the tenant's evidence hash chain (from the newest verified checkpoint, or mode=full)",
    handler: verifyEvidenceHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/evidence/verify/runs',
    summary: 'Start a full re-verification of the chain in the background (or answer the one running)',
    handler: startVerificationRunHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/evidence/verify/runs',
    summary: "The tenant's latest verification runs",
    handler: listVerificationRunsHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/evidence/verify/runs/{id}',
    summary: "A verification run's progress or result",
    handler: getVerificationRunHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/violations',
    summary: 'Violations, filtered and paged (format=csv: a CSV download)',
    handler: listViolationsHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/violations/stats',
    summary: 'Violation counts per code over time, and the top codes, tools and keys',
    handler: violationStatsHandler,
  },
  { method: 'GET', path: '/api/v1/traces', summary: 'Traces (one row per call), filtered and paged', handler: listTracesHandler },
  {
    method: 'GET',
    path: '/api/v1/traces/{traceId}',
    summary: 'One trace: its evidence records, approvals and timeline',
    handler: getTraceHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/overview',
    summary: 'The last 24 hours: calls, refusals, pending approvals, noisiest codes',
    handler: overviewHandler,
  },
  { method: 'GET', path: '/api/v1/api-keys', summary: 'API keys', handler: listApiKeysHandler },
  { method: 'POST', path: '/api/v1/api-keys', summary: 'Create an API key (shown once)', handler: createApiKeyHandler },
  { method: 'POST', path: '/api/v1/api-keys/{id}/revoke', summary: 'Revoke an API key', handler: revokeApiKeyHandler },
  { method: 'GET', path: '/api/v1/members', summary: "The tenant's members and pending invitations", handler: listMembersHandler },
  {
    method: 'POST',
    path: '/api/v1/members',
    summary: 'Invite a person by email with a role (the link is shown once, and e-mailed when SMTP is set up)',
    handler: inviteMemberHandler,
  },
  {
    method: 'PATCH',
    path: '/api/v1/members/{id}',
    summary: "Change a member's role (the last admin cannot be demoted)",
    handler: changeMemberRoleHandler,
  },
  {
    method: 'DELETE',
    path: '/api/v1/members/{id}',
    summary: 'Remove a member (the last admin cannot be removed)',
    handler: removeMemberHandler,
  },
  { method: 'DELETE', path: '/api/v1/invitations/{id}', summary: 'Revoke a pending invitation', handler: revokeInvitationHandler },
  {
    method: 'POST',
    path: '/api/v1/invitations/accept',
    summary: "Accept an invitation by setting a password (no auth: the link's token is the credential)",
    handler: acceptInvitationHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/password-resets',
    summary: 'Mail a password reset link to an address, if an account with a password has it (no auth; only when the instance sends mail)',
    handler: requestPasswordResetHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/password-resets/complete',
    summary: "Set a new password with a reset link the operator made (no auth: the link's token is the credential)",
    handler: completePasswordResetHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/session/tenants',
    summary: 'The tenants the signed-in person belongs to',
    handler: listSessionTenantsHandler,
  },
  {
    method: 'POST',
    path: '/api/v1/session/tenant',
    summary: 'Switch the tenant the signed-in person acts in',
    handler: switchSessionTenantHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/settings',
    summary: "The tenant's settings: argument retention, sensitive paths, approval expiry, duplicate window",
    handler: getSettingsHandler,
  },
  {
    method: 'PATCH',
    path: '/api/v1/settings',
    summary: "Change the tenant's settings (admins; recorded as evidence)",
    handler: updateSettingsHandler,
  },
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    summary: 'This API described in OpenAPI 3, generated from this table',
    handler: openApiHandler(() => API_ROUTES),
  },
];

/** The routes of a pathname's template, for Next's catch-all and the data plane alike. */
export const matchApiRoute = createRouteMatcher(API_ROUTES);

/** A generated route file's exports (lib/api/route-files.ts): the table's routes of one path template. */
export function mountTableRoute(template: string) {
  const routes = API_ROUTES.filter((route) => route.path === template);
  if (routes.length === 0) throw new Error(`no route in lib/api/routes.ts has the template ${template}: run npm run routes`);
  return mountRoute(Object.fromEntries(routes.map((route) => [route.method, route.handler])));
}
