// Evaluates a qrels/run pair off the page's thread, so a 200 MB run never freezes the page. The
// page sends the source text of the core module it loads itself (one copy of the wasm in the file).
import { compileWasm, importCoreScript, loadCalculator } from './core-loader.js';
import { movedBuffers } from './transfer.js';

let calculator = null;

// Paced reading (the page's ?pace=1, for tests that drive the worker step by step): after each
// chunk the worker waits for a 'step' message, or for 'run' to read the rest at full speed.
let paced = false;
let waiting = null;
function nextStep() {
  return paced ? new Promise((resolve) => { waiting = resolve; }) : Promise.resolve();
}

/**
 * Chunks of a File (read as a stream) or of pasted text. Paced, they are exactly `chunkSize`
 * bytes (the last one shorter) whatever sizes the browser's stream delivers, so that a test
 * knows how many steps each file takes.
 */
function chunksOf(input, chunkSize, gzipped, onCompressed) {
  const open = typeof input === 'string' ? () => [input] : gzipped ? () => inflated(input, onCompressed) : () => input.stream();
  if (!paced) return open;
  return () => (async function* pacedChunks() {
    let pending = new Uint8Array(0);
    for await (const chunk of open()) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      const joined = new Uint8Array(pending.length + bytes.length);
      joined.set(pending);
      joined.set(bytes, pending.length);
      let at = 0;
      for (; joined.length - at >= chunkSize; at += chunkSize) {
        yield joined.subarray(at, at + chunkSize);
        await nextStep();
      }
      pending = joined.slice(at);
    }
    if (pending.length > 0) {
      yield pending;
      await nextStep();
    }
  })();
}

/** Whether a File starts with gzip's magic bytes (1f 8b): TREC runs often travel compressed. */
async function isGzip(input) {
  if (typeof input === 'string' || input.size < 2) return false;
  const head = new Uint8Array(await input.slice(0, 2).arrayBuffer());
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** A gzipped File's text as a stream, counting the compressed bytes read for the progress bar. */
function inflated(file, onCompressed) {
  let read = 0;
  const counted = new TransformStream({
    transform(chunk, controller) {
      read += chunk.length;
      onCompressed(read);
      controller.enqueue(chunk);
    },
  });
  return file.stream().pipeThrough(counted).pipeThrough(new DecompressionStream('gzip'));
}

self.onmessage = async ({ data }) => {
  if (data.type === 'step' || data.type === 'run') {
    if (data.type === 'run') paced = false;
    const resolve = waiting;
    waiting = null;
    resolve?.();
    return;
  }
  const work = { evaluate, compare, 'evaluate-for-comparison': evaluateForComparison }[data.type];
  if (work === undefined) return;
  paced = data.paced === true;
  try {
    calculator ??= await loadCalculator(importCoreScript(data.coreSource), compileWasm(data.coreWasm));
    const result = await work(data);
    self.postMessage({ type: 'done', result }, movedBuffers(result));
  } catch (error) {
    self.postMessage({ type: 'failed', message: error?.message ?? String(error) });
  }
};

/**
 * An input's chunks and its progress in bytes: for a gzipped file the bar follows the
 * compressed bytes read, against the file's size.
 */
async function source(input, chunkSize) {
  const size = input.size ?? input.length;
  const gzipped = await isGzip(input);
  let compressed = 0;
  const chunks = chunksOf(input, chunkSize, gzipped, (bytes) => { compressed = bytes; });
  return { chunks, size, gzipped, done: (fed) => (gzipped ? Math.min(compressed, size) : fed) };
}

/**
 * querySpans as far as they can be used: a gzipped file's offsets are in its inflated text, which
 * a slice of the file does not give, so its spans go. Each file's query ids travel as one text,
 * joined by '\n' (which no id holds), which the page splits only to explain a query: as a
 * string apiece, a run of 100,000 queries sent 200,000 more strings for the page to read in the
 * task that shows the results.
 */
function sliceable(querySpans, qrels, run) {
  if (querySpans && qrels.gzipped) querySpans.qrels = null;
  if (querySpans && run.gzipped) querySpans.run = null;
  for (const spans of [querySpans?.qrels, querySpans?.run]) {
    if (spans) spans.queries = spans.queries.join('\n');
  }
}

/**
 * Only the byte spans [[start, end], ...] of a file or a pasted text (its UTF-8 bytes, which is
 * what the core counted): one query's lines, found by an earlier evaluation's querySpans.
 */
function spansOf(input, spans) {
  const whole = typeof input === 'string' ? new Blob([input]) : input;
  return new Blob(spans.map(([start, end]) => whole.slice(start, end)));
}

/** A progress reporter posting at most every 50 ms (every step when paced) and at each file's end. */
function reporter() {
  let lastPost = 0;
  return (message, bytes, total) => {
    const now = performance.now();
    if (!paced && now - lastPost < 50 && bytes < total) return;
    lastPost = now;
    self.postMessage({ type: 'progress', ...message, bytes, total });
  };
}

/**
 * One evaluation; with data.spans ({ qrels, run } byte spans of one query, for explaining it),
 * only those bytes of each file are read. A whole evaluation also says where each query's
 * lines are (querySpans), except in a gzipped file, whose offsets cannot be sliced.
 */
async function evaluate(data) {
  const { spans } = data;
  const qrels = await source(spans ? spansOf(data.qrels, spans.qrels) : data.qrels, 1 << 20);
  const run = await source(spans ? spansOf(data.run, spans.run) : data.run, 1 << 18);
  const inputs = { qrels, run };
  const post = reporter();
  const result = await calculator.evaluateStreams({
    qrels: qrels.chunks,
    run: run.chunks,
    measures: data.measures,
    options: spans ? data.options : { ...data.options, querySpans: true },
    explainQuery: data.explainQuery ?? '',
    explainCutoff: data.explainCutoff ?? 0,
    explainMeasure: data.explainMeasure ?? '',
    // A query's step table a typed array per column: a ranking of tens of thousands of documents
    // makes no object per rank, here or in the page that receives it.
    columnar: true,
    // The values a column per measure, each a view of one array moved with the message (transfer.js).
    perQueryColumns: true,
    onProgress: ({ file, bytes }) => post({ file }, inputs[file].done(bytes), inputs[file].size),
  });
  sliceable(result.querySpans, qrels, run);
  return result;
}

/**
 * Reports a comparison's reading: the qrels, and each run by its place among all the runs
 * compared (`index` of `runs`), which may be shared between several workers.
 */
function runProgress(qrels, runs, total) {
  const post = reporter();
  const byName = new Map(runs.map((r) => [r.name, r]));
  return ({ file, run, bytes }) => {
    if (file === 'tests') self.postMessage({ type: 'progress', file, runs: total });
    else if (file === 'qrels') post({ file }, qrels.done(bytes), qrels.size);
    else {
      const r = byName.get(run);
      post({ file, run, index: r.index, runs: total }, r.source.done(bytes), r.source.size);
    }
  };
}

/** The runs of a message ([{ name, input, index? }]) as sources of chunks. */
async function runSourcesOf(data) {
  return Promise.all(data.runs.map(async ({ name, input, index }, i) => ({ name, index: index ?? i, source: await source(input, 1 << 18) })));
}

/**
 * Several runs against the qrels (data.runs: [{ name, input } or { name, evaluated }], the first
 * the baseline): a run `evaluated` by another worker (evaluate-for-comparison) is not read again.
 */
async function compare(data) {
  const toRead = data.runs.filter((r) => r.evaluated === undefined);
  const qrels = toRead.length > 0 ? await source(data.qrels, 1 << 20) : null;
  const read = await runSourcesOf({ runs: toRead.map((r) => ({ ...r, index: data.runs.indexOf(r) })) });
  const chunks = new Map(read.map((r) => [r.name, r.source.chunks]));
  return calculator.compareStreams({
    ...(qrels ? { qrels: qrels.chunks } : {}),
    runs: new Map(data.runs.map((r) => [r.name, r.evaluated ?? chunks.get(r.name)])),
    measures: data.measures,
    options: data.options,
    onProgress: runProgress(qrels, read, data.runs.length),
  });
}

/** Some of a comparison's runs, evaluated here for the worker that compares them (data.runs of data.total). */
async function evaluateForComparison(data) {
  const qrels = await source(data.qrels, 1 << 20);
  const read = await runSourcesOf(data);
  const result = await calculator.evaluateForComparison({
    qrels: qrels.chunks,
    runs: new Map(read.map((r) => [r.name, r.source.chunks])),
    measures: data.measures,
    // Where each query is, for explaining one query of a run later (see evaluate()).
    options: { ...data.options, querySpans: true },
    onProgress: runProgress(qrels, read, data.total),
  });
  for (const r of read) sliceable(result.runs?.[r.name]?.querySpans, qrels, r.source);
  return result;
}
