// The shared vectors, typed into the page: the headline and the table show what the core says.
import { test as base, expect } from '@playwright/test';

import { loadVectorCases, roundTo } from '../wasm/vectors.mjs';
import { openPage, setOptions } from './page.mjs';

// Options the page's controls cannot produce (an unknown name, an unknown discount, a base
// without the discount that uses it) are covered by the node:test and doctest layers.
const expressible = (o = {}) => !('gian' in o) && o.discount !== 'log10' &&
  !(o.base !== undefined && o.discount !== 'jarvelin-kekalainen');
const cases = loadVectorCases().filter((c) => expressible(c.options));

// One page per worker, as a person works through one example after another: each case starts
// with "New calculation", which puts every control back to its default. Opening the page anew
// for each of some sixty cases would cost the suite a minute of start-ups that
// page.spec.mjs already covers.
const test = base.extend({
  listPage: [async ({ browser }, use) => {
    const page = await browser.newPage();
    const problems = await openPage(page);
    await use({ page, problems });
    await page.close();
  }, { scope: 'worker' }],
});

test.describe('shared vectors in the page', () => {
  for (const c of cases) {
    test(`${c.file}: ${c.name}`, async ({ listPage: { page, problems } }) => {
      const before = problems.length;
      await page.click('#new-calculation');
      await page.fill('#ranking', c.ranking);
      await page.fill('#judgments', c.judgments);
      const options = c.options ?? {};
      await setOptions(page, options);
      if (!c.expect.ok) {
        await expect(page.locator('body')).toHaveAttribute('data-state', 'error');
        for (const e of c.expect.errors) {
          const list = page.locator(`#${e.source}-diagnostics li.error`);
          const where = e.line > 0 ? `Line ${e.line}${e.column > 0 ? `, column ${e.column}` : ''}` : '';
          await expect(list.filter({ hasText: e.contains }).filter({ hasText: `${where}:` })).toHaveCount(1);
        }
        return;
      }
      const { summary, columns } = c.expect;
      if (columns.rank.length === 0) {
        // Nothing ranked: an invitation to paste, not "NDCG = 0".
        await expect(page.locator('body')).toHaveAttribute('data-state', 'empty');
        await expect(page.locator('#headline .empty-state')).toBeVisible();
        await expect(page.locator('#ndcg-at-k')).toHaveCount(0);
        return;
      }
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ok');
      const slide = options.roundBeforeDividing !== undefined;
      const decimals = slide ? Math.max(2, options.roundBeforeDividing) : 4;
      const shown = slide ? null : roundTo(summary.ndcgAtK, decimals).toFixed(decimals);
      if (shown) await expect(page.locator('#ndcg-at-k')).toHaveText(shown);
      await expect(page.locator('#steps tbody tr')).toHaveCount(columns.rank.length);
      expect(problems.slice(before)).toEqual([]);
    });
  }
});
