// Runs an ndcg-calc built with -fprofile-generate (scripts/build.sh native) over the inputs its
// profile is taken from, which then guides GCC's optimisation of the native program (branch
// layout, inlining, hot and cold code).
//
// The inputs are TREC runs of the shapes people evaluate, not the benchmark's files:
// - trec_eval 10.0's own test files (tests/trec/trec_eval-10.0), with its 15 quicktest
//   commands: every measure, preferences, judgment groups, -Z, -M, -c, unsorted runs, tabs;
// - generated runs, grouped by query and ranked, of three kinds of document id (TREC
//   newswire's FR940104-0-00001, ClueWeb's clueweb09-en0000-00-00000, MS MARCO's numbers) and
//   three kinds of score (4 or 6 decimals, a double's 17 digits, negatives), read by one thread
//   and by two, with the measures people ask for.
//
// Usage: node scripts/train-profile.mjs path/to/instrumented/ndcg-calc
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { draws } from './draws.mjs';

const program = process.argv[2] && resolve(process.argv[2]);
if (!program) {
  console.error('usage: node scripts/train-profile.mjs path/to/instrumented/ndcg-calc');
  process.exit(2);
}
const TREC = fileURLToPath(new URL('../tests/trec/trec_eval-10.0/', import.meta.url));

const DOC_IDS = [
  (q, i) => `FR9401${String(q % 28 + 1).padStart(2, '0')}-${i % 3}-${String(i * 37 % 100000).padStart(5, '0')}`,
  (q, i) => `clueweb09-en${String(q % 10000).padStart(4, '0')}-${String(i % 100).padStart(2, '0')}-${String(i * 7919 % 100000).padStart(5, '0')}`,
  (q, i) => String((q * 104729 + i * 7919) % 8841823),
];
const SCORES = [
  (i, next) => (25 - i * 0.0213 - (next() % 7) / 1e4).toFixed(4),
  (i, next) => String((1 / (i + 1.5)) * (1 + (next() % 1000) / 1e6)),
  (i, next) => (-2.5 - i * 0.00731 - (next() % 97) / 1e6).toFixed(6),
];

/** A run of `queries` × `depth` and its qrels, ids and scores of the given kinds. */
function makeRun(dir, name, queries, depth, idKind, scoreKind, seed) {
  const next = draws(seed);
  const run = [];
  const qrels = [];
  for (let q = 0; q < queries; q++) {
    const qid = String(401 + q);
    for (let i = 0; i < depth; i++) {
      const doc = DOC_IDS[idKind](q, i);
      run.push(`${qid} Q0 ${doc} ${i + 1} ${SCORES[scoreKind](i, next)} ${name}\n`);
      // Judgments thick near the top, as pooling leaves them.
      if (next() % (i < 100 ? 4 : 40) === 0) qrels.push(`${qid} 0 ${doc} ${next() % 4}\n`);
    }
  }
  const paths = { run: join(dir, `${name}.run`), qrels: join(dir, `${name}.qrels`) };
  writeFileSync(paths.run, run.join(''));
  writeFileSync(paths.qrels, qrels.join(''));
  return paths;
}

const evaluate = (args, cwd, env = {}) => execFileSync(program, args, {
  cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'],
});

// trec_eval's quicktest, as tests/wasm/quicktest.test.mjs runs it.
const quicktest = readFileSync(fileURLToPath(new URL('../tests/wasm/quicktest.test.mjs', import.meta.url)), 'utf8');
const commands = [...quicktest.matchAll(/^ {2}'(.*) \| out[^']*',$/gm)].map((m) => m[1].split(' '));
if (commands.length !== 15) throw new Error(`train-profile: expected trec_eval's 15 quicktest commands, found ${commands.length}`);
for (const args of commands) evaluate(args, TREC);

const dir = mkdtempSync(join(tmpdir(), 'ndcg-calc-profile-'));
try {
  const measures = ['-m', 'ndcg_cut.10', '-m', 'map', '-m', 'P.10', '-m', 'recip_rank', '-m', 'bpref', '-m', 'ndcg'];
  for (let kind = 0; kind < 3; kind++) {
    // 8-12 MB each: read by two threads (as runs of 16 MB and more are), then by one.
    const { run, qrels } = makeRun(dir, `train${kind}`, 200, 1000, kind, kind, 20261127 + kind);
    evaluate([...measures, qrels, run], dir, { NDCG_CALC_SPLIT_BYTES: String(1 << 20) });
    evaluate(['-q', '-m', 'all_trec', qrels, run], dir);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
