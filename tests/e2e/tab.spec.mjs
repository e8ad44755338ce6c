// The tests share one tab per worker (page.mjs's `test`): what one test leaves on it, the next
// must not meet, and what a test asks for (test.use) it gets. Serial: one worker runs them in order.
import { expect, openPage, PAGE_URL, test } from './page.mjs';

test.describe.configure({ mode: 'serial' });

let firstTab = null;

test('a test leaves storage, a listener, a route, a second tab, a viewport and dark media behind', async ({ page }) => {
  firstTab = page;
  await openPage(page);
  await page.fill('#ranking', 'left-behind 3');
  await page.evaluate(() => {
    localStorage.setItem('test:left-behind', '1');
    sessionStorage.setItem('test:left-behind', '1');
  });
  page.on('dialog', () => { throw new Error('a listener of the last test ran'); });
  await page.route('**/*', (route) => route.abort());
  await page.context().newPage();
  await page.setViewportSize({ width: 400, height: 500 });
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
});

test('the next test in the worker gets the same tab, with none of it', async ({ page }) => {
  expect(page).toBe(firstTab);
  expect(page.context().pages()).toEqual([page]);
  expect(page.listenerCount('dialog')).toBe(0);
  expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  expect(await page.evaluate(() => [matchMedia('print').matches, matchMedia('(prefers-color-scheme: dark)').matches]))
    .toEqual([false, false]);
  // The route is gone (the page loads), and the page finds nothing saved.
  await openPage(page);
  expect(page.url().startsWith(PAGE_URL)).toBe(true);
  await expect(page.locator('#ranking')).not.toHaveValue('left-behind 3');
});

test.describe('a test that asks for dark media', () => {
  test.use({ colorScheme: 'dark' });
  test('gets the same tab, its media set so', async ({ page }) => {
    expect(page).toBe(firstTab);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
  });
});

test.describe('a test that asks for another locale', () => {
  test.use({ locale: 'de-DE' });
  test('gets a tab of its own, made with it', async ({ page }) => {
    expect(page).not.toBe(firstTab);
    expect(await page.evaluate(() => navigator.language)).toBe('de-DE');
  });
});

test('the next test gets the shared tab again, in the default locale and light media', async ({ page }) => {
  expect(page).toBe(firstTab);
  expect(await page.evaluate(() => [navigator.language, matchMedia('(prefers-color-scheme: dark)').matches])).toEqual(['en-US', false]);
});
