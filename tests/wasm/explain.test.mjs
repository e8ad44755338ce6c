import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createCalculator, CalculatorUsageError, optionsToText } from '../../wasm/index.mjs';
import { loadVectorCases, roundTo } from './vectors.mjs';

const calc = await createCalculator();
const cases = loadVectorCases();

function close(actual, expected, tolerance, what) {
  assert.ok(Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)),
    `${what}: expected ${expected}, got ${actual}`);
}

function checkDiagnostics(actual, expected, what) {
  const listed = actual.map((d) => `${d.source}:${d.line}:${d.column}: ${d.message}`).join('\n');
  assert.equal(actual.length, expected.length, `${what}: reported\n${listed}`);
  for (const e of expected) {
    const found = actual.some((d) => d.source === e.source && d.line === e.line &&
      (e.column === undefined || d.column === e.column) && d.code === e.code && d.message.includes(e.contains));
    assert.ok(found, `${what}: expected ${JSON.stringify(e)}, reported\n${listed}`);
  }
}

test('there are vectors to run', () => {
  assert.ok(cases.length >= 30, `only ${cases.length} cases found`);
});

for (const c of cases) {
  test(`${c.file}: ${c.name}`, () => {
    const r = calc.explain({ ranking: c.ranking, judgments: c.judgments, options: c.options });
    assert.equal(r.ok, c.expect.ok, JSON.stringify(r.errors ?? r.warnings));
    if (!r.ok) {
      assert.equal(r.rows, undefined, 'a failed explanation has no table');
      checkDiagnostics(r.errors, c.expect.errors, 'errors');
      return;
    }
    checkDiagnostics(r.warnings, c.expect.warnings, 'warnings');
    const { columns, summary } = c.expect;
    assert.equal(r.rows.length, columns.rank.length);
    for (const [field, values] of Object.entries(columns)) {
      r.rows.forEach((row, i) => {
        if (typeof values[i] === 'number') close(row[field], values[i], 1e-12, `${field} at rank ${i + 1}`);
        else assert.equal(row[field], values[i], `${field} at rank ${i + 1}`);
      });
    }
    for (const [field, value] of Object.entries(summary)) close(r.summary[field], value, 1e-12, field);
    // The numbers printed in the seed documents: 4 decimals, or as the slide rounds them.
    for (const g of c.golden ?? []) {
      const actual = g.rank === undefined ? r.summary[g.field] : r.rows[g.rank - 1][g.field];
      const what = `${g.field}${g.rank ? ` at rank ${g.rank}` : ''}`;
      if (g.decimals === undefined) close(actual, g.value, 5e-5, what);
      else close(roundTo(actual, g.decimals), g.value, 1e-12, `${what} rounded to ${g.decimals}`);
    }
  });
}

test('every row has the documented fields, as plain data', () => {
  const r = calc.explain({ ranking: 'a 1\nb 0', options: { ideal: 'ranking' } });
  assert.ok(r.ok);
  assert.deepEqual(Object.keys(r.rows[0]), ['rank', 'doc', 'grade', 'gain', 'discount', 'term', 'cg', 'dcg',
    'idealDoc', 'idealGrade', 'idealGain', 'idealTerm', 'idcg', 'ndcg', 'judged', 'repeated']);
  assert.deepEqual(Object.keys(r.summary), ['k', 'dcgAtK', 'idcgAtK', 'ndcgAtK', 'judgedRelevant']);
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r, 'the result survives JSON (no handles, no typed arrays)');
});

test('options are passed to the core as text, gain maps as grade=gain lists', () => {
  assert.deepEqual(optionsToText({ gain: { 3: 7, 2: 3 }, k: 10, base: 2.5, ideal: undefined, discount: null }),
    { gain: '2=3,3=7', k: '10', base: '2.5' });  // integer-like keys iterate in ascending order
});

test('calls with the wrong types throw CalculatorUsageError; bad text never throws', () => {
  assert.throws(() => calc.explain(), CalculatorUsageError);
  assert.throws(() => calc.explain({ ranking: 42 }), CalculatorUsageError);
  assert.throws(() => calc.explain({ ranking: '', options: 'k=10' }), CalculatorUsageError);
  assert.equal(calc.explain({ ranking: 'd1 banana' }).ok, false);
});

test('createCalculator shares one core instance', async () => {
  const again = await createCalculator();
  assert.ok(again.explain({ ranking: '1 0 1' }).ok);
});
