// npx tsx bench/pipeline/run.ts: AGN-036 validator throughput, in process, on one core.
//   A "full run" is what one request through the pipeline costs the validator: validateCore,
//   then validatePreStep and validatePostStep for all ten steps (ResponseBuilder's POST with its
//   `before` snapshot), then validateToolCallManifest: 22 validator calls. Steps a context type
//   does not go through (SessionRestorer for Initial ...) are validated against the context as
//   it stands at that point, so their issues are part of the cost; the table shows how many.
// Options: --seconds <s> per scenario (default 3), --warmup <s> (default 1).
import os from 'node:os';
import { exampleManifest, exampleRun, type ExampleStep } from '../../lib/pipeline/examples';
import { PIPELINE_STEPS, type PipelineContext, type PipelineContextType } from '../../lib/pipeline/types';
import { validateCore, validatePostStep, validatePreStep, validateToolCallManifest } from '../../lib/pipeline/validate-pipeline';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const seconds = option('seconds', 3);
const warmup = option('warmup', 1);

const CALLS_PER_RUN = 2 + 2 * PIPELINE_STEPS.length;

/** Before/after snapshots for all ten steps, in pipeline order. */
function allSteps(type: PipelineContextType): ExampleStep[] {
  const run = exampleRun(type);
  let current: PipelineContext = (run[0] as ExampleStep).before;
  return PIPELINE_STEPS.map((step) => {
    const found = run.find((entry) => entry.step === step);
    if (found) current = found.after;
    return found ?? { step, before: current, after: current };
  });
}

function fullRun(steps: ExampleStep[], manifest: unknown): number {
  let errors = validateCore((steps[0] as ExampleStep).after).errors.length;
  for (const { step, before, after } of steps) {
    errors += validatePreStep(before, step).errors.length;
    errors += validatePostStep(after, step, before).errors.length;
  }
  return errors + validateToolCallManifest(manifest).errors.length;
}

function measure(steps: ExampleStep[], manifest: unknown): { runsPerSecond: number; errorsPerRun: number } {
  const errorsPerRun = fullRun(steps, manifest);
  for (const end = performance.now() + warmup * 1000; performance.now() < end;) fullRun(steps, manifest);
  let runs = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) fullRun(steps, manifest);
    runs += 100;
  }
  return { runsPerSecond: runs / ((performance.now() - start) / 1000), errorsPerRun };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const scenarios: [string, PipelineContextType][] = [
  ['Initial', 'Initial'],
  ['ClientToolCallContinuation', 'ClientToolCallContinuation'],
];

console.log(`AGN-036 pipeline validation, one thread (${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version})`);
console.log(`full run = validateCore + PRE and POST of ${PIPELINE_STEPS.length} steps + validateToolCallManifest = ${CALLS_PER_RUN} calls`);
console.log(`${seconds} s per scenario after ${warmup} s warm-up\n`);
const rows = scenarios.map(([label, type]) => {
  const steps = allSteps(type);
  const last = steps[steps.length - 1] as ExampleStep;
  const { runsPerSecond, errorsPerRun } = measure(steps, last.after.ToolCallManifest ?? exampleManifest());
  return [
    label,
    fmt(runsPerSecond),
    fmt(runsPerSecond * CALLS_PER_RUN),
    (1e6 / (runsPerSecond * CALLS_PER_RUN)).toFixed(2),
    String(errorsPerRun),
  ];
});
const header = ['context', 'full runs/s', 'validator calls/s', 'µs/call', 'errors/run'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
const align = (cell: string, i: number) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0));
for (const row of [header, ...rows]) console.log(row.map(align).join('  '));
