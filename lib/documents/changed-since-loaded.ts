import { AppError } from '../errors';

/**
 * The 409 for a save or publish of a draft that changed since the author loaded it (another tab,
 * another author): carrying on would overwrite their text, or publish what this author never saw.
 */
export function draftChangedSinceLoaded(label: string, current: string | null, expected?: string | null): AppError {
  return new AppError(
    'conflict',
    current === null
      ? `${label} has no draft now (it was published or removed since you loaded it); nothing was saved.`
      : expected === null
        ? // The author started from no draft (a "new" page): someone else's is there.
          `${label} already has a draft that someone else saved; nothing was changed. Change \`version\` (or \`id\`) to save yours beside it, or open theirs.`
        : `${label} was saved by someone else since you loaded it; nothing was changed. Copy your edits, reload, and apply them to their version.`,
    { reason: 'changed_since_loaded', content_hash: current },
  );
}
