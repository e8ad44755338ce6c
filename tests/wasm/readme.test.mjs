// The README's table of TREC measures is the core's catalogue (scripts/measure-table.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createCalculator } from '../../wasm/index.mjs';
import { measureTable } from '../../scripts/measure-table.mjs';

test('the README lists every measure of the catalogue, with its definition and both names', async () => {
  const calc = await createCalculator();
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /<!-- measures -->\n([\s\S]*?)<!-- \/measures -->/.exec(readme);
  assert.ok(block, 'no <!-- measures --> block in the README');
  assert.equal(block[1], measureTable(calc), 'run node scripts/measure-table.mjs and paste its table');
  for (const m of calc.measures()) assert.ok(m.definition.length > 10, m.name);
  assert.ok(calc.measures().length >= 40);
});
