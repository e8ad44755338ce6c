// The one-list mode's second list, driven by the shared vectors: with a vector's judgments and
// conventions, its ranking pasted as the second list shows the vector's NDCG@k and documents,
// beside a first list that differs from it, with exactly the differing ranks marked.
import { loadVectorCases, roundTo } from '../wasm/vectors.mjs';
import { expect, openPage, reloadMarked, setOptions, test, untilStorageKept } from './page.mjs';

// Cases with judgments, document ids and a result, in the page's controls' reach.
const cases = loadVectorCases().filter((c) => c.expect.ok && c.judgments !== '' && c.expect.columns.rank.length > 2 &&
  c.expect.columns.doc.every((d) => d !== null) && c.options?.roundBeforeDividing === undefined &&
  !('gian' in (c.options ?? {})) && c.options?.discount !== 'log10' && !(c.options?.base !== undefined && c.options?.discount !== 'jarvelin-kekalainen'))
  .slice(0, 4);

test('there are vectors to drive the second list', () => {
  expect(cases.length).toBe(4);
});

for (const c of cases) {
  test(`second list: ${c.file}: ${c.name}`, async ({ page }) => {
    const problems = await openPage(page);
    await page.click('#new-calculation');
    const docs = c.expect.columns.doc;
    // The first list: the vector's documents with the first two swapped.
    await page.fill('#ranking', [docs[1], docs[0], ...docs.slice(2)].join('\n'));
    await page.fill('#judgments', c.judgments);
    await setOptions(page, c.options ?? {});
    await page.fill('#second-ranking', c.ranking);
    await expect(page.locator('#second-results')).toBeVisible();
    const { summary } = c.expect;
    await expect(page.locator('#second-summary strong').nth(1)).toHaveText(`NDCG@${summary.k} = ${roundTo(summary.ndcgAtK, 4).toFixed(4)}`);
    const rows = page.locator('#second-table tbody tr');
    await expect(rows).toHaveCount(Math.min(docs.length, Math.max(100, summary.k)));
    for (let i = 0; i < Math.min(docs.length, 6); i++) {
      await expect(rows.nth(i).locator('td.doc-id').last()).toHaveText(docs[i]);
      await expect(rows.nth(i)).toHaveClass(i < 2 ? /differs/ : /^(?!.*differs)/);
    }
    await expect(page.locator('#second-summary')).toContainText(`2 of ${docs.length} ranks hold different documents`);
    // Each list has its chart.
    await expect(page.locator('#second-chart-a svg')).toBeVisible();
    await expect(page.locator('#second-chart-b svg')).toBeVisible();
    expect(problems).toEqual([]);
  });
}

test('the second list survives a reload, points at its own errors, and New calculation clears it with an undo', async ({ page }) => {
  await untilStorageKept(page, async () => {
    await openPage(page);
    await page.fill('#second-ranking', 'd1\nd2\n');
    await expect(page.locator('#second-results')).toBeVisible();
    await reloadMarked(page);
  });
  await expect(page.locator('#second-ranking')).toHaveValue('d1\nd2\n');
  await page.fill('#second-ranking', '{"d1": ');
  await expect(page.locator('#second-diagnostics li.error')).toHaveCount(1);
  await expect(page.locator('#second-results')).toBeHidden();
  await expect(page.locator('#second-ranking')).toHaveAttribute('aria-invalid', 'true');
  await page.click('#new-calculation');
  await expect(page.locator('#second-ranking')).toHaveValue('');
  await page.click('#undo');
  await expect(page.locator('#second-ranking')).toHaveValue('{"d1": ');
});
