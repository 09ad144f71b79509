import { writeFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, request as playwrightRequest, test, type Page, type TestInfo } from '@playwright/test';
import { seedTour, type Tour, type TourPage } from './page-tour';
import { signIn } from './sign-in';
import { E2E_ADMIN } from './test-env';

// Every page, as a person with a screen reader or a keyboard meets it and at the two widths the
// dashboard is used at: axe-core finds no serious or critical violation, nothing scrolls sideways
// at 1024 px, and each page is kept as a screenshot at 1440 and 1024 px. The tenant has a call
// of each kind, a pending approval, a policy, a surface and an invitation (e2e/page-tour.ts).

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;
const BLOCKING = new Set(['serious', 'critical']);

let tour: Tour;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  tour = await seedTour(api);
  await api.dispose();
});

/** The page as it settles: data read, loading outlines gone, the studio's editor mounted where there is one. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  if ((await page.getByTestId('studio-editor').count()) > 0) {
    await expect(page.getByTestId('studio-editor').locator('.monaco-editor').first()).toBeVisible({ timeout: 20_000 });
  }
}

async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** A finding kept beside the screenshots (the list reporter does not print attachments). */
async function keep(testInfo: TestInfo, name: string, value: unknown): Promise<void> {
  const path = testInfo.outputPath(name);
  await writeFile(path, JSON.stringify(value, null, 2));
  await testInfo.attach(name, { path, contentType: 'application/json' });
}

interface Finding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

async function axe(page: Page): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** How far the document scrolls sideways, and which tables scroll inside their card. */
async function sidewaysScroll(page: Page): Promise<{ document: number; tables: string[] }> {
  return page.evaluate(() => {
    const tables = [...document.querySelectorAll('main *')]
      .filter((el) => {
        const overflow = getComputedStyle(el).overflowX;
        return (overflow === 'auto' || overflow === 'scroll') && el.querySelector('table') && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => el.querySelector('[data-testid]')?.getAttribute('data-testid') ?? el.className);
    return { document: document.documentElement.scrollWidth - window.innerWidth, tables };
  });
}

async function tourPage(page: Page, testInfo: TestInfo, target: TourPage): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto(target.path);
    await settle(page);
    await snap(page, testInfo, `${target.name}-${size.width}`);
    if (size.width === 1440) {
      const findings = await axe(page);
      if (findings.length > 0) await keep(testInfo, `axe-${target.name}.json`, findings);
      expect.soft(findings, `${target.path}: serious or critical axe violations`).toEqual([]);
    } else {
      const scroll = await sidewaysScroll(page);
      expect.soft(scroll, `${target.path}: sideways scroll at 1024 px`).toEqual({ document: 0, tables: [] });
    }
  }
}

test('every dashboard page: no serious or critical axe violation, no sideways scroll at 1024 px, screenshots at 1440 and 1024 px', async ({
  page,
  baseURL,
}, testInfo) => {
  // About 20 pages at two widths, each settled and scanned: a few seconds each on a busy machine.
  test.setTimeout(600_000);
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404 && response.request().resourceType() !== 'document') missing.push(response.url());
  });
  await signIn(page.request, baseURL, E2E_ADMIN);
  for (const target of tour.pages) {
    await test.step(target.path, () => tourPage(page, testInfo, target));
  }
  // No favicon request (nor any other asset) answered 404 on any page.
  expect(missing).toEqual([]);
});

test('signed out: the sign-in page, a password reset link that is not valid, and a page that does not exist', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  for (const target of [
    { name: 'sign-in', path: '/sign-in' },
    { name: 'reset-password-unknown', path: `/reset-password/${'A'.repeat(43)}` },
    { name: 'not-found', path: '/no-such-page' },
  ]) {
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.goto(target.path);
      await page.waitForLoadState('networkidle');
      await snap(page, testInfo, `${target.name}-${size.width}`);
      if (size.width === 1440) expect.soft(await axe(page), `${target.path}: serious or critical axe violations`).toEqual([]);
      else expect.soft((await sidewaysScroll(page)).document, `${target.path}: sideways scroll at 1024 px`).toBe(0);
    }
  }
  await context.close();
});
