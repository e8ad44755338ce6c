// The benchmarks' TREC files, generated deterministically into the system's temporary folder:
// qrels judging about one document in 17, and runs of `queries` × 1,000 documents. Variant 0 is
// the run the evaluation benchmark reads; variants 1, 2, … rank the same documents with scores
// perturbed by their own pseudo-random draws, as other systems would (for the comparison).
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DIR = join(tmpdir(), 'ndcg-calculator-bench');

/** A linear congruential generator's high bits: the same numbers on every machine. */
function draws(seed) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) >>> 16);
}

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
