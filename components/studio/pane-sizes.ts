'use client';

import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * How the studio's panes are divided, in percent, remembered in the browser (localStorage) so
 * the studio opens as the author left it:
 * - `side`: the editor's share of the width when the panels sit beside it (wide screens);
 * - `stack`: the editor's share of the available height when the panels sit below it;
 * - `prompt`: a surface document's share beside (or above) its system prompt.
 */
export interface PaneSizes {
  side: number;
  stack: number;
  prompt: number;
}

export const DEFAULT_PANE_SIZES: PaneSizes = { side: 70, stack: 88, prompt: 58 };
export const PANE_LIMITS: Record<keyof PaneSizes, readonly [number, number]> = { side: [30, 85], stack: [35, 100], prompt: [20, 80] };
export const PANE_SIZES_KEY = 'toolgate.studio.panes';

export function clampPercent(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
}

/** The stored sizes, each checked and clamped; defaults for anything missing or malformed. */
export function readPaneSizes(stored: string | null): PaneSizes {
  let parsed: unknown;
  try {
    parsed = stored ? JSON.parse(stored) : undefined;
  } catch {
    parsed = undefined;
  }
  const out = { ...DEFAULT_PANE_SIZES };
  if (typeof parsed !== 'object' || parsed === null) return out;
  for (const name of Object.keys(out) as (keyof PaneSizes)[]) {
    const value = (parsed as Record<string, unknown>)[name];
    if (typeof value === 'number' && Number.isFinite(value)) out[name] = clampPercent(value, ...PANE_LIMITS[name]);
  }
  return out;
}

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    // Storage can be switched off; sizes then last for the page.
    return undefined;
  }
}

export function usePaneSizes(): [PaneSizes, (name: keyof PaneSizes, value: number) => void] {
  const [sizes, setSizes] = useState<PaneSizes>(() => readPaneSizes(storage()?.getItem(PANE_SIZES_KEY) ?? null));
  const set = useCallback((name: keyof PaneSizes, value: number) => {
    setSizes((current) => {
      const next = { ...current, [name]: clampPercent(value, ...PANE_LIMITS[name]) };
      try {
        storage()?.setItem(PANE_SIZES_KEY, JSON.stringify(next));
      } catch {
        // Full or refused: the sizes still apply to this page.
      }
      return next;
    });
  }, []);
  return [sizes, set];
}

/**
 * The element's width, and the height from its top to the bottom of the window (less `bottom`
 * px), in page coordinates so that scrolling does not change it: the editor takes the height
 * the screen has, however tall the page header above it is.
 */
export function useFit(ref: RefObject<HTMLElement | null>, bottom: number): { width: number; height: number } {
  const [fit, setFit] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const box = element.getBoundingClientRect();
      const width = Math.round(box.width);
      const height = Math.round(window.innerHeight - (box.top + window.scrollY) - bottom);
      setFit((f) => (f.width === width && f.height === height ? f : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // Whatever appears above the panes (the publish form, a notice) moves them down.
    if (element.parentElement) observer.observe(element.parentElement);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref, bottom]);
  return fit;
}
