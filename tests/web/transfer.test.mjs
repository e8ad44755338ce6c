// The TREC worker posts an evaluation's per-query values as columns (web/transfer.js): the page
// must get back exactly the result the API gave, and anything the columns cannot carry must
// travel as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createCalculator } from '../../wasm/index.mjs';
import { movedBuffers, packResult, unpackResult } from '../../web/transfer.js';

const TREC = new URL('../trec/', import.meta.url);

/** What the page receives: the packed result through a structured clone, its columns moved. */
function posted(result) {
  const packed = packResult(result);
  return unpackResult(structuredClone(packed, { transfer: movedBuffers(packed) }));
}

test('an evaluation of trec_eval\'s test files arrives as the API gave it, its values as columns on the way', async () => {
  const calc = await createCalculator();
  const result = calc.evaluate({
    qrels: readFileSync(new URL('trec_eval-10.0/qrels.test', TREC)),
    run: readFileSync(new URL('trec_eval-10.0/results.test', TREC)),
    measures: ['map', 'P.10', 'ndcg_cut.10', 'bpref', 'num_ret'],
  });
  assert.equal(result.ok, true);
  assert.ok(result.perQuery.length >= 3);
  const packed = packResult(result);
  assert.equal(packed.perQuery, undefined);
  // In trec_eval's order of measures, as the values are.
  assert.deepEqual(packed.perQueryColumns.names, result.columns.map((c) => c.name));
  assert.equal(packed.perQueryColumns.names.length, 5);
  assert.ok(packed.perQueryColumns.values.every((column) => column instanceof Float64Array && column.length === result.perQuery.length));
  assert.deepEqual(posted(result), result);
  // The columns' memory moves with the message: left behind, they are empty.
  structuredClone(packed, { transfer: movedBuffers(packed) });
  assert.ok(packed.perQueryColumns.values.every((column) => column.length === 0));
  assert.deepEqual(movedBuffers(result), []);
});

test('every double survives, NaN and -0 included, and ids keep their order and spelling', () => {
  const result = {
    ok: true,
    columns: [{ name: 'a' }, { name: 'b' }],
    perQuery: [
      { query: '10', values: { a: NaN, b: -0 } },
      { query: '007', values: { a: Infinity, b: 5e-324 } },
      { query: 'Ünïcode-ид', values: { a: -Infinity, b: 0.1 + 0.2 } },
      { query: '', values: { a: 1, b: 2 } },
    ],
    mean: { a: 1, b: 2 },
  };
  const back = posted(result);
  assert.deepEqual(back, result);
  assert.ok(Object.is(back.perQuery[0].values.b, -0));
  assert.deepEqual(back.perQuery.map((q) => Object.keys(q.values)), result.perQuery.map(() => ['a', 'b']));
});

test('what the columns cannot carry travels as it is', () => {
  const base = (perQuery) => ({ ok: true, perQuery });
  const unpackable = {
    'texts (relstring)': base([{ query: '1', values: { relstring: NaN }, texts: { relstring: 'RN' } }]),
    'a value that is not a number': base([{ query: '1', values: { a: null } }]),
    'another measure in a later query': base([{ query: '1', values: { a: 1 } }, { query: '2', values: { b: 1 } }]),
    'the same measures in another order': base([{ query: '1', values: { a: 1, b: 2 } }, { query: '2', values: { b: 2, a: 1 } }]),
    'fewer measures in a later query': base([{ query: '1', values: { a: 1, b: 2 } }, { query: '2', values: { a: 1 } }]),
    'an id with a line break': base([{ query: 'a\nb', values: { a: 1 } }]),
    'a field besides the query and its values': base([{ query: '1', values: { a: 1 }, note: 'x' }]),
    'a comparison\'s per-query values (by run, then measure)': base([{ map: [0.1, 0.2] }, { map: [0.3, 0.4] }]),
    'no queries': base([]),
    'no per-query values': { ok: false, errors: [] },
  };
  for (const [what, result] of Object.entries(unpackable)) {
    assert.equal(packResult(result), result, what);
    assert.deepEqual(posted(result), result, what);
  }
  assert.equal(packResult(undefined), undefined);
  assert.equal(unpackResult(null), null);
});
