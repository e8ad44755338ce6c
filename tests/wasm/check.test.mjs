// tests/vectors/working.json through calc.checkWorking: the same findings as the native core's
// (tests/core/check_test.cpp).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createCalculator } from '../../wasm/index.mjs';

const { checks } = JSON.parse(readFileSync(new URL('../vectors/working.json', import.meta.url), 'utf8'));
const calc = await createCalculator();

for (const c of checks) {
  test(`check my working: ${c.name}`, () => {
    const r = calc.checkWorking({ ranking: c.ranking, judgments: c.judgments, options: c.options, working: c.working });
    assert.equal(r.ok, true, JSON.stringify(r.errors));
    assert.equal(r.columns.length, c.expect.length);
    c.expect.forEach((want, i) => {
      const column = r.columns[i];
      assert.equal(column.quantity, want.quantity);
      assert.deepEqual(column.values.filter((v) => !v.matches && v.ours !== null).map((v) => v.rank), want.differ);
      assert.deepEqual(column.findings.map((f) => [f.cause, f.rank]), want.findings.map((f) => [f.cause, f.rank]));
      want.findings.forEach((f, j) => assert.ok(column.findings[j].message.includes(f.contains), column.findings[j].message));
    });
  });
}

test('check my working: errors name the working, and wrong types are the caller\'s', () => {
  const r = calc.checkWorking({ ranking: '1 0 1', working: '1 1 x2' });
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].source, 'working');
  const named = calc.checkWorking({ ranking: '1 0 1', working: '1 1 1.5', quantity: 'CG' });
  assert.equal(named.ok, true);
  assert.equal(named.columns[0].quantity, 'CG');
  assert.throws(() => calc.checkWorking({ ranking: '1', working: 3 }), { name: 'CalculatorUsageError' });
});
