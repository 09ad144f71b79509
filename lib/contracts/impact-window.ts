// What the impact preview replays, in a module without server imports: the studio's panel
// names the same window and cap in its text (the answer does not carry them).

/** Recorded calls of this many days back are replayed. */
export const IMPACT_WINDOW_DAYS = 7;
/** At most this many of them, newest first. */
export const IMPACT_MAX_CALLS = 1000;
