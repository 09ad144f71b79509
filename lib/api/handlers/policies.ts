import { studioDocumentHandlers } from './document-handlers';

/** /api/v1/policies: list, save a draft, read a version, publish (enforce or shadow). */
export const {
  list: listPoliciesHandler,
  saveDraft: savePolicyDraftHandler,
  getVersion: getPolicyVersionHandler,
  publish: publishPolicyVersionHandler,
} = studioDocumentHandlers('policy');
