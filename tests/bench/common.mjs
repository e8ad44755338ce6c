// What the TREC benchmarks share: their files, generated deterministically into the system's
// temporary folder (qrels judging about one document in 17, and runs of `queries` × 1,000
// documents: variant 0 is the run the evaluation benchmark reads; variants 1, 2, … rank the same
// documents with scores perturbed by their own pseudo-random draws, as other systems would), a
// run of variant 0 with its lines shuffled, a whole process timed, the spread of the runs, and the
// built page in Chromium.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';

import { draws } from '../../scripts/draws.mjs';

export const DIR = join(tmpdir(), 'ndcg-calculator-bench');

/** { run, qrels } paths for `queries` queries, generated when missing. */
export async function generate(queries, variant = 0) {
  mkdirSync(DIR, { recursive: true });
  const run = join(DIR, variant === 0 ? `run-${queries}x1000.run` : `run-${queries}x1000-${variant}.run`);
  const qrels = join(DIR, `qrels-${queries}.qrels`);
  const makeQrels = !existsSync(qrels);
  if (existsSync(run) && !makeQrels) return { run, qrels };
  const next = draws(20261122);
  const noise = draws(20261122 + 7 * variant);
  const runOut = createWriteStream(`${run}.part`);
  const qrelsOut = makeQrels ? createWriteStream(`${qrels}.part`) : null;
  for (let q = 0; q < queries; q++) {
    const qid = String(301 + q);
    let lines = '';
    let judged = '';
    for (let i = 0; i < 1000; i++) {
      // Distinct within a query: 104729 is prime, so i * 104729 mod 10^8 never repeats for i < 1000.
      const doc = `doc-${String((q * 7919 + i * 104729) % 100000000).padStart(8, '0')}`;
      const score = 30 - i * 0.0273 + (variant === 0 ? 0 : (noise() % 4096) / 256);
      lines += `${qid} Q0 ${doc} ${i + 1} ${score.toFixed(4)} ${variant === 0 ? 'run' : `run${variant}`}\n`;
      if (next() % 17 === 0) judged += `${qid} 0 ${doc} ${next() % 4}\n`;
    }
    if (!runOut.write(lines)) await once(runOut, 'drain');
    qrelsOut?.write(judged || `${qid} 0 none 0\n`);
  }
  runOut.end();
  qrelsOut?.end();
  await Promise.all([once(runOut, 'finish'), ...(qrelsOut ? [once(qrelsOut, 'finish')] : [])]);
  // Renamed only when whole, so that an interrupted generation is not taken for a finished one.
  renameSync(`${run}.part`, run);
  if (qrelsOut) renameSync(`${qrels}.part`, qrels);
  return { run, qrels };
}

/**
 * The run of `queries` queries (variant 0) with its lines in an order of no query: shuffled by
 * the same pseudo-random draws on every machine, as a run written without sorting is (each line a
 * query's stretch of its own). Its path, generated when missing.
 */
export async function shuffled(queries) {
  const { run } = await generate(queries);
  const out = join(DIR, `run-${queries}x1000-shuffled.run`);
  if (existsSync(out)) return out;
  const lines = readFileSync(run, 'latin1').split('\n').filter((line) => line !== '');
  const next = draws(20261126);
  for (let i = lines.length - 1; i > 0; i--) {
    // Two draws of 15 bits: enough for a million lines and more.
    const j = ((next() << 15) | next()) % (i + 1);
    [lines[i], lines[j]] = [lines[j], lines[i]];
  }
  writeFileSync(`${out}.part`, `${lines.join('\n')}\n`, 'latin1');
  renameSync(`${out}.part`, out);
  return out;
}

/**
 * Node's ndcg-calc as a user starts it (the installed `ndcg-calc`, or wasm/cli.mjs in a
 * checkout): the file itself, so that Node runs with the flags of its first line.
 */
export const NODE_CLI = resolve('wasm/cli.mjs');

/**
 * The environments the Node program is timed in: this one, and, when it sets
 * NODE_EXTRA_CA_CERTS, this one without it. With that variable set, Node builds its store of
 * root certificates (its own 140 or so, and those the variable names) at every start, before any
 * of the program's code runs, rather than at the first secure connection, which ndcg-calc never
 * makes: 40-50 ms for an empty file and about 90 ms for a system's bundle, on a 2-core machine.
 * What the program itself costs is the second figure; what a person with that setting waits, the
 * first. Each is { label, env }.
 */
export function nodeEnvironments() {
  const { NODE_EXTRA_CA_CERTS: certificates, ...without } = process.env;
  return certificates
    ? [{ label: '', env: process.env }, { label: ', without NODE_EXTRA_CA_CERTS', env: without }]
    : [{ label: '', env: process.env }];
}

/**
 * One whole process, in `env` (this process's environment when not given): seconds, peak RSS in
 * MB (when /usr/bin/time is there), and its stdout.
 */
export function timed(command, args, env = process.env) {
  const withTime = existsSync('/usr/bin/time');
  const started = process.hrtime.bigint();
  const r = withTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env })
    : spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, env });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${command} failed: ${r.stderr}`);
  const peakMB = withTime ? Number(r.stderr.trim().split('\n').at(-1)) / 1024 : null;
  return { seconds, peakMB, stdout: r.stdout };
}

/** "lo–hi" of the runs with `digits` decimals (one number when they agree): the spread, not the best. */
export function range(xs, digits) {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo.toFixed(digits) === hi.toFixed(digits) ? lo.toFixed(digits) : `${lo.toFixed(digits)}–${hi.toFixed(digits)}`;
}

/**
 * The built page in Debian's Chromium, opened at `search`, ready; and a measurement of what
 * `act()` starts: seconds until `done()` holds in the page, and the longest gap between two
 * frames meanwhile (a requestAnimationFrame loop records it).
 */
export async function openBuiltPage(search = '') {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const tab = await browser.newPage();
  await tab.goto(`${pathToFileURL(resolve('dist/ndcg-calculator.html')).href}${search}`);
  await tab.waitForSelector('body[data-ready="true"]');
  const measure = async (act, done, arg = null) => {
    await tab.evaluate(() => {
      window.benchFrames = { worst: 0, last: performance.now(), on: true };
      const tick = (now) => {
        const f = window.benchFrames;
        f.worst = Math.max(f.worst, now - f.last);
        f.last = now;
        if (f.on) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const started = Date.now();
    await act();
    await tab.waitForFunction(done, arg, { timeout: 600000, polling: 50 });
    const seconds = (Date.now() - started) / 1000;
    const worstFrameMs = await tab.evaluate(() => { window.benchFrames.on = false; return window.benchFrames.worst; });
    return { seconds, worstFrameMs };
  };
  return { browser, tab, measure };
}
