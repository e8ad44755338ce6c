// The TREC worker asks for an evaluation's per-query values as columns and posts them with their
// memory moved (web/transfer.js): the page must receive the values the API gives as objects, the
// same doubles for the same queries in the same order, relstring's texts included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createCalculator } from '../../wasm/index.mjs';
import { movedBuffers } from '../../web/transfer.js';

const TREC = new URL('../trec/', import.meta.url);
const qrels = readFileSync(new URL('trec_eval-10.0/qrels.test', TREC));
const run = readFileSync(new URL('trec_eval-10.0/results.test', TREC));

/** What the page receives: the result through a structured clone, its columns' memory moved. */
function posted(result) {
  return structuredClone(result, { transfer: movedBuffers(result) });
}

/** The columns as perQuery's objects, to compare with what the API gives without them. */
function asObjects({ perQueryColumns: { queries, values, texts }, ...rest }) {
  const perQuery = queries.map((query, i) => {
    const q = { query, values: Object.fromEntries(Object.entries(values).map(([name, column]) => [name, column[i]])) };
    if (texts) q.texts = Object.fromEntries(Object.entries(texts).map(([name, column]) => [name, column[i]]));
    return q;
  });
  const { columns, ...after } = rest;
  return { columns, perQuery, ...after };
}

test('per-query columns hold the values perQuery gives, and arrive whole with their memory moved', async () => {
  const calc = await createCalculator();
  for (const measures of [['map', 'P.10', 'ndcg_cut.10', 'bpref', 'num_ret'], ['relstring.10', 'map', 'gm_map', 'runid'], ['runid', 'map'], ['Rndcg']]) {
    const request = { qrels, run, measures, options: { relevanceLevel: 1 } };
    const objects = calc.evaluate(request);
    const columns = calc.evaluate({ ...request, perQueryColumns: true });
    assert.equal(objects.ok, true, measures.join());
    assert.ok(objects.perQuery.length >= 3);
    assert.equal(columns.perQuery, undefined);
    assert.deepEqual(Object.keys(columns.perQueryColumns.values), columns.columns.map((c) => c.name));
    for (const column of Object.values(columns.perQueryColumns.values)) {
      assert.ok(column instanceof Float64Array && column.length === objects.perQuery.length);
    }
    // Texts of a query's own only: runid's is the run's (runTag).
    assert.deepEqual(Object.keys(columns.perQueryColumns.texts ?? {}), measures.includes('relstring.10') ? ['relstring_10'] : []);
    assert.deepEqual(asObjects(columns), objects, measures.join());
    const buffers = movedBuffers(columns);
    assert.equal(buffers.length, 1, 'the columns are views of one array');
    const back = posted(columns);
    assert.deepEqual(asObjects(back), objects, measures.join());
    // Moved, not copied: left behind, the columns are empty.
    assert.ok(Object.values(columns.perQueryColumns.values).every((column) => column.length === 0));
  }
  assert.deepEqual(movedBuffers(calc.evaluate({ qrels, run, measures: ['map'] })), [], 'objects: nothing to move');
  assert.deepEqual(movedBuffers(undefined), []);
});

test('each column holds its own values, in the order of the queries', async () => {
  const calc = await createCalculator();
  // 007 retrieves its relevant document at rank 1; 10 has none relevant; the last one retrieves
  // only an unjudged document.
  const result = calc.evaluate({
    qrels: '007 0 a 1\n10 0 b 0\nÜnïcode-ид 0 c 2\n',
    run: '007 Q0 a 1 1 t\n10 Q0 b 1 1 t\nÜnïcode-ид Q0 x 1 1 t\nÜnïcode-ид Q0 c 2 0.5 t\n',
    measures: ['map', 'P.1', 'num_ret', 'recip_rank'],
    perQueryColumns: true,
  });
  assert.equal(result.ok, true);
  const { queries, values } = posted(result).perQueryColumns;
  assert.deepEqual(queries, ['007', '10', 'Ünïcode-ид']);
  assert.deepEqual(Object.keys(values), ['num_ret', 'map', 'recip_rank', 'P_1']);
  assert.deepEqual([...values.num_ret], [1, 1, 2]);
  assert.deepEqual([...values.map], [1, 0, 0.5]);
  assert.deepEqual([...values.recip_rank], [1, 0, 0.5]);
  assert.deepEqual([...values.P_1], [1, 0, 0]);
});
