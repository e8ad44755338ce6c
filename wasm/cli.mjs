#!/usr/bin/env node
// ndcg-calc: evaluates a TREC run against qrels with trec_eval's semantics and output, from the
// same wasm core as the page. Files are read in chunks; a run is evaluated query by query.
import { createReadStream, createWriteStream, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { createGunzip } from 'node:zlib';
import { join } from 'node:path';

import { createCalculator } from './index.mjs';

/** A file that cannot be read as named: exit 2, as for a bad flag. */
class UsageError extends Error {}

async function sizeOf(path) {
  if (path === '-') return 0;
  const info = await stat(path);
  return info.isFile() ? info.size : 0;
}

/** Progress on stderr: one updating line on a terminal, a line per 10 % otherwise. */
function progressReporter(sizes) {
  let lastShown = '';
  return ({ file, bytes }) => {
    const total = sizes[file];
    const percent = total > 0 ? Math.floor((100 * bytes) / total) : -1;
    const step = `${file} ${process.stderr.isTTY ? percent : Math.floor(percent / 10) * 10}`;
    if (step === lastShown) return;
    lastShown = step;
    const text = `ndcg-calc: reading ${file}: ${percent >= 0 ? `${percent}% of ` : ''}${(total || bytes) >> 20} MB`;
    process.stderr.write(process.stderr.isTTY ? `\r${text}\x1b[K` : `${text}\n`);
  };
}

const CHUNK = 1 << 20;
const spoolDirectories = [];

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
  const source = Readable.from(all());
  const gunzip = createGunzip({ chunkSize: CHUNK });
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  yield* gunzip;
}

/** A function returning a fresh iterable of the file's chunks, inflated if gzipped. */
async function opener(path) {
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
  return () => createReadStream(path, { highWaterMark: CHUNK });
}

/** A whole small file (-Z), as text; gzipped or not. */
async function readWhole(path) {
  const open = await opener(path);
  const parts = [];
  for await (const chunk of open()) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

async function main(argv) {
  // The arguments are read, and the results formatted, by the core (ndcg/cli.hpp), as in the
  // native ndcg-calc: the same flags give the same bytes. Reading the files stays here.
  const calc = await createCalculator();
  const args = calc.parseCommandLine(argv);
  if (!args.ok) {
    process.stderr.write(args.error);
    return 2;
  }
  if (args.compare) return compare(calc, args, argv);
  if (args.help) {
    process.stdout.write(calc.commandLineHelp(args.measures));
    return 0;
  }
  if (args.version) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`ndcg-calc ${pkg.version} (trec_eval 10.0's measures and flags)\n`);
    return 0;
  }
  const [qrelsPath, runPath] = args.files;
  let qrels;
  let run;
  const options = Object.fromEntries(args.options);
  try {
    qrels = await opener(qrelsPath);
    run = await opener(runPath);
    if (args.zscoresFile !== null) options.zscores = await readWhole(args.zscoresFile);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ndcg-calc: ${error.message}\n`);
    return 2;
  }
  const onProgress = args.progress
    ? progressReporter({ qrels: await sizeOf(qrelsPath), run: await sizeOf(runPath) })
    : undefined;
  const result = await calc.evaluateStreams({
    qrels, run, measures: args.measures, options, onProgress,
    commandLine: { argv, qrelsName: qrelsPath, runName: runPath },
  });
  if (args.progress && process.stderr.isTTY) process.stderr.write('\n');
  if (!result.commandLine) {
    // The file could not be read, or the core failed: the error names the file.
    for (const e of result.errors) process.stderr.write(`ndcg-calc: ${{ qrels: qrelsPath, run: runPath }[e.source] ?? e.source}: ${e.message}\n`);
    return 1;
  }
  process.stderr.write(result.commandLine.err);
  process.stdout.write(result.commandLine.out);
  return result.commandLine.status;
}

/** ndcg-calc compare QRELS RUN_A RUN_B [RUN...]: the qrels read once, each run in turn. */
async function compare(calc, args, argv) {
  if (args.help) {
    process.stdout.write(args.helpText);
    return 0;
  }
  const [qrelsPath, ...runPaths] = args.files;
  const opened = [];
  try {
    for (const path of args.files) opened.push(await opener(path));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ndcg-calc: ${error.message}\n`);
    return 2;
  }
  let onProgress;
  if (args.progress) {
    const sizes = { qrels: await sizeOf(qrelsPath) };
    for (const [i, path] of runPaths.entries()) sizes[args.runNames[i]] = await sizeOf(path);
    const report = progressReporter(sizes);
    onProgress = ({ file, run, bytes }) => report({ file: run ?? file, bytes });
  }
  const result = await calc.compareStreams({
    qrels: opened[0],
    // The paths as given, a repeated one numbered by the core (ndcg/cli.hpp's run_names).
    runs: new Map(args.runNames.map((name, i) => [name, opened[i + 1]])),
    measures: args.measures,
    options: Object.fromEntries([...args.options, ...args.compareOptions]),
    onProgress,
    commandLine: { argv, qrelsName: qrelsPath },
  });
  if (args.progress && process.stderr.isTTY) process.stderr.write('\n');
  if (!result.commandLine) {
    for (const e of result.errors) process.stderr.write(`ndcg-calc: ${e.source === 'qrels' ? qrelsPath : e.run ?? e.source}: ${e.message}\n`);
    return 1;
  }
  process.stderr.write(result.commandLine.err);
  process.stdout.write(result.commandLine.out);
  return result.commandLine.status;
}

// Whatever happens, one line on stderr and status 1 or 2: never a stack trace, never the wasm
// module's source (Node prints the line of a throw, and the module is one long line).
function fail(error) {
  const message = String(error?.message ?? error).split('\n')[0].slice(0, 300);
  process.stderr.write(`ndcg-calc: ${message}\n`);
  process.exitCode = 1;
}
process.on('uncaughtException', (error) => {
  fail(error);
  process.exit();
});
process.on('unhandledRejection', (error) => {
  fail(error);
  process.exit();
});
// A reader that stops early (| head) is not a failure of ours.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  fail(error);
});
process.on('exit', () => {
  for (const directory of spoolDirectories) rmSync(directory, { recursive: true, force: true });
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  fail(error);
}
