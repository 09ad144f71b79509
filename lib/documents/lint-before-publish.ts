import { AppError } from '../errors';
import { lintDocument, type DocumentKind, type LintResult } from '../lint';
import { listServedDocuments } from './list-documents';

/**
 * The linter's verdict on a stored document, as publishing sees it. Stored documents are JSON,
 * so diagnostics' ranges refer to the document pretty-printed with two-space indentation.
 */
export async function lintStoredDocument(options: {
  tenantId: string;
  kind: DocumentKind;
  document: unknown;
  previousVersion?: string;
}): Promise<LintResult> {
  const text = JSON.stringify(options.document, null, 2);
  const contracts = options.kind !== 'contract' ? await publishedContractDocuments(options.tenantId) : undefined;
  return lintDocument(options.kind, text, { format: 'json', previousVersion: options.previousVersion, contracts, thorough: true });
}

/** Refuses (409 `lint_errors`) a document with any error diagnostic. */
export async function assertPublishable(options: {
  tenantId: string;
  kind: DocumentKind;
  document: unknown;
  previousVersion?: string;
  label: string;
}): Promise<LintResult> {
  const result = await lintStoredDocument(options);
  if (!result.valid) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    throw new AppError(
      'lint_errors',
      `${options.label} cannot be published: ${errors.length} error diagnostic${errors.length === 1 ? '' : 's'}, first ${errors[0]?.code}: ${errors[0]?.message}`,
      {
        diagnostics: result.diagnostics,
      },
    );
  }
  return result;
}

/** The documents of the contract versions the runtime serves: what a surface may refer to, and the arguments a policy's history may read. */
export function publishedContractDocuments(tenantId: string): Promise<unknown[]> {
  return listServedDocuments({ tenantId, kind: 'contract' });
}
