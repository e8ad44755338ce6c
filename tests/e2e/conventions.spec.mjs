// Why tools disagree, in the page: library conventions ("As computed by"), scores and ties,
// the comparison of conventions, and check my working, against tests/vectors/presets.json and
// tests/vectors/working.json.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { roundTo } from '../wasm/vectors.mjs';
import { expect, gainMapText, openPage, reloadMarked, test, untilStorageKept } from './page.mjs';

const PRESETS = JSON.parse(readFileSync(new URL('../vectors/presets.json', import.meta.url), 'utf8'));
const { checks } = JSON.parse(readFileSync(new URL('../vectors/working.json', import.meta.url), 'utf8'));
const TREC = fileURLToPath(new URL('../trec/', import.meta.url));
const SHOTS = 'tests/e2e/screenshots';

/** The value the page shows for a summary field, at full precision (10 decimals set). */
async function shown(page, field) {
  if (field === 'ndcgAtK') return Number(await page.textContent('#ndcg-at-k'));
  const [dcg, idcg] = (await page.textContent('#headline-division')).split(' / ').map(Number);
  return field === 'dcgAtK' ? dcg : idcg;
}

function close(actual, v, wanted, what) {
  if (v.tolerance !== undefined) expect(Math.abs(actual - wanted), what).toBeLessThanOrEqual(v.tolerance + 1e-10);
  else expect(roundTo(actual, v.decimals), what).toBeCloseTo(wanted, 9);
}

/**
 * Types a ranking and judgments, chooses a library's conventions, k, and a gain map over the
 * library's gain where the value asks for one (NTCIREVAL's -g).
 */
async function enter(page, { ranking, judgments, preset, k = '', gain }) {
  await page.click('#new-calculation');
  await page.fill('#ranking', ranking);
  await page.fill('#judgments', judgments);
  await page.selectOption('#library', preset);
  await page.fill('#k', String(k));
  if (gain !== undefined) {
    await page.selectOption('#gain', 'custom');
    await page.fill('#gain-map', gainMapText(gain));
  }
  await page.fill('#decimals', '10');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ok');
  // "New calculation" set 4 decimals: ten mean the page has updated since every field above was
  // set (an update reads them all). Under load that update can come after the state says ok.
  await expect(page.locator('#ndcg-at-k')).toHaveText(/\.\d{10}$/);
}

test.describe('library conventions in the page', () => {
  for (const p of PRESETS.presets) {
    test(`${p.name}: the values of ${p.library}`, async ({ page }) => {
      const problems = await openPage(page);
      for (const v of p.values.filter((value) => value.ranking !== undefined)) {
        // The page sets k and a gain map beside a library's conventions; another option would
        // be silently left out here.
        expect(Object.keys(v.options).filter((name) => name !== 'k' && name !== 'gain'), v.from).toEqual([]);
        await enter(page, { ranking: v.ranking, judgments: v.judgments, preset: p.name, k: v.options.k ?? '', gain: v.options.gain });
        // A gain map over the library's gain: the controls hold no library's conventions exactly.
        await expect(page.locator('#library')).toHaveValue(v.options.gain === undefined ? p.name : '');
        for (const [field, wanted] of Object.entries(v.expect)) close(await shown(page, field), v, wanted, `${v.from}, ${field}`);
      }
      const trecValues = p.values.filter((value) => value.qrels !== undefined || value.qrelsText !== undefined);
      if (trecValues.length > 0) {
        await page.click('#tab-trec');
        for (const v of trecValues) {
          await page.fill('#trec-measures', v.measure);
          await page.selectOption('#trec-preset', p.name === 'trec_eval' ? '' : p.name);
          if (v.qrelsText !== undefined) {
            await page.fill('#qrels-text', v.qrelsText);
            await page.fill('#run-text', v.runText);
          } else {
            await page.setInputFiles('#qrels-file', `${TREC}/${v.qrels}`);
            await page.setInputFiles('#run-file', `${TREC}/${v.run}`);
          }
          await page.click('#trec-evaluate');
          await expect(page.locator('#trec-results')).toBeVisible();
          const name = v.measure.replace('.', '_');
          const cell = v.query === 'all'
            ? page.locator('#trec-means tr').filter({ has: page.locator(`th:text-is("${name}")`) }).locator('td[data-field=mean]')
            : page.locator('#trec-queries tbody tr').filter({ has: page.locator(`button[data-query="${v.query}"]`) }).locator('td').first();
          await expect(cell).toHaveText(v.value.toFixed(4));
        }
      }
      expect(problems).toEqual([]);
    });
  }

  test('the example with tied scores gives each library\'s value; the numbers are said to be scores', async ({ page }) => {
    await openPage(page);
    const { example, sklearnTies } = PRESETS;
    for (const [preset, wanted] of Object.entries(example.expect)) {
      await enter(page, { ranking: example.ranking, judgments: example.judgments, preset });
      expect(roundTo(await shown(page, 'ndcgAtK'), 4), preset).toBe(wanted);
    }
    await expect(page.locator('#reading')).toContainText('read as scores: the list is ranked by them (its header row)');
    await expect(page.locator('#steps tbody tr').nth(1).locator('[data-field=score]')).toHaveText('0.5 (tied, ranks 2–3)');
    // scikit-learn's docstring: the top two tie, so rank 1 gains (10 + 5) / 2.
    await enter(page, { ranking: sklearnTies.ranking, judgments: sklearnTies.judgments, preset: 'sklearn', k: 1 });
    expect(roundTo(await shown(page, 'ndcgAtK'), 4)).toBe(sklearnTies.value);
    await expect(page.locator('#steps tbody tr').first().locator('[data-field=gain]')).toHaveText('(10 + 5) / 2 = 7.5');
    await page.screenshot({ path: `${SHOTS}/sklearn-ties.png`, fullPage: true });
  });

  test('"doc number" lines are grades until the page is told they are scores', async ({ page }) => {
    await openPage(page);
    await page.click('#new-calculation');
    await page.fill('#ranking', 'd3 0.9\nd1 0.5\nd2 0.5\n');
    await page.fill('#judgments', PRESETS.example.judgments);
    await expect(page.locator('#reading')).toContainText('read as grades (no header row says otherwise)');
    await page.click('#read-as-other');
    await expect(page.locator('#ranking-numbers')).toHaveValue('score');
    await expect(page.locator('#reading')).toContainText('read as scores');
    await page.click('#undo');
    await expect(page.locator('#ranking-numbers')).toHaveValue('auto');
  });
});

test.describe('why tools disagree', () => {
  test('compare conventions names the tie rule and the ideal\'s source between trec_eval and scikit-learn', async ({ page }) => {
    const problems = await openPage(page);
    const { example } = PRESETS;
    await enter(page, { ranking: example.ranking, judgments: example.judgments, preset: 'trec_eval' });
    await page.fill('#decimals', '4');
    const row = (label) => page.locator('#compare-table tbody tr').filter({ has: page.locator(`th:text-is("${label}")`) });
    await expect(row('scikit-learn ndcg_score').locator('[data-field=ndcg]')).toHaveText('0.6634');
    await expect(row('trec_eval ndcg').locator('[data-field=ndcg]')).toHaveText('0.5800');
    await expect(row('As set above').locator('[data-field=ndcg]')).toHaveText('0.5800');
    await expect(page.locator('#compare-chart svg rect')).toHaveCount(PRESETS.presets.length + 1);
    await expect(page.locator('#compare-effects li[data-option=ties]')).toContainText('ranked by document id, descending → sharing their mean gain: NDCG@3 0.5800 → 0.5937 (+0.0137)');
    await expect(page.locator('#compare-effects li[data-option=ideal]')).toContainText('every judged document → the ranked list alone: NDCG@3 0.5800 → 0.6480 (+0.0680)');
    await expect(page.locator('#compare-effects li[data-option=idealDepth]')).toContainText('no effect on this input');
    await page.selectOption('#compare-second', 'ranx');
    await expect(page.locator('#compare-effects li[data-option=ties]')).toContainText('→ kept in the order given');
    await page.locator('#compare').screenshot({ path: `${SHOTS}/compare-conventions.png` });
    expect(problems).toEqual([]);
  });
});

test.describe('check my working', () => {
  for (const c of checks) {
    test(c.name, async ({ page }) => {
      const problems = await openPage(page);
      await page.click('#new-calculation');
      await page.fill('#ranking', c.ranking);
      await page.fill('#judgments', c.judgments);
      const o = c.options;
      if (o.gain) await page.selectOption('#gain', o.gain);
      if (o.discount) await page.selectOption('#discount', o.discount);
      if (o.ideal) await page.selectOption('#ideal', o.ideal);
      if (o.k !== undefined) await page.fill('#k', String(o.k));
      await page.fill('#working', c.working);
      const columns = page.locator('#working-result .working-column');
      await expect(columns).toHaveCount(c.expect.length);
      for (const [i, want] of c.expect.entries()) {
        const column = columns.nth(i);
        await expect(column).toHaveAttribute('data-quantity', want.quantity);
        const differ = column.locator('tbody tr').filter({ has: page.locator('td.differs[data-field=verdict]') });
        await expect(differ).toHaveCount(want.differ.length);
        for (const [j, rank] of want.differ.entries()) await expect(differ.nth(j).locator('[data-field=rank]')).toHaveText(String(rank));
        for (const f of want.findings) await expect(column.locator(`.findings li[data-cause="${f.cause}"]`).filter({ hasText: f.contains })).toHaveCount(1);
      }
      expect(problems).toEqual([]);
    });
  }

  test('the examples bring their sources\' own working, and the slips show where a person looks', async ({ page }) => {
    await untilStorageKept(page, async () => {
      await openPage(page);
      await page.click('[data-preset=blog-exponential]');
      await expect(page.locator('#working-result .findings li[data-cause=wrong-term]')).toContainText('Rank 5 adds 2.585, which is the discount itself; the term is G / discount = 1 / 2.585 = 0.387');
      await page.locator('#check').screenshot({ path: `${SHOTS}/check-blog.png` });
      await page.click('[data-preset=lecture]');
      await expect(page.locator('#working-result .findings li[data-cause=computed-from-rounded]')).toContainText('at ranks 3, 5, 15');
      await expect(page.locator('#working-result .findings li[data-cause=rank-left-out]')).toContainText('one of ranks 11–14');
      await page.locator('#check').screenshot({ path: `${SHOTS}/check-lecture.png` });
      // Each column's table sits under the column's heading: its caption is for screen readers, and
      // no title stands above its box, however often it is drawn anew; the step table keeps its one.
      const tables = page.locator('#working-result table');
      expect(await tables.count()).toBeGreaterThan(0);
      await expect(page.locator('#working-result table caption.visually-hidden')).toHaveCount(await tables.count());
      await expect(page.locator('#working-result .table-title')).toHaveCount(0);
      await expect(page.locator('#steps-wrap').locator('xpath=preceding-sibling::p[contains(@class, "table-title")]')).toHaveCount(1);
      // The working is part of what is saved: a reload keeps it.
      await page.fill('#working', 'DCG = (1, 1, 1.63)');
      await expect(page.locator('#working-result .working-column')).toHaveCount(1);
      await reloadMarked(page);
    });
    await expect(page.locator('#working')).toHaveValue('DCG = (1, 1, 1.63)');
  });
});
