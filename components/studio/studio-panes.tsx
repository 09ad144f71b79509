'use client';

import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { PaneSplitter } from './pane-splitter';
import { PANE_LIMITS, useFit, usePaneSizes } from './pane-sizes';

/** From this width the panels sit beside the editor; below it (1024 px screens) under it. */
const SIDE_BY_SIDE_MIN_WIDTH = 1000;
/** A surface's document and prompt side by side from this width of the editor area, else stacked. */
const PROMPT_BESIDE_MIN_WIDTH = 900;
const MIN_EDITOR_HEIGHT = 360;
/** Room kept under the panes: the page's bottom padding. */
const BOTTOM_GAP = 20;

/**
 * The studio's layout: the editor (and a surface's prompt) takes the height the window has below
 * the toolbar, and the panels (problems, impact, try a request, history) sit beside it on wide
 * screens or under it on narrow ones. Every division is a keyboard-operable splitter, and the
 * sizes are remembered in the browser.
 */
export function StudioPanes({
  editor,
  prompt,
  panels,
}: {
  editor: RefObject<HTMLDivElement | null>;
  prompt?: ReactNode;
  panels: ReactNode;
}) {
  const id = useId();
  const panes = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const area = useRef<HTMLDivElement>(null);
  const fit = useFit(panes, BOTTOM_GAP);
  const [sizes, setSize] = usePaneSizes();
  const beside = fit.width >= SIDE_BY_SIDE_MIN_WIDTH;
  const available = Math.max(MIN_EDITOR_HEIGHT, fit.height);
  const areaHeight = beside ? available : Math.max(MIN_EDITOR_HEIGHT * 0.75, Math.round((available * sizes.stack) / 100));
  const areaWidth = beside ? (fit.width * sizes.side) / 100 : fit.width;
  const promptBeside = areaWidth >= PROMPT_BESIDE_MIN_WIDTH;

  const documentPane = (
    <div
      ref={editor}
      data-testid="studio-editor"
      className="h-full min-h-0 w-full min-w-0 overflow-hidden rounded-md border border-zinc-200 bg-white"
    />
  );

  return (
    <div
      ref={panes}
      data-testid="studio-panes"
      data-layout={beside ? 'beside' : 'stacked'}
      className={`relative flex ${beside ? 'flex-row' : 'flex-col'}`}
      style={beside ? { height: available } : undefined}
    >
      {/* What the stacked splitter's percentage is of: the height available to the editor. */}
      <div ref={frame} aria-hidden className="pointer-events-none absolute inset-x-0 top-0" style={{ height: available }} />
      <div
        id={`${id}-editor`}
        ref={area}
        className={`flex min-h-0 min-w-0 shrink-0 ${promptBeside ? 'flex-row' : 'flex-col'}`}
        style={beside ? { width: `${sizes.side}%` } : { height: areaHeight }}
      >
        {prompt ? (
          <>
            <div
              id={`${id}-document`}
              className="flex min-h-0 min-w-0 shrink-0"
              style={promptBeside ? { width: `${sizes.prompt}%` } : { height: `${sizes.prompt}%` }}
            >
              {documentPane}
            </div>
            <PaneSplitter
              orientation={promptBeside ? 'vertical' : 'horizontal'}
              value={sizes.prompt}
              min={PANE_LIMITS.prompt[0]}
              max={PANE_LIMITS.prompt[1]}
              onChange={(value) => setSize('prompt', value)}
              container={area}
              label="Resize the document and the system prompt"
              controls={`${id}-document`}
              testId="prompt-splitter"
            />
            <div className="flex min-h-0 min-w-0 flex-1 flex-col">{prompt}</div>
          </>
        ) : (
          documentPane
        )}
      </div>
      <PaneSplitter
        orientation={beside ? 'vertical' : 'horizontal'}
        value={beside ? sizes.side : sizes.stack}
        min={PANE_LIMITS[beside ? 'side' : 'stack'][0]}
        max={PANE_LIMITS[beside ? 'side' : 'stack'][1]}
        onChange={(value) => setSize(beside ? 'side' : 'stack', value)}
        container={beside ? panes : frame}
        label="Resize the editor and the panels"
        controls={`${id}-editor`}
        testId="panes-splitter"
      />
      <div
        role="region"
        aria-label="Studio panels"
        data-testid="studio-panels"
        className={`flex min-w-0 flex-col gap-3 ${beside ? 'min-h-0 flex-1 overflow-y-auto pr-1' : 'pt-1'}`}
      >
        {panels}
      </div>
    </div>
  );
}
