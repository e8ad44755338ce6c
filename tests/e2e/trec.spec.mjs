// The TREC files mode, on the built single file from file://.
import { readFileSync } from 'node:fs';

import { expect, openPage, PAGE_URL, pasteText, placeAfterScrolling, reloadMarked, test, untilStorageKept } from './page.mjs';

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
    await expect(page.locator('#trec-means tr').filter({ has: page.locator(`th:text-is("${name}")`) }).locator('td[data-field=mean]')).toHaveText(value);
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

test('a query\'s two long tables are laid out in blocks, each column lined up with its title', async ({ page }) => {
  await openTrec(page);
  // 200 documents, ids of growing length, so that the widest cell of a column is far down it.
  const run = Array.from({ length: 200 }, (_, i) => `q1 Q0 d${'x'.repeat(i % 37)}${i} ${i + 1} ${200 - i} tag`).join('\n');
  const qrels = Array.from({ length: 60 }, (_, i) => `q1 0 d${'x'.repeat((i * 3) % 37)}${i * 3} ${1 + (i % 3)}`).join('\n');
  await pasteText(page, '#qrels-text', qrels);
  await pasteText(page, '#run-text', run);
  await page.click('#trec-evaluate');
  await expect(page.locator('button[data-query="q1"]')).toBeVisible();
  // Read at the end of the task that drew them (a mutation observer's callback), before any later
  // frame or task could mend them: the columns are fitted as the tables are drawn, for both.
  const tables = await page.evaluate(() => new Promise((done) => {
    const heading = document.getElementById('trec-explain-heading');
    new MutationObserver((_, observer) => {
      if (!heading.textContent.includes('q1')) return;
      observer.disconnect();
      done(['#trec-explain-steps', '#trec-explain-ideal'].map((selector) => {
        const table = document.querySelector(selector);
        const boxes = (tr) => [...tr.cells].map((cell) => {
          const box = cell.getBoundingClientRect();
          return { left: Math.round(box.left), top: Math.round(box.top), width: Math.round(box.width), overflows: cell.scrollWidth > cell.clientWidth + 1 };
        });
        const titles = boxes(table.tHead.rows[0]);
        const rows = [...table.tBodies].flatMap((body) => [...body.rows]);
        return { selector, long: table.classList.contains('long'), count: rows.length, titles, rows: [0, 49, 99].map((i) => boxes(rows[i])) };
      }));
    }).observe(heading, { childList: true, characterData: true, subtree: true });
    document.querySelector('button[data-query="q1"]').click();
  }));
  for (const { selector, long, count, titles, rows } of tables) {
    expect(long, selector).toBe(true);
    expect(count, selector).toBe(100);
    for (const cells of [titles, ...rows]) {
      // Side by side on one line, left to right: as columns, not stacked.
      expect(new Set(cells.map((c) => c.top)).size, selector).toBe(1);
      expect(cells.every((c, i) => i === 0 || c.left > cells[i - 1].left), selector).toBe(true);
    }
    for (const cells of rows) {
      expect(cells.map(({ left, width }) => ({ left, width })), selector).toEqual(titles.map(({ left, width }) => ({ left, width })));
      expect(cells.filter((c) => c.overflows), selector).toEqual([]);
    }
  }
});

test('files whose ids are not UTF-8: a query named "q\uFFFD" in the table is explained from its own lines', async ({ page }) => {
  await openTrec(page);
  // Latin-1 bytes: the query "q\xe9" and the document "d\xe9".
  const latin1 = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text, 'latin1') });
  await page.setInputFiles('#qrels-file', latin1('latin1.qrels', '1 0 d\xe9 1\n1 0 e 1\nq\xe9 0 d\xe9 1\nq\xe9 0 e 2\n'));
  await page.setInputFiles('#run-file', latin1('latin1.run', '1 Q0 d\xe9 1 2.0 t\n1 Q0 e 2 1.0 t\nq\xe9 Q0 x 1 1.0 t\nq\xe9 Q0 d\xe9 2 0.5 t\nq\xe9 Q0 e 3 0.2 t\n'));
  await expect(page.locator('#trec-queries tbody th')).toHaveText(['1', 'q\uFFFD']);
  await page.click('button[data-query="q\uFFFD"]');
  await expect(page.locator('#trec-explain-heading')).toContainText('Query q\uFFFD: ndcg_cut_10 = 0.6199');
  await expect(page.locator('#trec-explain-steps tbody .doc-id')).toHaveText(['x', 'd\uFFFD', 'e']);
});

test('a second query\'s long step table is all its own when its panel is shown', async ({ page }) => {
  await openTrec(page);
  // Two queries of 200 documents each, with ids of their own.
  const run = ['q1', 'q2'].flatMap((q) => Array.from({ length: 200 }, (_, i) => `${q} Q0 ${q}-d${i} ${i + 1} ${200 - i} tag`)).join('\n');
  const qrels = ['q1', 'q2'].flatMap((q) => Array.from({ length: 50 }, (_, i) => `${q} 0 ${q}-d${i * 4} ${1 + (i % 3)}`)).join('\n');
  await pasteText(page, '#qrels-text', qrels);
  await pasteText(page, '#run-text', run);
  await page.click('#trec-evaluate');
  await page.click('button[data-query="q1"]');
  await expect(page.locator('#trec-explain-heading')).toContainText('Query q1');
  await page.click('#trec-explain-more');
  await expect(page.locator('#trec-explain-steps tbody tr')).toHaveCount(200);
  // Scrolled away from the panel, so that its blocks of rows are off the screen; then the other
  // query. When its heading changes, every row of the table is already that query's.
  const stale = await page.evaluate(async () => {
    window.scrollTo(0, 0);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const heading = document.getElementById('trec-explain-heading');
    const seen = new Promise((done) => {
      new MutationObserver((_, observer) => {
        if (!heading.textContent.includes('q2')) return;
        observer.disconnect();
        done([...document.querySelectorAll('#trec-explain-steps tbody .doc-id')].map((d) => d.textContent).filter((id) => !id.startsWith('q2-')));
      }).observe(heading, { childList: true, characterData: true, subtree: true });
    });
    document.querySelector('button[data-query="q2"]').click();
    return seen;
  });
  expect(stale).toEqual([]);
});

test('sorting the per-query table by a measure', async ({ page }) => {
  await openTrec(page);
  await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
  await page.setInputFiles('#run-file', `${TREC}/basic.run`);
  await page.click('#trec-queries th:has-text("ndcg_cut_10") button');
  await expect(page.locator('#trec-queries tbody th')).toHaveText(['102', '101', '104', '103']);
  await expect(page.locator('#trec-queries th[aria-sort="descending"]')).toHaveCount(1);
  // Again: ascending. Equal values keep the queries' order (map is 0.5 for both 102 and 104).
  await page.click('#trec-queries th:has-text("ndcg_cut_10") button');
  await expect(page.locator('#trec-queries tbody th')).toHaveText(['103', '104', '101', '102']);
  await page.click('#trec-queries th:has-text("map") button');
  await expect(page.locator('#trec-queries tbody th')).toHaveText(['102', '104', '101', '103']);
  await expect(page.locator('#trec-queries tbody tr:first-child td[data-field="map"]')).toHaveText('0.5000');
});

test('pasted qrels and run work too, and stay after a reload', async ({ page }) => {
  await untilStorageKept(page, async () => {
    await openTrec(page);
    await page.fill('#qrels-text', readFileSync(`${TREC}/basic.qrels`, 'utf8'));
    await page.fill('#run-text', readFileSync(`${TREC}/ungrouped.run`, 'utf8'));
    await page.click('#trec-evaluate');
    await expect(page.locator('#trec-results')).toBeVisible();
    await expect(page.locator('#trec-means tr').filter({ has: page.locator('th:text-is("map")') }).locator('td[data-field=mean]'))
      .toHaveText(meansOf('expected/ungrouped.txt').map);
    await reloadMarked(page);
  });
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
  // The worker is paced (?pace=1): it reads one chunk per "Next chunk" and waits, so every step
  // of this test waits for a state of the page, never for the worker to be slow enough.
  const requests = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    return /^(file|data|blob):/.test(url) ? route.continue() : route.abort();
  });
  await openPage(page, { search: '?pace=1' });
  await page.click('#tab-trec');
  // 300 queries × 200 documents: about 4 MB, read in chunks of 256 KB.
  const lines = [];
  const qrels = [];
  for (let q = 1; q <= 300; q++) {
    for (let d = 0; d < 200; d++) lines.push(`${q} Q0 doc-${q}-${d} ${d + 1} ${(1000 - d) / 7} run-with-a-long-tag-to-make-lines-longer`);
    for (let d = 0; d < 50; d += 3) qrels.push(`${q} 0 doc-${q}-${d} ${d % 4}`);
  }
  await page.setInputFiles('#qrels-file', { name: 'big.qrels', mimeType: 'text/plain', buffer: Buffer.from(`${qrels.join('\n')}\n`) });
  await page.setInputFiles('#run-file', { name: 'big.run', mimeType: 'text/plain', buffer: Buffer.from(`${lines.join('\n')}\n`) });
  const bar = page.locator('#trec-progress-bar');
  const label = page.locator('#trec-progress-label');
  // Paused after the qrels' only chunk; step into the run.
  await expect(label).toContainText('Reading qrels: 100%');
  await page.click('#trec-step');
  await expect(label).toContainText('Reading run:');
  expect(await bar.evaluate((p) => p.value)).toBeGreaterThan(0.1);
  await page.click('#trec-cancel');
  await expect(page.locator('#trec-status')).toContainText('Cancelled');
  await expect(page.locator('#trec-progress')).toBeHidden();
  await expect(page.locator('#trec-results')).toBeHidden();

  await page.click('#trec-evaluate');
  await expect(label).toContainText('Reading qrels: 100%');
  await page.click('#trec-step');
  await expect(label).toContainText('Reading run:');
  const first = await bar.evaluate((p) => p.value);
  const firstLabel = await label.textContent();
  await page.click('#trec-step');
  await expect(label).not.toHaveText(firstLabel);
  expect(await bar.evaluate((p) => p.value)).toBeGreaterThan(first);
  await page.click('#trec-run-rest');
  await expect(page.locator('#trec-results')).toBeVisible();
  await expect(page.locator('#trec-queries caption')).toBeVisible();
  // 300 queries: the first 500-row page shows them all.
  await expect(page.locator('#trec-queries tbody tr')).toHaveCount(300);
  expect(requests.filter((url) => !/^(data|blob):/.test(url))).toEqual([`${PAGE_URL}?pace=1`]);
});

test('thousands of queries: a page of rows at a time, sorted without blocking', async ({ page }) => {
  await openTrec(page);
  const qrels = [];
  const run = [];
  for (let q = 1; q <= 2000; q++) {
    qrels.push(`q${q} 0 d1 ${q % 3}`);
    run.push(`q${q} Q0 d1 1 1 t`, `q${q} Q0 d2 2 0.5 t`);
  }
  await pasteText(page, '#qrels-text', `${qrels.join('\n')}\n`);
  await pasteText(page, '#run-text', `${run.join('\n')}\n`);
  await page.click('#trec-evaluate');
  await expect(page.locator('#trec-results')).toBeVisible();
  await expect(page.locator('#trec-queries tbody tr')).toHaveCount(500);
  await expect(page.locator('#trec-more-queries')).toContainText('500 of 2000 queries');
  await page.click('#trec-queries th:has-text("Query") button');
  // The Query column was the sort key (ascending): a click turns it descending, in numeric order.
  await expect(page.locator('#trec-queries tbody th').first()).toHaveText('q2000');
  // Scrolled to, Show more stays where it is: the blocks of rows above it, laid out as they near
  // the screen, stood in at another height and moved it, and a click meant for it could miss.
  const place = await placeAfterScrolling(page.locator('#trec-more-queries'));
  expect(place.moved).toBeLessThan(1);
  await page.click('#trec-more-queries');
  await expect(page.locator('#trec-queries tbody tr')).toHaveCount(2000);
  await expect(page.locator('#trec-more-queries')).toHaveCount(0);
  // Laid out in blocks of rows, as the long step tables are: every row's columns line up with the
  // titles', the numbers' titles stand over their right-aligned values, and a sort rewrites the rows.
  await expect(page.locator('#trec-queries')).toHaveClass(/\blong\b/);
  const edges = () => page.locator('#trec-queries').evaluate((table) => [0, 1, 1000, 2000].map((i) => [...table.rows[i].cells]
    .map((c) => [Math.round(c.getBoundingClientRect().left), Math.round(c.getBoundingClientRect().right)])));
  const [titles, ...rows] = await edges();
  for (const row of rows) expect(row).toEqual(titles);
  await expect(page.locator('#trec-queries thead th.num')).toHaveCount(await page.locator('#trec-queries thead th').count() - 1);
  await page.click('#trec-queries th:has-text("Query") button');
  await expect(page.locator('#trec-queries tbody th').first()).toHaveText('q1');
  await expect(page.locator('#trec-queries tbody th').last()).toHaveText('q2000');
  // Rows are drawn a block at a time: a second sort while the first is being drawn takes over,
  // and no row keeps what the first one, or the order before, put there.
  await page.locator('#trec-queries').evaluate((table) => {
    table.querySelector('button[data-sort="query"]').click();
    table.querySelector('button[data-sort="query"]').click();
  });
  await expect(page.locator('#trec-queries th[aria-sort="ascending"] button[data-sort="query"]')).toHaveCount(1);
  const ascending = Array.from({ length: 2000 }, (_, i) => `q${i + 1}`);
  await expect.poll(() => page.locator('#trec-queries tbody th').allTextContents()).toEqual(ascending);
  await page.locator('#trec-queries button[data-sort="query"]').click();
  await expect.poll(() => page.locator('#trec-queries tbody th').allTextContents()).toEqual(ascending.toReversed());
});

test('relevance level 0 is sent as 0, and a negative level is a located error', async ({ page }) => {
  await untilStorageKept(page, async () => {
    await openTrec(page);
    await page.fill('#qrels-text', '1 0 d1 0\n1 0 d2 1\n');
    await page.fill('#run-text', '1 Q0 d1 1 2 t\n1 Q0 d3 2 1 t\n');
    await page.fill('#trec-measures', 'num_rel num_rel_ret');
    await page.fill('#trec-level', '0');
    await page.click('#trec-evaluate');
    await expect(page.locator('#trec-means tr').filter({ has: page.locator('th:text-is("num_rel")') }).locator('td[data-field=mean]')).toHaveText('2');
    await page.fill('#trec-level', '-1');
    await page.click('#trec-evaluate');
    await expect(page.locator('#trec-diagnostics li.error')).toContainText('0 or more');
    // Typed settings survive a reload without leaving the box.
    await reloadMarked(page);
  });
  await expect(page.locator('#trec-level')).toHaveValue('-1');
  await expect(page.locator('#trec-measures')).toHaveValue('num_rel num_rel_ret');
});

// The TREC tab as a student meets it (finding 9 of the page report).
test.describe('9. the TREC tab', () => {
  test('swapped files are said once, and one click swaps them', async ({ page }) => {
    await openTrec(page);
    await page.setInputFiles('#qrels-file', `${TREC}/basic.run`);
    await page.setInputFiles('#run-file', `${TREC}/basic.qrels`);
    const errors = page.locator('#trec-diagnostics li.error');
    await expect(errors.filter({ hasText: 'were the qrels and run files swapped?' })).toHaveCount(2);
    await expect(errors.first()).toContainText('basic.run, line 1, column 1: this looks like a run line');
    await page.click('#trec-swap');
    await expect(page.locator('#trec-results')).toBeVisible();
    await expect(page.locator('#trec-means tr').filter({ has: page.locator('th:text-is("map")') }).locator('td[data-field=mean]'))
      .toHaveText(meansOf('expected/basic.txt').map);
  });

  test('the "… and N more" line names the file it is about', async ({ page }) => {
    await openTrec(page);
    const bad = Array.from({ length: 150 }, (_, i) => `q${i} 0 d${i} high`).join('\n');
    await page.fill('#qrels-text', `1 0 d1 1\n${bad}\n`);
    await page.fill('#run-text', readFileSync(`${TREC}/basic.run`, 'utf8'));
    await page.click('#trec-evaluate');
    await expect(page.locator('#trec-diagnostics li.error').last()).toContainText('pasted qrels: … and 50 more');
  });

  test('measures in the order typed, mean ± s.d., a narrow means table, the per-query CSV', async ({ page }) => {
    await openTrec(page);
    await page.fill('#trec-measures', 'recip_rank P.10 map');
    await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
    await page.setInputFiles('#run-file', `${TREC}/basic.run`);
    await expect(page.locator('#trec-means tbody th')).toHaveText(['recip_rank', 'P_10', 'map']);
    await expect(page.locator('#trec-queries thead th')).toHaveText([/Query/, /recip_rank/, /P_10/, /map/]);
    // The deviation the core reports is the sample standard deviation of the column shown.
    const maps = (await page.locator('#trec-queries tbody tr td:nth-child(4)').allInnerTexts()).map(Number);
    const mean = maps.reduce((a, b) => a + b, 0) / maps.length;
    const sd = Math.sqrt(maps.reduce((a, b) => a + (b - mean) ** 2, 0) / (maps.length - 1));
    const shown = Number(await page.locator('#trec-means tr').filter({ has: page.locator('th:text-is("map")') }).locator('td[data-field=stdev]').innerText());
    expect(Math.abs(shown - sd)).toBeLessThan(2e-4);
    const means = await page.locator('#trec-means').boundingBox();
    const panel = await page.locator('#trec-mode').boundingBox();
    expect(means.width).toBeLessThan(panel.width / 2);

    const download = page.waitForEvent('download');
    await page.click('#trec-download-queries');
    const csv = readFileSync(await (await download).path(), 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('query,recip_rank,P_10,map');
    expect(csv).toHaveLength(1 + 4 + 1);
    expect(csv.at(-1).startsWith('all,')).toBe(true);
  });

  test('the drill-down explains the measure chosen, marks its cut-off, and leads back', async ({ page }) => {
    await openTrec(page);
    await page.fill('#trec-measures', 'ndcg_cut.5 map');
    await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
    await page.setInputFiles('#run-file', `${TREC}/basic.run`);
    await expect(page.locator('#trec-explain-measure')).toHaveValue('ndcg_cut_5');
    const value = await page.locator('#trec-queries tbody tr').filter({ has: page.locator('button[data-query="101"]') }).locator('td').first().textContent();
    await page.click('button[data-query="101"]');
    await expect(page.locator('#trec-explain-heading')).toHaveText(`Query 101: ndcg_cut_5 = ${value}`);
    await expect(page.locator('#trec-explain-headline')).toContainText(`NDCG@5 = ${value}`);
    await expect(page.locator('#trec-ndcg-at-k')).toHaveText(value);
    await expect(page.locator('[id="ndcg-at-k"]')).toHaveCount(1);  // ids stay unique
    await expect(page.locator('#trec-explain-steps tbody tr.at-k th')).toHaveText('5');
    await page.click('#trec-back');
    await expect(page.locator('button[data-query="101"]')).toBeFocused();
    await page.selectOption('#trec-explain-measure', 'map');
    await page.click('button[data-query="101"]');
    await expect(page.locator('#trec-explain-heading')).toHaveText(/^Query 101: map = 0\.\d{4}$/);
    await expect(page.locator('#trec-explain-about')).toContainText('map covers the whole ranking');
  });
});

test('a query is explained from its own lines alone, in a run whose queries are apart and in a gzipped one', async ({ page }) => {
  // The worker reads only the query's byte spans once the files have been evaluated; a gzipped
  // file has no spans to give and is read whole. Either way the drill-down shows the table's value.
  const { gzipSync } = await import('node:zlib');
  const { readFileSync } = await import('node:fs');
  const runs = [
    { name: 'ungrouped.run', mimeType: 'text/plain', buffer: readFileSync(`${TREC}/ungrouped.run`) },
    { name: 'ungrouped.run.gz', mimeType: 'application/gzip', buffer: gzipSync(readFileSync(`${TREC}/ungrouped.run`)) },
  ];
  for (const run of runs) {
    await openTrec(page);
    await page.fill('#trec-measures', 'ndcg_cut.5 map');
    await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
    await page.setInputFiles('#run-file', run);
    await expect(page.locator('#trec-results')).toBeVisible();
    for (const query of ['101', '102']) {
      const row = page.locator('#trec-queries tbody tr').filter({ has: page.locator(`button[data-query="${query}"]`) });
      const value = await row.locator('td').first().textContent();
      await page.click(`button[data-query="${query}"]`);
      await expect(page.locator('#trec-explain-heading'), run.name).toHaveText(`Query ${query}: ndcg_cut_5 = ${value}`);
      await expect(page.locator('#trec-ndcg-at-k'), run.name).toHaveText(value);
      await page.click('#trec-back');
    }
  }
});

test.describe('10. the histogram at phone width', () => {
  test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  test('its labels keep their size and the page does not scroll sideways', async ({ page }) => {
    await openTrec(page);
    await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
    await page.setInputFiles('#run-file', `${TREC}/basic.run`);
    await expect(page.locator('#trec-histogram svg')).toBeVisible();
    const sizes = await page.locator('#trec-histogram svg text').evaluateAll((texts) => texts.map((t) => t.getBoundingClientRect().height));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.click('button[data-query="101"]');
    await expect(page.locator('#trec-explain')).toBeVisible();
    await page.screenshot({ path: 'tests/e2e/screenshots/trec-phone.png', fullPage: true });
  });
});

test.describe('11. every trec_eval measure, and gzipped files', () => {
  test('the picker offers the whole catalogue, grouped, and types what is ticked', async ({ page }) => {
    const problems = await openTrec(page);
    await page.click('#trec-measure-picker summary');
    const groups = page.locator('#trec-measure-groups fieldset');
    expect(await groups.count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('#trec-measure-groups input[type=checkbox]').count()).toBeGreaterThanOrEqual(40);
    // The default text ticks its measures, by either name.
    await expect(page.locator('#trec-pick-ndcg_cut')).toBeChecked();
    await expect(page.locator('#trec-pick-yaap')).not.toBeChecked();
    await page.click('#trec-measure-picker button[data-set="all_trec"]');
    await expect(page.locator('#trec-measures')).toHaveValue('all_trec');
    await page.check('#trec-pick-yaap');
    await expect(page.locator('#trec-measures')).toHaveValue('all_trec yaap');
    await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
    await page.setInputFiles('#run-file', `${TREC}/basic.run`);
    await expect(page.locator('#trec-results')).toBeVisible();
    const row = (name) => page.locator('#trec-means tr').filter({ has: page.locator(`th:text-is("${name}")`) });
    // trec_eval 10.0 -m all_trec -m yaap on these files (expected/basic-all-trec.txt)
    const expected = meansOf('expected/basic-all-trec.txt');
    for (const name of ['map', 'gm_map', 'bpref', 'iprec_at_recall_0.50', 'P_5', 'ndcg_rel', 'Rndcg', 'G', 'set_F', 'yaap', 'rbp', 'unj_5']) {
      await expect(row(name).locator('td[data-field=mean]')).toHaveText(expected[name]);
    }
    await expect(row('runid').locator('td[data-field=mean]')).toHaveText(expected.runid);
    await expect(row('num_q').locator('td[data-field=mean]')).toHaveText(expected.num_q);
    // relstring is per query only: its text in the per-query table, no mean.
    await expect(row('relstring')).toHaveCount(0);
    await expect(page.locator('#trec-queries td.relstring').first()).not.toBeEmpty();
    expect(problems).toEqual([]);
  });

  test('a gzipped run gives the same means as the plain one, and -J and -M reach the core', async ({ page }) => {
    const { gzipSync } = await import('node:zlib');
    await openTrec(page);
    await page.fill('#trec-measures', 'ndcg map P.10 num_ret');
    await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
    await page.setInputFiles('#run-file', { name: 'basic.run.gz', mimeType: 'application/gzip', buffer: gzipSync(readFileSync(`${TREC}/basic.run`)) });
    await expect(page.locator('#trec-results')).toBeVisible();
    const means = meansOf('expected/basic.txt');
    const mean = (name) => page.locator('#trec-means tr').filter({ has: page.locator(`th:text-is("${name}")`) }).locator('td[data-field=mean]');
    for (const name of ['ndcg', 'map', 'P_10']) await expect(mean(name)).toHaveText(means[name]);
    await page.fill('#trec-max', '2');
    await page.click('#trec-evaluate');
    await expect(mean('num_ret')).toHaveText('7');  // trec_eval -M 2 -m num_ret on these files
  });
});

test('the drill-down shows the working of the measure chosen: AP\'s precision at each relevant rank', async ({ page }) => {
  await openTrec(page);
  await page.fill('#trec-measures', 'map ndcg');
  await page.setInputFiles('#qrels-file', `${TREC}/basic.qrels`);
  await page.setInputFiles('#run-file', `${TREC}/basic.run`);
  await expect(page.locator('#trec-results')).toBeVisible();
  await page.selectOption('#trec-explain-measure', 'map');
  await page.click('button[data-query="101"]');
  await expect(page.locator('#trec-working')).toBeVisible();
  // trec_eval -q -m map: 101 0.4417; relevant at ranks 2, 3 and 5 of zz, d3, d1, d4, d5, d2, d8
  await expect(page.locator('#trec-working-result')).toContainText('AP = (1/2 + 2/3 + 3/5) / num_rel = 1.7667 / 4 = 0.4417');
  await expect(page.locator('#trec-working-steps tbody tr')).toHaveCount(7);
  await expect(page.locator('#trec-working-steps tbody tr.relevant')).toHaveCount(3);
  // Under ndcg the core's NDCG tables stand alone.
  await page.click('#trec-back');
  await page.selectOption('#trec-explain-measure', 'ndcg');
  await page.click('button[data-query="101"]');
  await expect(page.locator('#trec-explain-headline')).toContainText('0.5376');
  await expect(page.locator('#trec-working')).toBeHidden();
});

test.describe('12. preferences', () => {
  test('-R prefs gives trec_eval 10.0\'s means; each format keeps the measures typed for it', async ({ page }) => {
    const problems = await openTrec(page);
    const typedForQrels = await page.inputValue('#trec-measures');
    await page.selectOption('#trec-format', 'prefs');
    await expect(page.locator('#trec-measures')).toHaveValue('prefs');
    await expect(page.locator('#qrels-help code')).toHaveText('query group subgroup docno level');
    // -l, -J and the ndcg conventions have no effect on preferences: not offered.
    for (const id of ['trec-level', 'trec-judged', 'trec-preset']) await expect(page.locator(`#${id}`)).toBeHidden();
    await page.fill('#trec-measures', 'all_prefs');
    await page.setInputFiles('#qrels-file', `${TREC}/prefs-examples.prefs`);
    await page.setInputFiles('#run-file', `${TREC}/prefs-examples.run`);
    await expect(page.locator('#trec-results')).toBeVisible();
    const means = meansOf('expected/prefs-examples.txt');
    expect(Object.keys(means)).toHaveLength(16);
    for (const [name, value] of Object.entries(means)) {
      await expect(page.locator('#trec-means tr').filter({ has: page.locator(`th:text-is("${name}")`) }).locator('td[data-field=mean]')).toHaveText(value);
    }
    // No step-by-step tables for preferences: the queries are not links, and the table says why.
    await expect(page.locator('#trec-queries tbody tr')).toHaveCount(4);
    await expect(page.locator('#trec-queries button[data-query]')).toHaveCount(0);
    await expect(page.locator('#trec-queries caption')).toContainText('read graded qrels');
    await expect(page.locator('#trec-explain-measure')).toBeHidden();
    await page.selectOption('#trec-format', 'qrels');
    await expect(page.locator('#trec-measures')).toHaveValue(typedForQrels);
    for (const id of ['trec-level', 'trec-judged', 'trec-preset']) await expect(page.locator(`#${id}`)).toBeVisible();
    await page.selectOption('#trec-format', 'prefs');
    await expect(page.locator('#trec-measures')).toHaveValue('all_prefs');
    expect(problems).toEqual([]);
  });

  test('a qrels measure under preferences is an error naming the measures that fit', async ({ page }) => {
    await openTrec(page);
    await page.selectOption('#trec-format', 'prefs');
    await page.fill('#trec-measures', 'map');
    await page.setInputFiles('#qrels-file', `${TREC}/prefs-examples.prefs`);
    await page.setInputFiles('#run-file', `${TREC}/prefs-examples.run`);
    await expect(page.locator('#trec-diagnostics')).toContainText('measure map reads graded judgments');
    await expect(page.locator('#trec-results')).toBeHidden();
  });
});
