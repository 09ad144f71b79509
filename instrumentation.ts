// Next.js calls register() once when its server starts, before it serves requests: decisions
// that Next's own routes record (an approver's decision, the dashboard's actions) are exported
// as spans too, into the same per-process pipeline the data plane feeds (lib/telemetry).
export async function register(): Promise<void> {
  // Only in Node.js: an edge build of this file drops the branch and never bundles the SDK.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startTraceExport } = await import('./lib/telemetry/trace-export');
  await startTraceExport();
}
