// calc.compare and ndcg-calc compare on three documented data sets (tests/compare/README.md):
// every statistic, p-value, corrected p-value and interval of the core against the independent
// computation of compare-reference.mjs, over the per-query values that evaluate() gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { createCalculator } from '../../wasm/index.mjs';
import { CLIS } from './clis.mjs';
import * as reference from './compare-reference.mjs';

const calc = await createCalculator();
const file = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const read = (path) => readFileSync(file(path), 'utf8');
const TREC = 'trec/trec_eval-10.0';

const DATA_SETS = [
  {
    name: "trec_eval's test run and its truncated copy (query 302 missing from it)",
    qrels: `${TREC}/qrels.test`,
    runs: { full: `${TREC}/results.test`, trunc: `${TREC}/results.trunc` },
    measures: ['map', 'P@5', 'nDCG@10'],
  },
  {
    name: 'small: 25 queries, tied P@5 differences, run c missing query 107',
    qrels: 'compare/small.qrels',
    runs: { a: 'compare/small-a.run', b: 'compare/small-b.run', c: 'compare/small-c.run' },
    measures: ['P@5', 'AP', 'nDCG@10'],
  },
  {
    name: 'large: 60 queries, sampled randomization, Wilcoxon normal approximation',
    qrels: 'compare/large.qrels',
    runs: { a: 'compare/large-a.run', b: 'compare/large-b.run', c: 'compare/large-c.run' },
    measures: ['P@10', 'AP', 'nDCG@10'],
    options: { permutations: '3000', seed: '2026', pairs: 'all', correction: 'bh', alpha: '0.1' },
  },
];

function compareSet(set, extra = {}) {
  const runs = Object.fromEntries(Object.entries(set.runs).map(([name, path]) => [name, read(path)]));
  return calc.compare({ qrels: read(set.qrels), runs, measures: set.measures, options: { ...set.options, ...extra } });
}

const near = (actual, wanted, tolerance, what) => {
  if (Number.isNaN(wanted) || wanted === null) return assert.ok(actual === null || Number.isNaN(actual), what);
  if (!Number.isFinite(wanted)) return assert.equal(actual, wanted, what);
  assert.ok(Math.abs(actual - wanted) <= tolerance, `${what}: ${actual}, wanted ${wanted}`);
};

for (const set of DATA_SETS) {
  for (const missing of ['zero', 'drop']) {
    test(`compare, ${set.name}, missing ${missing}: every number as computed independently`, () => {
      const r = compareSet(set, { missing });
      assert.equal(r.ok, true, JSON.stringify(r.errors));
      const names = Object.keys(set.runs);
      assert.deepEqual(r.runs.map((run) => run.name), names);
      // The values compared are evaluate()'s (with -c when missing counts 0).
      for (const name of names) {
        const e = calc.evaluate({ qrels: read(set.qrels), run: read(set.runs[name]), measures: set.measures, options: { averageComplete: missing === 'zero' } });
        for (const measure of r.measures) {
          const byQuery = new Map(e.perQuery.map((q) => [q.query, q.values[measure]]));
          r.queries.forEach((qid, i) => assert.equal(r.perQuery[name][measure][i], byQuery.get(qid), `${name} ${measure} ${qid}`));
          if (missing === 'zero') near(r.runs[names.indexOf(name)].mean[measure], e.mean[measure], 1e-12, `${name} mean ${measure}`);
        }
      }
      const options = { permutations: 10000, seed: 42, alpha: 0.05, correction: 'holm', ...set.options };
      const permutations = Number(options.permutations);
      const seed = BigInt(options.seed);
      const alpha = Number(options.alpha);
      const expected = r.pairs.map((pair) => {
        const a = r.perQuery[pair.a][pair.measure];
        const b = r.perQuery[pair.b][pair.measure];
        const d = Array.from(b, (x, i) => x - a[i]);
        const tol = reference.tolerance([...a, ...b]);
        return {
          d,
          t: reference.pairedT(d, tol),
          randomization: reference.randomization(d, tol, permutations, seed),
          wilcoxon: reference.wilcoxon(d, tol),
          bootstrap: reference.bootstrap(d, tol, permutations, seed, alpha),
        };
      });
      const adjust = options.correction === 'bh' ? reference.benjaminiHochberg : reference.holm;
      const adjusted = Object.fromEntries(['t', 'randomization', 'wilcoxon', 'bootstrap'].map((name) => [name, adjust(expected.map((x) => x[name].p))]));
      r.pairs.forEach((pair, k) => {
        const what = `${pair.measure} ${pair.b} - ${pair.a}`;
        const x = expected[k];
        near(pair.difference, x.d.reduce((s, v) => s + v, 0) / x.d.length, 1e-12, `${what} difference`);
        assert.equal(pair.better + pair.worse + pair.tied, r.queries.length);
        near(pair.low, x.bootstrap.low, 1e-12, `${what} interval low`);
        near(pair.high, x.bootstrap.high, 1e-12, `${what} interval high`);
        assert.deepEqual(pair.tests.map((t) => t.test), ['randomization', 't', 'wilcoxon', 'bootstrap']);
        for (const t of pair.tests) {
          const want = x[t.test];
          // Simpson's rule is good to about 1e-10; the counting tests must agree exactly.
          const tolerance = t.test === 't' ? 1e-8 : 1e-12;
          near(t.statistic, want.statistic, 1e-9, `${what} ${t.test} statistic`);
          near(t.p, want.p, tolerance, `${what} ${t.test} p`);
          near(t.pAdjusted, adjusted[t.test][k], tolerance, `${what} ${t.test} corrected p`);
          assert.equal(t.significant, t.pAdjusted < alpha, `${what} ${t.test} significant`);
          if (want.exact !== undefined) assert.equal(t.exact, want.exact, `${what} ${t.test} exact`);
        }
      });
      if (missing === 'drop' && set.name.includes('missing')) {
        assert.ok(r.warnings.some((w) => /1 query is left out/.test(w.message)), JSON.stringify(r.warnings));
      }
    });
  }
}

test('compare: trec_eval\'s test run against itself differs by 0, with p = 1 in every test', () => {
  const run = read(`${TREC}/results.test`);
  const r = calc.compare({ qrels: read(`${TREC}/qrels.test`), runs: { a: run, b: run, c: run }, measures: ['map', 'P@10', 'nDCG@10', 'RR', 'bpref'], options: { pairs: 'all' } });
  assert.equal(r.ok, true);
  assert.equal(r.pairs.length, 15);
  for (const pair of r.pairs) {
    assert.equal(pair.difference, 0);
    assert.equal(pair.tied, r.queries.length);
    for (const t of pair.tests) {
      assert.equal(t.p, 1, `${pair.measure} ${t.test}`);
      assert.equal(t.pAdjusted, 1);
      assert.equal(t.significant, false);
    }
  }
});

test('compare: bad options and too few runs are errors that name the problem', () => {
  const qrels = read(`${TREC}/qrels.test`);
  const run = read(`${TREC}/results.test`);
  for (const [options, words] of [
    [{ tests: 'z' }, "test 'z'"], [{ permutations: '0' }, "permutations '0'"], [{ alpha: '2' }, "alpha '2'"],
    [{ correction: 'bonferroni' }, "correction 'bonferroni'"], [{ missing: 'maybe' }, "missing 'maybe'"],
    [{ relevanceLevel: 'x' }, 'relevanceLevel'],
  ]) {
    const r = calc.compare({ qrels, runs: { a: run, b: run }, measures: ['map'], options });
    assert.equal(r.ok, false, JSON.stringify(options));
    assert.ok(r.errors.some((e) => e.message.includes(words)), JSON.stringify(r.errors));
  }
  assert.throws(() => calc.compare({ qrels, runs: { a: run }, measures: ['map'] }), /two runs or more/);
  const counts = calc.compare({ qrels, runs: { a: run, b: run }, measures: ['num_ret'] });
  assert.equal(counts.ok, false);
  assert.match(counts.errors[0].message, /nDCG@10/);
  // A broken run is located in it, by name; the other runs' data is not lost for it.
  const broken = calc.compare({ qrels, runs: { good: run, bad: `${run}301 Q0 x\n` }, measures: ['map'] });
  assert.equal(broken.ok, false);
  const e = broken.errors.find((d) => d.source === 'run');
  assert.equal(e.run, 'bad');
  assert.equal(e.line, 1501);
});

test('compareStreams gives compare()\'s numbers, reading each file in chunks, and says what it reads and when it tests', async () => {
  const set = DATA_SETS[1];
  const chunks = (path) => () => {
    const text = read(path);
    return [text.slice(0, 1000), text.slice(1000)];
  };
  const progress = [];
  const streamed = await calc.compareStreams({
    qrels: chunks(set.qrels),
    runs: Object.fromEntries(Object.entries(set.runs).map(([name, path]) => [name, chunks(path)])),
    measures: set.measures,
    onProgress: (p) => progress.push(p),
  });
  const whole = compareSet(set);
  assert.equal(streamed.ok, true);
  assert.deepEqual(streamed.pairs, whole.pairs);
  assert.deepEqual(streamed.runs, whole.runs);
  // Two chunks a file, in order (bytes fed so far: the files are ASCII), then the tests once.
  const size = (path) => read(path).length;
  assert.deepEqual(progress, [
    { file: 'qrels', bytes: 1000 }, { file: 'qrels', bytes: size(set.qrels) },
    ...Object.entries(set.runs).flatMap(([run, path]) => [{ file: 'run', run, bytes: 1000 }, { file: 'run', run, bytes: size(path) }]),
    { file: 'tests', bytes: 0 },
  ]);
});

test('compareStreams with commandLine.only gives the same report, and no values', async () => {
  const set = DATA_SETS[1];
  const whole = (path) => () => [read(path)];
  const argv = ['compare', ...set.measures.flatMap((m) => ['-m', m]), set.qrels, ...Object.values(set.runs)];
  const request = (only) => ({
    qrels: whole(set.qrels),
    runs: Object.fromEntries(Object.entries(set.runs).map(([name, path]) => [name, whole(path)])),
    measures: set.measures,
    commandLine: { argv, qrelsName: set.qrels, only },
  });
  const full = await calc.compareStreams(request(false));
  const only = await calc.compareStreams(request(true));
  assert.equal(full.ok, true);
  assert.deepEqual(only, { ok: true, commandLine: full.commandLine });
  assert.match(only.commandLine.out, /randomization/);
  // A run that fails is reported the same way.
  const broken = (only) => calc.compareStreams({ ...request(only), runs: { a: whole(Object.values(set.runs)[0]), b: () => ['301 Q0 x\n'] } });
  const [brokenFull, brokenOnly] = [await broken(false), await broken(true)];
  assert.equal(brokenOnly.ok, false);
  assert.deepEqual(brokenOnly.commandLine, brokenFull.commandLine);
  assert.notEqual(brokenOnly.commandLine.status, 0);
});

test('runs evaluated in other instances of the core (evaluateForComparison) compare as runs read in one', async () => {
  const { createCalculator: another } = await import('../../wasm/index.mjs');
  const elsewhere = await another();
  const whole = (path) => () => [read(path)];
  for (const set of DATA_SETS) {
    const [first, ...others] = Object.entries(set.runs);
    // Every run but the first evaluated by the other instance, one request each as a worker would.
    const evaluated = {};
    for (const [name, path] of others) {
      const e = await elsewhere.evaluateForComparison({ qrels: whole(set.qrels), runs: { [name]: whole(path) }, measures: set.measures, options: set.options });
      assert.equal(e.ok, true, set.name);
      assert.ok(e.runs[name].packed instanceof Uint8Array && e.runs[name].packed.length > 0);
      evaluated[name] = e.runs[name];
    }
    const mixed = await calc.compareStreams({
      qrels: whole(set.qrels),
      runs: { [first[0]]: whole(first[1]), ...evaluated },
      measures: set.measures,
      options: set.options,
    });
    const direct = compareSet(set);
    assert.equal(mixed.ok, true, set.name);
    assert.deepEqual(mixed.pairs, direct.pairs, set.name);
    assert.deepEqual(mixed.runs, direct.runs, set.name);
    assert.deepEqual(mixed.perQuery, direct.perQuery, set.name);
    assert.deepEqual(mixed.warnings, direct.warnings, set.name);
    // Every run evaluated elsewhere: no qrels needed.
    const all = await elsewhere.evaluateForComparison({ qrels: whole(set.qrels), runs: Object.fromEntries(Object.entries(set.runs).map(([n, p]) => [n, whole(p)])), measures: set.measures, options: set.options });
    const fromPacked = await calc.compareStreams({ runs: all.runs, measures: set.measures, options: set.options });
    assert.deepEqual(fromPacked.pairs, direct.pairs, set.name);
  }
  // Asked for, each run evaluated says where its queries are (to explain one of them later).
  const set = DATA_SETS[1];
  const spanned = await elsewhere.evaluateForComparison({ qrels: whole(set.qrels), runs: { a: whole(set.runs.a) }, measures: set.measures, options: { querySpans: true } });
  const { querySpans } = spanned.runs.a;
  assert.equal(new Set(querySpans.run.queries).size, 25);
  assert.equal(querySpans.run.ends.at(-1), read(set.runs.a).length);
  assert.ok(querySpans.qrels.queries.length >= 25);
  // Evaluated with other measures: an error, not a comparison of unlike columns.
  const other = await elsewhere.evaluateForComparison({ qrels: whole(set.qrels), runs: { b: whole(set.runs.b) }, measures: ['P@10', 'AP', 'nDCG@10'] });
  const unlike = await calc.compareStreams({ qrels: whole(set.qrels), runs: { a: whole(set.runs.a), b: other.runs.b }, measures: set.measures });
  assert.equal(unlike.ok, false);
  assert.match(unlike.errors.map((e) => e.message).join('\n'), /different measures/);
  // Damaged bytes: an error naming what to do, never a crash.
  const damaged = { ...other.runs.b, packed: other.runs.b.packed.slice(0, 20) };
  const broken = await calc.compareStreams({ qrels: whole(set.qrels), runs: { a: whole(set.runs.a), b: damaged }, measures: set.measures });
  assert.equal(broken.ok, false);
  assert.match(broken.errors.map((e) => e.message).join('\n'), /could not be read .*evaluate it again/);
});

const cliFiles = (set) => [file(set.qrels), ...Object.values(set.runs).map(file)];

test('ndcg-calc compare: both programs print the same bytes in every format, and JSON holds the API\'s numbers', () => {
  const set = DATA_SETS[1];
  for (const format of ['text', 'json', 'tsv', 'latex']) {
    const args = ['compare', '--format', format, '-m', 'P@5', '-m', 'AP', '--test', 't', '--test', 'randomization', '--permutations', '2000', ...cliFiles(set)];
    const [node, native] = CLIS.map((cli) => spawnSync(cli.command, [...cli.args, ...args], { encoding: 'utf8' }));
    assert.equal(node.status, 0, node.stderr);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(node.stdout, native.stdout, format);
    assert.equal(node.stderr, native.stderr, format);
    if (format === 'json') {
      const json = JSON.parse(native.stdout);
      const runs = Object.fromEntries(Object.values(set.runs).map((path) => [file(path), read(path)]));
      const api = calc.compare({ qrels: read(set.qrels), runs, measures: ['P@5', 'AP'], options: { tests: 't,randomization', permutations: 2000 } });
      assert.deepEqual(json.pairs, JSON.parse(JSON.stringify(api.pairs)));
      assert.deepEqual(json.options.tests, ['t', 'randomization']);
    }
    if (format === 'text') {
      assert.match(native.stdout, /^Compared on 25 queries/);
      assert.match(native.stdout, /t test, p < 0\.05 after Holm's correction over 4 comparisons/);
    }
    if (format === 'latex') {
      assert.match(native.stdout, /\\begin\{tabular\}\{lrr\}\n\\toprule\n/);
      assert.match(native.stdout, /\\bottomrule\n\\end\{tabular\}\n$/);
    }
  }
});

test('ndcg-calc compare: usage errors exit 2, a broken run exits 1 naming its file and line', () => {
  const set = DATA_SETS[0];
  const [qrels, full, trunc] = cliFiles(set);
  for (const cli of CLIS) {
    const run = (...args) => spawnSync(cli.command, [...cli.args, 'compare', ...args], { encoding: 'utf8' });
    let r = run(qrels, full);
    assert.equal(r.status, 2, cli.name);
    assert.match(r.stderr, /compare needs QRELS and two runs or more; got 2 files/);
    r = run('--test', 'anova', qrels, full, trunc);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /test 'anova' is not one of t, randomization, wilcoxon, bootstrap/);
    r = run('--format', 'trec', qrels, full, trunc);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /compare's --format is text, json, tsv or latex/);
    r = run(qrels, full, '/nonexistent/run');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /cannot read '\/nonexistent\/run'/);
    r = run(qrels, full, qrels);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.split('\n').some((line) => line.startsWith(`ndcg-calc: ${qrels}:1:`)), r.stderr);
    r = run('-h');
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^usage: ndcg-calc compare/);
  }
});

test('the README\'s example of ndcg-calc compare is what it prints', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /```\n\$ cd tests\/compare && ndcg-calc compare (.*)\n([\s\S]*?)\.\.\.\n```/.exec(readme);
  assert.ok(block, 'no example of ndcg-calc compare in the README');
  const [cli] = CLIS;
  const r = spawnSync(cli.command, [...cli.args, 'compare', ...block[1].split(' ')], { cwd: file('compare'), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.startsWith(block[2]), r.stdout.slice(0, 1500));
});
