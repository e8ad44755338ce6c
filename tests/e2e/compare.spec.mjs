// Several runs compared in the TREC tab, on the built single file from file://: the page shows
// what the core's compare() gives for the documented data sets of tests/compare (whose numbers
// tests/wasm/compare.test.mjs holds against an independent computation).
import { readFileSync } from 'node:fs';

import { createCalculator } from '../../wasm/index.mjs';
import { expect, openPage, pasteText, reloadMarked, test, untilStorageKept } from './page.mjs';

const DIR = 'tests/compare';
const RUNS = ['small-a.run', 'small-b.run', 'small-c.run'];
const MEASURES = ['P@5', 'AP', 'nDCG@10'];
const read = (name) => readFileSync(`${DIR}/${name}`, 'utf8');

const calc = await createCalculator();
const expected = (options = {}) => calc.compare({
  qrels: read('small.qrels'), runs: Object.fromEntries(RUNS.map((name) => [name, read(name)])), measures: MEASURES, options,
});
const four = (x) => x.toFixed(4);
const pText = (p) => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));

async function compareFiles(page, { correction } = {}) {
  const problems = await openPage(page, { search: '?mode=trec' });
  await page.fill('#trec-measures', MEASURES.join(' '));
  if (correction) {
    // The comparison's options show once there are two runs.
    await page.click('#trec-add-run');
    await page.selectOption('#cmp-correction', correction);
    await page.click('text=Remove run 2');
  }
  await page.setInputFiles('#qrels-file', `${DIR}/small.qrels`);
  await page.setInputFiles('#run-file', RUNS.map((name) => `${DIR}/${name}`));
  await expect(page.locator('#cmp-results')).toBeVisible();
  return problems;
}

test('three run files: the means, the markers and every pair\'s p-values are the core\'s', async ({ page }) => {
  // Uncorrected, some of the data set's differences are significant and others are not.
  const problems = await compareFiles(page, { correction: 'none' });
  const r = expected({ correction: 'none' });
  expect(r.ok).toBe(true);
  await expect(page.locator('#trec-status')).toContainText('Compared 3 runs on 25 queries');
  await expect(page.locator('#trec-results')).toBeHidden();
  await expect(page.locator('#trec-evaluate')).toHaveText('Compare 3 runs');
  // The runs chosen together went to a box each, and each box's chooser shows its file.
  expect(await page.locator('#run-file').evaluate((input) => [...input.files].map((f) => f.name))).toEqual([RUNS[0]]);
  const boxes = page.locator('#trec-more-runs .more-run');
  await expect(boxes).toHaveCount(RUNS.length - 1);
  for (const [i, name] of RUNS.slice(1).entries()) {
    await expect(boxes.nth(i).locator('label').first()).toHaveText(`Run ${i + 2} file: ${name}`);
    expect(await boxes.nth(i).locator('input[type=file]').evaluate((input) => [...input.files].map((f) => f.name))).toEqual([name]);
  }
  // The means table: a row per measure, a column per run, ▲/▼ where the randomization test says so.
  const rows = page.locator('#cmp-means tbody tr');
  await expect(rows).toHaveCount(r.measures.length);
  let marked = 0;
  for (const [m, measure] of r.measures.entries()) {
    const cells = rows.nth(m).locator('td');
    await expect(rows.nth(m).locator('th')).toHaveText(measure);
    for (const [i, run] of r.runs.entries()) {
      const pair = r.pairs.find((p) => p.measure === measure && p.a === RUNS[0] && p.b === run.name);
      const randomization = pair?.tests.find((t) => t.test === 'randomization');
      const mark = randomization?.significant ? (pair.difference > 0 ? ' ▲' : ' ▼') : '';
      if (mark) marked += 1;
      await expect(cells.nth(i)).toHaveText(`${four(run.mean[measure])}${mark}`);
    }
  }
  expect(marked).toBeGreaterThan(0);
  expect(marked).toBeLessThan(r.pairs.length);
  // The pairs table: each pair's difference and the four tests' corrected p-values.
  const pairRows = page.locator('#cmp-pairs-table tbody tr');
  await expect(pairRows).toHaveCount(r.pairs.length);
  for (const [k, pair] of r.pairs.entries()) {
    const cells = pairRows.nth(k).locator('td');
    await expect(cells.nth(2)).toHaveText(`${pair.difference > 0 ? '+' : ''}${four(pair.difference)}`);
    await expect(cells.nth(5)).toHaveText(`${pair.better} / ${pair.worse} / ${pair.tied}`);
    for (const [j, t] of pair.tests.entries()) await expect(cells.nth(6 + j)).toHaveText(pText(t.pAdjusted));
  }
  expect(problems).toEqual([]);
});

test('the chosen pair and measure: a bar and a dot per query, and their table sorted by B − A', async ({ page }) => {
  await compareFiles(page);
  const r = expected();
  await page.selectOption('#cmp-pair', JSON.stringify([RUNS[0], RUNS[2]]));
  await page.selectOption('#cmp-measure', 'ndcg_cut_10');
  const a = r.perQuery[RUNS[0]].ndcg_cut_10;
  const c = r.perQuery[RUNS[2]].ndcg_cut_10;
  const differences = r.queries.map((query, i) => ({ query, d: c[i] - a[i] })).sort((x, y) => y.d - x.d);
  const table = page.locator('#cmp-queries tbody tr');
  await expect(table).toHaveCount(r.queries.length);
  await expect(table.first().locator('th')).toHaveText(differences[0].query);
  await expect(table.last().locator('th')).toHaveText(differences.at(-1).query);
  // One path per sign carries every bar; each "M x y v h" is a query.
  const bars = await page.$$eval('#cmp-differences path.difference', (paths) => paths.map((p) => p.getAttribute('d').split('M').length - 1));
  expect(bars.reduce((s, n) => s + n, 0)).toBe(differences.filter((x) => x.d !== 0).length);
  const dots = await page.$$eval('#cmp-scatter path.dot', (paths) => paths.map((p) => p.getAttribute('d').split('M').length - 1));
  expect(dots.reduce((s, n) => s + n, 0)).toBe(r.queries.length);
  await expect(page.locator('#cmp-differences svg')).toHaveAttribute('aria-label', new RegExp(`${differences.filter((x) => x.d > 0).length} above zero`));
});

test('more queries than pixels: a bar per pixel column and sign, the longest there; the table follows', async ({ page }) => {
  // 3,000 queries of one judged document each; run B finds it at rank 1, 2 or 3, run A at rank 2.
  const QUERIES = 3000;
  const ids = Array.from({ length: QUERIES }, (_, i) => String(1000 + i));
  const qrels = ids.map((q) => `${q} 0 rel-${q} 1\n`).join('');
  const run = (name, rankOf) => ids.map((q, i) => [1, 2, 3].map((rank) => `${q} Q0 ${rank === rankOf(i) ? `rel-${q}` : `other-${q}-${rank}`} ${rank} ${10 - rank} ${name}\n`).join('')).join('');
  const files = { a: run('A', () => 2), b: run('B', (i) => 1 + (i % 3)) };
  await openPage(page, { search: '?mode=trec' });
  await page.fill('#trec-measures', 'recip_rank');
  await page.setInputFiles('#qrels-file', { name: 'many.qrels', mimeType: 'text/plain', buffer: Buffer.from(qrels) });
  await page.setInputFiles('#run-file', [
    { name: 'a.run', mimeType: 'text/plain', buffer: Buffer.from(files.a) },
    { name: 'b.run', mimeType: 'text/plain', buffer: Buffer.from(files.b) },
  ]);
  await expect(page.locator('#cmp-results')).toBeVisible();
  const r = calc.compare({ qrels, runs: { 'a.run': files.a, 'b.run': files.b }, measures: ['recip_rank'] });
  const a = r.perQuery['a.run'].recip_rank;
  const b = r.perQuery['b.run'].recip_rank;
  const differences = b.map((x, i) => x - a[i]);
  const top = Math.max(...differences);
  const bottom = Math.min(...differences);
  expect([top, bottom]).toEqual([0.5, 1 / 3 - 0.5]);
  // The plot is narrower than 3,000 pixels: each bar stands for a pixel column, not a query.
  const { width, bars } = await page.$eval('#cmp-differences svg', (svg) => ({
    width: Number(svg.getAttribute('viewBox').split(' ')[2]),
    bars: Object.fromEntries([...svg.querySelectorAll('path.difference')].map((p) => [
      p.classList.contains('up') ? 'up' : 'down', p.getAttribute('d').split('M').slice(1).map((m) => Number(m.split('v')[1]))])),
  }));
  expect(width).toBeLessThan(QUERIES);
  // Sorted from B's largest gain to its largest loss: a third of the queries gain 0.5, a third tie
  // and a third lose 1/6. So every bar up is as long as the others, every bar down a third as
  // long, and each sign covers a third of the columns.
  const lengths = (sign) => [...new Set(bars[sign].map((v) => Math.abs(v).toFixed(3)))].map(Number);
  expect(lengths('up')).toHaveLength(1);
  expect(lengths('down')).toHaveLength(1);
  expect(lengths('down')[0] / lengths('up')[0]).toBeCloseTo(-bottom / top, 2);
  for (const sign of ['up', 'down']) {
    expect(bars[sign].length).toBeGreaterThan(width / 3 - 30);
    expect(bars[sign].length).toBeLessThan(width / 3 + 2);
  }
  // The per-query table is drawn too (a task after the charts), its first rows B's largest gains.
  const table = page.locator('#cmp-queries tbody tr');
  await expect(table).toHaveCount(500);
  await expect(page.locator('#cmp-queries')).toBeVisible();
  await expect(table.first().locator('td').nth(2)).toHaveText('+0.5000');
  await expect(page.locator('#cmp-more-queries')).toHaveText(`Show more: 500 of ${QUERIES} queries shown`);
});

test('a query opens both rankings side by side, with the ranks that hold different documents marked', async ({ page }) => {
  await compareFiles(page);
  await page.selectOption('#cmp-measure', 'ndcg_cut_10');
  const query = '110';
  await page.click(`#cmp-queries button[data-query="${query}"]`);
  await expect(page.locator('#cmp-side')).toBeVisible();
  // Each run's ranking for the query as the core explains it.
  const explained = (run) => calc.evaluate({ qrels: read('small.qrels'), run: read(run), measures: ['ndcg'], explainQuery: query }).explanation.rows;
  const [ra, rb] = [explained(RUNS[0]), explained(RUNS[1])];
  const [a, b] = [ra.map((row) => row.doc), rb.map((row) => row.doc)];
  const rows = page.locator('#cmp-side-table tbody tr');
  await expect(rows).toHaveCount(Math.max(a.length, b.length));
  const numbers = (row) => [row.term, row.dcg, row.ndcg].map((x) => x.toFixed(4).replace(/^-(0\.0+)$/, '$1'));
  for (let i = 0; i < a.length; i++) {
    await expect(rows.nth(i).locator('td.doc-id').first()).toHaveText(a[i]);
    await expect(rows.nth(i).locator('td.doc-id').last()).toHaveText(b[i]);
    await expect(rows.nth(i)).toHaveClass(a[i] === b[i] ? /^(?!.*differs)/ : /differs/);
    // What each rank adds to DCG, DCG and NDCG: A's three, then B's.
    if (i < 5) await expect(rows.nth(i).locator('td.num')).toHaveText([...numbers(ra[i]), ...numbers(rb[i])]);
  }
  const differing = a.filter((doc, i) => doc !== b[i]).length;
  await expect(page.locator('#cmp-side-about')).toContainText(`${differing} of ${a.length} ranks hold different documents`);
  await expect(page.locator('#cmp-side-table tr.at-k th')).toHaveText('10');
});

test('pasted runs in added boxes are compared and survive a reload; removing them goes back to one run', async ({ page }) => {
  await untilStorageKept(page, async () => {
    await openPage(page, { search: '?mode=trec' });
    await page.fill('#trec-measures', MEASURES.join(' '));
    await pasteText(page, '#qrels-text', read('small.qrels'));
    await pasteText(page, '#run-text', read(RUNS[0]));
    await page.click('#trec-add-run');
    await expect(page.locator('#cmp-options')).toBeVisible();
    await pasteText(page, '#run-2-text', read(RUNS[1]));
    await page.selectOption('#cmp-test', 't');
    await page.click('#trec-evaluate');
    await expect(page.locator('#cmp-results')).toBeVisible();
    const r = expected({ tests: 't,randomization,wilcoxon,bootstrap' });
    await expect(page.locator('#cmp-pairs-table tbody tr')).toHaveCount(3);
    await expect(page.locator('#cmp-markers')).toContainText('paired t test');
    await expect(page.locator('#cmp-means tbody tr').first().locator('td').nth(1)).toContainText(four(r.runs[1].mean[r.measures[0]]));
    await reloadMarked(page);
  });
  await expect(page.locator('#run-2-text')).toHaveValue(read(RUNS[1]));
  await expect(page.locator('#cmp-test')).toHaveValue('t');
  await page.click('text=Remove run 2');
  await expect(page.locator('#cmp-options')).toBeHidden();
  await page.click('#trec-evaluate');
  await expect(page.locator('#trec-results')).toBeVisible();
  await expect(page.locator('#cmp-results')).toBeHidden();
});

test('an error in the second run names it, and an empty added box is pointed at', async ({ page }) => {
  await openPage(page, { search: '?mode=trec' });
  await pasteText(page, '#qrels-text', read('small.qrels'));
  await pasteText(page, '#run-text', read(RUNS[0]));
  await page.click('#trec-add-run');
  await page.click('#trec-evaluate');
  await expect(page.locator('#trec-status')).toHaveText('Run 2 is empty: choose or paste a run, or remove its box.');
  await expect(page.locator('#run-2-text')).toBeFocused();
  await page.fill('#run-2-text', '101 Q0 d1 1 not-a-score b\n');
  await page.click('#trec-evaluate');
  await expect(page.locator('#trec-diagnostics')).toContainText('pasted run 2, line 1');
  await expect(page.locator('#cmp-results')).toBeHidden();
  // What was typed is kept.
  await expect(page.locator('#run-2-text')).toHaveValue('101 Q0 d1 1 not-a-score b\n');
});
