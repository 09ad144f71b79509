'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { RevealedText } from '@/components/approvals/revealed-text';
import { escapeHiddenCharacters } from '@/lib/approvals/reveal-hidden-characters';

/** Longer than this (or on several lines), a text starts clamped with a button to show all of it. */
export const CLAMP_OVER_CHARS = 180;

/**
 * A long text in a table cell, clamped to three lines with a button that shows the rest (the
 * whole text is also the title, for a hover). Short texts are plain. Messages quote what agents
 * sent: hidden characters are shown as badges (a U+202E reversed the line it was in).
 */
export function ExpandableText({ text, className = '' }: { text: string; className?: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const body = useRef<HTMLSpanElement>(null);
  // Shown until measured (the server cannot), then only while the clamp hides something: in a
  // wide column a long message can fit its three lines, and "Show all" then opened nothing.
  const [clipped, setClipped] = useState(true);
  useEffect(() => {
    const element = body.current;
    if (!element || open) return;
    const measure = () => setClipped(element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [open, text]);
  if (text.length <= CLAMP_OVER_CHARS && !text.includes('\n'))
    return (
      <span className={`whitespace-pre-line ${className}`}>
        <RevealedText text={text} />
      </span>
    );
  return (
    <span className={`block ${className}`}>
      <span
        id={id}
        ref={body}
        className={`whitespace-pre-line ${open ? 'block' : 'line-clamp-3'}`}
        title={open ? undefined : escapeHiddenCharacters(text)}
      >
        <RevealedText text={text} />
      </span>
      {(open || clipped) && (
        <button
          type="button"
          className="mt-0.5 text-xs font-medium text-brand hover:underline"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </span>
  );
}
