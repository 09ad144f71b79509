'use client';

import { useId, useState } from 'react';

/** Longer than this (or on several lines), a text starts clamped with a button to show all of it. */
export const CLAMP_OVER_CHARS = 180;

/**
 * A long text in a table cell, clamped to three lines with a button that shows the rest (the
 * whole text is also the title, for a hover). Short texts are plain.
 */
export function ExpandableText({ text, className = '' }: { text: string; className?: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (text.length <= CLAMP_OVER_CHARS && !text.includes('\n')) return <span className={`whitespace-pre-line ${className}`}>{text}</span>;
  return (
    <span className={`block ${className}`}>
      <span id={id} className={`whitespace-pre-line ${open ? 'block' : 'line-clamp-3'}`} title={open ? undefined : text}>
        {text}
      </span>
      <button
        type="button"
        className="mt-0.5 text-xs font-medium text-brand hover:underline"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {open ? 'Show less' : 'Show all'}
      </button>
    </span>
  );
}
