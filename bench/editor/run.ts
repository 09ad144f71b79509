// npx tsx bench/editor/run.ts: the studio's keystroke-to-diagnostic time, in Chromium.
//   Saves a 2,000-line contract as a draft on a running Toolgate, opens it in the studio, then
//   ~20 times types one character that makes the contract invalid (`"maxLength": -64`) and
//   times, inside the page, from the keydown to the error underline being in the DOM; then
//   deletes it and times until the underline is gone. The goal is under 150 ms.
// Environment: TOOLGATE_URL (default http://127.0.0.1:3000), TOOLGATE_EMAIL and
//   TOOLGATE_PASSWORD of an author or admin, CHROMIUM_PATH (default /usr/bin/chromium).
// Options: --keystrokes <n> (default 20), --warmup <n> keystrokes not counted (default 3; the
//   worker's first lints run before the JIT has warmed up), --lines <n> (default 2000).
import { chromium, type Page } from '@playwright/test';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const keystrokes = option('keystrokes', 20);
const warmup = option('warmup', 3);
const targetLines = option('lines', 2000);
const base = process.env.TOOLGATE_URL ?? 'http://127.0.0.1:3000';
const email = process.env.TOOLGATE_EMAIL;
const password = process.env.TOOLGATE_PASSWORD;
if (!email || !password) {
  console.error('bench/editor: set TOOLGATE_EMAIL and TOOLGATE_PASSWORD to an author or admin of the server at TOOLGATE_URL.');
  process.exit(2);
}

const TOOL = 'bench.editor_large';
const LINES_PER_FIELD = 5;

/** A contract whose pretty JSON is about `lines` long: one 5-line input property per step. */
function largeContract(lines: number) {
  const fields = Math.max(keystrokes + 2, Math.ceil((lines - 40) / LINES_PER_FIELD));
  const properties: Record<string, unknown> = {};
  for (let i = 1; i <= fields; i++)
    properties[`field_${String(i).padStart(4, '0')}`] = { description: `Field number ${i}.`, maxLength: 64, type: 'string' };
  return {
    annotations: { idempotent: true, kind: 'query', side_effect_level: 'read_only' },
    description: 'A large contract for the editor benchmark.',
    errors: { properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'], type: 'object' },
    id: TOOL,
    input: { additionalProperties: false, properties, required: ['field_0001'], type: 'object' },
    output: { properties: { ok: { type: 'boolean' } }, type: 'object' },
    owner: 'team-bench',
    version: '0.0.1',
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

// In-page code as text: tsx would otherwise wrap named functions in a `__name` helper that does
// not exist in the page.
const ARM = `(mode) => {
  const root = document.querySelector('[data-testid="studio-editor"]');
  if (!root) throw new Error('no editor');
  const done = () => (mode === 'underlined') === (root.querySelector('.squiggly-error') !== null);
  window.__bench = new Promise((resolve, reject) => {
    let start;
    document.addEventListener('keydown', () => { start = performance.now(); }, { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (start === undefined || !done()) return;
      observer.disconnect();
      resolve(performance.now() - start);
    });
    observer.observe(root, { subtree: true, childList: true, attributes: true });
    setTimeout(() => reject(new Error('no ' + mode + ' editor within 5 s')), 5000);
  });
}`;

/** Presses `key` and resolves with the ms from its keydown until the editor is `until`. */
async function timeKey(page: Page, key: string, until: 'underlined' | 'clear'): Promise<number> {
  await page.evaluate(`(${ARM})(${JSON.stringify(until)})`);
  await page.keyboard.press(key);
  return (await page.evaluate('window.__bench')) as number;
}

async function main() {
  const document = largeContract(targetLines);
  const lineCount = JSON.stringify(document, null, 2).split('\n').length;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1400, height: 1000 } });
    const headers = { origin: base };
    const signIn = await context.request.post('/api/auth/sign-in/email', { headers, data: { email, password } });
    if (!signIn.ok()) throw new Error(`sign-in answered ${signIn.status()}`);
    const saved = await context.request.post('/api/v1/contracts', { headers, data: document });
    if (!saved.ok()) throw new Error(`saving the benchmark contract answered ${saved.status()}: ${await saved.text()}`);

    const page = await context.newPage();
    await page.goto(`/contracts/${TOOL}?version=0.0.1`);
    const panel = page.getByTestId('problems-panel');
    await panel.getByText(/Checked in the browser/).waitFor();
    if ((await panel.getByTestId('problem').count()) > 0)
      throw new Error(`the benchmark contract is not clean: ${await panel.innerText()}`);

    const appear: number[] = [];
    const clear: number[] = [];
    const workerLint: number[] = [];
    const lastLint = async () => Number((await panel.innerText()).match(/in (\d+) ms/)?.[1] ?? NaN);
    const rounds = warmup + keystrokes;
    for (let k = 0; k < rounds; k++) {
      // Spread over the document, so the cursor is somewhere else each time.
      const field = `field_${String(1 + Math.floor((k * (Object.keys(document.input.properties).length - 1)) / Math.max(1, rounds - 1))).padStart(4, '0')}`;
      await page.getByTestId('studio-editor').locator('.view-lines').click();
      await page.keyboard.press('ControlOrMeta+f');
      await page.keyboard.insertText(`"${field}"`);
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      // From the key to `"maxLength": |64,` (keys are sorted: description, maxLength, type).
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
      const appeared = await timeKey(page, '-', 'underlined');
      const appearedLint = await lastLint();
      const cleared = await timeKey(page, 'Backspace', 'clear');
      if (k < warmup) continue;
      appear.push(appeared);
      clear.push(cleared);
      workerLint.push(appearedLint, await lastLint());
    }

    const row = (name: string, values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `${name.padEnd(34)} ${percentile(sorted, 50).toFixed(1).padStart(8)} ${percentile(sorted, 95).toFixed(1).padStart(8)} ${Math.max(
        ...values,
      )
        .toFixed(1)
        .padStart(8)}`;
    };
    console.log(`editor: ${lineCount}-line contract, ${keystrokes} keystrokes each way after ${warmup} not counted, ${base}`);
    console.log(
      `${'keystroke -> underline in the DOM'.padEnd(34)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}  (ms)`,
    );
    console.log(row('error typed: underline appears', appear));
    console.log(row('error deleted: underline goes', clear));
    console.log(row('of which lint in the worker', workerLint));
    console.log(
      JSON.stringify({
        lines: lineCount,
        keystrokes,
        worker_lint_ms: workerLint,
        appear_ms: appear.map((v) => Math.round(v * 10) / 10),
        clear_ms: clear.map((v) => Math.round(v * 10) / 10),
      }),
    );
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(`bench/editor: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
