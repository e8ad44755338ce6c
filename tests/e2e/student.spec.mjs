// The page as a student meets it: each test reproduces a trap found by trying the page as a new
// user would (numbered as in the report that found them), and shows it gone.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { expect, openPage, PAGE_URL, test } from './page.mjs';

const SCREENSHOTS = 'tests/e2e/screenshots';
const row = (page, table, rank) => page.locator(`${table} tbody tr`).nth(rank - 1);
const cell = (page, table, rank, field) => row(page, table, rank).locator(`[data-field="${field}"]`);

test.describe('1. leftover judgments', () => {
  test('a bare list of grades over the example\'s judgments is said, and one click clears them', async ({ page }) => {
    await openPage(page);
    await page.fill('#ranking', '3, 2, 3, 0, 1, 2');
    const note = page.locator('#context-notes li').filter({ hasText: 'without document ids' });
    await expect(note).toContainText('the ideal ranking is built from the 10 judged documents');
    await note.locator('#clear-judgments').click();
    await expect(page.locator('#judgments')).toHaveValue('');
    await expect(page.locator('#state-note')).toContainText('The judgments were cleared.');
    // The lecture's conventions are still set: said, with a way back to the defaults.
    await page.click('#reset-conventions');
    await expect(page.locator('#discount')).toHaveValue('log2(rank+1)');
    await expect(page.locator('#k')).toHaveValue('');
    await expect(page.locator('#ndcg-at-k')).toHaveText('0.9608');  // the blog's answer
    await expect(page.locator('#context-notes li').filter({ hasText: /still set|without document ids/ })).toHaveCount(0);
    // Nothing typed is lost: Undo brings the conventions back.
    await page.click('#undo');
    await expect(page.locator('#discount')).toHaveValue('jarvelin-kekalainen');
  });

  test('ranked names that none of the judgments mention are said, not silently scored 0', async ({ page }) => {
    await openPage(page);
    await page.fill('#ranking', 'iPhone 3\nXiaomi 2\nHuawei 3\nOPPO 0\nVIVO 1\nSamsung 2\n');
    await expect(page.locator('#context-notes li').filter({ hasText: 'none of the 6 ranked documents appears in the judgments' }))
      .toContainText('Are these judgments for another ranking?');
    await expect(page.locator('#clear-judgments')).toBeVisible();
  });
});

test.describe('2. leftover conventions', () => {
  test('a list of documents alone is described by its conventions, and nothing after them', async ({ page }) => {
    await openPage(page);
    await page.click('#new-calculation');
    await page.fill('#ranking', 'd1\nd2\nd3');
    await page.fill('#judgments', 'd2 1');
    await expect(page.locator('#ndcg-at-k')).toHaveText('0.6309');
    await expect(page.locator('#active-context')).toHaveText(/^Conventions — linear gain .* k = the whole list\.$/);
  });

  test('an example\'s conventions carried over to other input are named, with keep or reset', async ({ page }) => {
    await openPage(page);
    await expect(page.locator('#active-context')).toContainText('Example: Lecture (COMP3009J)');
    await expect(page.locator('button.preset[data-preset="lecture"]')).toHaveAttribute('aria-pressed', 'true');
    await page.fill('#ranking', '3 2 3 0 1 2');
    await page.fill('#judgments', '');
    const note = page.locator('#context-notes li').filter({ hasText: 'its conventions are still set' });
    await expect(note).toContainText('“Lecture (COMP3009J)”');
    await expect(note).toContainText('Järvelin–Kekäläinen discount, base 2');
    await expect(note).toContainText('k = 10');
    // The example's note no longer stands beside other data.
    await expect(page.locator('#preset-note')).toBeEmpty();
    await expect(page.locator('#active-context')).not.toContainText('Example:');
    await page.click('#keep-conventions');
    await expect(note).toHaveCount(0);
    await expect(page.locator('#discount')).toHaveValue('jarvelin-kekalainen');
    await expect(page.locator('#ndcg-at-k')).toHaveText('0.9315');
  });

  test('New calculation clears both boxes and the conventions, and can be undone', async ({ page }) => {
    await openPage(page);
    await page.click('#new-calculation');
    await expect(page.locator('#ranking')).toHaveValue('');
    await expect(page.locator('#judgments')).toHaveValue('');
    await expect(page.locator('#ranking')).toBeFocused();
    for (const [id, value] of [['gain', 'linear'], ['discount', 'log2(rank+1)'], ['ideal', 'judgments'], ['k', ''], ['decimals', '4']]) {
      await expect(page.locator(`#${id}`)).toHaveValue(value);
    }
    await expect(page.locator('#active-context')).toContainText('Conventions — linear gain');
    await expect(page.locator('button.preset[aria-pressed="true"]')).toHaveCount(0);
    await page.click('#undo');
    await expect(page.locator('#ndcg-at-k')).toHaveText('0.2868');
    await expect(page.locator('#active-context')).toContainText('Example: Lecture (COMP3009J)');
  });
});

test.describe('3. the working is shown', () => {
  test('the lecture: each rank\'s log, term, running sum and the division at k', async ({ page }) => {
    await openPage(page);
    await expect(cell(page, '#steps', 3, 'discount')).toHaveText('log₂ 3 = 1.585');
    await expect(cell(page, '#steps', 6, 'term')).toHaveText('3 / 2.585 = 1.1606');
    await expect(cell(page, '#steps', 6, 'dcg')).toHaveText('2.7915');
    await expect(cell(page, '#steps', 10, 'ndcg')).toHaveText('3.3935 / 11.8339 = 0.2868');
    await expect(cell(page, '#ideal-table', 3, 'idealTerm')).toHaveText('3 / 1.585 = 1.8928');
    await expect(page.locator('#headline-division')).toHaveText('3.3935 / 11.8339');
    // No 9 px fractions: every piece of the tables is at least 12 px.
    const smallest = await page.locator('#steps td, #steps th, #ideal-table td').evaluateAll((cells) =>
      Math.min(...cells.flatMap((c) => [c, ...c.querySelectorAll('*')]).map((e) => parseFloat(getComputedStyle(e).fontSize))));
    expect(smallest).toBeGreaterThanOrEqual(12);
    expect(await page.locator('#steps math, #ideal-table math').count()).toBe(0);
  });

  test('the blog: its linear terms 1.262, 1.5, 0.387 and 0.712 are in the table', async ({ page }) => {
    await openPage(page);
    await page.click('button[data-preset="blog-linear"]');
    const terms = await page.locator('#steps tbody [data-field="term"]').allInnerTexts();
    expect(terms).toEqual(['3 / 1 = 3', '2 / 1.585 = 1.262', '3 / 2 = 1.5', '0', '1 / 2.585 = 0.387', '2 / 2.807 = 0.712']);
  });
});

test.describe('4. notation', () => {
  test('log₂(j + 1) has its parentheses; exponential gain shows the grade and 2^g − 1', async ({ page }) => {
    await openPage(page);
    await page.click('button[data-preset="blog-exponential"]');
    const dcg = page.locator('#formulas math[aria-label="DCG, log2(rank+1)"]');
    expect((await dcg.textContent()).replace(/\s/g, '')).toContain('log2\u2061(j+1)');
    await expect(cell(page, '#steps', 1, 'grade')).toHaveText('3');
    await expect(cell(page, '#steps', 1, 'gain')).toHaveText('2³ − 1 = 7');
    await expect(cell(page, '#steps', 2, 'gain')).toHaveText('2² − 1 = 3');
    // IDCG sums gains: the step table shows the ideal gain, the ideal table grade and gain.
    await expect(page.locator('#steps thead th')).toHaveText(['Rank', 'Document', 'g', 'G', 'CG', 'Discount', 'G / discount', 'DCG', 'IG', 'IDCG', 'NDCG']);
    await expect(cell(page, '#steps', 2, 'idealGain')).toHaveText('7');
    await expect(cell(page, '#ideal-table', 3, 'idealGrade')).toHaveText('2');
    await expect(cell(page, '#ideal-table', 3, 'idealGain')).toHaveText('2² − 1 = 3');
  });
});

test.describe('5. phone', () => {
  test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });

  test('no sideways page scroll at 360 px, the result right under the inputs, the table says it scrolls', async ({ page }) => {
    await openPage(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const box = async (selector) => page.locator(selector).boundingBox();
    const judgmentsBox = await box('#judgments');
    const headline = await box('#ndcg-at-k');
    const conventions = await box('#list-mode > .conventions');
    expect(headline.y).toBeGreaterThan(judgmentsBox.y);
    expect(headline.y).toBeLessThan(conventions.y);
    await expect(page.locator('#steps-scroll-hint')).toBeVisible();
    await page.locator('#steps-wrap').evaluate((wrap) => { wrap.scrollLeft = wrap.scrollWidth; });
    // The rank stays in view while the table scrolls sideways.
    const wrap = await box('#steps-wrap');
    const rank = await box('#steps tbody tr:nth-child(10) th');
    expect(rank.x).toBeGreaterThanOrEqual(wrap.x - 1);
    // So do the words that say what the table is (the caption, shown above the scrolling box).
    const title = await box('#steps-title');
    expect(title.x).toBeGreaterThanOrEqual(wrap.x - 1);
    await expect(page.locator('#steps-title')).toContainText('Step by step');
    const ndcg = await cell(page, '#steps', 10, 'ndcg').boundingBox();
    expect(ndcg.x + ndcg.width).toBeLessThanOrEqual(wrap.x + wrap.width + 1);
    expect(ndcg.x).toBeGreaterThan(rank.x + rank.width - 1);
    await page.screenshot({ path: `${SCREENSHOTS}/student-phone.png`, fullPage: true });
  });
});

test.describe('6. embed', () => {
  test('in a 700 px frame the result comes first; parts can be hidden', async ({ page }) => {
    await page.setViewportSize({ width: 700, height: 700 });
    await openPage(page, { search: '?embed=1' });
    await expect(page.locator('#ndcg-at-k')).toBeInViewport();
    await expect(page.locator('.page-header')).toBeHidden();
    await page.screenshot({ path: `${SCREENSHOTS}/student-embed.png` });
    await openPage(page, { search: '?embed=1&show=examples' });
    await expect(page.locator('#tab-trec')).toBeHidden();
    await expect(page.locator('#list-mode > .conventions')).toBeHidden();
    await expect(page.locator('button.preset').first()).toBeVisible();
    await expect(page.locator('#details .chart')).toBeHidden();
    await expect(page.locator('#second')).toBeHidden();
    // A part listed is kept: the second list, without the chart.
    await openPage(page, { search: '?embed=1&show=second' });
    await expect(page.locator('#second')).toBeVisible();
    await page.fill('#second-ranking', 'd1\nd2');
    await expect(page.locator('#second-table')).toBeVisible();
    await expect(page.locator('#second-chart-a')).toBeHidden();
  });

  test('the frame posts its height to the course page, which sizes it; no sideways scroll in a phone frame', async ({ page }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const host = path.join(info.outputDir, 'course-page.html');
    // The README's snippet, as a course page would use it.
    writeFileSync(host, `<!doctype html><meta charset="utf-8"><body style="margin:0">
<iframe id="ndcg" src="${PAGE_URL}?embed=1&show=examples" title="NDCG calculator" style="width:100%;height:700px;border:0"></iframe>
<script>
  window.heights = [];
  window.addEventListener('message', (event) => {
    if (event.data?.type !== 'ndcg-calculator:height') return;
    window.heights.push(event.data.height);
    document.getElementById('ndcg').style.height = event.data.height + 'px';
  });
</script>`);
    await page.setViewportSize({ width: 358, height: 700 });
    await page.goto(`file://${host}`);
    const frame = page.frameLocator('#ndcg');
    await expect(frame.locator('#ndcg-at-k')).toHaveText('0.2868');
    await expect.poll(() => page.evaluate(() => window.heights.length)).toBeGreaterThan(0);
    const posted = await page.evaluate(() => window.heights.at(-1));
    expect(posted).toBeGreaterThan(700);
    await expect.poll(() => page.locator('#ndcg').evaluate((f) => f.getBoundingClientRect().height)).toBe(posted);
    const inner = page.frame({ url: /ndcg-calculator\.html/ });
    expect(await inner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(358);
  });
});

test.describe('7. print', () => {
  for (const colorScheme of ['light', 'dark']) {
    test(`one light, complete page in the ${colorScheme} scheme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await openPage(page);
      await page.emulateMedia({ media: 'print', colorScheme });
      const luminance = (selector, property) => page.locator(selector).first().evaluate((e, p) => {
        const [r, g, b] = getComputedStyle(e)[p].match(/\d+(\.\d+)?/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      }, property);
      for (const selector of ['body', '.formulas', '#steps thead th']) {
        expect(await luminance(selector, 'backgroundColor')).toBeGreaterThan(0.85);
      }
      for (const selector of ['body', '#steps thead th', '#steps tbody td']) {
        expect(await luminance(selector, 'color')).toBeLessThan(0.35);
      }
      // Inputs as text, the conventions, the headline, the formulas, both tables.
      await expect(page.locator('#ranking-print')).toBeVisible();
      await expect(page.locator('#ranking-print')).toContainText('| 15 | d ₃ (r: 3) | 3 |');
      await expect(page.locator('#judgments-print')).toContainText('[d_{123}, 1]');
      await expect(page.locator('#list-mode > .conventions')).toBeVisible();
      await expect(page.locator('#active-context')).toContainText('Järvelin–Kekäläinen discount');
      for (const selector of ['#ndcg-at-k', '#formulas', '#steps', '#ideal-table']) await expect(page.locator(selector)).toBeVisible();
      for (const selector of ['#state-note', '.export', '#ranking']) await expect(page.locator(selector)).toBeHidden();
      // The tables fit the width of an A4 page (about 720 CSS px inside its margins).
      await page.setViewportSize({ width: 720, height: 1000 });
      for (const selector of ['#steps', '#ideal-table']) {
        const box = await page.locator(selector).boundingBox();
        expect(box.x + box.width).toBeLessThanOrEqual(720);
      }
      await page.screenshot({ path: `${SCREENSHOTS}/student-print-${colorScheme}.png`, fullPage: true });
    });
  }
});

test.describe('8. first impression', () => {
  test('on a narrow screen every choice of the conventions is shown whole', async ({ page }) => {
    await page.setViewportSize({ width: 720, height: 1000 });
    await openPage(page);
    const cut = await page.locator('#list-mode > .conventions select').evaluateAll((selects) => selects.map((select) => {
      // The chosen option's words, set in the select's own font, against the select's width less
      // its arrow and padding.
      const probe = document.createElement('span');
      probe.style.cssText = 'position: absolute; visibility: hidden; white-space: pre';
      probe.style.font = getComputedStyle(select).font;
      probe.textContent = select.selectedOptions[0].textContent;
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      return needed > select.clientWidth - 24 ? `${select.id}: ${Math.round(needed)} px of words in ${select.clientWidth} px` : null;
    }).filter(Boolean));
    expect(cut).toEqual([]);
  });

  test('the landing view: no note about the page\'s own example, the result above the fold', async ({ page }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await openPage(page);
    await expect(page.locator('#ranking-diagnostics li')).toHaveCount(0);
    await expect(page.locator('#context-notes li')).toHaveCount(0);
    await expect(page.locator('#ndcg-at-k')).toBeInViewport();
    await page.screenshot({ path: `${SCREENSHOTS}/student-desktop.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SCREENSHOTS}/student-desktop-dark.png`, fullPage: true });
  });

  test('column titles printed under a table are skipped, like a Markdown header', async ({ page }) => {
    await openPage(page);
    await page.fill('#ranking', `${await page.inputValue('#ranking')}| | | |\n\nRank Document G\n\nCumulated Gain\n`);
    await expect(page.locator('body')).toHaveAttribute('data-state', 'ok');
    await expect(page.locator('#ranking-diagnostics li')).toHaveCount(0);
    await expect(page.locator('#steps tbody tr')).toHaveCount(15);
  });

  test('the lecture\'s 14-value G vector is recognised, and its slip said', async ({ page }) => {
    await openPage(page);
    await page.fill('#ranking', 'G = (1, 0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 3)');
    await expect(page.locator('#context-notes li').filter({ hasText: '14 grades of the lecture’s gain vector' }))
      .toContainText('one 0 is missing after rank 10');
  });

  test('no judgments: no "judged" documents; two empty boxes: an invitation, not NDCG = 0', async ({ page }) => {
    await openPage(page);
    await page.click('button[data-preset="blog-linear"]');
    await expect(page.locator('.headline-parts')).toHaveText('5 relevant documents in the ideal ranking');
    await page.fill('#ranking', '');
    await page.fill('#judgments', '');
    await expect(page.locator('body')).toHaveAttribute('data-state', 'empty');
    await expect(page.locator('#headline')).toContainText('Paste a ranked list');
    await expect(page.locator('#ndcg-at-k')).toHaveCount(0);
    await expect(page.locator('#download')).toBeDisabled();
  });
});

test.describe('10. charts', () => {
  test('each line has its markers, k is marked', async ({ page }) => {
    await openPage(page);
    for (const series of ['cg', 'dcg', 'idcg', 'ndcg']) {
      await expect(page.locator(`#chart svg > g.markers.${series} > *`)).toHaveCount(15);
    }
    await expect(page.locator('#chart line.cutoff')).toHaveCount(1);
    await expect(page.locator('#chart text.cutoff-label')).toHaveText('k = 10');
  });

  test.describe('at phone width', () => {
    test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
    test('chart labels keep their size', async ({ page }) => {
      await openPage(page);
      const sizes = await page.locator('#chart svg text').evaluateAll((texts) => texts.map((t) => t.getBoundingClientRect().height));
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10);
    });
  });
});
