// npx tsx bench/contract-compile/run.ts: the time to compile hostile contract schemas, each
// within the 256 KiB document cap, with the Ajv configuration contracts compiled with before
// (references copied into each place that names them, the code optimizer on every schema,
// evaluated-property tracking on every schema, a pattern compiled at each occurrence) and now
// (compileContractSchema), side by side. A compile runs on the thread that answers the gate, so
// these milliseconds are the time every other call waits.
// Options: --runs <n> (default 3; the median is printed).
import type { AnySchema } from 'ajv/dist/types';
import { compilePattern, compileContractSchema, createContractAjv } from '../../lib/contracts/json-schema-engine';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1])) : 3;

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', ...extra, properties });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A definition of `size` properties named from `uses` places. */
const referenceBomb = (size: number, uses: number) =>
  object(Object.fromEntries(range(uses).map((i) => [`p${i}`, { $ref: '#/$defs/a' }])), {
    $defs: { a: object(Object.fromEntries(range(size).map((i) => [`q${i}`, { type: 'integer', minimum: i }]))) },
  });

const SHAPES: { name: string; schema: unknown; before: boolean }[] = [
  {
    name: '4,000 properties with maxLength',
    schema: object(Object.fromEntries(range(4000).map((i) => [`p${i}`, { type: 'string', maxLength: 10 }]))),
    before: true,
  },
  {
    name: '3,000 properties over 500 patterns',
    schema: object(Object.fromEntries(range(3000).map((i) => [`p${i}`, { type: 'string', pattern: `^a{${i % 500}}b$` }]))),
    before: true,
  },
  {
    name: 'allOf of 3,000 members',
    schema: { allOf: range(3000).map((i) => ({ properties: { [`k${i}`]: { minimum: i } } })) },
    before: true,
  },
  { name: '100 properties named from 100 places', schema: referenceBomb(100, 100), before: true },
  // Before: 32 s and 2.7 GB at 300 x 300; at 1,000 x 1,000 the process ran out of memory.
  { name: '1,000 properties named from 1,000 places', schema: referenceBomb(1000, 1000), before: false },
];

/** The configuration before: createContractAjv's instance with the settings it had. */
function compileAsBefore(schema: unknown) {
  const ajv = createContractAjv();
  const opts = ajv.opts as unknown as { inlineRefs: boolean; code: { optimize: number; regExp: unknown } };
  opts.inlineRefs = true;
  opts.code.optimize = 1;
  opts.code.regExp = Object.assign(
    (pattern: string, flags: string) => ({ test: compilePattern(pattern).test, toString: () => `/${pattern}/${flags}` }),
    { code: 'contractPattern' },
  );
  return ajv.compile(schema as AnySchema);
}

function medianMs(compile: () => unknown): number {
  const times = range(runs).map(() => {
    const started = performance.now();
    compile();
    return performance.now() - started;
  });
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

// Warm both paths up (Ajv's own modules, the JIT) on a small schema.
for (let i = 0; i < 20; i++) {
  compileAsBefore(object({ a: { type: 'string', pattern: '^a$' } }));
  compileContractSchema(object({ a: { type: 'string', pattern: '^a$' } }));
}

console.log(`Contract schema compile, median of ${runs} (ms)`);
console.log(`${'schema'.padEnd(42)} ${'bytes'.padStart(8)} ${'before'.padStart(9)} ${'now'.padStart(8)}  ratio`);
for (const { name, schema, before } of SHAPES) {
  const bytes = JSON.stringify(schema).length;
  const now = medianMs(() => compileContractSchema(schema));
  const then = before ? medianMs(() => compileAsBefore(schema)) : null;
  const ratio = then === null ? 'before: out of memory' : `${(then / now).toFixed(1)}x`;
  console.log(
    `${name.padEnd(42)} ${String(bytes).padStart(8)} ${(then === null ? '-' : then.toFixed(0)).padStart(9)} ${now.toFixed(0).padStart(8)}  ${ratio}`,
  );
}
