// tests/bad-input/cases.json through the wasm API (explain, evaluate): the same expected outcomes
// as the native core's (tests/core/bad_input_test.cpp) and the command lines'
// (bad-input-cli.test.mjs), so native and wasm accept and reject the same inputs, and nothing
// throws but CalculatorUsageError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createCalculator } from '../../wasm/index.mjs';
import { asBytes, asText } from '../bad-input/inputs.mjs';

const CORPUS = JSON.parse(readFileSync(new URL('../bad-input/cases.json', import.meta.url), 'utf8'));
const calc = await createCalculator();

const runsIn = (c, layer) => !c.layers || c.layers.includes(layer);

function checkDiagnostic(got, want, listed) {
  assert.equal(got.source, want.source, listed);
  assert.equal(got.line, want.line, listed);
  if (want.column !== undefined) assert.equal(got.column, want.column, listed);
  assert.ok(got.message.includes(want.contains), `${listed}\nwanted: ${want.contains}`);
}

function checkErrors(errors, expect) {
  const listed = errors.map((d) => `${d.source}:${d.line}:${d.column}: ${d.message.slice(0, 200)}`).join('\n');
  assert.ok(errors.length >= expect.errors.length, listed);
  expect.errors.forEach((want, i) => checkDiagnostic(errors[i], want, listed));
  if (expect.errorCount !== undefined) assert.equal(errors.length, expect.errorCount, listed);
  if (expect.lastError) checkDiagnostic(errors.at(-1), expect.lastError, listed);
}

function checkWarnings(warnings, expect) {
  for (const w of expect.warnings ?? []) {
    assert.ok(warnings.some((d) => d.message.includes(w)), `no warning contains ${w}`);
  }
}

function close(actual, wanted, tolerance, what) {
  assert.ok(Math.abs(actual - wanted) <= tolerance, `${what}: ${actual} is not ${wanted}`);
}

for (const c of CORPUS.cases) {
  const { expect } = c;
  if (c.explain && runsIn(c, 'api')) {
    test(`bad input, API: ${c.name}`, () => {
      const options = Object.fromEntries(Object.entries(c.explain.options).map(([k, v]) => [k, asText(v)]));
      const r = calc.explain({ ranking: asText(c.explain.ranking), judgments: asText(c.explain.judgments), options });
      assert.equal(r.ok, expect.ok, JSON.stringify(r.errors ?? []).slice(0, 500));
      if (!r.ok) return checkErrors(r.errors, expect);
      if (expect.rows !== undefined) assert.equal(r.rows.length, expect.rows);
      expect.docs?.forEach((doc, i) => assert.equal(r.rows[i].doc, doc));
      expect.grades?.forEach((grade, i) => assert.equal(r.rows[i].grade, grade));
      if (expect.ndcgAtK !== undefined) close(r.summary.ndcgAtK, expect.ndcgAtK, 1e-9, 'ndcgAtK');
      checkWarnings(r.warnings, expect);
    });
  }
  if (c.evaluate && runsIn(c, 'api')) {
    test(`bad input, API: ${c.name}`, () => {
      const { qrels, run, measures, options } = c.evaluate;
      const r = calc.evaluate({ qrels: asBytes(qrels), run: asBytes(run), measures, options });
      assert.equal(r.ok, expect.ok, JSON.stringify(r.errors ?? []).slice(0, 500));
      if (!r.ok) return checkErrors(r.errors, expect);
      for (const [name, value] of Object.entries(expect.mean ?? {})) close(r.mean[name], value, 1e-9, name);
      if (expect.queries !== undefined) assert.equal(r.perQuery.length, expect.queries);
      checkWarnings(r.warnings, expect);
    });
  }
}

test('the corpus has at least 80 cases, each with an expected outcome', () => {
  assert.ok(CORPUS.cases.length >= 80);
  for (const c of CORPUS.cases) assert.equal(typeof c.expect.ok, 'boolean', c.name);
});
