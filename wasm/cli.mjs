#!/usr/bin/env -S node --v8-pool-size=1
// ndcg-calc: evaluates a TREC run against qrels with trec_eval's semantics and output, from the
// same wasm core as the page. Files are read in chunks; a run is evaluated query by query.
// Node is started with one background thread for V8 (of four): the work is this thread's and a
// worker's, and each background thread that allocates keeps a malloc arena of its own. The
// benchmark's 174 MB run peaked 3.5 MB lower (medians of 16 runs each, 81.4 against 84.9 MB),
// in the same time, a comparison of three runs and trec_eval's small test files 2.5 MB lower;
// `node wasm/cli.mjs` runs the same program without it.
import { readFileSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';

import { UsageError, fileReader, isRegularFile, opener, readWhole, removeSpooled, sizeOf } from './files.mjs';
import { compiledCore, createCalculator } from './index.mjs';
import { shareBySize } from './shares.mjs';

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
  const report = args.progress
    ? progressReporter({ qrels: await sizeOf(qrelsPath), run: await sizeOf(runPath) })
    : undefined;
  const split = await splitRun(calc, runPath, qrelsPath, args.measures, options, report);
  const request = {
    qrels, run, measures: args.measures, options, onProgress: report,
    // Only what is printed: building every query's values in JS took longer than printing them;
    // and stdout as bytes, not decoded into a string to be encoded again.
    // Printed as the core makes it, a piece at a time: the lines of every query of -q at once
    // were 100 MB for a run of 100,000 queries, held in the core and again here.
    commandLine: { argv, qrelsName: qrelsPath, runName: runPath, only: true, bytes: true, write: printed },
  };
  const result = split
    ? await calc.evaluateSplit({ ...request, run: split.first, later: split.later, whole: run, samples: split.samples, onProgress: split.onProgress })
    : await calc.evaluateStreams(request);
  split?.stop();
  if (args.progress && process.stderr.isTTY) process.stderr.write('\n');
  if (!result.commandLine) {
    // The file could not be read, or the core failed: the error names the file.
    for (const e of result.errors) process.stderr.write(`ndcg-calc: ${{ qrels: qrelsPath, run: runPath }[e.source] ?? e.source}: ${e.message}\n`);
    return 1;
  }
  return result.commandLine.status;
}

/**
 * commandLine.write for evaluate*(): stderr's text, and stdout's bytes, written as they come;
 * a promise of the stream's drain when it holds more than it has written (a pipe to a slower
 * reader), so that the pieces are not all held. A reader that stops early (| head) ends the
 * process (the handler of stdout's errors below).
 */
function printed(text, stream) {
  const to = stream === 'err' ? process.stderr : process.stdout;
  if (to.write(text)) return undefined;
  return new Promise((resolve) => to.once('drain', resolve));
}

/**
 * A worker started before the arguments are read, when they look like the evaluation of a run
 * large enough to be split (splitRun): it boots (about 50 ms for a thread of its own, its
 * modules loaded) while this thread compiles the core and reads the arguments, and waits for its
 * task (worker.mjs). Null otherwise. Unused, it keeps nothing alive, and the process ends
 * without it.
 */
async function workerStartedEarly(argv) {
  const run = argv.at(-1);
  if (argv.length < 2 || argv[0] === 'compare' || typeof run !== 'string' || run.startsWith('-')) return null;
  try {
    if (!largeEnoughToSplit(statSync(run))) return null;
  } catch {
    return null;
  }
  const worker = await newWorker({ task: 'wait' });
  worker.unref();
  const early = { worker, ended: false };
  // A worker that failed before it was given a task is not used (startWorker starts another).
  worker.on('error', () => {});
  worker.once('exit', () => {
    early.ended = true;
  });
  return early;
}
let earlyWorker = await workerStartedEarly(process.argv.slice(2));

/** A thread running worker.mjs; node:worker_threads is loaded only for a run that uses one. */
async function newWorker(workerData) {
  const { Worker } = await import('node:worker_threads');
  return new Worker(new URL('./worker.mjs', import.meta.url), { workerData });
}

/**
 * A thread of ndcg-calc (wasm/worker.mjs) given `workerData` (the one started early, when there
 * is one): resolves { worker, result }, its progress going to `onProgress`, and `result`
 * resolving with what it hands back, or null when it fails or ends without.
 */
async function startWorker(workerData, onProgress) {
  // The core as compiled here, which the worker uses rather than compiling it again.
  const data = { ...workerData, core: await compiledCore() };
  const early = earlyWorker;
  earlyWorker = null;
  let worker;
  if (early !== null && !early.ended) {
    worker = early.worker;
    worker.ref();
    worker.postMessage(data);
  } else {
    worker = await newWorker(data);
  }
  const result = new Promise((resolve) => {
    worker.on('message', (message) => {
      if (message.type === 'progress') onProgress?.(message.progress);
      else resolve(message.result);
    });
    worker.on('error', () => resolve(null));
    worker.on('exit', () => resolve(null));
  });
  return { worker, result };
}

/**
 * Runs at least this large are split between two threads when they can be (splitRun): 64 MB
 * (a thread with its own core takes about 0.1 s to start: a 17 MB run took 0.31 s split and
 * 0.24 s whole, a 174 MB one 0.90 s and 1.08 s), or NDCG_CALC_SPLIT_BYTES.
 */
function splitThreshold() {
  const set = process.env.NDCG_CALC_SPLIT_BYTES;
  return set && /^\d+$/.test(set) ? Number(set) : 64 * 1048576;
}

/** Whether a run whose stat is `info` is split (splitRun): a regular file of at least splitThreshold() bytes, on two cores or more. */
function largeEnoughToSplit(info) {
  return info.isFile() && info.size >= splitThreshold() && availableParallelism() >= 2;
}

/**
 * A large run (a regular file, not gzipped, at least splitThreshold() bytes, on two cores or
 * more) split between this thread and a worker (wasm/worker.mjs) at the first query boundary
 * past the middle (calc.queryBoundary): the worker reads the later part and hands it over
 * packed; this thread reads the first part and joins them (calc.evaluateSplit), or reads the
 * whole run again when they cannot be. The worker does not know the number of its first line
 * (counting the lines before it would read the first part twice): when its part says something
 * that names a line, as a run with errors does, the whole run is read again, and every line is
 * named right. The worker reads the qrels too, by their path: qrels that can be read only once
 * (stdin, a pipe, /dev/fd/N) keep the run in one thread, as two threads reading them would each
 * get a share of their lines. Each thread keeps the judgments of its own part's queries only, as
 * lines sampled from both parts tell them (sampleParts). Resolves { first, later, samples,
 * onProgress, stop } or null, for a run read in one.
 */
async function splitRun(calc, runPath, qrelsPath, measures, options, report) {
  const info = runPath === '-' ? null : await stat(runPath).catch(() => null);
  if (info === null || !largeEnoughToSplit(info) || !(await isRegularFile(qrelsPath))) return null;
  const { size } = info;
  const handle = await open(runPath, 'r');
  let at;
  let samples;
  try {
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (head[0] === 0x1f && head[1] === 0x8b) return null;
    const middle = Math.floor(size / 2);
    // A query's lines most often fit in 64 KiB, and embind copies the window into the core a
    // byte at a time (1 MiB took 5-8 ms): that much first, then 1 MiB.
    let boundary = null;
    for (const bytes of [1 << 16, 1 << 20]) {
      const window = Buffer.alloc(Math.min(bytes, size - middle));
      const { bytesRead } = await handle.read(window, 0, window.length, middle);
      boundary = calc.queryBoundary(window.subarray(0, bytesRead));
      if (boundary !== null || bytesRead < bytes) break;
    }
    if (boundary === null) return null;
    at = middle + boundary;
    samples = await sampleParts(handle, size, at);
  } finally {
    await handle.close();
  }
  const range = (start, end) => () => fileReader(runPath, start, end);
  let laterBytes = 0;
  let firstBytes = 0;
  const { worker, result } = await startWorker({ task: 'later-part', qrelsPath, runPath, from: at, samples, measures, options }, (progress) => {
    laterBytes = progress.bytes;
    report?.({ file: 'run', bytes: firstBytes + laterBytes });
  });
  return {
    first: range(0, at),
    later: result.then((r) => r?.packed ?? null),
    samples,
    onProgress: ({ file, bytes }) => {
      if (file === 'run') firstBytes = bytes;
      report?.(file === 'run' ? { file, bytes: firstBytes + laterBytes } : { file, bytes });
    },
    stop: () => worker.terminate(),
  };
}

/**
 * Whole lines sampled from a run of `size` bytes split at byte `at` (calc.evaluateSplit's
 * `samples`), 16 from each part: the run's first line and the first line after each sixteenth of
 * the first part, the later part's first line and the first after each sixteenth of it, and the
 * run's last line. 33 reads of 4 KiB; a line longer than that is left out.
 */
async function sampleParts(handle, size, at) {
  const parts = 16;
  const window = Buffer.alloc(4096);
  // The whole line starting at `start`, or after the first line break past it (`after`), when
  // it starts before `end` and fits the window; else null.
  const lineAt = async (start, after, end) => {
    const { bytesRead } = await handle.read(window, 0, Math.min(window.length, size - start), start);
    let from = 0;
    if (after) {
      from = window.indexOf(0x0a) + 1;
      if (from === 0 || from >= bytesRead) return null;
    }
    if (start + from >= end) return null;
    const stop = window.indexOf(0x0a, from);
    if (stop < 0 || stop >= bytesRead) return start + bytesRead === size ? window.subarray(from, bytesRead) : null;
    return window.subarray(from, stop);
  };
  const lines = async (start, end, last) => {
    const found = [];
    for (let k = 0; k < parts; k++) {
      const line = await lineAt(start + Math.floor(((end - start) * k) / parts), k > 0, end);
      if (line !== null) found.push(Buffer.from(line), Buffer.from('\n'));
    }
    if (last) {
      // The run's last line: after the last line break before its final one.
      const from = Math.max(at, size - window.length);
      const { bytesRead } = await handle.read(window, 0, size - from, from);
      const text = window.subarray(0, window[bytesRead - 1] === 0x0a ? bytesRead - 1 : bytesRead);
      const begin = text.lastIndexOf(0x0a) + 1;
      if (begin > 0 || from === at) found.push(Buffer.from(text.subarray(begin)));
    }
    return new Uint8Array(Buffer.concat(found));
  };
  return { first: await lines(0, at, false), later: await lines(at, size, true) };
}

/**
 * A comparison's runs evaluated by threads side by side (wasm/worker.mjs): one per core
 * and one more while this one waits, the largest run first to the thread with the fewest bytes.
 * Resolves a Map of run name → evaluated run, or null when the runs are best read here: fewer
 * than two runs or cores, a file that only this thread can read (stdin, a pipe), or any error
 * (then the reading here reports it, as it reports every error).
 */
async function evaluateInThreads(args, onProgress) {
  const [qrelsPath, ...runPaths] = args.files;
  const lanes = Math.min(runPaths.length, availableParallelism() + 1);
  if (lanes < 2 || availableParallelism() < 2) return null;
  for (const path of args.files) {
    if (!(await isRegularFile(path))) return null;
  }
  const runs = await Promise.all(runPaths.map(async (path, i) => ({ name: args.runNames[i], path, size: await sizeOf(path) })));
  const options = Object.fromEntries([...args.options, ...args.compareOptions]);
  const results = await Promise.all(shareBySize(runs, lanes, (run) => run.size).filter((share) => share.length > 0).map(async (share) =>
    (await startWorker({ task: 'compare', qrelsPath, runs: share, measures: args.measures, options }, onProgress)).result));
  if (!results.every((r) => r?.runs !== undefined)) return null;
  return new Map(results.flatMap((r) => Object.entries(r.runs)));
}

/**
 * ndcg-calc compare QRELS RUN_A RUN_B [RUN...]: the runs evaluated side by side by threads when
 * they can be (evaluateInThreads), else here, the qrels read once and each run in turn; the
 * comparison and its report are made here either way.
 */
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
  const evaluated = await evaluateInThreads(args, onProgress);
  const result = await calc.compareStreams({
    qrels: opened[0],
    // The paths as given, a repeated one numbered by the core (ndcg/cli.hpp's run_names).
    runs: new Map(args.runNames.map((name, i) => [name, evaluated?.get(name) ?? opened[i + 1]])),
    measures: args.measures,
    options: Object.fromEntries([...args.options, ...args.compareOptions]),
    onProgress,
    commandLine: { argv, qrelsName: qrelsPath, only: true },
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
process.on('exit', removeSpooled);

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  fail(error);
}
