import '@/components/zod-without-eval';
/**
 * The contract studio's editor, shared by the contract, policy and surface pages.
 *
 *   <StudioEditor kind="policy" apiBase="/api/v1/policies" pageBase="/policies"
 *     documentId={id} loadedVersion={version} initialText={text} initialFormat="json"
 *     readOnly={!can(role, 'edit_policies')} readOnlyReason="…" jsonSchema={policyJsonSchema()}
 *     versions={versions} servedVersion={latestVersion} />
 *
 * A server page loads the data (see app/(dashboard)/contracts/[id]/page.tsx); the editor does
 * the rest in the browser. Surfaces pass `prompt={{field: 'system', initialText}}` to edit the
 * system prompt beside the document, with prompt diagnostics underlined there.
 */
export { StudioEditor } from './studio-editor';
export { editorText, formatDocument, orderLikeSchema } from './document-format';
export { studioVersions } from './types';
export type { StudioEditorProps, StudioLintContext, StudioPrompt, StudioVersion } from './types';
