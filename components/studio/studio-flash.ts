'use client';

import type { Notice } from './studio-notice';

/**
 * A confirmation that outlives a navigation: saving or publishing from a "new" page opens the
 * document's own page, which shows what happened. Kept in sessionStorage for one page load,
 * for the page it names, and only briefly.
 */
const KEY = 'toolgate.studio.flash';
const MAX_AGE_MS = 30_000;

export function leaveFlash(path: string, notice: NonNullable<Notice>): void {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify({ path, notice, at: Date.now() }));
  } catch {
    // Without storage the next page simply says nothing.
  }
}

export function takeFlash(path: string): Notice {
  try {
    const stored = window.sessionStorage.getItem(KEY);
    if (!stored) return null;
    const flash = JSON.parse(stored) as { path?: unknown; notice?: { tone?: unknown; text?: unknown }; at?: unknown };
    if (flash.path !== path) return null;
    window.sessionStorage.removeItem(KEY);
    const fresh = typeof flash.at === 'number' && Date.now() - flash.at < MAX_AGE_MS;
    const { tone, text } = flash.notice ?? {};
    return fresh && (tone === 'success' || tone === 'error') && typeof text === 'string' ? { tone, text: text.slice(0, 500) } : null;
  } catch {
    return null;
  }
}
