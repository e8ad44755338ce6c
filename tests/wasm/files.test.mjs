// The command line's file reading (wasm/files.mjs): a file's bytes in chunks, from any range,
// whole and in order, with the next chunk read while the one before is used; or written by a
// reader straight into the buffer it is given; gzipped files inflated either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { fileChunks, fileReader, opener, readWhole } from '../../wasm/files.mjs';

const MiB = 1 << 20;
const directory = mkdtempSync(join(tmpdir(), 'ndcg-files-test-'));
test.after(() => rmSync(directory, { recursive: true, force: true }));

// 2.5 MiB of bytes that say where they are, so that a chunk read from the wrong place shows.
const bytes = Buffer.alloc(2.5 * MiB);
for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 11)) & 0xff;
const path = join(directory, 'run');
writeFileSync(path, bytes);

/** The chunks of a reading, each copied at once (a chunk is valid until the next is asked for). */
async function read(start, end) {
  const chunks = [];
  for await (const chunk of fileChunks(path, start, end)) {
    assert.ok(chunk.length > 0 && chunk.length <= MiB);
    chunks.push(Buffer.from(chunk));
  }
  return chunks;
}

test('a file is read whole, in order, in chunks of at most 1 MiB', async () => {
  const chunks = await read();
  assert.deepEqual(chunks.map((c) => c.length), [MiB, MiB, MiB / 2]);
  assert.ok(Buffer.concat(chunks).equals(bytes));
});

test('a range of a file is read exactly, across chunk boundaries and at its edges', async () => {
  for (const [start, end] of [[0, 1], [1, MiB + 1], [MiB - 3, 2 * MiB + 5], [2 * MiB, bytes.length], [123457, Infinity], [bytes.length - 1, Infinity]]) {
    const got = Buffer.concat(await read(start, end));
    assert.ok(got.equals(bytes.subarray(start, Math.min(end, bytes.length))), `bytes ${start} to ${end}`);
  }
  assert.deepEqual(await read(5, 5), []);
  assert.deepEqual(await read(bytes.length, Infinity), []);
});

test('a chunk stays as it was read until the next one is asked for', async () => {
  let at = 0;
  for await (const chunk of fileChunks(path)) {
    // The next chunk is being read meanwhile, into the other buffer: this one is untouched.
    await new Promise((done) => setTimeout(done, 5));
    assert.ok(chunk.equals(bytes.subarray(at, at + chunk.length)), `the chunk at ${at}`);
    at += chunk.length;
  }
  assert.equal(at, bytes.length);
});

test('a reading left early closes the file after the read under way', async () => {
  for (let k = 0; k < 20; k++) {
    for await (const chunk of fileChunks(path)) {
      assert.equal(chunk[0], bytes[0]);
      break;
    }
  }
  // Nothing is left open or unsettled: a file reading that did not finish would keep the
  // process alive, and a rejection would fail the test run.
  const chunks = await read();
  assert.ok(Buffer.concat(chunks).equals(bytes));
});

/** What a reader writes, `size` bytes at most a fill, and whether it was closed. */
function drain(reader, size) {
  const parts = [];
  const into = new Uint8Array(size);
  for (let n; (n = reader.readInto(into)) > 0;) {
    assert.ok(n <= size);
    parts.push(Buffer.from(into.subarray(0, n)));
  }
  assert.equal(reader.readInto(into), 0, 'still at the end');
  reader.close();
  return Buffer.concat(parts);
}

// Descriptors this process has open (Linux); a reader closed must leave none behind.
const openFiles = () => readdirSync('/proc/self/fd').length;

test('a reader writes a range of a file exactly, whatever the size of the buffer it is given', () => {
  const before = openFiles();
  for (const size of [1, 4096, MiB, 3 * MiB]) {
    for (const [start, end] of [[0, Infinity], [MiB - 3, 2 * MiB + 5], [123457, Infinity], [5, 5], [bytes.length, Infinity], [bytes.length - 1, bytes.length + 10]]) {
      if (size === 1 && end - start > 4096) continue;  // a byte a call: the short ranges only
      const got = drain(fileReader(path, start, end), size);
      assert.ok(got.equals(bytes.subarray(start, Math.min(end, bytes.length))), `bytes ${start} to ${end}, ${size} a fill`);
    }
  }
  assert.equal(openFiles(), before);
});

test('an opener gives a reader for a plain file and inflated chunks for a gzipped one, with the same bytes', async () => {
  const zipped = join(directory, 'run.gz');
  writeFileSync(zipped, gzipSync(bytes));
  const plain = (await opener(path))();
  assert.equal(typeof plain.readInto, 'function');
  assert.ok(drain(plain, MiB).equals(bytes));
  const inflated = (await opener(zipped))();
  assert.equal(inflated.readInto, undefined);
  const chunks = [];
  for await (const chunk of inflated) chunks.push(Buffer.from(chunk));
  assert.ok(Buffer.concat(chunks).equals(bytes));
  // A whole small file (-Z) either way.
  const text = join(directory, 'z.txt');
  writeFileSync(text, 'q1 map 0.5 0.1\n');
  writeFileSync(`${text}.gz`, gzipSync('q1 map 0.5 0.1\n'));
  assert.equal(await readWhole(text), 'q1 map 0.5 0.1\n');
  assert.equal(await readWhole(`${text}.gz`), 'q1 map 0.5 0.1\n');
  assert.equal(await readWhole(path), bytes.toString('utf8'));
});
