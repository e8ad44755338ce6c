// tests/vectors/presets.json through the wasm API (explain, evaluate) and ndcg-calc --preset:
// the same library values as the native core's tests (tests/core/presets_test.cpp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createCalculator } from '../../wasm/index.mjs';
import { CLIS } from './clis.mjs';
import { roundTo } from './vectors.mjs';

const PRESETS = JSON.parse(readFileSync(new URL('../vectors/presets.json', import.meta.url), 'utf8'));
const TREC_DIR = fileURLToPath(new URL('../trec/', import.meta.url));
const calc = await createCalculator();

/** As presets.json states a value: within its tolerance, or equal once rounded to its decimals. */
function checkValue(actual, v, wanted, what) {
  if (v.tolerance !== undefined) {
    assert.ok(Math.abs(actual - wanted) <= v.tolerance, `${what}: ${actual} is not ${wanted} ± ${v.tolerance}`);
  } else {
    assert.ok(Math.abs(roundTo(actual, v.decimals) - wanted) < 1e-9, `${what}: ${actual} to ${v.decimals} decimals is not ${wanted}`);
  }
}

function valueOf(result, query) {
  assert.equal(result.ok, true, JSON.stringify(result.errors));
  const name = result.columns[0].name;
  if (query === 'all') return result.mean[name];
  return result.perQuery.find((q) => q.query === query).values[name];
}

test('the API lists every preset of presets.json, with its options and citation', () => {
  const names = calc.presets().map((p) => p.name);
  assert.deepEqual(names, PRESETS.presets.map((p) => p.name));
  for (const p of calc.presets()) {
    assert.ok(p.label.length > 0 && p.citation.length > 0);
    assert.ok(['linear', 'exponential'].includes(p.options.gain), p.name);
    assert.ok(['input', 'docno-desc', 'average'].includes(p.options.ties), p.name);
  }
});

for (const p of PRESETS.presets) {
  test(`preset ${p.name} reproduces ${p.library}`, () => {
    assert.ok(p.values.length >= 3 || p.noValues, 'three values of its own, or the reason it documents none');
    for (const v of p.values) {
      const what = `${p.name}, ${v.from}`;
      if (v.qrels || v.qrelsText) {
        const qrels = v.qrelsText ?? readFileSync(join(TREC_DIR, v.qrels));
        const run = v.runText ?? readFileSync(join(TREC_DIR, v.run));
        const r = calc.evaluate({ qrels, run, measures: [v.measure], options: { preset: p.name } });
        checkValue(valueOf(r, v.query), v, v.value, what);
        continue;
      }
      const r = calc.explain({ ranking: v.ranking, judgments: v.judgments, options: { ...v.options, preset: p.name } });
      assert.equal(r.ok, true, `${what}: ${JSON.stringify(r.errors)}`);
      for (const [field, wanted] of Object.entries(v.expect)) checkValue(r.summary[field], v, wanted, `${what}, ${field}`);
    }
  });
}

test('the example with tied scores gives each library\'s value, in explain and evaluate', () => {
  const { example, sklearnTies } = PRESETS;
  for (const [preset, wanted] of Object.entries(example.expect)) {
    const e = calc.explain({ ranking: example.ranking, judgments: example.judgments, options: { preset } });
    assert.equal(e.reading.numbers, 'score');
    assert.equal(e.reading.from, 'header');
    assert.equal(roundTo(e.summary.ndcgAtK, example.decimals), wanted, `${preset} (explain)`);
    const v = calc.evaluate({ qrels: example.qrels, run: example.run, measures: ['ndcg'], options: { preset } });
    assert.equal(roundTo(valueOf(v, 'all'), example.decimals), wanted, `${preset} (evaluate)`);
  }
  const v = calc.evaluate({ qrels: sklearnTies.qrels, run: sklearnTies.run, measures: [sklearnTies.measure], options: { preset: 'sklearn' } });
  assert.equal(roundTo(valueOf(v, 'all'), 4), sklearnTies.value);
  const e = calc.explain({ ranking: sklearnTies.ranking, judgments: sklearnTies.judgments, options: { preset: 'sklearn', k: 1 } });
  assert.equal(roundTo(e.summary.ndcgAtK, 4), sklearnTies.value);
  // The tied top pair shares the mean gain (10 + 5) / 2, each row keeping its own.
  assert.deepEqual(e.rows.slice(0, 2).map((r) => [r.doc, r.gain, r.ownGain, r.tie]),
    [['a', 7.5, 10, { first: 1, last: 2 }], ['e', 7.5, 5, { first: 1, last: 2 }]]);
  assert.ok(e.warnings.some((w) => w.code === 'scores-tied'));
});

for (const cli of CLIS) {
  test(`${cli.name} --preset and -o give the same values, and name a bad preset as a usage error`, () => {
    const { example } = PRESETS;
    const dir = mkdtempSync(join(tmpdir(), 'ndcg-presets-'));
    try {
      writeFileSync(join(dir, 'qrels'), example.qrels);
      writeFileSync(join(dir, 'run'), example.run);
      const run = (...args) => spawnSync(cli.command, [...cli.args, ...args, 'qrels', 'run'], { cwd: dir, encoding: 'utf8' });
      for (const [preset, wanted] of Object.entries(example.expect)) {
        const r = run('-m', 'ndcg', '--preset', preset);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout, `ndcg                  \tall\t${wanted.toFixed(4)}\n`);
      }
      // scikit-learn's conventions with ties kept in the order given: d1 before d2.
      const input = run('-m', 'ndcg', '--preset', 'sklearn', '-o', 'ties=input');
      assert.equal(input.stdout, 'ndcg                  \tall\t0.6788\n');
      // trec_eval's conventions with d4 (grade 1) below the grade from which documents are
      // relevant: (2 / log2 3 + 3 / 2) / (3 + 2 / log2 3).
      const level = run('-m', 'ndcg', '-o', 'relevantFrom=2');
      assert.equal(level.stdout, 'ndcg                  \tall\t0.6480\n');
      const bad = run('-m', 'ndcg', '--preset', 'nope');
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /^ndcg-calc: option preset: unknown preset 'nope'; the presets are trec_eval, /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('compareConventions names what makes trec_eval and scikit-learn differ on the example, with each effect', () => {
  const { example } = PRESETS;
  const r = calc.compareConventions({ ranking: example.ranking, judgments: example.judgments });
  assert.equal(r.ok, true);
  assert.deepEqual(r.between, ['trec_eval', 'sklearn']);
  for (const [preset, wanted] of Object.entries(example.expect)) {
    assert.equal(roundTo(r.presets.find((p) => p.preset === preset).ndcgAtK, 4), wanted, preset);
  }
  const effects = Object.fromEntries(r.effects.map((e) => [e.option, e]));
  assert.deepEqual(Object.keys(effects).sort(), ['ideal', 'idealDepth', 'negativeGains', 'ties']);
  assert.equal(effects.ties.to, 'average');
  assert.equal(roundTo(effects.ties.ndcgAtK, 4), 0.5937);
  assert.equal(roundTo(effects.ideal.ndcgAtK, 4), 0.648);
  assert.ok(effects.ideal.change > effects.ties.change && effects.ties.change > 0);
  assert.equal(effects.idealDepth.change, 0);
  assert.throws(() => calc.compareConventions({ ranking: 'd1', between: ['trec_eval'] }), { name: 'CalculatorUsageError' });
  const bad = calc.compareConventions({ ranking: 'd1', between: ['trec_eval', 'nope'] });
  assert.equal(bad.ok, false);
  assert.equal(bad.errors[0].source, 'options');
});

test('the example as JSON, the way Python tools print it, gives the same values', () => {
  const { example } = PRESETS;
  const ranking = '[{"doc": "d3", "score": 0.9}, {"doc": "d1", "score": 0.5}, {"doc": "d2", "score": 0.5}]';
  const judgments = '{"d1": 3, "d2": 2, "d3": 0, "d4": 1}';
  for (const [preset, wanted] of Object.entries(example.expect)) {
    const r = calc.explain({ ranking, judgments, options: { preset } });
    assert.equal(roundTo(r.summary.ndcgAtK, 4), wanted, preset);
    assert.deepEqual(r.reading, { numbers: 'score', from: 'json' });
  }
  const run = calc.explain({ ranking: '{"q1": {"d3": 0.9, "d1": 0.5, "d2": 0.5}}', judgments: '{"q1": {"d1": 3, "d2": 2, "d3": 0, "d4": 1}}', options: { preset: 'trec_eval' } });
  assert.equal(roundTo(run.summary.ndcgAtK, 4), example.expect.trec_eval);
});
