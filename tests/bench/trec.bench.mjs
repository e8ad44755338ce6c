// A run of 5,000 queries × 1,000 documents (about 180 MB), generated deterministically, evaluated
// by ndcg-calc (time, peak memory) and by the page's TREC mode in Chromium (time, progress, how
// long the page's frames take while the worker reads). Prints the figures; asserts nothing.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';

const DIR = join(tmpdir(), 'ndcg-calculator-bench');
const RUN = join(DIR, 'run-5000x1000.run');
const QRELS = join(DIR, 'qrels-5000.qrels');
const MEASURES = ['-m', 'ndcg', '-m', 'ndcg_cut.10', '-m', 'map', '-m', 'P.10', '-m', 'recip_rank', '-m', 'Rprec', '-m', 'bpref'];

async function generate() {
  mkdirSync(DIR, { recursive: true });
  if (existsSync(RUN) && existsSync(QRELS)) return;
  let x = 20261122;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648) >>> 16);  // the high bits
  const run = createWriteStream(RUN);
  const qrels = createWriteStream(QRELS);
  for (let q = 0; q < 5000; q++) {
    const qid = String(301 + q);
    let lines = '';
    let judged = '';
    for (let i = 0; i < 1000; i++) {
      // Distinct within a query: 104729 is prime, so i * 104729 mod 10^8 never repeats for i < 1000.
      const doc = `doc-${String((q * 7919 + i * 104729) % 100000000).padStart(8, '0')}`;
      lines += `${qid} Q0 ${doc} ${i + 1} ${(30 - i * 0.0273).toFixed(4)} run\n`;
      if (next() % 17 === 0) judged += `${qid} 0 ${doc} ${next() % 4}\n`;
    }
    if (!run.write(lines)) await once(run, 'drain');
    qrels.write(judged || `${qid} 0 none 0\n`);
  }
  run.end();
  qrels.end();
  await Promise.all([once(run, 'finish'), once(qrels, 'finish')]);
}

function cli() {
  const timed = existsSync('/usr/bin/time');
  const args = ['wasm/cli.mjs', '-q', ...MEASURES, QRELS, RUN];
  const started = process.hrtime.bigint();
  const r = timed
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`ndcg-calc failed: ${r.stderr}`);
  const peakKB = timed ? Number(r.stderr.trim().split('\n').at(-1)) : null;
  return { seconds, peakMB: peakKB && Math.round(peakKB / 1024), lines: r.stdout.split('\n').length - 1 };
}

async function page() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const tab = await browser.newPage();
  await tab.goto(pathToFileURL(resolve('dist/ndcg-calculator.html')).href);
  await tab.waitForSelector('body[data-ready="true"]');
  await tab.click('#tab-trec');
  await tab.setInputFiles('#qrels-file', QRELS);
  const started = Date.now();
  await tab.setInputFiles('#run-file', RUN);
  const progress = [];
  let worstFrame = 0;
  for (;;) {
    const state = await tab.evaluate(() => ({
      value: document.getElementById('trec-progress-bar').value,
      done: !document.getElementById('trec-results').hidden || document.getElementById('trec-status').textContent.startsWith('Not'),
    }));
    const frame = await tab.evaluate(() => new Promise((done) => { const s = performance.now(); requestAnimationFrame(() => done(performance.now() - s)); }));
    worstFrame = Math.max(worstFrame, frame);
    progress.push(Number(state.value.toFixed(2)));
    if (state.done) break;
    await tab.waitForTimeout(500);
  }
  const seconds = (Date.now() - started) / 1000;
  const queries = await tab.locator('#trec-queries tbody tr').count();
  await browser.close();
  return { seconds, queries, progress, worstFrameMs: Math.round(worstFrame) };
}

await generate();
const megabytes = statSync(RUN).size / 1048576;
const c = cli();
const p = await page();
console.log(JSON.stringify({ runMB: Number(megabytes.toFixed(1)), cli: c, page: p }, null, 2));
console.log(`TREC run of ${megabytes.toFixed(0)} MB: ndcg-calc ${c.seconds.toFixed(1)} s (${(megabytes / c.seconds).toFixed(0)} MB/s), ` +
  `peak ${c.peakMB ?? '?'} MB; page ${p.seconds.toFixed(1)} s for ${p.queries} queries, slowest frame ${p.worstFrameMs} ms while reading`);
