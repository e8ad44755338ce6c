// Comparison speed: three runs of the evaluation benchmark's shape (5,000 queries × 1,000
// documents, about 174 MB each; see generate.mjs) against one qrels, with map, P.10 and
// ndcg_cut.10, all four tests and 10,000 permutations and resamples:
//  * ndcg-calc compare, native (when built) and Node (wasm core): whole process, peak RSS;
//  * the page's TREC tab in headless Chromium: from choosing the three run files to the
//    comparison shown (its worker reads and tests), with the page's slowest frame meanwhile.
// Every figure is the range over BENCH_RUNS runs (default 3), not the best. Asserts nothing.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

import { NODE_CLI, generate, nodeEnvironments, openBuiltPage, range, timed } from './common.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const QUERIES = Number(process.env.BENCH_COMPARE_QUERIES ?? 5000);
const MEASURES = ['map', 'P.10', 'ndcg_cut.10'];

const files = await generate(QUERIES, 0);
const runs = [files.run, (await generate(QUERIES, 1)).run, (await generate(QUERIES, 2)).run];
const megabytes = runs.reduce((sum, run) => sum + statSync(run).size, 0) / 1048576;

async function pageRun() {
  const { browser, tab, measure } = await openBuiltPage('?mode=trec');
  await tab.fill('#trec-measures', MEASURES.join(' '));
  await tab.setInputFiles('#qrels-file', files.qrels);
  const result = await measure(() => tab.setInputFiles('#run-file', runs), () => !document.getElementById('cmp-results').hidden ||
    document.getElementById('trec-status').textContent.startsWith('Not'));
  const status = await tab.textContent('#trec-status');
  await browser.close();
  if (!status.startsWith('Compared')) throw new Error(`the page did not compare: ${status}`);
  return result;
}

const args = ['compare', ...MEASURES.flatMap((m) => ['-m', m]), '--test', 'randomization', '--test', 't', '--test', 'wilcoxon', '--test', 'bootstrap',
  '--permutations', '10000', files.qrels, ...runs];
const nativeCli = existsSync('build/native/ndcg-calc') ? resolve('build/native/ndcg-calc') : null;
const rows = [];
let reference = null;
for (const [name, command, prefix, env] of [
  ...(nativeCli ? [['ndcg-calc compare (native)', nativeCli, []]] : []),
  ...nodeEnvironments().map(({ label, env }) => [`ndcg-calc compare (Node, wasm${label})`, NODE_CLI, [], env]),
]) {
  const results = Array.from({ length: RUNS }, () => timed(command, [...prefix, ...args], env));
  reference ??= results[0].stdout;
  rows.push({ name, times: results.map((r) => r.seconds), peaks: results.map((r) => r.peakMB).filter((x) => x !== null),
    note: results.every((r) => r.stdout === reference) ? 'same output as the first' : 'OUTPUT DIFFERS' });
}
const page = [];
for (let i = 0; i < RUNS; i++) page.push(await pageRun());
rows.push({ name: 'page, TREC tab (Chromium, worker)', times: page.map((p) => p.seconds), peaks: [], note: `slowest frame ${range(page.map((p) => p.worstFrameMs), 0)} ms` });

console.log(`\nComparing 3 runs of ${QUERIES} queries × 1,000 documents (${megabytes.toFixed(0)} MB in all): ${MEASURES.join(', ')}; ` +
  `four tests, 10,000 permutations and resamples; ${RUNS} runs each, range of the runs (not the best)\n`);
console.log('| evaluator | time (s) | MB/s | peak RSS (MB) | |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(`| ${r.name} | ${range(r.times, 2)} | ${range(r.times.map((t) => megabytes / t), 0)} | ${r.peaks.length ? range(r.peaks, 0) : '—'} | ${r.note} |`);
}
