// The command line over tests/trec/cases.json: stdout must equal trec_eval 10.0's byte for byte,
// from both programs (the Node one and the native one: tests/wasm/clis.mjs).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { OutputError, createCalculator, rowsOfColumns } from '../../wasm/index.mjs';
import { CLIS } from './clis.mjs';

const TREC = fileURLToPath(new URL('../trec/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(TREC, 'cases.json'), 'utf8'));
// Every file these tests write is under one directory, removed when they end.
const scratch = mkdtempSync(join(tmpdir(), 'ndcg-calc-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const scratchDir = (name) => mkdtempSync(join(scratch, `${name}-`));

for (const cli of CLIS) {
  const ndcgCalc = (args, input) => spawnSync(cli.command, [...cli.args, ...args], { cwd: TREC, input, encoding: 'utf8' });

  for (const c of manifest.cases) {
    test(`${cli.name}: ${c.name}`, () => {
      const r = ndcgCalc([...c.args, c.qrels, c.run]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, readFileSync(join(TREC, c.expected), 'utf8'));
      for (const w of c.warnings ?? []) assert.match(r.stderr, new RegExp(`warning: .*${w.contains}`));
    });
  }

  const differences = scratchDir('differences');
  for (const c of manifest.differences) {
    test(`${cli.name} differs from trec_eval 10.0 on purpose, with a warning: ${c.name}`, () => {
      const qrels = join(differences, 'test.qrels');
      const run = join(differences, 'test.run');
      writeFileSync(qrels, c.qrelsText);
      writeFileSync(run, c.runText);
      const r = ndcgCalc([...c.args, qrels, run]);
      assert.equal(r.status, 0, r.stderr);
      if (c.stdout !== null) assert.equal(r.stdout, c.stdout);
      assert.ok(r.stderr.split('\n').some((l) => l.startsWith('ndcg-calc: warning: ') && l.includes(c.warning)), r.stderr);
    });
  }

  test(`${cli.name}: --explain QID:COLUMN prints that measure's working, whose sum is its value`, () => {
    const r = ndcgCalc(['-m', 'map', '--explain', '101:map', 'basic.qrels', 'basic.run']);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0], /^Query 101, map:/);
    assert.match(lines[1], /rank\s+docno\s+grade\s+relevant so far\s+precision at this rank/);
    // trec_eval -q -m map: 101 0.4417; ranked zz, d3, d1, d4, d5, d2, d8
    assert.ok(r.stdout.includes('AP = (1/2 + 2/3 + 3/5) / num_rel = 1.7667 / 4 = 0.4417'), r.stdout);
    const bad = ndcgCalc(['-m', 'map', '--explain', '101:P_5', 'basic.qrels', 'basic.run']);
    assert.match(bad.stderr, /warning: the working of 'P_5' for query '101' cannot be shown/);
  });

  test(`${cli.name}: gzipped qrels and runs are read as they are, from a path or from stdin`, () => {
    const c = manifest.cases[0];
    const expected = readFileSync(join(TREC, c.expected), 'utf8');
    const gz = scratchDir('gz');
    const run = join(gz, 'run.gz');
    writeFileSync(run, gzipSync(readFileSync(join(TREC, c.run))));
    const fromPath = ndcgCalc([...c.args, c.qrels, run]);
    assert.equal(fromPath.status, 0, fromPath.stderr);
    assert.equal(fromPath.stdout, expected);
    const fromStdin = ndcgCalc([...c.args, '-', c.run], gzipSync(readFileSync(join(TREC, c.qrels))));
    assert.equal(fromStdin.status, 0, fromStdin.stderr);
    assert.equal(fromStdin.stdout, expected);
  });

  test(`${cli.name}: a gzipped run of several read chunks (over 1 MiB compressed) reads as the plain run`, () => {
    // Documents of pseudo-random ids compress poorly: some 2.3 MB of gzip from 7 MB of run.
    const dir = scratchDir('gz');
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const lines = [];
    for (let q = 1; q <= 120; q++) {
      for (let r = 0; r < 2000; r++) lines.push(`${q} Q0 D${random().toString(36)} ${r + 1} ${(2000 - r) / 100} t`);
    }
    const plain = join(dir, 'big.run');
    writeFileSync(plain, `${lines.join('\n')}\n`);
    writeFileSync(`${plain}.gz`, gzipSync(readFileSync(plain)));
    assert.ok(readFileSync(`${plain}.gz`).length > 2 << 20);
    const qrels = join(dir, 'big.qrels');
    writeFileSync(qrels, lines.filter((_, i) => i % 7 === 0).map((l) => { const [q, , d] = l.split(' '); return `${q} 0 ${d} ${d.length % 3}`; }).join('\n'));
    const fromPlain = ndcgCalc(['-q', '-m', 'map', '-m', 'ndcg_cut.10', qrels, plain]);
    const fromGzip = ndcgCalc(['-q', '-m', 'map', '-m', 'ndcg_cut.10', qrels, `${plain}.gz`]);
    assert.equal(fromPlain.status, 0, fromPlain.stderr);
    assert.equal(fromGzip.stdout, fromPlain.stdout);
    assert.equal(fromGzip.stdout.split('\n').length, 2 * 121 + 1);
  });

  test(`${cli.name}: ndcg-calc reads the run from stdin`, () => {
    const c = manifest.cases[0];
    const r = ndcgCalc([...c.args, c.qrels, '-'], readFileSync(join(TREC, c.run)));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, readFileSync(join(TREC, c.expected), 'utf8'));
  });

  test(`${cli.name}: a run on stdin redirected from a file is read from where its reading starts, grouped or not, gzipped or not`, () => {
    // As `ndcg-calc qrels - < run`, and after a shell has read the file's first line: a run not
    // grouped by query is read twice, the second time from that same place.
    const c = manifest.cases[0];
    const lines = readFileSync(join(TREC, c.run), 'utf8').split('\n').filter((l) => l !== '');
    const apart = [...lines.filter((_, i) => i % 2 === 0), ...lines.filter((_, i) => i % 2 === 1)];
    const tmp = scratchDir('stdin');
    for (const [name, run] of [['grouped', lines], ['apart', apart]]) {
      const whole = join(tmp, `${name}.run`);
      const rest = join(tmp, `${name}-rest.run`);
      writeFileSync(whole, `${run.join('\n')}\n`);
      writeFileSync(rest, `${run.slice(1).join('\n')}\n`);
      writeFileSync(`${whole}.gz`, gzipSync(readFileSync(whole)));
      const byPath = (path) => ndcgCalc([...c.args, c.qrels, path]);
      const fromStdin = (path, skip) => {
        const fd = openSync(path, 'r');
        try {
          if (skip > 0) readSync(fd, Buffer.alloc(skip), 0, skip, null);
          return spawnSync(cli.command, [...cli.args, ...c.args, c.qrels, '-'], { cwd: TREC, stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
        } finally {
          closeSync(fd);
        }
      };
      for (const [r, path] of [[fromStdin(whole, 0), whole], [fromStdin(`${whole}.gz`, 0), whole], [fromStdin(whole, run[0].length + 1), rest]]) {
        const expected = byPath(path);
        assert.equal(expected.status, 0, expected.stderr);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout, expected.stdout);
      }
    }
  });

  const dir = scratchDir('errors');
  for (const c of manifest.errors) {
    // A bad -m is a usage error (exit 2, no file named); a bad file an error in the data (exit 1).
    const usage = c.errors.every((e) => e.source === 'options');
    test(`${cli.name}: ${c.name} → located error, exit ${usage ? 2 : 1}, nothing on stdout`, () => {
      const qrels = join(dir, 'test.qrels');
      const run = join(dir, 'test.run');
      writeFileSync(qrels, c.qrelsText);
      writeFileSync(run, c.runText);
      const r = ndcgCalc([...(c.args ?? []), qrels, run]);
      assert.equal(r.status, usage ? 2 : 1, r.stderr);
      assert.equal(r.stdout, '');
      for (const e of c.errors) {
        const file = { qrels, run }[e.source];
        const where = file ? `${file}${e.line > 0 ? `:${e.line}${e.column > 0 ? `:${e.column}` : ''}` : ''}: ` : '';
        assert.ok(r.stderr.includes(`ndcg-calc: ${where}`) && r.stderr.includes(e.contains), r.stderr);
      }
    });
  }

  test(`${cli.name}: usage errors exit 2 with the usage text`, () => {
    for (const args of [[], ['only-one'], ['-x', 'a', 'b'], ['-l', 'two', 'a', 'b'], ['--format', 'xml', 'a', 'b'], ['-', '-']]) {
      const r = ndcgCalc(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /usage: ndcg-calc/);
    }
    assert.equal(ndcgCalc(['a.qrels', 'missing.run']).status, 2);
    assert.equal(ndcgCalc(['--help']).status, 0);
  });

  test(`${cli.name}: --format json and tsv carry the same numbers as the trec lines`, () => {
    const json = JSON.parse(ndcgCalc(['-q', '--format', 'json', '-m', 'map', '-m', 'P@10', 'basic.qrels', 'basic.run']).stdout);
    assert.deepEqual(json.columns.map((c) => c.name), ['map', 'P_10']);
    assert.equal(json.perQuery.length, 4);
    const trec = ndcgCalc(['-m', 'map', 'basic.qrels', 'basic.run']).stdout;
    assert.equal(trec, `map                   \tall\t${json.mean.map.toFixed(4)}\n`);
    const tsv = ndcgCalc(['--format', 'tsv', '-m', 'map', 'basic.qrels', 'basic.run']).stdout.split('\n');
    assert.equal(tsv[0], 'query\tmap');
    assert.equal(Number(tsv[1].split('\t')[1]), json.mean.map);
  });

  test(`${cli.name}: --explain prints the step table of one query, ending in its ndcg`, () => {
    const r = ndcgCalc(['--explain', '101', '-m', 'ndcg', 'basic.qrels', 'basic.run']);
    assert.equal(r.status, 0, r.stderr);
    // 101 is ranked zz (2.5), d3 (2.5), d1 (2.5): ties by docno descending.
    assert.match(r.stdout, /\n {3}1 {2}zz .*\n {3}2 {2}d3 .*\n {3}3 {2}d1 /);
    assert.match(r.stdout, /ndcg = 2\.7915 \/ 5\.1925 = 0\.5376/);
    const expected = readFileSync(join(TREC, 'expected/basic.txt'), 'utf8');
    assert.match(expected, /ndcg {18}\t101\t0\.5376/);
  });

  test(`${cli.name}: --progress reports on stderr and leaves stdout as trec_eval prints it`, () => {
    const c = manifest.cases[0];
    const r = ndcgCalc(['--progress', ...c.args, c.qrels, c.run]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, readFileSync(join(TREC, c.expected), 'utf8'));
    assert.match(r.stderr, /reading run: 100% of/);
  });
}

test('the API takes strings, bytes or chunk lists and splits a line across chunks', async () => {
  const calc = await createCalculator();
  const qrels = readFileSync(join(TREC, 'basic.qrels'));
  const run = readFileSync(join(TREC, 'ungrouped.run'), 'utf8');
  const whole = calc.evaluate({ qrels, run, measures: ['ndcg_cut.10', 'map'] });
  const pieces = calc.evaluate({ qrels: [qrels.subarray(0, 5), qrels.subarray(5)], run: [...run], measures: ['ndcg_cut.10', 'map'] });
  assert.ok(whole.ok);
  assert.deepEqual(pieces, whole);
  const streamed = await calc.evaluateStreams({
    qrels: () => [qrels], run: async function* () { yield run.slice(0, 11); yield run.slice(11); },
    measures: ['ndcg_cut.10', 'map'],
  });
  assert.deepEqual(streamed, whole);
  assert.throws(() => calc.evaluate({ qrels: 42, run }), /qrels must be/);
});

test('a ChunkReader writes its bytes into the core as chunks would give them, and is closed however reading ends', async () => {
  const calc = await createCalculator();
  const qrels = readFileSync(join(TREC, 'basic.qrels'));
  const run = readFileSync(join(TREC, 'ungrouped.run'));
  const measures = ['ndcg_cut.10', 'map'];
  const closed = [];
  // Fills at most `most` bytes a call, so that lines span fills; `fail` throws at that offset.
  const reader = (bytes, name, { most = Infinity, wrote, fail } = {}) => () => {
    let at = 0;
    return {
      readInto(into) {
        if (fail !== undefined && at >= fail) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
        const n = Math.min(into.length, most, bytes.length - at);
        into.set(bytes.subarray(at, at + n));
        at += n;
        return wrote ?? n;
      },
      close: () => closed.push(name),
    };
  };
  const chunked = await calc.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, options: { querySpans: true } });
  assert.ok(chunked.ok);
  for (const most of [1, 7, 64, Infinity]) {
    const read = await calc.evaluateStreams({ qrels: reader(qrels, 'qrels', { most }), run: reader(run, 'run', { most }), measures, options: { querySpans: true } });
    assert.deepEqual(read, chunked, `at most ${most} bytes a fill`);
  }
  // Each source was closed once for each reading of it: this run, not grouped by query, is read
  // twice each time.
  assert.equal(closed.filter((n) => n === 'qrels').length, 4);
  assert.equal(closed.filter((n) => n === 'run').length, 8);
  closed.length = 0;
  const failed = await calc.evaluateStreams({ qrels: () => [qrels], run: reader(run, 'run', { most: 50, fail: 100 }), measures });
  assert.equal(failed.ok, false);
  assert.match(failed.errors[0].message, /run file could not be read: EIO/);
  assert.deepEqual(closed, ['run']);
  closed.length = 0;
  await assert.rejects(calc.evaluateStreams({ qrels: reader(qrels, 'qrels', { wrote: 1 << 30 }), run: () => [run], measures }),
    /qrels: readInto\(\) must return how many bytes it wrote/);
  assert.deepEqual(closed, ['qrels']);
});

test('querySpans: a query read again from its byte spans alone is explained as from the whole files', async () => {
  const calc = await createCalculator();
  const qrels = readFileSync(join(TREC, 'basic.qrels'));
  for (const name of ['basic.run', 'ungrouped.run']) {
    const run = readFileSync(join(TREC, name));
    const measures = ['ndcg_cut.10', 'map'];
    const whole = await calc.evaluateStreams({ qrels: () => [qrels.subarray(0, 7), qrels.subarray(7)], run: () => [run], measures, options: { querySpans: true } });
    assert.ok(whole.ok);
    const { querySpans } = whole;
    assert.equal(querySpans.run.starts.length, querySpans.run.queries.length);
    assert.ok(querySpans.run.starts instanceof Float64Array);
    const bytesOf = (bytes, spans, query) => Buffer.concat(spans.queries.flatMap((q, i) => (q === query ? [bytes.subarray(spans.starts[i], spans.ends[i])] : [])));
    for (const { query } of whole.perQuery) {
      const full = calc.evaluate({ qrels, run, measures, options: { explainQuery: query } });
      const alone = calc.evaluate({ qrels: bytesOf(qrels, querySpans.qrels, query), run: bytesOf(run, querySpans.run, query), measures, options: { explainQuery: query } });
      assert.equal(alone.perQuery.length, 1, `${name}, ${query}`);
      assert.deepEqual(alone.perQuery[0], whole.perQuery.find((q) => q.query === query));
      // Diagnostics count lines in what was read: in the spans, not the file.
      const lineless = (e) => ({ ...e, warnings: e.warnings.map((w) => ({ ...w, line: 0 })) });
      assert.deepEqual(lineless(alone.explanation), lineless(full.explanation));
    }
  }
  // Not asked for, not given.
  assert.equal(calc.evaluate({ qrels, run: readFileSync(join(TREC, 'basic.run')) }).querySpans, undefined);
});

test('querySpans: a run split between two instances of the core has the spans of the whole run, at every query boundary', async () => {
  const [first, other] = await Promise.all([createCalculator(), createCalculator()]);
  const qrels = readFileSync(join(TREC, 'trec_eval-10.0/qrels.test'));
  const run = readFileSync(join(TREC, 'trec_eval-10.0/results.test'));
  const measures = ['ndcg_cut.10', 'map'];
  const options = { querySpans: true };
  const whole = await first.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, options });
  assert.ok(whole.ok);
  // Every line where a query starts (the file is grouped, with LF endings).
  const boundaries = [];
  let previous = null;
  for (let at = 0; at < run.length; at = run.indexOf(10, at) + 1) {
    const query = run.subarray(at, run.indexOf(10, at)).toString().split(/\s+/)[0];
    if (previous !== null && query !== previous) boundaries.push(at);
    previous = query;
  }
  assert.equal(boundaries.length, whole.perQuery.length - 1);
  const linesBefore = (at) => run.subarray(0, at).filter((byte) => byte === 10).length;
  for (const at of boundaries) {
    // The later part with the number of its first line, and without it (it says nothing that
    // names a line, so it joins all the same).
    for (const firstLine of [Promise.resolve(linesBefore(at) + 1), undefined]) {
      const later = await other.evaluateLaterPart({ qrels: () => [qrels], run: () => [run.subarray(at)], firstLine, firstByte: at, measures, options });
      assert.ok(later.packed instanceof Uint8Array, `split at ${at}`);
      const split = await first.evaluateSplit({ qrels: () => [qrels], run: () => [run.subarray(0, at)], later: later.packed, whole: () => { throw new Error('the parts should join'); }, measures, options });
      assert.deepEqual(split.querySpans, whole.querySpans, `split at ${at}`);
      assert.deepEqual(split.perQuery, whole.perQuery, `split at ${at}`);
    }
  }
  await assert.rejects(other.evaluateLaterPart({ qrels: () => [qrels], run: () => [run], firstLine: 2, measures }), /firstByte/);
});

test('a later part whose first line number is not known is not joined when it names a line: the whole run is read, its lines numbered right', async () => {
  const [first, other] = await Promise.all([createCalculator(), createCalculator()]);
  const qrels = readFileSync(join(TREC, 'trec_eval-10.0/qrels.test'));
  const lines = readFileSync(join(TREC, 'trec_eval-10.0/results.test'), 'utf8').trimEnd().split('\n');
  const at = lines.findIndex((line) => line.startsWith('303\t'));
  assert.ok(at > 0);
  // A score that is not a number, three lines into the later part.
  lines[at + 3] = lines[at + 3].replace(/\s\S+\s(\S+)$/, '\tx\t$1');
  const run = Buffer.from(`${lines.join('\n')}\n`);
  const byte = Buffer.byteLength(`${lines.slice(0, at).join('\n')}\n`);
  const part = await other.evaluateLaterPart({ qrels: () => [qrels], run: () => [run.subarray(byte)], firstByte: byte, measures: ['map'] });
  let wholeRead = 0;
  const result = await first.evaluateSplit({ qrels: () => [qrels], run: () => [run.subarray(0, byte)], later: part.packed, whole: () => { wholeRead += 1; return [run]; }, measures: ['map'] });
  assert.equal(wholeRead, 1);
  assert.equal(result.ok, false);
  assert.deepEqual(result.errors.map((e) => [e.source, e.line]), [['run', at + 4]]);
  assert.deepEqual(result.errors, first.evaluate({ qrels, run, measures: ['map'] }).errors);
});

test('samples: each part keeps its own queries\' judgments, and a part that meets another\'s is read again whole', async () => {
  const [first, other] = await Promise.all([createCalculator(), createCalculator()]);
  // 40 queries of 6 lines each, three judged per query.
  const group = (q) => Array.from({ length: 6 }, (_, d) => `${q} Q0 d${d} ${d + 1} ${9 - d} tag\n`).join('');
  const qrels = Buffer.from(Array.from({ length: 40 }, (_, q) => [0, 2, 5].map((d) => `${q + 1} 0 d${d} ${d % 2 + 1}\n`).join('')).join(''));
  const sorted = Array.from({ length: 40 }, (_, q) => q + 1);
  // Sampled as a sorted run would be (its first and last lines of each part), whatever the order
  // between: in the second run, query 7 is in the later part and 33 in the first.
  const swapped = sorted.map((q) => (q === 7 ? 33 : q === 33 ? 7 : q));
  const measures = ['map', 'ndcg_cut.10', 'num_rel'];
  for (const [name, order] of [['sorted', sorted], ['swapped', swapped]]) {
    const run = Buffer.from(order.map(group).join(''));
    const at = Buffer.byteLength(order.slice(0, 20).map(group).join(''));
    const line = (q) => Buffer.from(group(q).split('\n')[0] + '\n');
    const samples = { first: Buffer.concat([line(1), line(20)]), later: Buffer.concat([line(21), line(40)]) };
    const whole = await first.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures });
    const later = await other.evaluateLaterPart({ qrels: () => [qrels], run: () => [run.subarray(at)], firstByte: at, measures, samples });
    assert.ok(later.packed instanceof Uint8Array, name);
    let wholeRead = 0;
    const split = await first.evaluateSplit({ qrels: () => [qrels], run: () => [run.subarray(0, at)], later: later.packed, whole: () => { wholeRead += 1; return [run]; }, measures, samples });
    assert.deepEqual(split, whole, name);
    assert.equal(wholeRead, name === 'sorted' ? 0 : 1, name);
  }
  await assert.rejects(other.evaluateLaterPart({ qrels: () => [qrels], run: () => [qrels], firstByte: 1, measures, samples: { first: 'a' } }), /samples must be/);
});

test('commandLine.only gives what ndcg-calc prints and nothing else, read whole or split, ok or not', async () => {
  const [first, other] = await Promise.all([createCalculator(), createCalculator()]);
  const qrels = readFileSync(join(TREC, 'trec_eval-10.0/qrels.test'));
  const run = readFileSync(join(TREC, 'trec_eval-10.0/results.test'));
  const at = run.indexOf('\n303\t') + 1;
  assert.ok(at > 0);
  for (const [argv, measures] of [[['-q', '-m', 'map', '-m', 'P.5'], ['map', 'P.5']], [['-m', 'nope'], ['nope']]]) {
    const commandLine = { argv: [...argv, 'q', 'r'], qrelsName: 'q', runName: 'r' };
    const full = await first.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, commandLine });
    const only = await first.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, commandLine: { ...commandLine, only: true } });
    assert.deepEqual(only, { ok: full.ok, commandLine: full.commandLine });
    assert.equal(only.ok, measures[0] !== 'nope');
    const later = await other.evaluateLaterPart({ qrels: () => [qrels], run: () => [run.subarray(at)], firstByte: at, measures });
    const split = await first.evaluateSplit({ qrels: () => [qrels], run: () => [run.subarray(0, at)], later: later.packed, whole: () => [run], measures, commandLine: { ...commandLine, only: true } });
    assert.deepEqual(split, only);
  }
});

test('commandLine.bytes gives stdout as its UTF-8 bytes, the same text, ok or not', async () => {
  const calc = await createCalculator();
  // Query ids and a docno that are not ASCII: the bytes are the text's UTF-8, not its code units.
  const qrels = Buffer.from('q\u00e9 0 d\u20ac 1\nq\u00e9 0 d2 0\nr 0 d1 1\n');
  const run = Buffer.from('q\u00e9 Q0 d\u20ac 1 2.5 t\nq\u00e9 Q0 d2 2 1 t\nr Q0 d1 1 3 t\n');
  for (const [argv, measures] of [[['-q', '-m', 'map', '-m', 'num_ret'], ['map', 'num_ret']], [['-m', 'nope'], ['nope']]]) {
    const commandLine = { argv: [...argv, 'q', 'r'], qrelsName: 'q', runName: 'r', only: true };
    const text = await calc.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, commandLine });
    const bytes = await calc.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, commandLine: { ...commandLine, bytes: true } });
    assert.ok(bytes.commandLine.out instanceof Uint8Array);
    assert.equal(typeof text.commandLine.out, 'string');
    assert.deepEqual(Buffer.from(bytes.commandLine.out), Buffer.from(text.commandLine.out));
    assert.deepEqual({ ...bytes.commandLine, out: null }, { ...text.commandLine, out: null });
    assert.equal(bytes.ok, text.ok);
  }
  const printed = (await calc.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures: ['map'], commandLine: { argv: ['-q', '-m', 'map', 'q', 'r'], qrelsName: 'q', runName: 'r', only: true, bytes: true } })).commandLine.out;
  assert.match(Buffer.from(printed).toString('utf8'), /^map\s+q\u00e9\t1\.0000$/m);
});

test('commandLine.write is given stderr, then stdout in pieces, each awaited, read whole or split', async () => {
  const [first, other] = await Promise.all([createCalculator(), createCalculator()]);
  // 6,000 queries' -q lines: about 4 MB, several pieces; one query of the run has no judgments
  // (a warning on stderr).
  const queries = Array.from({ length: 6000 }, (_, i) => `q${1000 + i}`);
  const qrels = Buffer.from(queries.map((q, i) => `${q} 0 d${i % 7} ${i % 3}\n${q} 0 e 1\n`).join(''));
  const run = Buffer.from([...queries, 'q9999'].map((q, i) => `${q} Q0 d${i % 5} 1 2 t\n${q} Q0 e 2 1 t\n`).join(''));
  const at = run.indexOf('\nq4000 ') + 1;
  const measures = ['map', 'P', 'ndcg_cut', 'recip_rank'];
  const argv = ['-q', ...measures.flatMap((m) => ['-m', m]), 'q', 'r'];
  for (const bytes of [false, true]) {
    const commandLine = { argv, qrelsName: 'q', runName: 'r', only: true, bytes };
    const expected = (await first.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, commandLine })).commandLine;
    assert.match(expected.err, /1 run query has no judgments/);
    assert.ok(Buffer.byteLength(expected.out) > 3_000_000);
    for (const split of [false, true]) {
      const pieces = [];
      let writing = false;
      const write = (text, stream) => {
        assert.equal(writing, false, 'a piece is given once the one before is written');
        pieces.push([stream, text]);
        writing = true;
        return new Promise((resolve) => setImmediate(() => { writing = false; resolve(); }));
      };
      const request = { qrels: () => [qrels], run: () => [run], measures, commandLine: { ...commandLine, write } };
      let result;
      if (split) {
        const later = await other.evaluateLaterPart({ qrels: () => [qrels], run: () => [run.subarray(at)], firstByte: at, measures });
        result = await first.evaluateSplit({ ...request, run: () => [run.subarray(0, at)], later: later.packed, whole: () => assert.fail('read whole') });
      } else {
        result = await first.evaluateStreams(request);
      }
      assert.deepEqual(result, { ok: true, commandLine: { status: 0 } });
      assert.deepEqual(pieces[0], ['err', expected.err]);
      const out = pieces.slice(1);
      assert.ok(out.length >= 3, `${out.length} pieces`);
      assert.ok(out.every(([stream, text]) => stream === 'out' && (bytes ? text instanceof Uint8Array : typeof text === 'string')));
      assert.ok(out.slice(0, -1).every(([, text]) => text.length >= 1 << 20));
      const joined = bytes ? Buffer.concat(out.map(([, text]) => text)) : out.map(([, text]) => text).join('');
      assert.ok(bytes ? joined.equals(expected.out) : joined === expected.out);
    }
  }
  // The values as well, when not `only`: the same values, the printed text given to write.
  const pieces = [];
  const full = await first.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, commandLine: { argv, qrelsName: 'q', runName: 'r', write: (text) => { pieces.push(text); } } });
  const plain = await first.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures, commandLine: { argv, qrelsName: 'q', runName: 'r' } });
  assert.deepEqual({ ...full, commandLine: null }, { ...plain, commandLine: null });
  assert.equal(pieces.slice(1).join(''), plain.commandLine.out);
  // What write throws ends the evaluation: nothing is read or written again.
  for (const split of [false, true]) {
    let calls = 0;
    const failure = new Error('disk full');
    const request = { qrels: () => [qrels], run: () => [run], measures, commandLine: { argv, qrelsName: 'q', runName: 'r', only: true, write: (text, stream) => { calls += 1; if (stream === 'out') throw failure; } } };
    const evaluation = split
      ? other.evaluateLaterPart({ qrels: () => [qrels], run: () => [run.subarray(at)], firstByte: at, measures })
        .then((later) => first.evaluateSplit({ ...request, run: () => [run.subarray(0, at)], later: later.packed, whole: () => assert.fail('read whole') }))
      : first.evaluateStreams(request);
    await assert.rejects(evaluation, (error) => error instanceof OutputError && error.cause === failure && /disk full/.test(error.message));
    assert.equal(calls, 2, 'stderr, then the first piece of stdout');
  }
});

test('a calculator without Node\'s additions, as the page makes, refuses commandLine requests and has no command-line methods', async () => {
  const { createRequire } = await import('node:module');
  const { makeCalculator, instantiateCompiled, CalculatorUsageError } = await import('../../wasm/api.mjs');
  const { compiledCore } = await import('../../wasm/index.mjs');
  const factory = createRequire(import.meta.url)('../../wasm/dist/ndcg-core.node.cjs');
  const plain = makeCalculator(await instantiateCompiled(factory, await compiledCore()));
  assert.equal(plain.parseCommandLine, undefined);
  assert.equal(plain.commandLineHelp, undefined);
  assert.equal(plain.evaluateSplit, undefined);
  const qrels = '1 0 a 1\n';
  const run = '1 Q0 a 1 1.0 r\n';
  const commandLine = { argv: ['q', 'r'], qrelsName: 'q', runName: 'r', only: true };
  let read = 0;
  const counted = (text) => () => { read += 1; return [text]; };
  await assert.rejects(plain.evaluateStreams({ qrels: counted(qrels), run: counted(run), commandLine }),
    (error) => error instanceof CalculatorUsageError && /Node's entry/.test(error.message));
  await assert.rejects(plain.compareStreams({ qrels: counted(qrels), runs: { a: counted(run), b: counted(run) }, commandLine: { argv: ['compare', 'q', 'a', 'b'], qrelsName: 'q' } }),
    (error) => error instanceof CalculatorUsageError && /Node's entry/.test(error.message));
  assert.equal(read, 0, 'refused before any file is read');
  // The rest of the API is the same: the same values as Node's calculator.
  const node = await createCalculator();
  const mine = await plain.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures: ['map'] });
  assert.deepEqual(mine, await node.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures: ['map'] }));
  assert.equal(mine.mean.map, 1);
});

test('a malformed commandLine is a usage error before anything is read, and the core is not restarted', async () => {
  const calc = await createCalculator();
  let read = 0;
  const counted = (text) => () => { read += 1; return [text]; };
  const qrels = '1 0 a 1\n';
  const run = '1 Q0 a 1 1.0 r\n';
  const usage = (error) => error?.name === 'CalculatorUsageError' && /commandLine must be/.test(error.message);
  for (const commandLine of [false, 'ndcg-calc q r', {}, { argv: 'q r', qrelsName: 'q', runName: 'r' }, { argv: ['q', 'r'], qrelsName: 'q' },
    { argv: ['q', 'r'], qrelsName: 'q', runName: 'r', write: 'stdout' }]) {
    await assert.rejects(calc.evaluateStreams({ qrels: counted(qrels), run: counted(run), commandLine }), usage, JSON.stringify(commandLine));
  }
  await assert.rejects(calc.compareStreams({ qrels: counted(qrels), runs: { a: counted(run), b: counted(run) }, commandLine: { argv: ['compare'] } }), usage);
  assert.equal(read, 0, 'refused before any file is read');
  // The same core goes on: a comparison's report needs no run name.
  const compared = await calc.compareStreams({ qrels: () => [qrels], runs: { a: () => [run], b: () => [run] }, commandLine: { argv: ['compare', 'q', 'a', 'b'], qrelsName: 'q', only: true } });
  assert.equal(typeof compared.commandLine.out, 'string');
  const evaluated = await calc.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures: ['map'], commandLine: { argv: ['-m', 'map', 'q', 'r'], qrelsName: 'q', runName: 'r', only: true } });
  assert.deepEqual(evaluated, { ok: true, commandLine: { out: 'map                   \tall\t1.0000\n', err: '', status: 0 } });
});

test('the entries for Node and for browsers export the same names', async () => {
  const [node, browser] = await Promise.all([import('../../wasm/index.mjs'), import('../../wasm/index.browser.mjs')]);
  assert.deepEqual(Object.keys(browser).sort(), Object.keys(node).sort());
  assert.equal(await browser.compiledCore(), null);
  assert.throws(() => browser.useCompiledCore(), { name: 'CalculatorUsageError' });
});

test('Node compiles the core once, and a worker thread given it makes its instances from it', async () => {
  const { compiledCore, useCompiledCore } = await import('../../wasm/index.mjs');
  const calc = await createCalculator();
  const core = await compiledCore();
  assert.ok(core instanceof WebAssembly.Module);
  assert.equal(await compiledCore(), core);
  assert.throws(() => useCompiledCore(new Uint8Array(8)), { name: 'CalculatorUsageError' });
  const { Worker } = await import('node:worker_threads');
  const entry = new URL('../../wasm/index.mjs', import.meta.url).href;
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.entry).then(async ({ createCalculator, useCompiledCore }) => {
      useCompiledCore(workerData.core);
      const calc = await createCalculator();
      parentPort.postMessage(calc.explain({ ranking: 'a 2\\nb 0\\nc 1' }).summary.ndcgAtK);
    });`, { eval: true, workerData: { entry, core } });
  const ndcg = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  await worker.terminate();
  assert.equal(ndcg, calc.explain({ ranking: 'a 2\nb 0\nc 1' }).summary.ndcgAtK);
  assert.ok(ndcg > 0.9 && ndcg < 1);
});

// The two programs share the reading of arguments and the formats (ndcg/cli.hpp): for every
// kind of request, success or failure, the same stdout, stderr and exit status.
const SAME_BYTES = [
  ['-q', '-m', 'all_trec', 'basic.qrels', 'basic.run'],
  ['-q', '--format', 'json', '-m', 'map', '-m', 'P@10', '-m', 'relstring', 'basic.qrels', 'basic.run'],
  ['--format', 'json', '--explain', '101', '-m', 'ndcg', 'basic.qrels', 'basic.run'],
  ['--format', 'json', '--explain', '101:map', '-m', 'map', 'basic.qrels', 'basic.run'],
  ['-q', '--format', 'tsv', '-m', 'all_trec', 'basic.qrels', 'basic.run'],
  ['-m', 'map', '--explain', '101:P_5', 'basic.qrels', 'basic.run'],
  ['-D', '1.101', '-m', 'ndcg', 'basic.qrels', 'basic.run'],
  ['-D', '1', '-m', 'ndcg', 'basic.qrels', 'basic.run'],
  ['-qc', '-l2', '-M3', 'basic.qrels', 'basic.run'],
  ['--lev', '2', '--preset', 'sklearn', '-o', 'ties=average', '-m', 'ndcg_cut.5', '-q', 'basic.qrels', 'basic.run'],
  ['-q', '-m', 'map', 'basic.qrels', 'ungrouped.run'],
  ['-Z', 'basic.qrels', 'basic.qrels', 'basic.run'],
  ['-R', 'prefs', '-q', 'prefs-examples.prefs', 'prefs-examples.run'],
  ['-m', 'map', 'missing.qrels', 'missing.run'],
  ['-h', '-m', 'all_trec'],
  ['--version'],
  ['-l', 'two', 'a', 'b'],
  ['--format', 'xml', 'a', 'b'],
  ['--l', '2', 'a', 'b'],
  ['-o', 'ties', 'a', 'b'],
  ['-m', 'nope', '--preset', 'nope', 'basic.qrels', 'basic.run'],
  ['basic.qrels', 'no-such.run'],
  ['basic.qrels', '.'],
];
for (const args of SAME_BYTES) {
  test(`both programs print the same bytes: ndcg-calc ${args.join(' ')}`, () => {
    const [node, native] = CLIS.map((cli) => spawnSync(cli.command, [...cli.args, ...args], { cwd: TREC, encoding: 'utf8' }));
    assert.equal(native.stdout, node.stdout);
    assert.equal(native.stderr, node.stderr);
    assert.equal(native.status, node.status);
  });
}

test('wasm/cli.mjs runs as a program of its own, through its first line, as the installed ndcg-calc does', () => {
  // Its first line starts Node with flags (env -S); started that way, it must print the same
  // bytes as started by `node wasm/cli.mjs`.
  const viaNode = CLIS.find((cli) => cli.command === process.execPath);  // node wasm/cli.mjs
  const [file] = viaNode.args;
  assert.match(readFileSync(file, 'utf8').split('\n')[0], /^#!\/usr\/bin\/env -S node( --[a-z0-9-]+=[0-9]+)*$/);
  const args = ['-q', '-m', 'ndcg_cut.10', '-m', 'map', 'trec_eval-10.0/qrels.test', 'trec_eval-10.0/results.test'];
  const direct = spawnSync(file, args, { cwd: TREC, encoding: 'utf8' });
  const node = spawnSync(viaNode.command, [...viaNode.args, ...args], { cwd: TREC, encoding: 'utf8' });
  assert.equal(direct.status, 0, direct.stderr);
  assert.ok(direct.stdout.length > 0);
  assert.equal(direct.stdout, node.stdout);
  assert.equal(direct.stderr, node.stderr);
});

test('both programs read a run split between two threads as in one: the same bytes, errors and lines included', () => {
  // NDCG_CALC_SPLIT_BYTES=1 splits every run that can be; the default keeps these small ones whole.
  const dir = scratchDir('split');
  const results = readFileSync(join(TREC, 'trec_eval-10.0/results.test'), 'utf8');
  const lines = results.trimEnd().split('\n');
  const second = lines.findIndex((l) => /^302\s/.test(l));
  const third = lines.findIndex((l) => /^303\s/.test(l));
  const files = {
    // A bad score and a document twice, both in the later part: errors with the file's lines.
    'errors.run': [...lines.slice(0, third + 5), lines[third + 5].replace(/(\s)[^\s]+(\s+[^\s]+)$/, '$1x$2'), lines[third + 2], ...lines.slice(third + 6)],
    'repeat.run': [...lines.slice(0, third + 3), lines[third + 1], ...lines.slice(third + 3)],
    // Queries apart: the parts share one, and the run is read again in one.
    'apart.run': [...lines.slice(0, second), ...lines.slice(third), ...lines.slice(second, third)],
    // A query of 4,000 lines (about 170 KB) across the middle: its end is past the first
    // window Node's program looks at (64 KiB), in the larger one.
    'long.run': [...lines.slice(0, second),
      ...Array.from({ length: 8 }, (_, k) => lines.slice(second, third).map((l) => l.replace(/^(\S+\s+\S+\s+)(\S+)/, `$1$2-${k}`))).flat(),
      ...lines.slice(third)],
    'crlf.run': lines.map((l) => `${l}\r`),
    'comments.run': lines.flatMap((l, i) => (i % 97 === 0 ? ['# a comment', '', l] : [l])),
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), `${content.join('\n')}\n`);
  const requests = [
    ...manifest.cases.map((c) => [...c.args, c.qrels, c.run]),
    ...SAME_BYTES.filter((args) => args.at(-1).endsWith('.run')),
    ...Object.keys(files).flatMap((name) => [['-q', '-m', 'all_trec', 'trec_eval-10.0/qrels.test', join(dir, name)],
      ['-q', '-c', '-m', 'official', 'trec_eval-10.0/qrels.test', join(dir, name)]]),
  ];
  assert.ok(second > 0 && third > second);
  for (const cli of CLIS) {
    // Node's threads take a while to start: it runs the crafted files and a few of the cases.
    const asked = cli.name.includes('native') ? requests : requests.filter((args) => args.at(-1).startsWith(dir) || args.includes('basic.run'));
    let evaluated = 0;
    for (const args of asked) {
      const one = spawnSync(cli.command, [...cli.args, ...args], { cwd: TREC, encoding: 'utf8' });
      const two = spawnSync(cli.command, [...cli.args, ...args], { cwd: TREC, encoding: 'utf8', env: { ...process.env, NDCG_CALC_SPLIT_BYTES: '1' } });
      assert.equal(two.stdout, one.stdout, `${cli.name}: ${args.join(' ')}`);
      assert.equal(two.stderr, one.stderr, `${cli.name}: ${args.join(' ')}`);
      assert.equal(two.status, one.status, `${cli.name}: ${args.join(' ')}`);
      evaluated += one.status === 0 ? 1 : 0;
    }
    assert.ok(evaluated > 8, cli.name);
    const errors = spawnSync(cli.command, [...cli.args, '-m', 'map', 'trec_eval-10.0/qrels.test', join(dir, 'errors.run')], { cwd: TREC, encoding: 'utf8', env: { ...process.env, NDCG_CALC_SPLIT_BYTES: '1' } });
    assert.match(errors.stderr, new RegExp(`:${third + 6}:\\d+: score 'x' is not a number`), cli.name);
    // Qrels from a pipe, and a run whose parts cannot be joined: the run is read again whole, and
    // the qrels again from the copy kept as they passed.
    const input = readFileSync(join(TREC, 'trec_eval-10.0/qrels.test'));
    const piped = ['-q', '-m', 'all_trec', '-', join(dir, 'apart.run')];
    const named = spawnSync(cli.command, [...cli.args, ...piped.slice(0, 3), 'trec_eval-10.0/qrels.test', piped[4]], { cwd: TREC, encoding: 'utf8' });
    const [whole, parts] = [{}, { NDCG_CALC_SPLIT_BYTES: '1' }].map((env) =>
      spawnSync(cli.command, [...cli.args, ...piped], { cwd: TREC, input, encoding: 'utf8', env: { ...process.env, ...env } }));
    assert.equal(named.status, 0, `${cli.name}: ${named.stderr}`);
    assert.equal(whole.stdout, named.stdout, cli.name);
    assert.equal(parts.stdout, named.stdout, cli.name);
    assert.equal(parts.stderr, whole.stderr, cli.name);
    assert.equal(parts.status, 0, cli.name);
  }
});

test('Node\'s ndcg-calc ends as soon as its work is done when the thread it started early is not used', () => {
  // NDCG_CALC_SPLIT_BYTES=1 starts a worker before the arguments are read for any run named last
  // (cli.mjs's workerStartedEarly); a gzipped run, help and a bad flag then leave it unused.
  const dir = scratchDir('early');
  const gz = join(dir, 'basic.run.gz');
  writeFileSync(gz, gzipSync(readFileSync(join(TREC, 'basic.run'))));
  const node = CLIS.find((cli) => !cli.name.includes('native'));
  const env = { ...process.env, NDCG_CALC_SPLIT_BYTES: '1' };
  const whole = spawnSync(node.command, [...node.args, '-m', 'map', 'basic.qrels', 'basic.run'], { cwd: TREC, encoding: 'utf8' });
  const gzipped = spawnSync(node.command, [...node.args, '-m', 'map', 'basic.qrels', gz], { cwd: TREC, encoding: 'utf8', env, timeout: 20000 });
  assert.equal(gzipped.status, 0, gzipped.stderr);
  assert.equal(gzipped.stdout, whole.stdout);
  const help = spawnSync(node.command, [...node.args, '-h', 'basic.run'], { cwd: TREC, encoding: 'utf8', env, timeout: 20000 });
  assert.equal(help.status, 0);
  const bad = spawnSync(node.command, [...node.args, '-m', 'nope', 'basic.qrels', 'basic.run'], { cwd: TREC, encoding: 'utf8', env, timeout: 20000 });
  assert.equal(bad.status, 2);
});

test('a damaged gzipped run is an error naming the file, from both programs', () => {
  const dir = scratchDir('damaged');
  const run = join(dir, 'run.gz');
  const whole = gzipSync(readFileSync(join(TREC, 'basic.run')));
  writeFileSync(run, whole.subarray(0, whole.length - 12));
  for (const cli of CLIS) {
    const r = spawnSync(cli.command, [...cli.args, '-m', 'map', 'basic.qrels', run], { cwd: TREC, encoding: 'utf8' });
    assert.equal(r.status, 1, `${cli.name}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^ndcg-calc: ${run.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the run file could not be read: `));
  }
});

test('--format json carries what the API returns: the same per-query values, means and explanation', async () => {
  // The core writes the command line's JSON (ndcg/cli.hpp) in the shape wasm/api.mjs gives the
  // API's result; this keeps the two from drifting apart.
  const calc = await createCalculator();
  const qrels = readFileSync(join(TREC, 'basic.qrels'));
  const run = readFileSync(join(TREC, 'basic.run'));
  const api = calc.evaluate({ qrels, run, measures: ['ndcg', 'map', 'relstring'], explainQuery: '101' });
  for (const cli of CLIS) {
    const r = spawnSync(cli.command, [...cli.args, '-q', '--format', 'json', '--explain', '101', '-m', 'ndcg', '-m', 'map', '-m', 'relstring', 'basic.qrels', 'basic.run'],
      { cwd: TREC, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.columns, api.columns, cli.name);
    assert.deepEqual(json.perQuery, api.perQuery, cli.name);
    assert.deepEqual(json.mean, api.mean, cli.name);
    assert.deepEqual(json.stdev, api.stdev, cli.name);
    assert.deepEqual(json.explanation, api.explanation, cli.name);
  }
});

test('an evaluation asked for columns gives its explanations as explain({ columnar: true }) does', async () => {
  const calc = await createCalculator();
  const qrels = readFileSync(join(TREC, 'basic.qrels'));
  const run = readFileSync(join(TREC, 'basic.run'));
  const request = { qrels, run, measures: ['ndcg', 'map'], explainQuery: '101' };
  const rows = calc.evaluate(request);
  const columns = calc.evaluate({ ...request, columnar: true });
  const streamed = await calc.evaluateStreams({ ...request, qrels: () => [qrels], run: () => [run], columnar: true });
  for (const result of [columns, streamed]) {
    const e = result.explanation;
    assert.ok(e.columns.gain instanceof Float64Array);
    assert.equal(e.rows, undefined);
    assert.equal(e.length, rows.explanation.rows.length);
    // The same ranks, and the same ideal, as the rows give them.
    assert.deepEqual(rowsOfColumns(e), rows.explanation.rows);
    assert.deepEqual(e.ideal.doc.map((doc, i) => ({ doc, grade: e.ideal.grade[i], gain: e.ideal.gain[i] })), rows.explanation.ideal);
    assert.deepEqual({ ...result, explanation: null }, { ...rows, explanation: null });
    for (const key of ['summary', 'reading', 'warnings']) assert.deepEqual(e[key], rows.explanation[key]);
  }
  // options.explainAll: every query's table, as columns too.
  const all = calc.evaluate({ qrels, run, measures: ['ndcg'], options: { explainAll: true }, columnar: true });
  const allRows = calc.evaluate({ qrels, run, measures: ['ndcg'], options: { explainAll: true } });
  assert.ok(all.explanations.length > 1);
  assert.deepEqual(all.explanations.map(({ query, explanation }) => ({ query, rows: rowsOfColumns(explanation) })),
    allRows.explanations.map(({ query, explanation }) => ({ query, rows: explanation.rows })));
});

test('--format tsv with --explain keeps stdout one table: the working goes to stderr', () => {
  for (const cli of CLIS) {
    const r = spawnSync(cli.command, [...cli.args, '--format', 'tsv', '--explain', '101:map', '-m', 'map', 'basic.qrels', 'basic.run'],
      { cwd: TREC, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.split('\n'), ['query\tmap', 'all\t0.36041666666666666', ''], cli.name);
    assert.match(r.stderr, /^Query 101, map:/m, cli.name);
  }
});
