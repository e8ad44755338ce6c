// WCAG 2.1 AA contrast (4.5:1 for text) in the light and dark themes, computed from the page's
// own styles, and keyboard use.
import { expect, openPage, test } from './page.mjs';

const TEXT_SELECTORS = [
  'body', '.tagline', '.help', '.preset-note', '.control label', 'label[for="ranking"]', '.optional',
  '#ranking', 'button.preset', '.headline-parts', '.formula-note', '#steps caption', '#steps thead th',
  '#steps tbody td.num', '.grade-note', '.tag', 'td.changed', 'td.changed .exact', '.diagnostics li.error',
  '.diagnostics li.warning', '.diagnostics li.error button.link', '.stale-note', '.chart figcaption', '.page-footer',
];

async function contrastReport(page, selectors = TEXT_SELECTORS) {
  return page.evaluate((selectors) => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const luminance = ({ r, g, b }) => {
      const lin = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const background = (node) => {
      for (let n = node; n; n = n.parentElement) {
        const c = parse(getComputedStyle(n).backgroundColor);
        if (c && c.a > 0) return c;
      }
      return parse(getComputedStyle(document.documentElement).backgroundColor) ?? { r: 255, g: 255, b: 255, a: 1 };
    };
    const out = [];
    for (const selector of selectors) {
      for (const node of [...document.querySelectorAll(selector)].slice(0, 3)) {
        const style = getComputedStyle(node);
        if (style.display === 'none' || style.visibility === 'hidden' || node.closest('[hidden]')) continue;
        const fg = parse(style.color);
        const bg = background(node);
        const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
        out.push({ selector, ratio: (l1 + 0.05) / (l2 + 0.05), disabled: node.disabled === true });
      }
    }
    return out;
  }, selectors);
}

for (const colorScheme of ['light', 'dark']) {
  test(`text contrast is at least 4.5:1 in the ${colorScheme} theme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await openPage(page);
    await page.click('button[data-preset="lecture"]');
    await page.click('#slide-view');
    await page.fill('#judgments', `${await page.inputValue('#judgments')}\nd7 x`);
    await page.fill('#ranking', `${await page.inputValue('#ranking')}| 16 | d_5 |\n`);
    await page.screenshot({ path: `tests/e2e/screenshots/lecture-${colorScheme}-errors.png`, fullPage: true });
    const report = await contrastReport(page);
    expect(report.length).toBeGreaterThan(20);
    const failing = report.filter((r) => !r.disabled && r.ratio < 4.5).map((r) => `${r.selector}: ${r.ratio.toFixed(2)}`);
    expect(failing).toEqual([]);
  });
}

const TREC_SELECTORS = ['.modes [role="tab"]', 'button.primary', '.trec-status', '#trec-means td', '#trec-means caption',
  '#trec-queries button.link', '#trec-queries button.sort', '.paste-label', '#trec-histogram-caption', '#trec-explain-steps td.num'];

for (const colorScheme of ['light', 'dark']) {
  test(`text contrast is at least 4.5:1 in the TREC mode, ${colorScheme} theme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await openPage(page);
    await page.click('#tab-trec');
    await page.setInputFiles('#qrels-file', 'tests/trec/basic.qrels');
    await page.setInputFiles('#run-file', 'tests/trec/basic.run');
    await page.click('button[data-query="102"]');
    await expect(page.locator('#trec-explain')).toBeVisible();
    await page.screenshot({ path: `tests/e2e/screenshots/trec-${colorScheme}.png`, fullPage: true });
    const report = await contrastReport(page, TREC_SELECTORS);
    expect(report.length).toBeGreaterThan(10);
    const failing = report.filter((r) => !r.disabled && r.ratio < 4.5).map((r) => `${r.selector}: ${r.ratio.toFixed(2)}`);
    expect(failing).toEqual([]);
  });
}

test('the page works from the keyboard alone', async ({ page }) => {
  await openPage(page);
  // The mode tabs follow the tabs pattern: arrow keys move between them.
  await page.locator('#tab-list').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#tab-trec')).toBeFocused();
  await expect(page.locator('#trec-mode')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#list-mode')).toBeVisible();
  await page.locator('button[data-preset="blog-linear"]').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.961');
  await page.locator('#gain').focus();
  await page.keyboard.press('ArrowDown');  // linear → exponential
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.949');
  await page.locator('#round-like-slide').focus();
  await page.keyboard.press('Space');
  await expect(page.locator('#round-like-slide')).toBeChecked();
  // Tab moves from the ranked list to the judgments, not into a trap.
  await page.locator('#ranking').focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('#judgments')).toBeFocused();
});

test('a file dropped on a box replaces its text', async ({ page }) => {
  await openPage(page);
  await page.click('button[data-preset="blog-linear"]');
  const drop = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['a 3\nb 3\nc 0\n'], 'run.txt', { type: 'text/plain' }));
    return data;
  });
  await page.dispatchEvent('#ranking', 'drop', { dataTransfer: drop });
  await expect(page.locator('#ranking')).toHaveValue('a 3\nb 3\nc 0\n');
  await expect(page.locator('#ndcg-at-k')).toHaveText('1.000');
});
