'use client';

import { useRef, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { clampPercent } from './pane-sizes';

/**
 * A splitter between two panes (WAI-ARIA window splitter): a focusable separator whose value is
 * the first pane's share of the container, in percent. Drag it, or focus it and use the arrow
 * keys (Shift for bigger steps), Home and End.
 */
export function PaneSplitter({
  orientation,
  value,
  min,
  max,
  onChange,
  container,
  label,
  controls,
  testId,
}: {
  /** `vertical`: a vertical bar between left and right panes; `horizontal`: between top and bottom. */
  orientation: 'vertical' | 'horizontal';
  value: number;
  min: number;
  max: number;
  onChange(value: number): void;
  /** The element whose size the percentage is of: the panes' common parent. */
  container: RefObject<HTMLElement | null>;
  label: string;
  /** Id of the first pane, which the splitter resizes. */
  controls?: string;
  testId?: string;
}) {
  const dragging = useRef(false);
  const vertical = orientation === 'vertical';
  const set = (next: number) => onChange(clampPercent(next, min, max));

  function fromPointer(event: PointerEvent<HTMLDivElement>) {
    const box = container.current?.getBoundingClientRect();
    if (!box || (vertical ? box.width : box.height) <= 0) return;
    set(vertical ? ((event.clientX - box.left) / box.width) * 100 : ((event.clientY - box.top) / box.height) * 100);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? 10 : 2;
    const back = vertical ? 'ArrowLeft' : 'ArrowUp';
    const forward = vertical ? 'ArrowRight' : 'ArrowDown';
    if (event.key === back) set(value - step);
    else if (event.key === forward) set(value + step);
    else if (event.key === 'Home') set(min);
    else if (event.key === 'End') set(max);
    else return;
    event.preventDefault();
  }

  return (
    <div
      role="separator"
      tabIndex={0}
      aria-orientation={orientation}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-label={label}
      aria-controls={controls}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        dragging.current = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        event.preventDefault();
      }}
      onPointerMove={(event) => {
        if (dragging.current) fromPointer(event);
      }}
      onPointerUp={(event) => {
        dragging.current = false;
        event.currentTarget.releasePointerCapture(event.pointerId);
      }}
      className={`group relative shrink-0 touch-none select-none focus-visible:outline-none ${
        vertical ? 'mx-0.5 w-2 cursor-col-resize' : 'my-0.5 h-2 cursor-row-resize'
      }`}
    >
      <span
        aria-hidden
        className={`absolute rounded-full bg-zinc-300 group-hover:bg-brand group-focus-visible:bg-brand ${
          vertical
            ? 'inset-y-0 left-1/2 w-0.5 -translate-x-1/2 group-focus-visible:w-1'
            : 'inset-x-0 top-1/2 h-0.5 -translate-y-1/2 group-focus-visible:h-1'
        }`}
      />
    </div>
  );
}
