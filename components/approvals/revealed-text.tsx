import {
  hiddenKindWords,
  revealHiddenCharacters,
  summarizeHiddenCharacters,
  type HiddenCharacter,
  type HiddenCharacterKind,
} from '@/lib/approvals/reveal-hidden-characters';

/**
 * Text drawn with its hidden characters as visible badges (lib/approvals/reveal-hidden-characters.ts):
 * the characters themselves never reach the page, so a right-to-left override cannot reorder
 * what follows it. Works in server and client components.
 */

function HiddenBadge({ hidden, count }: { hidden: HiddenCharacter; count: number }) {
  return (
    <span
      data-testid="hidden-character"
      data-code-point={hidden.label}
      title={`${hidden.name} (${hidden.label}), invisible in the original${count > 1 ? `, ${count} times` : ''}`}
      className="mx-px inline-block rounded border border-amber-400 bg-amber-100 px-0.5 align-baseline font-mono text-[0.85em] leading-none text-amber-900"
    >
      &lt;{hidden.label}&gt;{count > 1 ? `×${count}` : ''}
    </span>
  );
}

export function RevealedText({ text }: { text: string }) {
  const revealed = revealHiddenCharacters(text);
  return (
    <>
      {revealed.segments.map((segment, i) =>
        'text' in segment ? <span key={i}>{segment.text}</span> : <HiddenBadge key={i} hidden={segment.hidden} count={segment.count} />,
      )}
      {revealed.truncated && <span className="text-zinc-500"> … (cut: too long to show whole)</span>}
    </>
  );
}

/** A JSON value pretty-printed, hidden characters in its keys and values revealed at any depth. */
export function RevealedJson({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <pre
      dir="ltr"
      data-testid={testId}
      className="mt-1 max-h-64 overflow-auto rounded bg-zinc-50 p-2 text-xs break-all whitespace-pre-wrap"
    >
      <RevealedText text={JSON.stringify(value, null, 2) ?? 'null'} />
    </pre>
  );
}

/** Hidden characters found in some texts: how many, and of which kinds. */
export function findHidden(texts: readonly (string | null | undefined)[]): { count: number; kinds: HiddenCharacterKind[] } {
  return summarizeHiddenCharacters(texts.filter((t): t is string => typeof t === 'string').join('\n'));
}

/** The warning GitHub shows for hidden Unicode, for a card whose text has some. */
export function HiddenCharactersWarning({ count, kinds }: { count: number; kinds: HiddenCharacterKind[] }) {
  if (count === 0) return null;
  return (
    <div
      role="alert"
      data-testid="hidden-characters-warning"
      className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p className="font-medium">
        ⚠ {count} hidden or direction-changing character{count === 1 ? '' : 's'} ({kinds.map(hiddenKindWords).join(', ')})
      </p>
      <p className="mt-0.5 text-xs">
        They are shown as <span className="font-mono">&lt;U+…&gt;</span> badges. In other tools they would be invisible or reorder the text
        around them, so text containing them may not be what it appears to be: read the values with the badges in place before deciding.
      </p>
    </div>
  );
}
