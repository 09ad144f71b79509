import { studioDocumentHandlers } from './document-handlers';

/** /api/v1/surfaces: list, save a draft, read a version, publish. */
export const {
  list: listSurfacesHandler,
  saveDraft: saveSurfaceDraftHandler,
  getVersion: getSurfaceVersionHandler,
  publish: publishSurfaceVersionHandler,
} = studioDocumentHandlers('surface');
