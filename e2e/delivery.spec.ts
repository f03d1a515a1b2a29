// What the first visit costs over the wire: the storefront's initial JavaScript, compressed at
// build time and served in the encoding the browser asks for.
import { expect, test } from './fixtures.ts';

const INITIAL_JS_BUDGET_BYTES = 100 * 1024;

test('a first-time visitor downloads at most 100 KiB of compressed JavaScript to see the home page', async ({ page }) => {
  const scripts: { url: string; encoding: string | undefined }[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'] });
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Recommended' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const transferred = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .concat(performance.getEntriesByType('navigation'))
      .filter((entry) => entry.name.endsWith('.js'))
      .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0),
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) expect(script.encoding, script.url).toBe('br');
  expect(transferred).toBeGreaterThan(10 * 1024);
  expect(transferred).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
});

test('the home lists load once each, their calls started by the page itself before its scripts', async ({ page }) => {
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/public\/book-copy\/(recommended|top-rated|best-sellers|new-releases)\/$/.test(request.url())) listCalls.push(request.url());
  });
  const unusedPreloads: string[] = [];
  // Chromium warns when a preloaded response goes unused, which means the app fetched it again.
  page.on('console', (message) => {
    if (/preloaded using link preload but not used/.test(message.text())) unusedPreloads.push(message.text());
  });
  await page.goto('/');
  for (const name of ['Recommended', 'Top Rated', 'Our Bestsellers', 'New Releases']) {
    await expect(page.getByRole('region', { name }).getByRole('heading', { level: 3 }).first()).toBeVisible();
  }
  await page.waitForLoadState('networkidle');
  // Each list is preloaded by the HTML, and the app's own call is answered by that preload: a
  // mismatch (another URL, mode or credentials) would show as a second request.
  const preloaded = await page
    .locator('link[rel="preload"][as="fetch"]')
    .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).href));
  expect(preloaded.sort()).toEqual([...listCalls].sort());
  expect(listCalls).toHaveLength(4);
  expect(unusedPreloads).toEqual([]);
});

test.describe('before any script runs', () => {
  test.use({ javaScriptEnabled: false });

  test('a first-time visitor already sees the home page, and another page never shows the home page first', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Find your next great read' })).toBeVisible();
    await expect(page.getByText('Over five thousand books across ten categories')).toBeVisible();
    await page.goto('/cart');
    await expect(page.getByRole('heading', { name: 'Find your next great read' })).toHaveCount(0);
  });
});

test('the first paint waits for no stylesheet: the page carries its styles, which the policy allows by hash alone', async ({ page }) => {
  const stylesheets: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet') stylesheets.push(request.url());
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) violations.push(message.text());
  });
  for (const path of ['/', '/cart']) {
    const response = await page.goto(path);
    const policy = response?.headers()['content-security-policy'] ?? '';
    const styleSrc = /style-src ([^;]*)/.exec(policy)?.[1] ?? '';
    // Only the pages' own blocks, named by hash: never 'unsafe-inline'.
    expect(styleSrc).toMatch(/^'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(styleSrc).not.toContain('unsafe-inline');
    await expect(page.getByRole('banner')).toHaveCSS('display', 'flex');
  }
  expect(stylesheets).toEqual([]);
  expect(violations).toEqual([]);
});
