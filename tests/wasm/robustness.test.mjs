// Any text in either box returns ok:true or ok:false with located errors: never a throw or hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createCalculator } from '../../wasm/index.mjs';

const calc = await createCalculator();

function wellFormed(r) {
  assert.equal(typeof r.ok, 'boolean');
  if (r.ok) {
    for (const row of r.rows) assert.ok(Number.isFinite(row.ndcg) && Number.isFinite(row.dcg) && Number.isFinite(row.idcg));
    assert.ok(Number.isFinite(r.summary.ndcgAtK));
  } else {
    assert.ok(r.errors.length > 0 && r.errors.length <= 101);
    for (const e of r.errors) {
      assert.ok(['ranking', 'judgments', 'options'].includes(e.source));
      assert.ok(Number.isInteger(e.line) && Number.isInteger(e.column) && e.message.length > 0);
    }
  }
}

// A small deterministic generator, so a failure can be replayed.
function* randomTexts(seed, count) {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() * 3000);
    let s = '';
    for (let j = 0; j < length; j++) s += String.fromCharCode(Math.floor(next() * 0x3000));
    yield s;
  }
}

test('random text, including lone surrogates and control characters', () => {
  const texts = [...randomTexts(42, 200)];
  for (let i = 0; i + 1 < texts.length; i += 2) {
    wellFormed(calc.explain({ ranking: texts[i], judgments: texts[i + 1] }));
    wellFormed(calc.explain({ ranking: texts[i + 1], judgments: texts[i], options: { gain: 'exponential' } }));
  }
  wellFormed(calc.explain({ ranking: '\uD800\uDFFF\uDC00 1\n\0\0 2', judgments: '\uFFFE 3' }));
});

test('awkward numbers', () => {
  for (const grade of ['NaN', 'inf', '-Infinity', '1e308', '1e309', '-5', '0x10', '1e-400', '1'.repeat(400), '-0']) {
    for (const gain of ['linear', 'exponential']) {
      wellFormed(calc.explain({ ranking: `d1 ${grade}\nd2 1`, options: { gain } }));
      wellFormed(calc.explain({ ranking: 'd1\nd2', judgments: `d1 ${grade}\nd2 1`, options: { gain } }));
    }
  }
});

test('strange option values give located option errors', () => {
  for (const options of [{ k: -1 }, { k: 'ten' }, { base: 0 }, { base: NaN }, { gain: {} }, { gain: { x: 1 } },
    { ndcgWhenIdcgZero: 'maybe' }, { roundBeforeDividing: 99 }, { nonsense: 1 }]) {
    const r = calc.explain({ ranking: 'd1 1', options });
    assert.equal(r.ok, false, JSON.stringify(options));
    assert.equal(r.errors[0].source, 'options');
  }
});

test('a million lines', () => {
  const ranking = Array.from({ length: 1_000_000 }, (_, i) => `doc${i}`).join('\n');
  const judgments = Array.from({ length: 100_000 }, (_, i) => `doc${i * 10} ${i % 4}`).join('\n');
  const r = calc.explain({ ranking, judgments, options: { k: 10 } });
  assert.ok(r.ok);
  assert.equal(r.rows.length, 1_000_000);
  wellFormed(r);
  const bad = calc.explain({ ranking: 'd x\n'.repeat(1_000_000) });
  assert.equal(bad.ok, false);
  assert.equal(bad.errors.length, 101);
  assert.match(bad.errors[100].message, /999900 more/);
});

test('empty and blank input', () => {
  for (const ranking of ['', ' ', '\n\n', '\t', '#', '\uFEFF']) {
    const r = calc.explain({ ranking, judgments: ranking });
    assert.ok(r.ok);
    assert.equal(r.rows.length, 0);
    assert.equal(r.summary.ndcgAtK, 0);
  }
});

test('a core that fails returns an error value, and the next call gets a fresh core', async () => {
  const { makeCalculator } = await import('../../wasm/api.mjs');
  const trap = () => { throw new WebAssembly.RuntimeError('Aborted()'); };
  const broken = { explain: trap, TrecSession: class { constructor() { trap(); } } };
  const healthy = {
    explain: () => ({ ok: false, errors: [{ source: 'ranking', line: 1, column: 1, message: 'fresh' }], warnings: [] }),
  };
  let restarts = 0;
  const calculator = makeCalculator(broken, { restart: async () => { restarts += 1; return healthy; } });
  const failed = calculator.explain({ ranking: 'd1' });
  assert.equal(failed.ok, false);
  assert.match(failed.errors[0].message, /core stopped on this input \(Aborted\(\)\).*Nothing you typed is lost/);
  assert.equal(restarts, 1);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(calculator.explain({ ranking: 'd1' }).errors[0].message, 'fresh');
  // Wrong argument types are still the caller's error, thrown.
  assert.throws(() => calculator.explain({ ranking: 3 }), { name: 'CalculatorUsageError' });
  const streamFailed = await makeCalculator(broken).evaluateStreams({ qrels: () => ['1 0 d 1\n'], run: () => ['1 Q0 d 1 1 t\n'] });
  assert.equal(streamFailed.ok, false);
  assert.equal(streamFailed.errors[0].source, 'qrels');
  // A core that fails while feeding says which file, and how far into it.
  // Chunks go through a buffer in the module's memory.
  class FailsOnRun {
    chunkBuffer() { return 0; }
    feedQrelsBuffer() {}
    finishQrels() {}
    feedRunBuffer() { trap(); }
    delete() {}
  }
  const midRun = await makeCalculator({ TrecSession: FailsOnRun, HEAPU8: new Uint8Array(64) }).evaluateStreams({ qrels: () => ['1 0 d 1\n'], run: () => ['1 Q0 d 1 1 t\n'] });
  assert.equal(midRun.errors[0].source, 'run');
  assert.match(midRun.errors[0].message, /while reading the run file, at byte 0 \(/);
});

test('bytes handed to a session land in its memory after it has made room for them, however that room was made', async () => {
  // Making room may grow the module's memory, which replaces HEAPU8 (the old view is detached):
  // chunks and packed parts alike must be written through the view read afterwards.
  const { chunkFeeder, intoBuffer } = await import('../../wasm/api.mjs');
  const core = { HEAPU8: new Uint8Array(4) };
  const fed = [];
  const session = {
    chunkBuffer(size) {
      const grown = new Uint8Array(16 + size);
      structuredClone(core.HEAPU8.buffer, { transfer: [core.HEAPU8.buffer] });  // detaches it
      core.HEAPU8 = grown;
      return 8;
    },
    feedRunBuffer(size) { fed.push([...core.HEAPU8.subarray(8, 8 + size)]); },
  };
  assert.equal(intoBuffer(core, session, new Uint8Array([1, 2, 3])), 3);
  assert.deepEqual([...core.HEAPU8.subarray(8, 11)], [1, 2, 3]);
  chunkFeeder(core, session, 'feedRunBuffer')(new Uint8Array([4, 5]));
  chunkFeeder(core, session, 'feedRunBuffer')('67');
  assert.deepEqual(fed, [[4, 5], [0x36, 0x37]]);
});

test('a stream that fails while reading is an error naming the file, not a throw', async () => {
  async function* broken() {
    yield '1 Q0 d 1 1 t\n';
    throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
  }
  const r = await calc.evaluateStreams({ qrels: () => ['1 0 d 1\n'], run: broken });
  assert.equal(r.ok, false);
  assert.equal(r.errors[0].source, 'run');
  assert.match(r.errors[0].message, /run file could not be read: EACCES/);
});

test('a lone surrogate in qrels or run text stays on its line', () => {
  // The binding's UTF-8 conversion used to swallow the character after a lone surrogate, so the
  // line break went with it and two run lines became one (found with a wrong field count).
  const r = calc.evaluate({
    qrels: '1 0 d1 1\uD800\n1 0 d2 1\n',
    run: '1 Q0 d1 1 2 t\uDC00\n1 Q0 d2 2 1 t\n',
    measures: ['num_rel', 'num_ret'],
  });
  assert.equal(r.ok, false);
  // Line 1 of each file is reported on its own: its grade and its tag hold U+FFFD, line 2 is fine.
  assert.deepEqual(r.errors.map((e) => [e.source, e.line]), [['qrels', 1]]);
  assert.match(r.errors[0].message, /grade '1\uFFFD'/);
  const run = calc.evaluate({ qrels: '1 0 d1 1\n1 0 d2 1\n', run: '1 Q0 d1 1 2 t\uDC00\n1 Q0 d2 2 1 t\n', measures: ['num_ret'] });
  assert.equal(run.ok, true);
  assert.equal(run.mean.num_ret, 2);
});

// TREC files are bytes, and an id in them need not be UTF-8 (a Latin-1 "d\xe9"). The core hands
// joined ids to JS as bytes, decoded there: each bad sequence becomes U+FFFD in its own id. When
// they went through embind's strings, a short text was decoded by a loop that took the bytes
// after a lead byte as its continuation, the '\n' and the next id included: the explanation of
// query 1 below showed "d銥", "f" and nothing at ranks 1-3.
test('TREC ids that are not UTF-8 keep their places: per-query values, spans and explanations', async () => {
  const bytes = (text) => () => [Buffer.from(text, 'latin1')];
  const request = (columnar) => ({
    qrels: bytes('1 0 d\xe9 1\n1 0 e 1\nq\xe9 0 d\xe9 1\n'),
    run: bytes('1 Q0 d\xe9 1 2.0 t\n1 Q0 e 2 1.0 t\n1 Q0 f 3 0.5 t\nq\xe9 Q0 d\xe9 1 1.0 t\n'),
    measures: ['ndcg'],
    options: { explainQuery: '1', querySpans: true },
    columnar,
  });
  const rows = await calc.evaluateStreams(request(false));
  assert.equal(rows.ok, true);
  assert.deepEqual(rows.perQuery.map((q) => q.query), ['1', 'q\uFFFD']);
  assert.deepEqual(rows.explanation.rows.map((r) => r.doc), ['d\uFFFD', 'e', 'f']);
  for (const file of ['qrels', 'run']) {
    const spans = rows.querySpans[file];
    assert.deepEqual(spans.queries, ['1', 'q\uFFFD'], file);
    assert.equal(spans.starts.length, 2, file);
  }
  const columns = await calc.evaluateStreams(request(true));
  assert.deepEqual(columns.explanation.columns.doc, ['d\uFFFD', 'e', 'f']);
  assert.deepEqual(columns.explanation.ideal.doc, ['d\uFFFD', 'e']);
});

// A query whose id is not UTF-8 is named by the text a caller holds, decoded ("q\uFFFD"): the
// core matches it to the file's bytes as TextDecoder reads them. Every other id read from the
// files (the working's docnos, the run's tag, a comparison's queries, explainAll's queries)
// reaches JS decoded the same way: as embind's strings, a lone "\xe9" took the bytes after it,
// past the text's end, into a character of its own.
test('a query whose id is not UTF-8 can be explained, evaluated alone and compared by its decoded id', async () => {
  const latin1 = (text) => Buffer.from(text, 'latin1');
  const qrels = latin1('1 0 a 1\nq\xe9 0 d\xe9 1\nq\xe9 0 e 1\n');
  const run = latin1('1 Q0 a 1 1.0 t\xe9\nq\xe9 Q0 x 1 2.0 t\xe9\nq\xe9 Q0 d\xe9 2 1.0 t\xe9\n');
  const explained = calc.evaluate({
    qrels, run, measures: ['map'], explainQuery: 'q\uFFFD', explainMeasure: 'map',
  });
  assert.equal(explained.ok, true);
  assert.deepEqual(explained.warnings, []);
  assert.deepEqual(explained.explanation.rows.map((r) => r.doc), ['x', 'd\uFFFD']);
  assert.deepEqual(explained.working.rows.map((r) => r.doc), ['x', 'd\uFFFD']);
  assert.equal(explained.runTag, 't\uFFFD');
  const alone = calc.evaluate({ qrels, run, measures: ['map'], options: { onlyQuery: 'q\uFFFD' } });
  assert.equal(alone.ok, true);
  assert.deepEqual(alone.perQuery.map((q) => [q.query, q.values.map]), [['q\uFFFD', 0.25]]);
  const all = calc.evaluate({ qrels, run, measures: ['map'], options: { explainAll: true } });
  assert.deepEqual(all.explanations.map((e) => e.query), ['1', 'q\uFFFD']);
  const compared = calc.compare({ qrels, runs: { a: run, b: run }, measures: ['map'] });
  assert.equal(compared.ok, true);
  assert.deepEqual(compared.queries, ['1', 'q\uFFFD']);
  // The same bytes asked for by a name that is not theirs are still not found.
  const other = calc.evaluate({ qrels, run, measures: ['map'], explainQuery: 'q\u00e9' });
  assert.match(other.warnings.map((w) => w.message).join('\n'), /cannot be explained: it is not in both files/);
});

// The core's reading of bytes as UTF-8 (well_formed_utf8, for the strings it hands JS one at a
// time, and for naming a query) must be TextDecoder's (which reads its joined lists): the queries
// explainAll names and the per-query ids come by the two roads and must agree, for ids of random
// bytes.
test('ids of random bytes read the same by the core as by TextDecoder', () => {
  let x = 20261127;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648) >>> 8);
  const pool = [0x41, 0x62, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];
  const ids = new Set();
  while (ids.size < 300) ids.add(Buffer.from(Array.from({ length: 1 + (next() % 6) }, () => pool[next() % pool.length])).toString('latin1'));
  const lines = (f) => Buffer.from([...ids].map(f).join(''), 'latin1');
  const r = calc.evaluate({
    qrels: lines((id) => `${id} 0 d 1\n`),
    run: lines((id) => `${id} Q0 d 1 1 t\n`),
    measures: ['num_ret'],
    options: { explainAll: true },
  });
  assert.equal(r.ok, true);
  assert.equal(r.perQuery.length, ids.size);
  assert.deepEqual(r.explanations.map((e) => e.query), r.perQuery.map((q) => q.query));
  // And as Node's own decoder reads each id.
  const decoded = new Set([...ids].map((id) => new TextDecoder().decode(Buffer.from(id, 'latin1'))));
  assert.deepEqual(new Set(r.perQuery.map((q) => q.query)), decoded);
});
