import type { ChangeKey } from '../../cache/change-feed';
import type { DocumentKind } from '../../lint';
import type { Permission } from '../../tenants/roles';
import type { DocumentStore } from '../stores/document-store';

/**
 * What makes a contract, a policy and a surface different, plugged into the one core that saves,
 * publishes, lists and deprecates versioned documents (lib/documents/*-document*.ts). The core
 * owns everything they share: drafts keyed by `id` and `version`, frozen published versions,
 * versions that only move forward, lint before publish, at most one shadow version per document.
 */
export interface DocumentKindSpec<Columns> {
  kind: DocumentKind;
  /** The nouns of messages, pages and paths: `contract` / `contracts`. */
  one: string;
  many: string;
  /** Publishing bumps it, so every instance drops what it cached of the kind. */
  changeKey: ChangeKey;
  /** The dashboard permission that saves and publishes the kind (API keys need the `author` scope). */
  editPermission: Permission;
  /**
   * How the kind's HTTP API names a document's id in answers and error details. Contracts say
   * `tool` (a contract's id is its tool's id); agents and the SDK read it, so it stays.
   */
  apiIdField: 'tool' | 'id';
  /** Whether a version may be published as `shadow`: evaluated beside the served one, deciding nothing. */
  shadow: boolean;
  store: DocumentStore<Columns>;
  /** How messages name one version. */
  label(id: string, version: string): string;
  /** Checks a draft on save (throws AppError) and gives what it is stored as and under. */
  readDraft(document: unknown): { id: string; version: string; text: string; columns: Columns };
  /**
   * Compiles a stored version on publish (throws AppError when it cannot be served): the
   * document the linter checks, the content hash the frozen version keeps, and the owner's columns.
   */
  compile(document: unknown, label: string): { document: unknown; contentHash: string | null; columns: Columns };
}
