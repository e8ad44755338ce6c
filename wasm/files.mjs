// Reading the files named on ndcg-calc's command line, in chunks: a path, '-' for stdin, a pipe
// or /dev/fd/N (spooled to a temporary file for a second reading), gzipped or not. Shared by the
// command line and the workers that evaluate a comparison's runs side by side.
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { mkdtemp, open, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { createGunzip } from 'node:zlib';
import { join } from 'node:path';

/** A file that cannot be read as named: exit 2, as for a bad flag. */
export class UsageError extends Error {}

export async function sizeOf(path) {
  if (path === '-') return 0;
  const info = await stat(path);
  return info.isFile() ? info.size : 0;
}

const CHUNK = 1 << 20;
const spoolDirectories = [];

/**
 * A regular file's bytes from `start` up to `end` in chunks of at most 1 MiB, read into two
 * buffers in turn: a chunk is valid until the next is asked for (the core copies each at once),
 * and the next one is read meanwhile, so that the reading of the file and the core's work on
 * the chunk before overlap (one buffer left the thread idle for 11 % of a 174 MB run, waiting
 * for each read). A stream makes a new buffer per chunk, and a 174 MB run left some 40 MB of
 * them to the garbage collector at the peak.
 */
export async function* fileChunks(path, start = 0, end = Infinity) {
  const handle = await open(path, 'r');
  const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
  let turn = 0;
  const readAt = (at) => {
    const buffer = buffers[turn];
    turn ^= 1;
    return { buffer, at, reading: handle.read(buffer, 0, Math.min(CHUNK, end - at), at) };
  };
  let next = start < end ? readAt(start) : null;
  try {
    while (next !== null) {
      const { buffer, at, reading } = next;
      next = null;
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      // The next chunk from where this one ended (a short read included).
      if (at + bytesRead < end) next = readAt(at + bytesRead);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // Left early (the reader stopped, or failed): the read under way ends before the file closes.
    await next?.reading.catch(() => {});
    await handle.close();
  }
}

/** Removes the temporary copies of what could be read only once. */
export function removeSpooled() {
  for (const directory of spoolDirectories) rmSync(directory, { recursive: true, force: true });
  spoolDirectories.length = 0;
}

/**
 * Chunks of a stream that can be read only once (stdin, a pipe, /dev/fd/N), copied to a
 * temporary file as they pass, so that a second reading (a run not grouped by query) comes from
 * there. Memory holds one chunk, as for a file read by path.
 */
async function spooled(stream) {
  const directory = await mkdtemp(join(tmpdir(), 'ndcg-calc-'));
  spoolDirectories.push(directory);
  const copy = join(directory, 'input');
  let first = true;
  return () => {
    if (!first) return createReadStream(copy, { highWaterMark: CHUNK });
    first = false;
    return (async function* tee() {
      const out = createWriteStream(copy);
      try {
        for await (const chunk of stream) {
          if (!out.write(chunk)) await once(out, 'drain');
          yield chunk;
        }
      } finally {
        out.end();
        await once(out, 'close');
      }
    })();
  };
}

/**
 * The chunks of `chunks`, inflated when they start with gzip's magic bytes (1f 8b): TREC runs
 * and qrels often travel compressed.
 */
async function* gunzipIfNeeded(chunks) {
  const iterator = chunks[Symbol.asyncIterator]();
  // The first two bytes, which may come in more than one chunk.
  let head = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    head = Buffer.concat([head, Buffer.from(next.value)]);
  }
  const all = async function* all() {
    if (head.length > 0) yield head;
    for (let item = await iterator.next(); !item.done; item = await iterator.next()) yield item.value;
  };
  if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* all();
    return;
  }
  // Inflating holds on to a chunk after the next is read: it gets copies (see fileChunks).
  const source = Readable.from((async function* copies() {
    for await (const chunk of all()) yield Buffer.from(chunk);
  })());
  const gunzip = createGunzip({ chunkSize: CHUNK });
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  yield* gunzip;
}

/** A function returning a fresh iterable of the file's chunks, inflated if gzipped. */
export async function opener(path) {
  const open = await rawOpener(path);
  return () => gunzipIfNeeded(open());
}

/** Any readable path works; what can be read only once is spooled for a second reading. */
async function rawOpener(path) {
  if (path === '-') return spooled(process.stdin);
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new UsageError(`cannot read '${path}': ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
  if (info.isDirectory()) throw new UsageError(`'${path}' is a directory, not a file`);
  if (!info.isFile()) return spooled(createReadStream(path, { highWaterMark: CHUNK }));
  return () => fileChunks(path);
}

/** A whole small file (-Z), as text; gzipped or not. */
export async function readWhole(path) {
  const open = await opener(path);
  const parts = [];
  for await (const chunk of open()) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/** Whether `path` names a regular file, which another thread can open and read too. */
export async function isRegularFile(path) {
  if (path === '-') return false;
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
