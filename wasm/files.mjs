// Reading the files named on ndcg-calc's command line: a path, '-' for stdin, a pipe or
// /dev/fd/N (spooled to a temporary file for a second reading), gzipped or not. A regular file
// that is not gzipped is read by a ChunkReader straight into the core's memory; anything else
// comes in chunks. Shared by the command line and its worker threads.
import { closeSync, createReadStream, createWriteStream, fstatSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { mkdtemp, open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// node:events, node:stream and node:zlib are loaded when a gzipped file or a stream is first
// read: loading them took about 4 ms of every start, and most runs are plain files.

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

/**
 * A regular file's bytes from `start` up to `end` as a ChunkReader (index.d.ts): read
 * synchronously, straight into the buffer the core hands over. Chunks read ahead (fileChunks)
 * are each copied into the core, and are read by a thread of libuv's pool, which on two cores
 * competes with the two threads that evaluate a split run. `fd`, when given, is the file opened
 * for reading, closed with the reader.
 */
export function fileReader(path, start = 0, end = Infinity, fd = openSync(path, 'r')) {
  let at = start;
  return {
    readInto(into) {
      const want = Math.min(into.length, end - at);
      if (want <= 0) return 0;
      const read = readSync(fd, into, 0, want, at);
      at += read;
      return read;
    },
    close: () => closeSync(fd),
  };
}

/**
 * A regular file's source: a ChunkReader (fileReader), or its chunks inflated when it is gzipped.
 * `open`, when given, is stdin's file ({ fd, start }, stdinFile): read from `start` on, and left
 * open.
 */
function regularFile(path, open = null) {
  const fd = open?.fd ?? openSync(path, 'r');
  const start = open?.start ?? 0;
  const head = Buffer.alloc(2);
  let gzipped = false;
  try {
    gzipped = readSync(fd, head, 0, 2, start) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch (error) {
    if (open === null) closeSync(fd);
    throw error;
  }
  if (!gzipped) {
    const reader = fileReader(path, start, Infinity, fd);
    return open === null ? reader : { readInto: reader.readInto, close() {} };
  }
  if (open === null) {
    closeSync(fd);
    return gunzipIfNeeded(fileChunks(path));
  }
  return gunzipIfNeeded(readerChunks(fileReader(null, start, Infinity, fd), false));
}

/**
 * A ChunkReader's bytes as chunks, each in a buffer of its own (a chunk may be held after the
 * next is read, as inflating does); the reader closed at the end when `close`.
 */
async function* readerChunks(reader, close = true) {
  try {
    for (let chunk = Buffer.allocUnsafe(CHUNK), read; (read = reader.readInto(chunk)) > 0; chunk = Buffer.allocUnsafe(CHUNK)) {
      yield chunk.subarray(0, read);
    }
  } finally {
    if (close) reader.close();
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
          if (!out.write(chunk)) await (await import('node:events')).once(out, 'drain');
          yield chunk;
        }
      } finally {
        out.end();
        await (await import('node:events')).once(out, 'close');
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
  const [{ Readable }, { createGunzip }] = await Promise.all([import('node:stream'), import('node:zlib')]);
  // Inflating holds on to a chunk after the next is read: it gets copies (see fileChunks).
  const source = Readable.from((async function* copies() {
    for await (const chunk of all()) yield Buffer.from(chunk);
  })());
  const gunzip = createGunzip({ chunkSize: CHUNK });
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  yield* gunzip;
}

/**
 * A function returning a fresh source of the file's bytes, inflated if gzipped: a ChunkReader
 * for a regular file that is not, else an iterable of chunks. Any readable path works; what can
 * be read only once is spooled for a second reading.
 */
export async function opener(path) {
  if (path === '-') {
    const file = stdinFile();
    return file === null ? gunzipped(spooled(process.stdin)) : () => regularFile(null, file);
  }
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new UsageError(`cannot read '${path}': ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
  if (info.isDirectory()) throw new UsageError(`'${path}' is a directory, not a file`);
  if (!info.isFile()) return gunzipped(spooled(createReadStream(path, { highWaterMark: CHUNK })));
  return () => regularFile(path);
}

/**
 * Stdin when it is redirected from a regular file (ndcg-calc qrels - < run): { fd: 0, start },
 * `start` where the file's reading begins (a shell may have read some of it before), read as a
 * file is, with no copy (the copy, through a stream of 64 KB chunks, took longer than evaluating
 * a 174 MB run). Null otherwise, or where the offset cannot be known (Linux's /proc tells it).
 */
function stdinFile() {
  try {
    if (!fstatSync(0).isFile()) return null;
    const start = Number(/^pos:\s*(\d+)$/m.exec(readFileSync('/proc/self/fdinfo/0', 'utf8'))?.[1]);
    return Number.isSafeInteger(start) ? { fd: 0, start } : null;
  } catch {
    return null;
  }
}

/** An opener of chunks whose sources are inflated when gzipped. */
async function gunzipped(opening) {
  const open = await opening;
  return () => gunzipIfNeeded(open());
}

/** A whole small file (-Z), as text; gzipped or not. */
export async function readWhole(path) {
  const open = await opener(path);
  const source = open();
  const parts = [];
  for await (const chunk of typeof source.readInto === 'function' ? readerChunks(source) : source) parts.push(Buffer.from(chunk));
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
