// TREC evaluation speed, one table, every figure from the same run of this script:
//  * runs of 500 and 5,000 queries × 1,000 documents (about 17 and 174 MB), generated
//    deterministically, with qrels judging about one document in 17, and the small one with its
//    lines shuffled (a run not grouped by query; not in the page);
//  * each evaluator evaluates each run RUNS times (the table gives the range, not the best):
//    trec_eval (when it is on PATH, for comparison), ndcg-calc (Node, wasm core; with and without
//    NODE_EXTRA_CA_CERTS when that is set, common.mjs's nodeEnvironments), the native
//    ndcg-calc when it has been built, and the page's TREC mode in headless Chromium (time from
//    choosing the run file to the means shown, and the page's slowest frame meanwhile);
//  * time, MB/s, peak resident memory (/usr/bin/time), the ratio to trec_eval's time from the
//    same run, and the growth from the small run to the large one (time per MB);
//  * what a start costs: trec_eval's own test files (3 queries, 1,500 ranked documents),
//    SMALL_RUNS times each, as a script that evaluates many small runs one after another meets it.
// The outputs of every evaluator are compared with trec_eval's when it is there. Prints the
// figures; asserts nothing (speed is not a test).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { NODE_CLI, generate, nodeEnvironments, openBuiltPage, range, shuffled, timed } from './common.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SMALL_RUNS = 20;
const MEASURES = ['-m', 'ndcg', '-m', 'ndcg_cut.10', '-m', 'map', '-m', 'P.10', '-m', 'recip_rank', '-m', 'Rprec', '-m', 'bpref'];
const SIZES = [500, 5000];

function onPath(name) {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * The page evaluating the run, then explaining one query of it (the last one its table's first
 * page lists): from the click to the query's step table shown, which reads only that query's
 * bytes.
 */
async function pageRun(files) {
  const { browser, tab, measure } = await openBuiltPage('?mode=trec');
  await tab.setInputFiles('#qrels-file', files.qrels);
  const result = await measure(() => tab.setInputFiles('#run-file', files.run), () => !document.getElementById('trec-results').hidden ||
    document.getElementById('trec-status').textContent.startsWith('Not'));
  // Once the per-query table has its first page (500 rows, laid out in blocks), as a
  // person would see it before clicking.
  await tab.waitForFunction(() => document.querySelectorAll('#trec-queries tbody tr').length === 500, null, { timeout: 60000 });
  const query = await tab.$$eval('button[data-query]', (buttons) => buttons[buttons.length - 1].dataset.query);
  // Scrolled to first, as a person scrolls to a row before clicking it: clicked off screen, the
  // automation scrolls it into view just before the click, and the page's response to that
  // scroll (the blocks of rows that come near the screen laid out, 15-30 ms) fell within the
  // explanation's time.
  await tab.$eval(`button[data-query="${query}"]`, (button) => button.scrollIntoView({ block: 'center' }));
  await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 300)))));
  // Timed in the page, from the click event to the frame after the step table is in the
  // document: timing from outside would add the browser automation's own click (scrolling the
  // button into view, checks) and its polling interval.
  await tab.evaluate((q) => {
    const section = document.getElementById('trec-explain');
    const heading = document.getElementById('trec-explain-heading');
    window.benchExplain = new Promise((done) => {
      let clicked = null;
      document.addEventListener('click', () => { clicked = performance.now(); }, { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (clicked === null || section.hidden || !heading.textContent.startsWith(`Query ${q}:`)) return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => done(performance.now() - clicked), 0));
      });
      observer.observe(section, { subtree: true, childList: true, characterData: true, attributes: true });
    });
  }, query);
  const explained = await measure(() => tab.click(`button[data-query="${query}"]`), (q) => !document.getElementById('trec-explain').hidden &&
    document.getElementById('trec-explain-heading').textContent.startsWith(`Query ${q}:`), query);
  const explainMs = await tab.evaluate(() => window.benchExplain);
  await browser.close();
  return { ...result, explainMs, explainFrameMs: explained.worstFrameMs };
}

const trecEval = process.env.TREC_EVAL ?? onPath('trec_eval');
const nativeCli = existsSync('build/native/ndcg-calc') ? resolve('build/native/ndcg-calc') : null;
const nodeSettings = nodeEnvironments();
const evaluators = [
  ...(trecEval ? [{ name: 'trec_eval', command: trecEval, args: [] }] : []),
  ...nodeSettings.map(({ label, env }) => ({ name: `ndcg-calc (Node, wasm${label})`, command: NODE_CLI, args: [], env })),
  ...(nativeCli ? [{ name: 'ndcg-calc (native)', command: nativeCli, args: [] }] : []),
];

/**
 * Every evaluator on `files` (qrels, run), `runs` times each: a row per evaluator (its times,
 * peaks and whether its output is trec_eval's), and trec_eval's times, for the ratios.
 */
function timeEvaluators(files, row, runs = RUNS) {
  const reference = {};
  const rows = [];
  for (const e of evaluators) {
    const times = [];
    const peaks = [];
    let same = null;
    for (let i = 0; i < runs; i++) {
      const r = timed(e.command, [...e.args, '-q', ...MEASURES, files.qrels, files.run], e.env);
      times.push(r.seconds);
      if (r.peakMB !== null) peaks.push(r.peakMB);
      if (e.name === 'trec_eval') reference.stdout = r.stdout;
      else if (reference.stdout !== undefined) same = (same ?? true) && r.stdout === reference.stdout;
    }
    if (e.name === 'trec_eval') reference.times = times;
    rows.push({ ...row, name: e.name, times, peaks, same });
  }
  return { rows, referenceTimes: reference.times };
}

/** Each run's time against trec_eval's in the same position: the spread of the ratio. */
function addRatios(rows, referenceTimes) {
  for (const row of rows) row.ratio = referenceTimes ? row.times.map((t, i) => referenceTimes[i] / t) : null;
}

const rows = [];
for (const queries of SIZES) {
  const files = await generate(queries);
  const megabytes = statSync(files.run).size / 1048576;
  const { rows: timedRows, referenceTimes } = timeEvaluators(files, { queries, megabytes });
  const page = [];
  for (let i = 0; i < RUNS; i++) page.push(await pageRun(files));
  timedRows.push({ queries, megabytes, name: 'page, TREC tab (Chromium, worker)', times: page.map((p) => p.seconds), peaks: [], same: null,
    note: `slowest frame ${range(page.map((p) => p.worstFrameMs), 0)} ms; explaining one query ${range(page.map((p) => p.explainMs), 0)} ms (slowest frame ${range(page.map((p) => p.explainFrameMs), 0)} ms)` });
  addRatios(timedRows, referenceTimes);
  rows.push(...timedRows);
}

// The small run with its lines shuffled: every query is read again with all of it kept (the
// first reading stops at the first query met again), and each query's documents are sorted.
{
  const files = { qrels: (await generate(SIZES[0])).qrels, run: await shuffled(SIZES[0]) };
  const megabytes = statSync(files.run).size / 1048576;
  const { rows: timedRows, referenceTimes } = timeEvaluators(files, { queries: SIZES[0], megabytes, shuffled: true });
  addRatios(timedRows, referenceTimes);
  rows.push(...timedRows);
}

console.log(`TREC evaluation, -q with ${MEASURES.filter((m) => m !== '-m').join(', ')}; ${RUNS} runs each, range of the runs (not the best)\n`);
if (nodeSettings.length > 1) {
  // What the variable costs every Node program here, whatever it does: Node's start alone.
  const starts = nodeSettings.map(({ env }) => Array.from({ length: RUNS }, () => timed(process.execPath, ['-e', '0'], env).seconds));
  console.log(`NODE_EXTRA_CA_CERTS is set: Node starts (node -e 0) in ${range(starts[0], 2)} s with it, ${range(starts[1], 2)} s without it.\n`);
}
// The peak also as a share of the run's size, to three decimals: the target is at most half of
// it, and a peak printed whole (87 MB of a 174 MB run) may be either side of that.
console.log('| run | evaluator | time (s) | MB/s | peak RSS (MB) | peak ÷ run size | trec_eval time ÷ this | output = trec_eval\'s | |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const label = `${r.queries.toLocaleString('en')} × 1,000${r.shuffled ? ', lines shuffled' : ''} (${r.megabytes.toFixed(0)} MB)`;
  console.log(`| ${label} | ${r.name} | ${range(r.times, 2)} | ${range(r.times.map((t) => r.megabytes / t), 0)} | ` +
    `${r.peaks.length ? range(r.peaks, 0) : '—'} | ${r.peaks.length ? range(r.peaks.map((p) => p / r.megabytes), 3) : '—'} | ` +
    `${r.ratio && r.name !== 'trec_eval' ? `${range(r.ratio, 1)}×` : '—'} | ` +
    `${r.same === null ? '—' : r.same ? 'yes' : 'NO'} | ${r.note ?? ''} |`);
}
console.log('\nScaling, seconds per MB (10× the input should take ≤ 11× the time):\n');
console.log('| evaluator | small run (s/MB) | large run (s/MB) | large ÷ small time (bytes ×) |');
console.log('| --- | --- | --- | --- |');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const name of [...new Set(rows.map((r) => r.name))]) {
  const [small, large] = SIZES.map((q) => rows.find((r) => r.queries === q && r.name === name && !r.shuffled));
  console.log(`| ${name} | ${(median(small.times) / small.megabytes).toFixed(4)} | ${(median(large.times) / large.megabytes).toFixed(4)} | ` +
    `${(median(large.times) / median(small.times)).toFixed(1)}× (medians) for ${(large.megabytes / small.megabytes).toFixed(1)}× the bytes |`);
}

// What a start costs, which a run of 174 MB hides: trec_eval's own test run (3 queries, 1,500
// ranked documents, 64 KB), as a script that evaluates many small runs one after another meets
// it. Node's program starts Node and then the core (compiling it, and each function at its first
// call).
{
  const dir = fileURLToPath(new URL('../trec/trec_eval-10.0/', import.meta.url));
  const { rows: startRows } = timeEvaluators({ qrels: `${dir}qrels.test`, run: `${dir}results.test` }, {}, SMALL_RUNS);
  const reference = startRows.find((r) => r.name === 'trec_eval');
  console.log(`\nA small run: trec_eval's test files (tests/trec/trec_eval-10.0), ${SMALL_RUNS} runs each, milliseconds\n`);
  console.log('| evaluator | median (ms) | range (ms) | peak RSS (MB) | trec_eval\'s median ÷ this | output = trec_eval\'s |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of startRows) {
    const ms = r.times.map((t) => t * 1000);
    console.log(`| ${r.name} | ${median(ms).toFixed(1)} | ${range(ms, 1)} | ${r.peaks.length ? range(r.peaks, 0) : '—'} | ` +
      `${reference && r !== reference ? `${(median(reference.times) / median(r.times)).toFixed(2)}×` : '—'} | ` +
      `${r.same === null ? '—' : r.same ? 'yes' : 'NO'} |`);
  }
}
