import { expect, request as playwrightRequest, test, type Response } from '@playwright/test';
import { seedTour, type Tour } from './page-tour';
import { signIn } from './sign-in';
import { E2E_ADMIN } from './test-env';

// What every dashboard page shares: a skip link, an outline while a page loads, the app's own
// 404 page, a favicon, and times that say how long ago with the exact time on hover.

let tour: Tour;

test.beforeAll(async ({ baseURL }) => {
  const api = await playwrightRequest.newContext({ baseURL });
  tour = await seedTour(api);
  await api.dispose();
});

test.beforeEach(async ({ page, baseURL }) => {
  await signIn(page.request, baseURL, E2E_ADMIN);
});

test('the first Tab reaches a visible "Skip to content" link that moves focus to the page itself', async ({ page }) => {
  await page.goto('/traces');
  await expect(page.getByRole('heading', { name: 'Traces', level: 1 })).toBeVisible();
  const skip = page.getByRole('link', { name: 'Skip to content' });
  // Out of sight until focused, like any skip link.
  expect((await skip.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  const box = await skip.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(40);
  expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  // The next Tab goes on from the page's content, not from the navigation.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
});

test('a slow page shows its outline and a "Loading…" status at once, then the page', async ({ page }) => {
  // A link in view is prefetched: the route's tree from its loading outline down (asked with
  // "refetch", for whichever /violations link comes first) and the link's own address. A click
  // shows the outline at once only once both are in; before that it waits for the whole page.
  const isPrefetch = (response: Response, exactAddress: boolean) => {
    const url = new URL(response.url());
    const headers = response.request().headers();
    return (
      url.pathname === '/violations' &&
      headers['next-router-prefetch'] === '1' &&
      !headers['next-router-segment-prefetch'] &&
      (exactAddress
        ? [...url.searchParams.keys()].every((key) => key === '_rsc')
        : decodeURIComponent(headers['next-router-state-tree'] ?? '').includes('"refetch"'))
    );
  };
  const prefetched = Promise.all([
    page.waitForResponse((response) => isPrefetch(response, false)),
    page.waitForResponse((response) => isPrefetch(response, true)),
  ]);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  await prefetched;
  // The router reads those bodies after their headers arrive (tens of ms), and nothing in the
  // page shows when it is done; Playwright's response.finished() never settles for them.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  // The page's own data (the navigation's request, not a prefetch) arrives only after 3 s.
  await page.route(
    (url) => url.pathname === '/violations',
    async (route) => {
      const headers = route.request().headers();
      if (headers.rsc && !headers['next-router-prefetch']) await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    },
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Violations' }).click();
  const loading = page.getByTestId('page-loading');
  await expect(loading).toBeVisible({ timeout: 2000 });
  await expect(loading).toHaveAttribute('aria-busy', 'true');
  await expect(loading.getByRole('status')).toHaveText('Loading violations…');
  await expect(loading.getByRole('heading', { name: 'Violations', level: 1 })).toBeVisible();
  await expect(page.getByTestId('violations-csv')).toBeVisible({ timeout: 15_000 });
  await expect(loading).toHaveCount(0);
});

test("an address that does not exist, and a trace id that does not, get the app's 404 page", async ({ page, browser }) => {
  const nowhere = await page.goto('/no-such-page');
  expect(nowhere?.status()).toBe(404);
  await expect(page.getByTestId('not-found')).toContainText('Nothing here');
  await expect(page.getByRole('link', { name: 'Go to the overview' })).toHaveAttribute('href', '/');

  // A record looked up by id that is not there: inside the shell, so the navigation stays.
  await page.goto('/traces/no-such-trace');
  await expect(page.getByTestId('not-found')).toContainText('Nothing here');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // A name with an escape that does not decode (`%25` arrives as `%`) names nothing: the
  // studio's pages rendered the error page for it.
  for (const path of ['/contracts/%25', '/policies/%25', '/surfaces/%25E2']) {
    await page.goto(path);
    await expect(page.getByTestId('not-found'), path).toContainText('Nothing here');
    await expect(page.getByTestId('error-notice'), path).toHaveCount(0);
  }
  await page.goto('/mcp/%25/tools/%25/drift');
  await expect(page.getByTestId('drift-missing')).toContainText('MCP tool "%/%" was not found. It may have been accepted already');

  // Signed out, an unknown address is a 404 too (not a redirect to sign-in).
  const context = await browser.newContext();
  const anonymous = await context.newPage();
  expect((await anonymous.goto('/no-such-page'))?.status()).toBe(404);
  await expect(anonymous.getByTestId('not-found')).toBeVisible();
  await context.close();
});

test('a favicon: every page links the icon, and /favicon.ico and the icon are served', async ({ page, request }) => {
  await page.goto('/');
  const icons = await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));
  expect(icons.some((href) => href.startsWith('/icon.svg'))).toBe(true);
  for (const href of ['/favicon.ico', ...icons]) {
    const response = await request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()['content-type'], href).toMatch(/^image\//);
  }
});

test('lists show how long ago, with the exact UTC time on hover and in the markup', async ({ page }) => {
  const exact = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/;
  await page.goto('/traces');
  const time = page.getByTestId('trace-row').first().locator('time');
  await expect(time).toHaveText(/^(just now|\d+ min ago)$/);
  await expect(time).toHaveAttribute('title', exact);
  const iso = await time.getAttribute('datetime');
  expect(Math.abs(Date.now() - Date.parse(iso ?? ''))).toBeLessThan(10 * 60_000);
  expect(await time.getAttribute('title')).toBe(`${(iso ?? '').slice(0, 19).replace('T', ' ')} UTC`);

  // The row opens the trace seeded for this spec, through its time.
  await page.goto(`/traces/${tour.traceId}`);
  await expect(page.getByTestId('trace-call-id')).toContainText('allowed');

  await page.goto('/api-keys');
  await expect(page.locator('table time').first()).toHaveAttribute('title', exact);
  await page.goto('/members');
  // An invitation's expiry is still to come.
  await expect(page.getByTestId('invitation-table').locator('time').first()).toHaveText(/^in \d+ days?$/);
  await page.goto('/violations?range=all');
  await expect(page.getByTestId('violation-row').first().locator('time')).toHaveAttribute('title', exact);
  await page.goto('/approvals');
  await expect(page.getByTestId('approval-row').first().locator('time').first()).toHaveAttribute('title', exact);
});
