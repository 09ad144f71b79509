import { AppError } from '../../errors';
import { canonicalJson } from '../../contracts/canonical-json';
import { compileContract } from '../../contracts/compile-contract';
import { ToolContractSchema } from '../../contracts/contract-schema';
import { contractStore, type ContractColumns } from '../stores/contract-store';
import type { DocumentKindSpec } from './document-kind';

/**
 * A tool contract. A draft must already be a valid contract document (ToolContractSchema), and
 * publishing compiles it: the frozen version's hash is the compiled contract's, and a contract
 * that does not compile is refused (422 `contract_invalid`). Contracts can be shadowed and
 * deprecated; the runtime resolves them from their own tables (lib/contracts/resolve-contract.ts).
 */
export const contractKind: DocumentKindSpec<ContractColumns> = {
  kind: 'contract',
  one: 'contract',
  many: 'contracts',
  changeKey: 'contracts',
  editPermission: 'edit_contracts',
  apiIdField: 'tool',
  shadow: true,
  store: contractStore,
  label: (id, version) => `${id}@${version}`,

  readDraft(document) {
    const parsed = ToolContractSchema.safeParse(document);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .slice(0, 50)
        .map((issue) => ({ code: 'CONTRACT_SCHEMA_INVALID', path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
      throw new AppError('contract_invalid', `The contract document is invalid: ${problems[0]?.path}: ${problems[0]?.message}`, {
        problems,
      });
    }
    const contract = parsed.data;
    return {
      id: contract.id,
      version: contract.version,
      text: canonicalJson(contract),
      columns: { description: contract.description, owner: contract.owner },
    };
  },

  compile(document, label) {
    const compiled = compileContract(document);
    if (!compiled.ok) {
      throw new AppError('contract_invalid', `${label} does not compile: ${compiled.problems[0]?.message ?? 'unknown problem'}`, {
        problems: compiled.problems,
      });
    }
    const contract = compiled.contract.document;
    return {
      document: contract,
      contentHash: compiled.contract.hash,
      columns: { description: contract.description, owner: contract.owner },
    };
  },
};
