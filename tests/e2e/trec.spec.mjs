// The TREC files mode, on the built single file from file://.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';

import { openPage, PAGE_URL } from './page.mjs';

const TREC = 'tests/trec';
/** trec_eval's "all" lines of an expected output, as { measure: text }. */
function meansOf(expectedFile) {
  return Object.fromEntries(readFileSync(`${TREC}/${expectedFile}`, 'utf8').trim().split('\n')
    .map((line) => line.split('\t')).filter(([, qid]) => qid === 'all').map(([name, , value]) => [name.trim(), value]));
}

async function openTrec(page) {
  const problems = await openPage(page);
  await page.click('#tab-trec');
  return problems;
}

test('qrels and run files give trec_eval 10.0\'s means and per-query values', async ({ page }) => {
  const problems = await openTrec(page);
  await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
  await page.setInputFiles('#run-file', `${TREC}/basic.run`);
  await expect(page.locator('#trec-results')).toBeVisible();
  const means = meansOf('expected/basic.txt');
  for (const [name, value] of Object.entries(means)) {
    await expect(page.locator('#trec-means tr').filter({ has: page.locator(`th:text-is("${name}")`) }).locator('td')).toHaveText(value);
  }
  await expect(page.locator('#trec-queries tbody tr')).toHaveCount(4);
  await expect(page.locator('#trec-histogram svg rect')).toHaveCount(10);
  expect(problems).toEqual([]);
});

test('a click on a query opens its step-by-step tables, ending in its ndcg', async ({ page }) => {
  await openTrec(page);
  await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
  await page.setInputFiles('#run-file', `${TREC}/basic.run`);
  await page.click('button[data-query="101"]');
  await expect(page.locator('#trec-explain')).toBeVisible();
  // trec_eval: ndcg 101 = 0.5376; ranked zz, d3, d1 (ties by docno descending)
  await expect(page.locator('#trec-explain-headline')).toContainText('0.5376');
  await expect(page.locator('#trec-explain-steps tbody tr')).toHaveCount(7);
  await expect(page.locator('#trec-explain-steps tbody tr').first().locator('.doc-id')).toHaveText('zz');
});

test('sorting the per-query table by a measure', async ({ page }) => {
  await openTrec(page);
  await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
  await page.setInputFiles('#run-file', `${TREC}/basic.run`);
  await page.click('#trec-queries th:has-text("ndcg_cut_10") button');
  await expect(page.locator('#trec-queries tbody th')).toHaveText(['102', '101', '104', '103']);
  await expect(page.locator('#trec-queries th[aria-sort="descending"]')).toHaveCount(1);
});

test('pasted qrels and run work too, and stay after a reload', async ({ page }) => {
  await openTrec(page);
  await page.fill('#qrels-text', readFileSync(`${TREC}/basic.qrels`, 'utf8'));
  await page.fill('#run-text', readFileSync(`${TREC}/ungrouped.run`, 'utf8'));
  await page.click('#trec-evaluate');
  await expect(page.locator('#trec-results')).toBeVisible();
  await expect(page.locator('#trec-means tr').filter({ has: page.locator('th:text-is("map")') }).locator('td'))
    .toHaveText(meansOf('expected/ungrouped.txt').map);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  await expect(page.locator('#tab-trec')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#run-text')).toHaveValue(readFileSync(`${TREC}/ungrouped.run`, 'utf8'));
});

test('a malformed run gives a located error and no table', async ({ page }) => {
  await openTrec(page);
  await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
  await page.setInputFiles('#run-file', { name: 'bad.run', mimeType: 'text/plain', buffer: Buffer.from('101 Q0 d1 1 1.5 t\n101 Q0 d2 2 high t\n') });
  await expect(page.locator('#trec-diagnostics li.error')).toContainText("bad.run, line 2, column 13: score 'high' is not a number");
  await expect(page.locator('#trec-results')).toBeHidden();
  await expect(page.locator('#trec-status')).toContainText('Not evaluated');
});

test('a large run shows moving progress, can be cancelled, and makes no network request', async ({ page }) => {
  test.setTimeout(120_000);
  const requests = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    return /^(file|data|blob):/.test(url) ? route.continue() : route.abort();
  });
  await openTrec(page);
  // 1,200 queries × 1,000 documents (about 60 MB): seconds of reading, so Cancel has time to act.
  const lines = [];
  const qrels = [];
  for (let q = 1; q <= 1200; q++) {
    for (let d = 0; d < 1000; d++) lines.push(`${q} Q0 doc-${q}-${d} ${d + 1} ${(1000 - d) / 7} run`);
    for (let d = 0; d < 50; d += 3) qrels.push(`${q} 0 doc-${q}-${d} ${d % 4}`);
  }
  const run = Buffer.from(`${lines.join('\n')}\n`);
  await page.setInputFiles('#qrels-file', { name: 'big.qrels', mimeType: 'text/plain', buffer: Buffer.from(`${qrels.join('\n')}\n`) });
  await page.setInputFiles('#run-file', { name: 'big.run', mimeType: 'text/plain', buffer: run });
  await expect.poll(() => page.locator('#trec-progress-bar').evaluate((p) => p.value), { timeout: 10_000 }).toBeGreaterThan(0.12);
  await page.click('#trec-cancel', { timeout: 2_000 });
  await expect(page.locator('#trec-status')).toContainText('Cancelled');
  await expect(page.locator('#trec-progress')).toBeHidden();
  await expect(page.locator('#trec-results')).toBeHidden();

  await page.click('#trec-evaluate');
  const bar = page.locator('#trec-progress-bar');
  await expect.poll(() => bar.evaluate((p) => p.value), { timeout: 10_000 }).toBeGreaterThan(0.2);
  const first = await bar.evaluate((p) => p.value);
  // While the worker reads, the page still paints: one frame comes back quickly.
  const frame = await page.evaluate(() => new Promise((done) => { const s = performance.now(); requestAnimationFrame(() => done(performance.now() - s)); }));
  expect(frame).toBeLessThan(100);
  await expect.poll(() => bar.evaluate((p) => p.value), { timeout: 10_000 }).toBeGreaterThan(first);
  await expect(page.locator('#trec-results')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('#trec-queries tbody tr')).toHaveCount(1200);
  expect(requests.filter((url) => !/^(data|blob):/.test(url))).toEqual([PAGE_URL]);
});
