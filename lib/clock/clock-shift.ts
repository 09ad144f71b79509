/**
 * How far the decision path's clock (./clock.ts) runs from the system clock, in milliseconds.
 * Always 0 while Toolgate serves: only the demo tenant's seed moves it, before the server
 * listens, to make its calls of the last days through the real decision path
 * (lib/seed/seed-clock.ts). A dependency-cruiser rule keeps every other module from importing it.
 */
export const clockShift = { ms: 0 };
