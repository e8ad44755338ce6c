import { mkdirSync, readFileSync } from 'node:fs';

import { expect, KEPT_KEY, ndcgColumn, openPage, PAGE_URL, pageLink, pasteText, placeAfterScrolling, reloadMarked, test, untilStorageKept } from './page.mjs';

const SCREENSHOTS = 'tests/e2e/screenshots';
mkdirSync(SCREENSHOTS, { recursive: true });

/** 1,000 ranked documents, 300 of them judged: the step table is laid out in blocks. */
async function enterLongRanking(page) {
  await pasteText(page, '#judgments', Array.from({ length: 300 }, (_, i) => `doc-${i * 3} ${1 + (i % 3)}`).join('\n'));
  await pasteText(page, '#ranking', Array.from({ length: 1000 }, (_, i) => `doc-${i}`).join('\n'));
  await expect(page.locator('#steps tbody tr')).toHaveCount(1000);
}

test('the lecture example shows NDCG@10 = 0.2868 with 15 rows, and the slide row when rounded like the slide', async ({ page }) => {
  await openPage(page);
  await page.click('button[data-preset="lecture"]');
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.2868');
  await expect(page.locator('#steps tbody tr')).toHaveCount(15);
  await expect(page.locator('#steps caption')).toContainText('Step by step');
  expect((await ndcgColumn(page)).slice(0, 3)).toEqual(['0.3333', '0.1667', '0.2066']);

  await page.click('#slide-view');
  await expect(page.locator('#round-like-slide')).toBeChecked();
  await expect(page.locator('#decimals')).toHaveValue('1');
  // The slide's NDCG row (seeds/000), computed from DCG and IDCG rounded to one decimal.
  expect(await ndcgColumn(page)).toEqual(['0.33', '0.17', '0.20', '0.18', '0.16', '0.27', '0.26', '0.25',
    '0.24', '0.29', '0.29', '0.29', '0.29', '0.29', '0.36']);
  const rank3 = page.locator('#steps tbody tr').nth(2).locator('[data-field=ndcg]');
  await expect(rank3).toContainText('exact 0.2066');
  await expect(page.locator('#headline')).toContainText('exact NDCG@10 = 0.2868');
});

const PRESET_VALUES = {
  lecture: '0.2868',
  slides: '0.84',
  'blog-linear': '0.961',
  'blog-exponential': '0.949',
  'blog-judged': '0.785',
};

for (const [preset, value] of Object.entries(PRESET_VALUES)) {
  test(`the ${preset} example gives ${value}; screenshots at desktop and phone width`, async ({ page }) => {
    const problems = await openPage(page);
    await page.click(`button[data-preset="${preset}"]`);
    await expect(page.locator('#ndcg-at-k')).toHaveText(value);
    await expect(page.locator('#preset-note')).not.toBeEmpty();
    await page.screenshot({ path: `${SCREENSHOTS}/${preset}-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENSHOTS}/${preset}-phone.png`, fullPage: true });
    expect(problems).toEqual([]);
  });
}

test('the blog exponential example shows the corrected DCG6', async ({ page }) => {
  await openPage(page);
  await page.click('button[data-preset="blog-exponential"]');
  await expect(page.locator('#headline-division')).toHaveText('13.848 / 14.595');
  await expect(page.locator('#steps tbody tr').nth(4).locator('[data-field=term]')).toHaveText('1 / 2.585 = 0.387');
  await expect(page.locator('#preset-note')).toContainText('16.047');
});

test('a bad grade shows a located error and keeps the last result', async ({ page }) => {
  await openPage(page);
  await page.click('button[data-preset="blog-linear"]');
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.961');
  await page.fill('#ranking', 'iPhone 3\nXiaomi two\nHuawei 3\n');
  const error = page.locator('#ranking-diagnostics li.error');
  await expect(error).toContainText('Line 2, column 8');
  await expect(error).toContainText("grade 'two' is not a number");
  await expect(page.locator('#stale-note')).toBeVisible();
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.961');
  await expect(page.locator('#ranking')).toHaveAttribute('aria-invalid', 'true');
  await page.fill('#ranking', 'iPhone 3\nXiaomi 2\nHuawei 3\n');
  await expect(page.locator('#stale-note')).toBeHidden();
});

test('many notes fold after the first three, and an opened fold stays open while editing', async ({ page }) => {
  await openPage(page);
  await page.click('#new-calculation');
  await page.fill('#judgments', 'd1 1\nd2 2\nd3 3\nd4 1\nd5 2\nd6 1');
  // Six documents, each ranked twice: six notes of a repeat.
  await page.fill('#ranking', 'd1\nd2\nd3\nd4\nd5\nd6\nd1\nd2\nd3\nd4\nd5\nd6');
  const list = page.locator('#ranking-diagnostics');
  await expect(list.locator(':scope > li.warning')).toHaveCount(3);
  await expect(list.locator(':scope > li.warning').first()).toContainText('Line 7, column 1: d1 is ranked again here');
  const fold = list.locator(':scope > li.more > details');
  await expect(fold.locator('summary')).toHaveText('3 more notes');
  await expect(fold.locator('li.warning').first()).toBeHidden();
  await fold.locator('summary').click();
  await expect(fold.locator('li.warning')).toHaveCount(3);
  await expect(fold.locator('li.warning').last()).toContainText('Line 12, column 1: d6 is ranked again here');
  // A note in the fold selects its line, as the others do.
  await fold.locator('li.warning').last().locator('button.link').click();
  expect(await page.evaluate(() => { const box = document.getElementById('ranking'); return box.value.slice(box.selectionStart, box.selectionEnd); })).toBe('d6');
  // An edit that adds a note keeps the fold open and counts it. The items and the fold stay the
  // same elements: only the new note is added (rebuilding the list cost milliseconds of style).
  await page.evaluate(() => {
    const list = document.getElementById('ranking-diagnostics');
    list.querySelector(':scope > li.warning').dataset.kept = 'first';
    list.querySelector(':scope > li.more').dataset.kept = 'fold';
    list.querySelector(':scope > li.more li.warning').dataset.kept = 'folded';
  });
  await page.fill('#ranking', 'd1\nd2\nd3\nd4\nd5\nd6\nd1\nd2\nd3\nd4\nd5\nd6\nd6');
  await expect(fold.locator('summary')).toHaveText('4 more notes');
  await expect(fold).toHaveAttribute('open', '');
  await expect(fold.locator('li.warning')).toHaveCount(4);
  await expect(fold.locator('li.warning').last()).toContainText('Line 13, column 1: d6 is ranked again here');
  await expect(list.locator(':scope > li.warning').first()).toHaveAttribute('data-kept', 'first');
  await expect(list.locator(':scope > li.more')).toHaveAttribute('data-kept', 'fold');
  await expect(fold.locator('li.warning').first()).toHaveAttribute('data-kept', 'folded');
  // A note that goes takes its item with it; the others keep theirs, in order.
  await page.fill('#ranking', 'd1\nd2\nd3\nd4\nd5\nd6\nd2\nd3\nd4\nd5\nd6\nd6');
  await expect(list.locator(':scope > li.warning').first()).toContainText('Line 7, column 1: d2 is ranked again here');
  await expect(list.locator(':scope > li.warning').first()).not.toHaveAttribute('data-kept', 'first');
  await expect(fold.locator('summary')).toHaveText('3 more notes');
  await expect(fold.locator('li.warning')).toHaveCount(3);
  await expect(fold.locator('li.warning').last()).toContainText('Line 12, column 1: d6 is ranked again here');
  // Four notes or fewer are shown as they are.
  await page.fill('#ranking', 'd1\nd2\nd1\nd2');
  await expect(list.locator(':scope > li.warning')).toHaveCount(2);
  await expect(list.locator('li.more')).toHaveCount(0);
});

test('a reload keeps what was typed, and the link restores it elsewhere', async ({ page, context }) => {
  await untilStorageKept(page, async () => {
    await openPage(page);
    await page.fill('#ranking', 'a 3\nb 0\nc 2\n');
    await page.fill('#judgments', '');
    await page.selectOption('#ideal', 'ranking');
    await page.selectOption('#discount', 'log2(rank+1)');
    await page.fill('#k', '2');
    // DCG@2 = 3 + 0 = 3; IDCG@2 = 3 + 2/log2(3) = 4.2619; 3 / 4.2619 = 0.7039
    await expect(page.locator('#ndcg-at-k')).toHaveText('0.7039');
    await reloadMarked(page);
  });
  await expect(page.locator('#ranking')).toHaveValue('a 3\nb 0\nc 2\n');
  await expect(page.locator('#k')).toHaveValue('2');
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.7039');

  const link = await pageLink(page);
  const other = await context.browser().newContext();
  const fresh = await other.newPage();
  await fresh.goto(link);
  await fresh.waitForSelector('body[data-ready="true"]');
  await expect(fresh.locator('#ranking')).toHaveValue('a 3\nb 0\nc 2\n');
  await expect(fresh.locator('#ndcg-at-k')).toHaveText('0.7039');
  await other.close();
});

test('the single file works from file:// with every network request blocked, and makes none', async ({ page }) => {
  const requests = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    return url.startsWith('file:') || url.startsWith('data:') ? route.continue() : route.abort();
  });
  await openPage(page);
  await page.click('button[data-preset="lecture"]');
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.2868');
  expect(requests.filter((url) => !url.startsWith('data:'))).toEqual([PAGE_URL]);
});

for (const missing of ['DecompressionStream', 'WebAssembly']) {
  test(`a browser without ${missing} is told the calculator cannot start, and what was typed stays saved`, async ({ page }) => {
    // A tab of its own each time: the one that lacks the feature cannot open the page ready again.
    const tab = await untilStorageKept(page, async () => {
      const fresh = await page.context().newPage();
      await openPage(fresh);
      await fresh.fill('#ranking', 'typed-before 3\nsecond 1');
      await pageLink(fresh);
      await fresh.addInitScript((name) => { delete globalThis[name]; }, missing);
      await fresh.evaluate((key) => localStorage.setItem(key, '1'), KEPT_KEY);
      await fresh.goto(PAGE_URL);
      return fresh;
    });
    await expect(tab.locator('#headline .fatal')).toContainText('The calculator could not start in this browser');
    expect(await tab.evaluate(() => JSON.parse(localStorage.getItem('ndcg-calculator:state')).state.ranking)).toBe('typed-before 3\nsecond 1');
  });
}

test('the built file is under 400 KB', () => {
  expect(readFileSync(new URL(PAGE_URL)).length).toBeLessThan(400 * 1024);
});

test('a document id that looks like HTML is shown as text, never run', async ({ page }) => {
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    return dialog.dismiss();
  });
  await openPage(page);
  // No spaces: an id is one word (an id with a space is an error), and this still runs if injected.
  const evil = '<img/src=x/onerror=alert(1)>';
  await page.fill('#ranking', `${evil}\t1\n<script>alert(2)</script>\t0\n`);
  await page.fill('#judgments', '');
  await page.selectOption('#ideal', 'ranking');
  await expect(page.locator('#steps tbody tr').first().locator('.doc-id')).toHaveText(evil);
  expect(await page.locator('#steps img, #steps script').count()).toBe(0);
  expect(dialogs).toBe(0);
});

test('CSV export has a header and full-precision rows', async ({ page }) => {
  await openPage(page);
  await page.click('button[data-preset="blog-linear"]');
  await page.selectOption('#export-format', 'csv');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  expect(download.suggestedFilename()).toBe('ndcg-steps.csv');
  const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
  expect(csv[0]).toBe('rank,doc,grade,gain,discount,cg,dcg,ideal_doc,ideal_grade,ideal_gain,idcg,ndcg');
  expect(csv[1]).toBe('1,iPhone,3,3,1,3,3,iPhone,3,3,3,1');
  expect(csv).toHaveLength(8);  // header, 6 ranks, final line break
  const last = csv[6].split(',');
  expect(Number(last[6])).toBeCloseTo(6.8611, 4);
});

test('embed mode hides the page chrome but keeps the calculator', async ({ page }) => {
  await openPage(page, { search: '?embed=1' });
  await expect(page.locator('.page-header')).toBeHidden();
  await expect(page.locator('#ranking')).toBeVisible();
  await expect(page.locator('#steps tbody tr').first()).toBeVisible();
});

test('every control has a label and the tables have header cells', async ({ page }) => {
  await openPage(page);
  for (const id of ['ranking', 'judgments', 'gain', 'discount', 'base', 'ideal', 'k', 'ideal-depth', 'zero', 'decimals', 'round-like-slide']) {
    await expect(page.locator(`label[for="${id}"]`)).toHaveCount(1);
  }
  await expect(page.getByLabel('Ranked list', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Relevance judgments (optional)', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Round like the slide')).toBeVisible();
  expect(await page.locator('#steps thead th[scope="col"]').count()).toBe(11);
  expect(await page.locator('#steps tbody th[scope="row"]').count()).toBeGreaterThan(0);
});

test('tables and the chart patched through many edits read exactly like those rendered fresh', async ({ page, context }) => {
  await openPage(page);
  for (const preset of ['lecture', 'slides', 'blog-exponential', 'lecture']) {
    await page.click(`button[data-preset="${preset}"]`);
  }
  await page.click('#slide-view');
  await page.fill('#ranking', `${await page.inputValue('#ranking')}| 16 | d_5 | 3 |\n`);
  await page.selectOption('#gain', 'exponential');
  await page.fill('#k', '12');
  await expect(page.locator('#steps tbody tr')).toHaveCount(16);
  // k was set last: a headline at 12 comes from an update that read every edit above.
  await expect(page.locator('#headline')).toContainText('NDCG@12');
  // A grade edited last, with k and the number of ranks kept: the chart redraws its lines only.
  await page.locator('#chart svg').evaluate((chart) => { chart.dataset.kept = 'yes'; });
  await page.fill('#ranking', (await page.inputValue('#ranking')).replace('| d_5 | 3 |', '| d_5 | 1 |'));
  await expect(page.locator('#ranking-print')).toContainText('| d_5 | 1 |');
  await expect(page.locator('#chart svg')).toHaveAttribute('data-kept', 'yes');
  await page.locator('#chart svg').evaluate((chart) => { delete chart.dataset.kept; });
  const patched = {
    steps: await page.locator('#steps').innerText(),
    ideal: await page.locator('#ideal-table').innerText(),
    headline: await page.locator('#headline').innerText(),
    chart: await page.locator('#chart').innerHTML(),
  };
  const fresh = await (await context.browser().newContext()).newPage();
  await fresh.goto(await pageLink(page));
  await fresh.waitForSelector('body[data-ready="true"]');
  expect(await fresh.locator('#steps').innerText()).toBe(patched.steps);
  expect(await fresh.locator('#ideal-table').innerText()).toBe(patched.ideal);
  expect(await fresh.locator('#headline').innerText()).toBe(patched.headline);
  expect(await fresh.locator('#chart').innerHTML()).toBe(patched.chart);
  expect(await fresh.locator('#steps math').evaluateAll((m) => m.map((x) => x.textContent)))
    .toEqual(await page.locator('#steps math').evaluateAll((m) => m.map((x) => x.textContent)));
});

test('the policy allows no inline script but the page\'s own, and the page runs under it', async ({ context }) => {
  // A tab of its own: a script added to its loads would run in every later test's.
  const page = await context.newPage();
  const violations = [];
  await page.exposeFunction('reportViolation', (v) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => window.reportViolation(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const problems = await openPage(page);
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src'));
  expect(scriptSrc).not.toContain('unsafe-inline');
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
  await expect(page.locator('#headline')).toContainText('0.2868');
  // An inline script or handler injected later does not run.
  const ran = await page.evaluate(async () => {
    window.injected = false;
    const s = document.createElement('script');
    s.textContent = 'window.injected = true';
    document.body.append(s);
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.injected = true');
    img.src = 'data:,x';
    document.body.append(img);
    await new Promise((r) => setTimeout(r, 100));
    return window.injected;
  });
  expect(ran).toBe(false);
  expect(violations.some((v) => v.startsWith('script-src'))).toBe(true);
  expect(problems).toEqual([]);
});

test('a ranking over 60,000 characters survives a reload, and storage is not emptied by it', async ({ page }) => {
  const long = Array.from({ length: 9000 }, (_, i) => `doc-${i} ${i % 4}`).join('\n');
  await untilStorageKept(page, async () => {
    await openPage(page);
    await pasteText(page, '#ranking', long);
    await page.fill('#judgments', '');
    await expect(page.locator('#steps tbody tr')).toHaveCount(1000);
    expect(await pageLink(page)).toContain('only=1');
    await reloadMarked(page);
  });
  await expect(page.locator('#ranking')).toHaveValue(long);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('ndcg-calculator:state')).state.ranking.length);
  expect(stored).toBe(long.length);
});

test('the address follows typing at most four times a second, and ends at the last keystroke', async ({ context }) => {
  // A tab of its own: a script added to its loads would run in every later test's.
  const page = await context.newPage();
  // Browsers refuse history.replaceState past a rate (WebKit: 100 calls in 10 s): one call a
  // keystroke would leave the address stale after a few seconds of fast typing.
  await page.addInitScript(() => {
    window.addressWrites = 0;
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => { window.addressWrites++; return replace(...args); };
  });
  await openPage(page);
  await page.click('#ranking');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  const before = await page.evaluate(() => window.addressWrites);
  const started = Date.now();
  await page.keyboard.type('abcdefghijklmnopqrstuvwxyz abcdefghijklmnopqrstuvwxyz 3');
  const link = await pageLink(page);
  const seconds = (Date.now() - started) / 1000;
  const writes = await page.evaluate(() => window.addressWrites) - before;
  expect(new URLSearchParams(new URL(link).hash.slice(1)).get('r')).toBe('abcdefghijklmnopqrstuvwxyz abcdefghijklmnopqrstuvwxyz 3');
  expect(writes).toBeGreaterThan(0);
  expect(writes).toBeLessThanOrEqual(Math.ceil(seconds * 4) + 1);
});

test('a reload before the address follows an edit restores that edit, and Copy link copies it', async ({ context }) => {
  // A tab of its own: a script added to its loads would run in every later test's.
  const page = await context.newPage();
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (text) => { window.copied = text; } } });
  });
  await untilStorageKept(page, async () => {
    await openPage(page);
    await page.fill('#ranking', 'a 3\nb 1');
    await pageLink(page);
    // Two edits within the address's interval: the second waits to be written when the page
    // reloads, in the same task, and storage says which link the address still shows. Frames slow
    // enough (a busy machine) let the address follow first: the two edits are then made again,
    // to another text, until the address is left behind.
    const reloaded = page.waitForEvent('load');
    const made = await page.evaluate(async (kept) => {
      const box = document.getElementById('ranking');
      const edit = (text) => new Promise((done) => {
        box.value = text;
        box.dispatchEvent(new Event('input', { bubbles: true }));
        requestAnimationFrame(() => done());
      });
      for (let attempt = 0; attempt < 20; attempt++) {
        await edit('a 3\nb 1\nc 2');
        await edit(`a 3\nb 1\nc 2\nd ${attempt % 4}`);
        const saved = JSON.parse(localStorage.getItem('ndcg-calculator:state'));
        if (location.hash.slice(1) === saved.link) continue;
        sessionStorage.setItem('last-edit', box.value);
        localStorage.setItem(kept, '1');
        location.reload();
        return 'reloading';
      }
      return 'the address followed every edit at once';
    }, KEPT_KEY).catch(() => 'reloading');  // the reload may end the evaluation
    expect(made).toBe('reloading');
    // The new page's load, not the old page, which was ready too.
    await reloaded;
    await page.waitForSelector('body[data-ready="true"]');
  });
  const lastEdit = await page.evaluate(() => sessionStorage.getItem('last-edit'));
  expect(lastEdit).toMatch(/^a 3\nb 1\nc 2\nd [0-3]$/);
  await expect(page.locator('#ranking')).toHaveValue(lastEdit);
  await expect(page.locator('#state-note')).toBeHidden();
  // Copy link writes the address first: the link copied is the last edit's.
  await page.fill('#ranking', 'a 3\nb 1\nc 2\nd 0\ne 1');
  await page.click('#copy-link');
  await expect(page.locator('#export-status')).toHaveText('Link copied');
  const copied = await page.evaluate(() => window.copied);
  expect(new URLSearchParams(new URL(copied).hash.slice(1)).get('r')).toBe('a 3\nb 1\nc 2\nd 0\ne 1');
});

test('a link with other text keeps what this browser had, one click away', async ({ page }) => {
  await openPage(page);
  await page.fill('#ranking', 'mine-1 3\nmine-2 1');
  await page.goto(`${PAGE_URL}#r=${encodeURIComponent('theirs 2')}`);
  await expect(page.locator('#ranking')).toHaveValue('theirs 2');
  await expect(page.locator('#state-note')).toContainText('replaced the input');
  await page.click('#restore-previous');
  await expect(page.locator('#ranking')).toHaveValue('mine-1 3\nmine-2 1');
});

test('a link that arrives while a keystroke waits to be saved replaces neither the other', async ({ page }) => {
  await openPage(page);
  // The order a fast reader can produce: the address changes, the page's scheduled update runs,
  // and only then the hashchange event is handled.
  await page.evaluate(async () => {
    const box = document.getElementById('ranking');
    box.value = 'mine-1 3\nmine-2 1';
    box.dispatchEvent(new Event('input'));
    history.replaceState(null, '', `#r=${encodeURIComponent('theirs 2')}`);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  });
  await expect(page.locator('#ranking')).toHaveValue('theirs 2');
  await page.click('#restore-previous');
  await expect(page.locator('#ranking')).toHaveValue('mine-1 3\nmine-2 1');
});

test('while the input has errors, Export waits for it to be fixed', async ({ page }) => {
  await openPage(page);
  await page.fill('#ranking', 'd1 x');
  await expect(page.locator('#stale-note')).toBeVisible();
  await expect(page.locator('#download')).toBeDisabled();
  await expect(page.locator('#copy')).toBeDisabled();
  await page.fill('#ranking', 'd1 1');
  await expect(page.locator('#download')).toBeEnabled();
});

test('a shared link with 400 KB of set notation in #j= opens, without freezing the page', async ({ page }) => {
  // 20,000 pairs on one line: set notation was read in quadratic time (this froze a tab for 34 s).
  const pairs = Array.from({ length: 20_000 }, (_, i) => `[d${i}, ${i % 4}]`).join(', ');
  const judgments = `R = { ${pairs} }`;
  const hash = `#r=${encodeURIComponent('d3\nd1\nd2')}&j=${encodeURIComponent(judgments)}&k=3`;
  expect(hash.length).toBeGreaterThan(400_000);
  await openPage(page, { hash });
  await expect(page.locator('#steps tbody tr')).toHaveCount(3);
  await expect(page.locator('#judgments-diagnostics li.error')).toHaveCount(0);
  // The page still answers: a frame comes back.
  const frame = await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done(true))));
  expect(frame).toBe(true);
});

test('a long ranking is laid out a block of rows at a time, its columns lined up with their titles; on paper it is a table', async ({ page }) => {
  await openPage(page);
  await enterLongRanking(page);
  await expect(page.locator('#steps')).toHaveClass(/\blong\b/);
  expect(await page.locator('#steps tbody').count()).toBe(20);
  const columns = (selector) => page.locator(selector).evaluate((tr) => {
    tr.scrollIntoView({ block: 'center' });
    return [...tr.cells].map((cell) => {
      const box = cell.getBoundingClientRect();
      return { left: Math.round(box.left), width: Math.round(box.width), overflows: cell.scrollWidth > cell.clientWidth + 1 };
    });
  });
  const titles = await columns('#steps thead tr');
  expect(titles).toHaveLength(11);
  // Side by side, left to right: as columns, not stacked.
  expect(titles.every((c, i) => i === 0 || c.left > titles[i - 1].left)).toBe(true);
  for (const rank of [1, 10, 777, 1000]) {
    const cells = await columns(`#steps tbody tr >> nth=${rank - 1}`);
    expect(cells.map(({ left, width }) => ({ left, width }))).toEqual(titles.map(({ left, width }) => ({ left, width })));
    expect(cells.filter((c) => c.overflows)).toEqual([]);
  }
  // The ideal ranking's table, whose columns are fitted in the same layout as these, lines up too.
  await expect(page.locator('#ideal-table')).toHaveClass(/\blong\b/);
  const idealTitles = await columns('#ideal-table thead tr');
  expect(idealTitles.every((c, i) => i === 0 || c.left > idealTitles[i - 1].left)).toBe(true);
  for (const rank of [1, 500, 1000]) {
    const cells = await columns(`#ideal-table tbody tr >> nth=${rank - 1}`);
    expect(cells.map(({ left, width }) => ({ left, width }))).toEqual(idealTitles.map(({ left, width }) => ({ left, width })));
    expect(cells.filter((c) => c.overflows)).toEqual([]);
  }
  // The division at k is the longest cell of its column, and fits it.
  await expect(page.locator('#steps tbody tr').nth(9).locator('[data-field=ndcg]')).toHaveText('3.3697 / 15.7635 = 0.2138');
  // An edit far down the list shows there.
  await page.locator('#ranking').evaluate((box) => {
    box.value = box.value.replace('doc-900\n', 'doc-3\n');
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await expect(page.locator('#steps tbody tr').nth(900).locator('[data-field=doc]')).toContainText('repeat');
  // A longer document id widens its column, in every row and the titles alike.
  await page.locator('#ranking').evaluate((box) => {
    box.value = box.value.replace('doc-950\n', 'doc-950-renamed-to-something-much-longer\n');
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await expect(page.locator('#steps tbody tr').nth(950).locator('[data-field=doc]')).toContainText('doc-950-renamed-to-something-much-longer');
  const widened = await columns('#steps thead tr');
  expect(widened[1].width).toBeGreaterThan(titles[1].width);
  for (const rank of [1, 901, 951]) {
    const cells = await columns(`#steps tbody tr >> nth=${rank - 1}`);
    expect(cells.map(({ left, width }) => ({ left, width }))).toEqual(widened.map(({ left, width }) => ({ left, width })));
    expect(cells.filter((c) => c.overflows)).toEqual([]);
  }
  await page.emulateMedia({ media: 'print' });
  expect(await page.locator('#steps').evaluate((t) => getComputedStyle(t).display)).toBe('table');
  await page.emulateMedia({ media: 'screen' });
  // A short ranking is a table as before.
  await page.click('button[data-preset="lecture"]');
  await expect(page.locator('#steps tbody tr')).toHaveCount(15);
  await expect(page.locator('#steps')).not.toHaveClass(/\blong\b/);
  expect(await page.locator('#steps tbody').count()).toBe(1);
  expect(await page.locator('#steps').evaluate((t) => getComputedStyle(t).display)).toBe('table');
});

test('what is below a long ranking stays where it was scrolled to while the rows above it are laid out', async ({ page }) => {
  await openPage(page);
  // 730 ranks: fourteen blocks of 50 rows and one of 30, none laid out until near the screen.
  await pasteText(page, '#judgments', Array.from({ length: 300 }, (_, i) => `doc-${i * 3} ${1 + (i % 3)}`).join('\n'));
  await pasteText(page, '#ranking', Array.from({ length: 730 }, (_, i) => `doc-${i}`).join('\n'));
  await expect(page.locator('#steps tbody tr')).toHaveCount(730);
  for (const selector of ['#steps tbody tr >> nth=400', '#ideal-table caption', '#chart']) {
    const place = await placeAfterScrolling(page.locator(selector));
    expect(place.moved, selector).toBeLessThan(1);
  }
});

test('an edit of a long ranking shows in the rows on screen at once, in the rest right after, as a fresh page shows them', async ({ page, context }) => {
  await openPage(page);
  await enterLongRanking(page);
  await page.locator('#steps tbody tr >> nth=599').scrollIntoViewIfNeeded();
  // An edit at rank 1 changes every DCG and NDCG below it.
  const seen = await page.evaluate(async () => {
    // The page learns what is on screen after a frame, as a person scrolls before typing.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const rows = document.querySelectorAll('#steps tbody tr');
    const dcg = (rank) => rows[rank - 1].querySelector('[data-field=dcg]').textContent;
    const before = { near: dcg(600), far: dcg(2) };
    const box = document.getElementById('ranking');
    box.value = box.value.replace('doc-0\n', 'doc-3000\n');
    box.dispatchEvent(new Event('input', { bubbles: true }));
    // After the page's update, in the frame that shows it.
    const inFrame = await new Promise((done) => requestAnimationFrame(() => done({ near: dcg(600), far: dcg(2) })));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))));
    return { before, inFrame, after: { near: dcg(600), far: dcg(2) } };
  });
  expect(seen.inFrame.near).not.toBe(seen.before.near);
  expect(seen.after.near).toBe(seen.inFrame.near);
  expect(seen.after.far).not.toBe(seen.before.far);
  const fresh = await (await context.browser().newContext()).newPage();
  await fresh.goto(await pageLink(page));
  await fresh.waitForSelector('body[data-ready="true"]');
  await expect(fresh.locator('#steps tbody tr')).toHaveCount(1000);
  for (const table of ['#steps', '#ideal-table']) {
    expect(await fresh.locator(table).evaluate((t) => t.tBodies.length)).toBe(20);
    expect(await fresh.locator(`${table} tbody`).evaluateAll((b) => b.map((x) => x.textContent)))
      .toEqual(await page.locator(`${table} tbody`).evaluateAll((b) => b.map((x) => x.textContent)));
  }
});

test('printing right after two quick edits of a long ranking prints every row of the second', async ({ page }) => {
  await openPage(page);
  await enterLongRanking(page);
  const [printed, settled] = await page.evaluate(async () => {
    window.scrollTo(0, 0);
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    await frame();
    await frame();
    const box = document.getElementById('ranking');
    const edit = (from, to) => {
      box.value = box.value.replace(from, to);
      box.dispatchEvent(new Event('input', { bubbles: true }));
    };
    const text = () => [...document.querySelectorAll('#steps tbody, #ideal-table tbody')].map((b) => b.textContent).join('\n');
    // The second edit's update runs in the frame where the first one's rows left for later are
    // filled; printing comes before the second one's are.
    edit('doc-0\n', 'doc-3000\n');
    await new Promise((done) => requestAnimationFrame(done));
    edit('doc-1\n', 'doc-3001\n');
    await frame();
    window.dispatchEvent(new Event('beforeprint'));
    const atPrint = text();
    await frame();
    await frame();
    return [atPrint, text()];
  });
  expect(printed).toBe(settled);
});

test('an update that changes nothing shown replaces no part of the page', async ({ page }) => {
  await openPage(page);
  await page.click('button[data-preset="lecture"]');
  await expect(page.locator('#ndcg-at-k')).toHaveText('0.2868');
  // An input event with the text unchanged (a key that moved the caret): the headline, formulas,
  // notes, captions and tables stay the nodes they were, and nothing is laid out again.
  const changed = await page.evaluate(async () => {
    await new Promise((done) => setTimeout(done, 200));
    const seen = [];
    const observer = new MutationObserver((list) => {
      for (const m of list) seen.push(`${m.type} ${m.target.id || m.target.parentElement?.id || m.target.nodeName}`);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    document.getElementById('ranking').dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))));
    observer.disconnect();
    return seen;
  });
  expect(changed).toEqual([]);
});

test('a long table first drawn in a hidden tab is laid out in blocks once the tab is shown', async ({ page }) => {
  await untilStorageKept(page, async () => {
    await openPage(page);
    await enterLongRanking(page);
    await page.click('#tab-trec');
    // Reopened on the TREC tab, the list's tables are drawn while hidden: in blocks (so that
    // showing them lays out only the rows in view), with nothing to measure their columns by.
    await reloadMarked(page);
  });
  await expect(page.locator('#steps tbody tr')).toHaveCount(1000);
  const columns = () => page.locator('#steps').evaluate((t) => t.style.getPropertyValue('--columns'));
  await expect(page.locator('#steps')).toHaveClass(/\blong\b/);
  expect(await columns()).toBe('');
  await page.click('#tab-list');
  await expect.poll(columns).toMatch(/^minmax\(/);
  const lefts = await page.locator('#steps').evaluate((table) => {
    const row = table.tBodies[10].rows[0];
    row.scrollIntoView({ block: 'center' });
    return [table.tHead.rows[0], row].map((tr) => [...tr.cells].map((c) => Math.round(c.getBoundingClientRect().left)));
  });
  expect(lefts[1]).toEqual(lefts[0]);
});
