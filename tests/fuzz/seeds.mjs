// Writes the fuzzers' seed inputs, one directory per target, from the cases every test layer
// shares: tests/vectors (cases, presets and working), tests/trec and tests/bad-input (inputs up
// to 64 KB).
// Usage: node tests/fuzz/seeds.mjs OUT_DIR
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { asBytes } from '../bad-input/inputs.mjs';

const TESTS = fileURLToPath(new URL('..', import.meta.url));
const out = process.argv[2];
const MAX = 64 * 1024;
const encoder = new TextEncoder();
// packed: its first byte picks raw bytes (0, 1) or valid bytes changed by the rest (2, 3); an
// unchanged valid evaluation and part are the places to start from.
const seeds = { ranking: [], judgments: [], options: [], qrels: [], run: [], trec: [], explain: [], working: [], packed: [[0], [1], [2], [3], [2, 0, 0, 0, 1], [3, 0, 0, 0, 1]].map((b) => new Uint8Array(b)) };

const bytes = (value) => (typeof value === 'string' ? encoder.encode(value) : value);
const joined = (...parts) => {
  const list = parts.map(bytes);
  const result = new Uint8Array(list.reduce((n, p) => n + p.length, 0) + Math.max(0, list.length - 1));
  let at = 0;
  list.forEach((p, i) => {
    result.set(p, at);
    at += p.length + (i + 1 < list.length ? 1 : 0);  // a NUL between pieces
  });
  return result;
};
const optionPieces = (options) => Object.entries(options ?? {}).flatMap(([k, v]) => [k, typeof v === 'object' ? Object.entries(v).map(([g, x]) => `${g}=${x}`).join(',') : String(v)]);

const optionLines = (options) => optionPieces(options).reduce((s, x, i) => s + (i % 2 ? `=${x}\n` : x), '');
for (const file of readdirSync(join(TESTS, 'vectors')).filter((f) => f.endsWith('.json'))) {
  const vectors = JSON.parse(readFileSync(join(TESTS, 'vectors', file), 'utf8'));
  // working.json: someone's working beside the inputs; presets.json: each library's values.
  for (const c of vectors.checks ?? []) {
    seeds.working.push(joined(c.ranking, c.judgments, optionLines(c.options), c.working));
  }
  for (const p of vectors.presets ?? []) {
    for (const v of p.values.filter((value) => value.ranking !== undefined)) {
      seeds.explain.push(joined(v.ranking, v.judgments, optionLines({ ...v.options, preset: p.name })));
      seeds.working.push(joined(v.ranking, v.judgments, optionLines({ preset: p.name }), 'DCG = (1, 1.5, 2.25)'));
    }
  }
  for (const c of vectors.cases ?? []) {
    seeds.ranking.push(c.ranking ?? '');
    seeds.judgments.push(c.judgments ?? '');
    seeds.options.push(joined(...optionPieces(c.options)));
    seeds.explain.push(joined(c.ranking ?? '', c.judgments ?? '', optionPieces(c.options).reduce((s, x, i) => s + (i % 2 ? `=${x}\n` : x), '')));
  }
}
// A ranking whose numbers read as scores or as grades as the option says: the comparison of
// conventions reads it so under every preset.
for (const numbers of ['score', 'grade', 'auto']) {
  seeds.explain.push(joined('d3 0.9\nd1 0.5\nd2 0.5\nd5 2\n', 'd1 3\nd2 2\nd3 1\nd4 1\n', `rankingNumbers=${numbers}\nk=3\n`));
}
const trecDir = join(TESTS, 'trec');
const manifest = JSON.parse(readFileSync(join(trecDir, 'cases.json'), 'utf8'));
for (const c of manifest.cases) {
  const qrels = readFileSync(join(trecDir, c.qrels));
  const run = readFileSync(join(trecDir, c.run));
  seeds.qrels.push(qrels);
  seeds.run.push(run);
  const measures = [];
  for (let i = 0; i < c.args.length; i++) {
    if (c.args[i] === '-m') measures.push(c.args[++i]);
    else if (c.args[i] === '-l') measures.push(`-l${c.args[++i]}`);
    else if (c.args[i] === '-c') measures.push('-c');
    else if (c.args[i] === '-M') measures.push(`-M${c.args[++i]}`);
    else if (c.args[i] === '-R') measures.push(`-R${c.args[++i]}`);
  }
  seeds.trec.push(joined(measures.join('\n'), qrels, run));
}
// The trec_eval test files under each library's conventions.
for (const preset of ['sklearn', 'gdeval', 'lightgbm']) {
  const c = manifest.cases[0];
  seeds.trec.push(joined(['ndcg', 'ndcg_cut.5,10', `-opreset=${preset}`, '-oties=average'].join('\n'), readFileSync(join(trecDir, c.qrels)), readFileSync(join(trecDir, c.run))));
}
// Flags as the fuzzer's lines: "-R", "prefs" is the one line "-Rprefs"; -m and -q are dropped.
function flagLines(args) {
  const lines = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-R') lines.push(`-R${args[++i]}`);
    else if (args[i] !== '-m' && args[i] !== '-q') lines.push(args[i]);
  }
  return lines;
}
for (const c of manifest.errors) seeds.trec.push(joined(flagLines(c.args ?? []).join('\n'), c.qrelsText, c.runText));
for (const c of manifest.differences) seeds.trec.push(joined(flagLines(c.args).join('\n'), c.qrelsText, c.runText));
// trec_eval's own small test files under every measure and flag.
{
  const te = join(trecDir, 'trec_eval-10.0');
  const qrels = readFileSync(join(te, 'qrels.rel_level')).subarray(0, 20000);
  const run = readFileSync(join(te, 'results.trunc')).subarray(0, 20000);
  for (const flags of [['all_trec'], ['all_trec', '-c', '-J'], ['all_trec', '-M7', '-l2'], ['ndcg.1=0.5,2=3,3=2.2', 'G.2=0.5', 'Rndcg', 'ndcg_rel', 'rbp.p=0.5', 'yaap', 'Judged@5', 'AP(rel=2)', 'RR@3', '-D301'],
    ['all_trec', '-Z301 map 0.2 0.1']]) {
    seeds.trec.push(joined(flags.join('\n'), qrels, run));
  }
  seeds.trec.push(joined('-Rprefs\nall_prefs', readFileSync(join(te, 'prefs.test')), readFileSync(join(te, 'prefs.results.test'))));
  seeds.trec.push(joined('-Rqrels_prefs\nall_prefs\n-c\n-M20', qrels, run));
}
for (const c of JSON.parse(readFileSync(join(TESTS, 'bad-input', 'cases.json'), 'utf8')).cases) {
  if (c.explain) {
    const ranking = asBytes(c.explain.ranking);
    const judgments = asBytes(c.explain.judgments);
    if (ranking.length + judgments.length > MAX) continue;
    seeds.ranking.push(ranking);
    seeds.judgments.push(judgments);
    seeds.explain.push(joined(ranking, judgments, Object.entries(c.explain.options).map(([k, v]) => `${k}=${typeof v === 'string' ? v : ''}`).join('\n')));
    seeds.options.push(joined(...Object.entries(c.explain.options).flatMap(([k, v]) => [k, typeof v === 'string' ? v : '1=1'])));
  } else {
    const qrels = asBytes(c.evaluate.qrels);
    const run = asBytes(c.evaluate.run);
    if (qrels.length + run.length > MAX) continue;
    seeds.qrels.push(qrels);
    seeds.run.push(run);
    const flags = [...c.evaluate.measures];
    if (c.evaluate.options.relevanceLevel !== undefined) flags.push(`-l${c.evaluate.options.relevanceLevel}`);
    seeds.trec.push(joined(flags.join('\n'), qrels, run));
    seeds.options.push(joined(...c.evaluate.measures.flatMap((m) => [m, ''])));
  }
}
for (const [target, list] of Object.entries(seeds)) {
  const dir = join(out, target);
  mkdirSync(dir, { recursive: true });
  list.forEach((seed, i) => writeFileSync(join(dir, `seed-${String(i).padStart(4, '0')}`), bytes(seed)));
  console.log(`${target}: ${list.length} seeds`);
}
