// Helpers shared by the browser tests, and the `test` they run under.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { test as base, expect } from '@playwright/test';

export { expect };

export const PAGE_URL = pathToFileURL(resolve('dist/ndcg-calculator.html')).href;

// Playwright's own defaults for what a tab is made with (its page fixture's context).
const TAB_DEFAULTS = {
  isMobile: false, hasTouch: false, locale: 'en-US', deviceScaleFactor: undefined, javaScriptEnabled: true, offline: false,
  timezoneId: undefined, userAgent: undefined,
};

// What a test may leave on its tab and the next test must not meet.
const TAB_EVENTS = ['console', 'dialog', 'pageerror', 'request', 'requestfailed', 'response', 'popup', 'worker', 'crash'];

/**
 * Playwright's `test`, with one tab per worker in place of a new one for each test. Chromium
 * spends about 2 s of CPU on a new tab (its renderer process) and 0.9 s on loading the page again
 * in a tab it has: on two cores that was most of the browser suite's time. Before each test the
 * tab is emptied of what the last one left: its other tabs, listeners and routes, the storage
 * and session storage of file:// pages (a blank file:// document clears them), the viewport and
 * the emulated media (set to what the test asks for). A test that adds a script to every load of
 * its tab (addInitScript) opens a tab of its own (`context.newPage()`); one that asks for what a
 * tab is made with (a phone's `isMobile` and `hasTouch`, a locale, …) gets one.
 */
export const test = base.extend({
  workerTab: [async ({ browser }, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'ndcg-calculator-e2e-'));
    const blank = join(dir, 'between-tests.html');
    writeFileSync(blank, '<!doctype html><title>Between tests</title>');
    const tab = { page: null, blank: pathToFileURL(blank).href };
    await use(tab);
    if (tab.page !== null) await tab.page.context().close();
    rmSync(dir, { recursive: true, force: true });
  }, { scope: 'worker' }],

  page: async ({ workerTab, browser, viewport, colorScheme, reducedMotion, forcedColors, isMobile, hasTouch, locale, deviceScaleFactor, javaScriptEnabled, offline, timezoneId, userAgent }, use) => {
    // What a tab cannot change once made: a test that asks for any of it (test.use) other than
    // Playwright's defaults gets a context of its own, with everything it asked for.
    const made = { isMobile, hasTouch, locale, deviceScaleFactor, javaScriptEnabled, offline, timezoneId, userAgent };
    if (viewport === null || Object.entries(made).some(([name, value]) => value !== TAB_DEFAULTS[name])) {
      const context = await browser.newContext({ ...made, viewport, colorScheme, reducedMotion, forcedColors });
      await use(await context.newPage());
      await context.close();
      return;
    }
    if (workerTab.page === null || workerTab.page.isClosed()) {
      workerTab.page = await (await browser.newContext(TAB_DEFAULTS)).newPage();
    }
    const page = workerTab.page;
    for (const other of page.context().pages()) if (other !== page) await other.close();
    if (page.url() !== workerTab.blank) await page.goto(workerTab.blank);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.setViewportSize(viewport);
    await page.emulateMedia({ media: null, colorScheme, reducedMotion, forcedColors });
    try {
      await use(page);
    } finally {
      for (const event of TAB_EVENTS) page.removeAllListeners(event);
      await page.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => {});
      // Away from the page at once, so that its worker and timers stop; a tab that crashed or
      // hangs is replaced rather than emptied.
      if (page.isClosed() || !(await page.goto(workerTab.blank, { timeout: 10_000 }).then(() => true, () => false))) {
        await page.context().close().catch(() => {});
        workerTab.page = null;
      }
    }
  },
});

/** Opens the page with empty storage; fails on any uncaught page error. */
export async function openPage(page, { hash = '', search = '' } = {}) {
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${PAGE_URL}${search}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  return problems;
}

/**
 * The page's link, once the address shows the last edit: the page saves the boxes in the frame
 * after an edit, in storage at once and in the address a moment later (at most four times a
 * second).
 */
export async function pageLink(page) {
  await page.waitForFunction(() => {
    const saved = JSON.parse(localStorage.getItem('ndcg-calculator:state') ?? 'null');
    return saved !== null && location.hash.slice(1) === saved.link &&
      saved.state.ranking === document.getElementById('ranking').value &&
      saved.state.judgments === document.getElementById('judgments').value;
  });
  return page.url();
}

/** A gain map as the page's gain-map box takes it: "3=7, 2=3, 1=1". */
export const gainMapText = (gain) => Object.entries(gain).map(([g, v]) => `${g}=${v}`).join(', ');

/**
 * Sets the controls to a vector's options, through the page's own controls. The page must show
 * its defaults (as after opening it or "New calculation"): only the controls whose value differs
 * are touched, as a person would.
 */
export async function setOptions(page, options) {
  const o = { gain: 'linear', discount: 'log2(rank+1)', base: 2, ideal: 'judgments', idealDepth: 'cut', k: '', ndcgWhenIdcgZero: 0, ...options };
  if (typeof o.gain === 'object') {
    await page.selectOption('#gain', 'custom');
    await page.fill('#gain-map', gainMapText(o.gain));
  } else if (o.gain !== 'linear') {
    await page.selectOption('#gain', o.gain);
  }
  if (o.discount !== 'log2(rank+1)') await page.selectOption('#discount', o.discount);
  if (o.discount === 'jarvelin-kekalainen' && String(o.base) !== '2') await page.fill('#base', String(o.base));
  if (o.ideal !== 'judgments') await page.selectOption('#ideal', o.ideal);
  if (o.idealDepth !== 'cut') await page.selectOption('#ideal-depth', o.idealDepth);
  if (String(o.k ?? '') !== '') await page.fill('#k', String(o.k));
  if (String(o.ndcgWhenIdcgZero) !== '0') await page.selectOption('#zero', String(o.ndcgWhenIdcgZero));
  if (o.relevantFrom !== undefined) await page.fill('#relevant-from', String(o.relevantFrom));
  if (o.roundBeforeDividing !== undefined) {
    await page.fill('#decimals', String(o.roundBeforeDividing));
    await page.check('#round-like-slide');
  }
}

/** The NDCG column, rank by rank: the value shown (at k, the result of the division written out). */
export async function ndcgColumn(page) {
  return page.$$eval('#steps tbody tr', (rows) => rows.map((r) => r.querySelector('[data-field=ndcg]').firstChild.textContent.trim().split('= ').pop()));
}

/**
 * Puts a long text into a box as a paste does: one input event. (Playwright's fill inserts text
 * in a way Chromium handles in quadratic time: 3,000 lines take 15 s even in a bare textarea.)
 */
export async function pasteText(page, selector, text) {
  await page.$eval(selector, (box, value) => {
    box.value = value;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

/**
 * How far an element moves on the screen in the two frames after it is scrolled into view: the
 * blocks of rows laid out as they near the screen must not move it, as they would move a button
 * a person was about to click.
 */
export async function placeAfterScrolling(locator) {
  return locator.evaluate(async (node) => {
    node.scrollIntoView({ block: 'center' });
    const top = () => node.getBoundingClientRect().top;
    const scrolled = top();
    for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    return { scrolled, moved: Math.abs(top() - scrolled) };
  });
}

// Written by a test just before it reloads the page (see untilStorageKept).
export const KEPT_KEY = 'test:kept-across-reload';

/** Marks storage with KEPT_KEY, reloads the page and waits until it is ready: a scenario's end. */
export async function reloadMarked(page) {
  await page.evaluate((key) => localStorage.setItem(key, '1'), KEPT_KEY);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
}

/**
 * Runs `scenario`, which writes KEPT_KEY to storage just before it reloads the page (its last
 * step, reloadMarked), until the reloaded page still has that key, at most three times. Under
 * load, Chromium now and then gives a page reloaded from file:// an empty localStorage, whatever
 * the page did: every write before the reload had succeeded, and the new page found
 * localStorage.length 0, with the page as it is and with earlier versions alike. The key tells
 * that apart from a page that did not save: when it is there, the test's own checks of the
 * page's state follow. Every test whose checks after a reload (or a new load of the page) need
 * what the page saved in storage runs it so. Resolves the page the checks are for.
 */
export async function untilStorageKept(page, scenario) {
  for (let attempt = 1; ; attempt++) {
    // A scenario that opens a page of its own for each attempt returns it.
    const shown = (await scenario()) ?? page;
    if (await shown.evaluate((key) => localStorage.getItem(key), KEPT_KEY) === '1') return shown;
    expect(attempt, 'the browser kept no storage across three reloads').toBeLessThan(3);
  }
}
