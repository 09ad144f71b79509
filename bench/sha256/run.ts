// npm run bench:sha256: SHA-256 of contract-sized texts in Chromium, lib/contracts/sha256.ts
// (@noble/hashes) next to the hand-written TypeScript it replaced (the baseline), in one run.
// The studio's linter compiles contracts in the browser and hashes them there.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { chromium } from '@playwright/test';

const sizes = [256, 2_048, 16_384, 131_072];
const ms = Number(process.argv[process.argv.indexOf('--ms') + 1]) || 300;
const bundle = await esbuild.build({
  entryPoints: [path.join(import.meta.dirname, 'browser-entry.ts')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  minify: true,
  write: false,
  logLevel: 'warning',
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  const rows = (await page.evaluate(([s, t]) => (globalThis as never as { runBench: (a: number[], b: number) => unknown }).runBench(s, t), [
    sizes,
    ms,
  ] as const)) as {
    size: number;
    portable: number;
    noble: number;
  }[];
  console.log(`SHA-256 in ${browser.version()}, microseconds per hash (best of 3 x ${ms} ms)`);
  console.log('bytes      hand-written (baseline)   @noble/hashes   noble/baseline');
  for (const row of rows) {
    console.log(
      `${String(row.size).padEnd(10)} ${row.portable.toFixed(2).padStart(22)} ${row.noble.toFixed(2).padStart(15)} ${(row.noble / row.portable).toFixed(2).padStart(11)}x`,
    );
  }
} finally {
  await browser.close();
}
