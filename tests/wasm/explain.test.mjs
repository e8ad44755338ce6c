import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createCalculator, CalculatorUsageError, optionsToText, rowsOfColumns } from '../../wasm/index.mjs';
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

test('columnar: every vector gives the rows\' values column by column, as typed arrays', () => {
  for (const c of cases) {
    const rows = calc.explain({ ranking: c.ranking, judgments: c.judgments, options: c.options });
    const columnar = calc.explain({ ranking: c.ranking, judgments: c.judgments, options: c.options, columnar: true });
    assert.equal(columnar.ok, rows.ok, c.name);
    if (!rows.ok) {
      assert.deepEqual(columnar, rows, c.name);
      continue;
    }
    assert.equal(columnar.length, rows.rows.length, c.name);
    assert.deepEqual(columnar.summary, rows.summary, c.name);
    assert.deepEqual(columnar.reading, rows.reading, c.name);
    assert.deepEqual(columnar.warnings, rows.warnings, c.name);
    const { columns } = columnar;
    assert.ok(columns.ndcg instanceof Float64Array && columns.judged instanceof Uint8Array, c.name);
    rows.rows.forEach((row, i) => {
      for (const [field, value] of Object.entries(row)) {
        if (field === 'rank') continue;
        if (field === 'tie') {
          assert.deepEqual(value, columns.tieFirst[i] === 0 ? null : { first: columns.tieFirst[i], last: columns.tieLast[i] }, `${c.name}: tie at ${i + 1}`);
        } else if (typeof value === 'boolean') {
          assert.equal(columns[field][i], value ? 1 : 0, `${c.name}: ${field} at ${i + 1}`);
        } else {
          assert.equal(columns[field][i], value, `${c.name}: ${field} at ${i + 1}`);
        }
      }
    });
    // What a caller holding the columns gets when it asks for the rows.
    assert.deepEqual(rowsOfColumns(columnar), rows.rows, c.name);
    rows.ideal.forEach((entry, i) => {
      assert.equal(columnar.ideal.doc[i], entry.doc);
      assert.equal(columnar.ideal.grade[i], entry.grade);
      assert.equal(columnar.ideal.gain[i], entry.gain);
    });
  }
});

test('columnar: a million-row ranking comes back as columns of a million', () => {
  const ranking = Array.from({ length: 1_000_000 }, (_, i) => `d${i} ${i % 4}`).join('\n');
  const r = calc.explain({ ranking, columnar: true, options: { k: 10 } });
  assert.ok(r.ok, JSON.stringify(r.errors));
  assert.equal(r.length, 1_000_000);
  assert.equal(r.columns.dcg.length, 1_000_000);
  assert.equal(r.columns.doc[999_999], 'd999999');
  assert.equal(r.columns.grade[999_999], 3);
  // Linear gain: CG is the sum of the grades 0, 1, 2, 3 repeated, 1.5 a rank on average.
  assert.equal(r.columns.cg[999_999], 1_500_000);
});

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
