// The idiomatic JavaScript API over the raw embind module: plain objects and arrays in and out.
// It shapes and validates; every number comes from the C++ core.

/** Thrown for a call that breaks the API's contract (not for bad input text: that is a value). */
export class CalculatorUsageError extends TypeError {
  constructor(message) {
    super(message);
    this.name = 'CalculatorUsageError';
  }
}

/**
 * What commandLine.write threw, passed on as it is (its `cause`): the output has begun, so the
 * evaluation is not tried again, which would write it twice.
 */
export class OutputError extends Error {
  constructor(cause) {
    super(`commandLine.write failed: ${cause?.message ?? cause}`, { cause });
    this.name = 'OutputError';
  }
}

/**
 * The text the core reads. A lone UTF-16 surrogate (half of an emoji, cut by an editor) has no
 * UTF-8 form; the conversion at the binding would swallow the next character with it, even a line
 * break, so it is replaced by U+FFFD here first, as TextEncoder does.
 */
export function wellFormed(text) {
  return typeof text.toWellFormed === 'function'
    ? text.toWellFormed()
    : text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

// What the methods check of their arguments before the core reads them.
const isObject = (value) => value !== null && typeof value === 'object';
export const isStrings = (value) => Array.isArray(value) && value.every((item) => typeof item === 'string');

// The ids the core sends as UTF-8 bytes, each ended by '\n' (bindings.cpp's add_id): a byte
// sequence that is not UTF-8 becomes U+FFFD, and never takes the '\n' after it.
const utf8 = new TextDecoder();
function idsOf(bytes) {
  const ids = utf8.decode(bytes).split('\n');
  ids.pop();  // after the last id's '\n'
  return ids;
}

function splitDocs({ joined, present }) {
  const parts = idsOf(joined);
  // A loop, not Array.from(present, f): that goes through the typed array's iterator, an object
  // per element for the garbage collector (70 KB per explanation of 1,000 rows).
  const docs = new Array(present.length);
  for (let i = 0; i < present.length; i++) docs[i] = present[i] ? parts[i] : null;
  return docs;
}

/**
 * Options as the core reads them: every value as text. A gain map { "3": 7, "2": 3 } becomes
 * "3=7,2=3"; undefined and null mean "use the default" and are left out.
 */
export function optionsToText(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new CalculatorUsageError('options must be an object such as { gain: "linear", k: 10 }');
  }
  const text = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object' && !Array.isArray(value)) {
      text[name] = Object.entries(value).map(([grade, gain]) => `${grade}=${gain}`).join(',');
    } else {
      text[name] = wellFormed(String(value));
    }
  }
  return text;
}

/** What an explanation says besides its rows: the summary and how the numbers were read. */
function explanationSummary(raw) {
  const { summary } = raw;
  const shaped = {
    k: summary.k, dcgAtK: summary.dcgAtK, idcgAtK: summary.idcgAtK, ndcgAtK: summary.ndcgAtK,
    judgedRelevant: summary.judgedRelevant,
  };
  if (summary.roundedDecimals !== null) {
    shaped.roundedDecimals = summary.roundedDecimals;
    shaped.roundedDcgAtK = summary.roundedDcgAtK;
    shaped.roundedIdcgAtK = summary.roundedIdcgAtK;
    shaped.roundedNdcgAtK = summary.roundedNdcgAtK;
  }
  return {
    summary: shaped,
    // How the numbers beside the documents were read: as grades or as scores, and what said so.
    reading: { numbers: raw.scored ? 'score' : raw.numbersFrom === 'none' ? 'none' : 'grade', from: raw.numbersFrom },
  };
}

// The numeric columns of the step table, as the core gives them (one typed array each).
const NUMBER_COLUMNS = ['grade', 'gain', 'discount', 'term', 'cg', 'dcg', 'idealGrade', 'idealGain', 'idealTerm', 'idcg', 'ndcg'];

/**
 * explain() with `columnar: true`: the step table as one typed array per column (the core's own
 * form), so that a ranking of a million rows makes no object per row.
 */
function shapeColumnar(raw) {
  if (!raw.ok) return { ok: false, errors: raw.errors, warnings: raw.warnings };
  const { columns: c } = raw;
  const columns = { doc: splitDocs(c.doc), idealDoc: splitDocs(c.idealDoc), judged: c.judged, repeated: c.repeated };
  for (const name of NUMBER_COLUMNS) columns[name] = c[name];
  if (raw.scored) Object.assign(columns, { score: c.score, ownGain: c.ownGain, tieFirst: c.tieFirst, tieLast: c.tieLast });
  if (raw.summary.roundedDecimals !== null) Object.assign(columns, { roundedDcg: c.roundedDcg, roundedIdcg: c.roundedIdcg, roundedNdcg: c.roundedNdcg });
  return {
    ok: true,
    length: c.grade.length,
    columns,
    ideal: { doc: splitDocs(raw.ideal.doc), grade: raw.ideal.grade, gain: raw.ideal.gain },
    ...explanationSummary(raw),
    warnings: raw.warnings,
  };
}

/**
 * The rows of a columnar explanation (explain() with `columnar: true`): one object per rank, as
 * explain() gives them without it. For a caller that holds the columns and wants some rows.
 */
export function rowsOfColumns({ length, columns: c }) {
  const scored = c.score !== undefined;
  const rounded = c.roundedDcg !== undefined;
  const rows = new Array(length);
  for (let i = 0; i < length; i++) {
    const row = {
      rank: i + 1, doc: c.doc[i], grade: c.grade[i], gain: c.gain[i], discount: c.discount[i],
      term: c.term[i], cg: c.cg[i], dcg: c.dcg[i], idealDoc: c.idealDoc[i], idealGrade: c.idealGrade[i],
      idealGain: c.idealGain[i], idealTerm: c.idealTerm[i], idcg: c.idcg[i], ndcg: c.ndcg[i],
      judged: c.judged[i] === 1, repeated: c.repeated[i] === 1,
    };
    if (scored) {
      row.score = c.score[i];
      row.ownGain = c.ownGain[i];
      row.tie = c.tieFirst[i] === 0 ? null : { first: c.tieFirst[i], last: c.tieLast[i] };
    }
    if (rounded) {
      row.roundedDcg = c.roundedDcg[i];
      row.roundedIdcg = c.roundedIdcg[i];
      row.roundedNdcg = c.roundedNdcg[i];
    }
    rows[i] = row;
  }
  return rows;
}

function shapeExplanation(raw) {
  const columnar = shapeColumnar(raw);
  if (!columnar.ok) return columnar;
  const { ideal, summary, reading, warnings } = columnar;
  const idealRows = ideal.doc.map((doc, i) => ({ doc, grade: ideal.grade[i], gain: ideal.gain[i] }));
  return { ok: true, rows: rowsOfColumns(columnar), ideal: idealRows, summary, warnings, reading };
}

const encoder = new TextEncoder();
// The most a chunk puts in wasm memory at once; a larger one is fed in parts.
const PART = 1 << 22;

/**
 * A function that feeds chunks to a session through its buffer in wasm memory: bytes are copied
 * there once, text is encoded there directly (TextEncoder writes U+FFFD for a lone surrogate, as
 * wellFormed does). A long chunk goes in parts of at most PART bytes, text never cut inside a
 * surrogate pair. Its `fill` has a ChunkReader write into that buffer itself.
 */
export function chunkFeeder(core, session, feedBuffer) {
  const feed = (chunk) => {
    if (typeof chunk === 'string') {
      for (let i = 0; i < chunk.length;) {
        let end = Math.min(chunk.length, i + PART / 3);
        const last = chunk.charCodeAt(end - 1);
        if (end < chunk.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
        const room = (end - i) * 3;
        const at = session.chunkBuffer(room);
        const { written } = encoder.encodeInto(chunk.slice(i, end), core.HEAPU8.subarray(at, at + room));
        session[feedBuffer](written);
        i = end;
      }
      return;
    }
    for (let i = 0; i < chunk.length; i += PART) {
      const part = chunk.subarray(i, Math.min(chunk.length, i + PART));
      const at = session.chunkBuffer(part.length);
      core.HEAPU8.set(part, at);  // read after chunkBuffer, which may have grown the memory
      session[feedBuffer](part.length);
    }
  };
  // A ChunkReader's next bytes, written by it into the session's buffer: how many (0 at the end).
  feed.fill = (reader, file) => {
    const at = session.chunkBuffer(READ);
    const written = reader.readInto(core.HEAPU8.subarray(at, at + READ));
    if (!Number.isInteger(written) || written < 0 || written > READ) {
      throw new CalculatorUsageError(`${file}: readInto() must return how many bytes it wrote, from 0 to the length it was given`);
    }
    if (written > 0) session[feedBuffer](written);
    return written;
  };
  return feed;
}

export function isChunk(value) {
  return typeof value === 'string' || value instanceof Uint8Array;
}

// What a ChunkReader (index.d.ts) is asked to fill at a time; and how many fills go by before
// the event loop is let run (a reader is synchronous: another thread's messages, such as its
// progress, wait meanwhile).
const READ = 1 << 20;
const FILLS_BETWEEN_TURNS = 8;
// A turn of the event loop: setImmediate where there is one (Node), else a timer.
const nextTurn = () => new Promise((resolve) => (globalThis.setImmediate ?? setTimeout)(resolve));

/**
 * Feeds every chunk of `open()` to `feed` (a chunkFeeder), each checked to be text or bytes,
 * and tells `onBytes` how many bytes (or UTF-16 units of text) have gone in so far. When
 * `open()` gives a ChunkReader instead, it writes its bytes straight into the session's buffer
 * (Node's ndcg-calc reads files so: no chunk is made, copied and left to the garbage collector).
 */
export async function feedAll(open, feed, file, onBytes) {
  let bytes = 0;
  const source = open();
  if (source !== null && typeof source === 'object' && typeof source.readInto === 'function') {
    try {
      for (let fills = 1; ; fills++) {
        const written = feed.fill(source, file);
        if (written === 0) break;
        bytes += written;
        onBytes?.(bytes);
        if (fills % FILLS_BETWEEN_TURNS === 0) await nextTurn();
      }
    } finally {
      source.close?.();
    }
    return;
  }
  for await (const chunk of source) {
    if (!isChunk(chunk)) throw new CalculatorUsageError(`${file} chunks must be strings or Uint8Arrays`);
    feed(chunk);
    bytes += chunk.length;
    onBytes?.(bytes);
  }
}

/** Writes `bytes` (a part or a run packed in another instance) into a session's buffer; their length. */
export function intoBuffer(core, session, bytes) {
  const at = session.chunkBuffer(bytes.length);
  core.HEAPU8.set(bytes, at);  // read after chunkBuffer, which may have grown the memory
  return bytes.length;
}

/** A string, bytes, or a list of them, as a list of chunks the core reads. */
function chunksOf(input, what) {
  if (isChunk(input)) return [input];
  if (input instanceof ArrayBuffer) return [new Uint8Array(input)];
  if (input !== null && typeof input === 'object' && typeof input[Symbol.iterator] === 'function') {
    const list = [...input];
    if (list.every(isChunk)) return list;
  }
  throw new CalculatorUsageError(`${what} must be a string, a Uint8Array, or an array of them`);
}

export function sessionArguments({ measures = [], options = {}, explainQuery, explainCutoff, explainMeasure }) {
  if (!isStrings(measures)) {
    throw new CalculatorUsageError('measures must be an array of names such as ["ndcg_cut.10", "map"]');
  }
  if (explainQuery !== undefined && typeof explainQuery !== 'string') throw new CalculatorUsageError('explainQuery must be a query id');
  // Every option goes to the core as text, which checks names and values: an unknown option or a
  // relevance level of 2^32 + 1 is an error there, never ignored or wrapped around.
  const text = optionsToText(options);
  if (explainQuery) text.explainQuery = wellFormed(explainQuery);
  if (explainMeasure !== undefined && typeof explainMeasure !== 'string') throw new CalculatorUsageError('explainMeasure must be a column name such as "map" or "P_10"');
  if (explainMeasure) text.explainMeasure = wellFormed(explainMeasure);
  // Checked by the core, as text: a negative or fractional cut-off is an error value.
  if (explainCutoff !== undefined && explainCutoff !== null) text.explainCutoff = wellFormed(String(explainCutoff));
  return [measures.map(wellFormed), text];
}

/**
 * options.querySpans: where each query's lines are in each file, to read one query again:
 * { qrels, run }, each { queries, starts, ends } or null; undefined when not asked for.
 */
function shapeSpans({ qrelsSpans, runSpans }) {
  if (qrelsSpans === null && runSpans === null) return undefined;
  const shaped = (spans) => (spans === null ? null : { queries: idsOf(spans.queries), starts: spans.starts, ends: spans.ends });
  return { qrels: shaped(qrelsSpans), run: shaped(runSpans) };
}

/** Whether `request` asks for what ndcg-calc prints (its `commandLine`). */
const asksReport = (request) => request?.commandLine !== undefined && request.commandLine !== null;

/**
 * The per-query values as columns (request.perQueryColumns): { queries, values: { name:
 * Float64Array }, texts?: { name: string[] } }, values[name][i] being query queries[i]'s, from
 * the core's result, which carries the ids as idsOf's list and the values as one array, a
 * column's queries after another's. Each column is a view of that array: a run of 100,000
 * queries makes no object a query.
 */
function perQueryColumnsOf(raw) {
  const queries = idsOf(raw.perQueryIds);
  const n = queries.length;
  const values = {};
  raw.columns.forEach((c, i) => { values[c.name] = raw.perQueryValues.subarray(i * n, (i + 1) * n); });
  const out = { queries, values };
  // Text columns of a query's own (relstring) carry their text per query too.
  if (raw.perQueryTexts) {
    out.texts = {};
    raw.columns.forEach((c, i) => { if (c.text && c.perQuery) out.texts[c.name] = raw.perQueryTexts.map((texts) => texts[i]); });
  }
  return out;
}

/**
 * The same values as an object per query, { query, values: { name: number }, texts? }. Each
 * query's values are copied from one object of the same keys, so that V8 gives them one shape at
 * once.
 */
function perQueryOf({ queries, values, texts }) {
  const names = Object.keys(values);
  const columns = names.map((name) => values[name]);
  const shape = Object.fromEntries(names.map((name) => [name, 0]));
  const textNames = texts ? Object.keys(texts) : [];
  return queries.map((query, i) => {
    const own = { ...shape };
    for (let c = 0; c < names.length; c++) own[names[c]] = columns[c][i];
    return texts ? { query, values: own, texts: Object.fromEntries(textNames.map((name) => [name, texts[name][i]])) } : { query, values: own };
  });
}

// `request`'s trecText, columnar and perQueryColumns say what the result carries and how;
// `printed`, what ndcg-calc prints for it (command-line.mjs), when asked for.
export function shapeEvaluation(raw, session, { trecText, columnar = false, perQueryColumns = false }, printed) {
  if (!raw.ok) {
    const failed = { ok: false, errors: raw.errors, warnings: raw.warnings };
    if (printed) failed.commandLine = printed;
    return failed;
  }
  const names = raw.columns.map((c) => c.name);
  const valuesOf = (array) => Object.fromEntries(names.map((name, i) => [name, array[i]]));
  const columns = perQueryColumnsOf(raw);
  const result = {
    ok: true,
    columns: raw.columns,
    ...(perQueryColumns === true ? { perQueryColumns: columns } : { perQuery: perQueryOf(columns) }),
    mean: valuesOf(raw.mean),
    stdev: valuesOf(raw.stdev),
    queriesAveraged: raw.queriesAveraged,
    runTag: raw.runTag,
    warnings: raw.warnings,
  };
  if (trecText) {
    // 'per-query' | 'summary' (trec_eval's -q or not), or { perQuery, summary } (summary false: -n)
    const { perQuery = false, summary = true } = typeof trecText === 'object' ? trecText : { perQuery: trecText === 'per-query' };
    result.trec = session.formatTrec(Boolean(perQuery), Boolean(summary));
  }
  if (raw.zscores) result.zscores = true;
  // As rows, or as the core gives them, a typed array per column (request.columnar).
  const shape = columnar === true ? shapeColumnar : shapeExplanation;
  if (raw.explanation) result.explanation = shape(raw.explanation);
  // options.explainAll: every query's table, in trec_eval's query order
  if (raw.explanations.length > 0) result.explanations = raw.explanations.map(({ query, explanation }) => ({ query, explanation: shape(explanation) }));
  if (raw.working) result.working = raw.working;
  const querySpans = shapeSpans(raw);
  if (querySpans) result.querySpans = querySpans;
  if (printed) result.commandLine = printed;
  return result;
}

// The options that belong to the comparison (compare.hpp); every other option is the
// evaluation's. Values go to the core as text, which checks them.
const COMPARE_OPTIONS = new Set(['tests', 'permutations', 'seed', 'alpha', 'correction', 'missing', 'pairs']);

function compareArguments({ measures = [], options = {} }) {
  if (!isStrings(measures)) {
    throw new CalculatorUsageError('measures must be an array of names such as ["nDCG@10", "AP"]');
  }
  if (!isObject(options)) throw new CalculatorUsageError('options must be an object');
  const evaluation = {};
  const comparison = {};
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    (COMPARE_OPTIONS.has(name) ? comparison : evaluation)[name] = wellFormed(text);
  }
  return [measures.map(wellFormed), optionsToText(evaluation), comparison];
}

/** The runs of a compare() request as [name, value] pairs, in their order (the first is the baseline). */
function runEntries(runs, what) {
  const entries = runs instanceof Map ? [...runs] : Object.entries(runs ?? {});
  if (entries.length < 2) throw new CalculatorUsageError(`${what} takes two runs or more: { runs: { name: ${what === 'compare()' ? 'text' : '() => chunks'}, ... } }`);
  return entries;
}

/**
 * The comparison as the API gives it: per-query values as one Float64Array per run and measure,
 * the pairs with their tests. Each run's errors and warnings carry its name (`run`).
 */
function shapeComparison(raw, names, runResults, commandLine) {
  const located = (list, name) => list.map((d) => (d.source === 'run' ? { ...d, run: name } : d));
  // What is about the qrels or the options is the same for every run: given once.
  const once = (list, i) => list.filter((d) => i === 0 || d.source === 'run');
  const errors = runResults.flatMap((r, i) => once(located(r.errors, names[i]), i));
  const warnings = runResults.flatMap((r, i) => once(located(r.warnings, names[i]), i));
  if (errors.length > 0 || !raw.ok) {
    const failed = { ok: false, errors: [...errors, ...(raw.errors ?? [])], warnings: [...warnings, ...(raw.warnings ?? [])] };
    if (commandLine) failed.commandLine = commandLine;
    return failed;
  }
  const { measures } = raw;
  const queries = idsOf(raw.queries);
  const at = (s, m) => raw.values.subarray((s * measures.length + m) * queries.length, (s * measures.length + m + 1) * queries.length);
  const result = {
    ok: true,
    options: raw.options,
    measures,
    queries,
    runs: names.map((name, s) => ({
      name,
      runTag: runResults[s].runTag,
      mean: Object.fromEntries(measures.map((m, i) => [m, raw.means[s * measures.length + i]])),
    })),
    perQuery: Object.fromEntries(names.map((name, s) => [name, Object.fromEntries(measures.map((m, i) => [m, at(s, i)]))])),
    family: raw.family,
    pairs: raw.pairs,
    warnings: [...warnings, ...raw.warnings],
  };
  if (commandLine) result.commandLine = commandLine;
  return result;
}

/** What a person reads when the core itself failed (an abort, or memory the wasm cannot grow). */
function coreFailure(error, source, restarted, where = '') {
  const reason = String(error?.message ?? error).slice(0, 200);
  return {
    ok: false,
    errors: [{
      source, line: 0, column: 0,
      message: `the calculator's core stopped on this input${where} (${reason}): it needed more memory than ` +
        `WebAssembly's 2 GB, or met a bug. Nothing you typed is lost${restarted ? '; the core has been restarted, so the next request works again' : ''}.`,
    }],
    warnings: [],
  };
}

/**
 * An instance of the Emscripten module made by `factory` from `compiled`, a WebAssembly.Module
 * already compiled (by this thread or another), with `settings` for the module (its failures
 * reach the caller as values, so it prints none of its own). The module waits for its instance
 * forever if it is never handed one: a failure to make it (out of memory, say) rejects here
 * instead.
 */
export function instantiateCompiled(factory, compiled, settings = {}) {
  let failed;
  const failure = new Promise((resolve, reject) => { failed = reject; });
  const instantiateWasm = (imports, done) => {
    WebAssembly.instantiate(compiled, imports).then((instance) => done(instance, compiled), failed);
    return {};
  };
  return Promise.race([factory({ printErr: () => {}, ...settings, instantiateWasm }), failure]);
}

/**
 * Wraps an instantiated embind module (see index.mjs / index.browser.mjs). `restart` returns a
 * promise of a fresh instance: after the core fails (a wasm trap or abort leaves an instance
 * unusable) the calculator replaces it, and the failing call returns an error value. Node's
 * entry adds what only its core does: `extend`, methods, and `commandLine`, what ndcg-calc
 * prints for a request that asks for it (command-line.mjs's commandLineReports).
 */
export function makeCalculator(firstCore, { restart, extend, commandLine: reports } = {}) {
  let core = firstCore;
  let restarting = null;
  let presetList = null;  // read from the core once, on first use
  let measureList = null;
  let measureSetList = null;

  const failed = (error, source, where) => {
    if (error instanceof CalculatorUsageError) throw error;
    core = null;
    if (restart) {
      restarting ??= restart().then((fresh) => { core = fresh; }).finally(() => { restarting = null; });
    }
    return coreFailure(error, source, Boolean(restart), where);
  };
  const unavailable = (source) => ({
    ok: false,
    errors: [{ source, line: 0, column: 0, message: 'the calculator\'s core is restarting after a failure; try again in a moment' }],
    warnings: [],
  });
  // Whether `request` asks for what ndcg-calc prints, which only Node's entry makes; for an
  // evaluation's report when `run`, else a comparison's.
  const printing = (request, run = true) => {
    if (!asksReport(request)) return false;
    if (!reports) throw new CalculatorUsageError('commandLine is for Node\'s entry (wasm/index.mjs): this core does not print ndcg-calc\'s report');
    reports.check(request.commandLine, run);
    return true;
  };
  // The result of a session whose reading is done: shapeEvaluation's, or the one `reports` makes
  // with what ndcg-calc prints.
  const conclude = (session, request) => (asksReport(request)
    ? reports.evaluation(session, request)
    : shapeEvaluation(session.result(), session, request));
  const closeSession = (session) => {
    try {
      session.delete();
    } catch {
      // The instance already failed; it is being replaced.
    }
  };

  /**
   * Reads the qrels and runs of a comparison into one CompareSession, then compares them, or
   * with `evaluateOnly` packs each run's evaluation for a comparison made elsewhere. A run given
   * as an evaluation (evaluateForComparison()'s) is added as it is; the qrels are read only
   * when some run is read here.
   */
  const comparing = async (request, evaluateOnly) => {
    const what = evaluateOnly ? 'evaluateForComparison()' : 'compareStreams()';
    const { qrels, onProgress } = request ?? {};
    const runs = evaluateOnly ? (request?.runs instanceof Map ? [...request.runs] : Object.entries(request?.runs ?? {})) : runEntries(request?.runs, what);
    const evaluated = (v) => v !== null && typeof v === 'object' && v.packed instanceof Uint8Array;
    const toRead = runs.filter(([, v]) => !evaluated(v));
    if (runs.length === 0 || (evaluateOnly && toRead.length < runs.length) ||
        !toRead.every(([, open]) => typeof open === 'function') || (toRead.length > 0 && typeof qrels !== 'function')) {
      throw new CalculatorUsageError(`${what} takes functions { qrels, runs: { name: () => chunks } } that return iterables of chunks` +
        (evaluateOnly ? '' : ', or runs evaluated by evaluateForComparison()'));
    }
    const args = compareArguments(request);
    const { commandLine } = request;
    const asked = printing(request, false);
    if (core === null && restarting) await restarting;
    if (core === null) return unavailable('run');
    let session;
    let reading = 'qrels';
    let readingRun;
    let bytes = 0;
    const printed = () => (asked ? reports.comparison(session, commandLine) : undefined);
    try {
      session = new core.CompareSession(...args);
      const names = runs.map(([name]) => String(name));
      if (session.optionErrors().length > 0) {
        const failure = { ok: false, errors: session.optionErrors(), warnings: [] };
        if (commandLine) failure.commandLine = printed();
        return failure;
      }
      const read = async (file, run, open, feed) => {
        reading = file;
        readingRun = run;
        bytes = 0;
        await feedAll(open, feed, file, (fed) => {
          bytes = fed;
          onProgress?.(run === undefined ? { file, bytes } : { file, run, bytes });
        });
      };
      if (toRead.length > 0) {
        await read('qrels', undefined, qrels, chunkFeeder(core, session, 'feedQrelsBuffer'));
        session.finishQrels();
      }
      const feedRun = chunkFeeder(core, session, 'feedRunBuffer');
      const results = [];
      for (const [name, run] of runs) {
        if (evaluated(run)) {
          reading = null;
          // Its diagnostics and tag travel inside the bytes, so the report is the one a run read
          // here gives.
          results.push(session.addPackedRun(String(name), intoBuffer(core, session, run.packed)));
          continue;
        }
        do {
          await read('run', String(name), run, feedRun);
        } while (session.finishRun());
        const { qrelsSpans, runSpans, ...result } = session.endRun(String(name));
        if (evaluateOnly) {
          result.packed = session.packLastRun();
          const querySpans = shapeSpans({ qrelsSpans, runSpans });
          if (querySpans) result.querySpans = querySpans;
        }
        results.push(result);
      }
      reading = null;
      if (evaluateOnly) {
        const located = (list, i) => list.map((d) => (d.source === 'run' ? { ...d, run: names[i] } : d));
        return {
          ok: results.every((r) => r.ok),
          errors: results.flatMap((r, i) => located(r.errors, i)),
          warnings: results.flatMap((r, i) => located(r.warnings, i)),
          runs: Object.fromEntries(names.map((name, i) => [name, results[i]])),
        };
      }
      const ok = results.every((r) => r.ok);
      if (ok) onProgress?.({ file: 'tests', bytes: 0 });
      // Only what ndcg-calc prints: the report runs the tests itself, and result() ran them too.
      if (commandLine?.only) return { ok, commandLine: printed() };
      const raw = ok ? session.result() : { ok: false, errors: [], warnings: [] };
      return shapeComparison(raw, names, results, printed());
    } catch (error) {
      if (error instanceof CalculatorUsageError) throw error;
      const where = readingRun === undefined ? reading : `run ${readingRun}`;
      if (reading !== null && !(error instanceof WebAssembly.RuntimeError)) {
        const e = { source: reading, line: 0, column: 0, message: `the ${where} file could not be read: ${error?.message ?? error}` };
        if (readingRun !== undefined) e.run = readingRun;
        return { ok: false, errors: [e], warnings: [] };
      }
      return failed(error, reading ?? 'run', reading === null ? '' : ` while reading the ${where} file, at byte ${bytes.toLocaleString('en')}`);
    } finally {
      if (session) closeSession(session);
    }
  };

  const calculator = {
    /** The presets: [{ name, label, options, citation }], in the order a menu lists them. */
    presets() {
      if (presetList === null && core !== null) {
        presetList = Object.freeze(core.presets().map((p) => Object.freeze({ ...p, options: Object.freeze(p.options) })));
      }
      return presetList ?? [];
    },

    /**
     * The TREC measures, in trec_eval's order: [{ name, params, defaults, value, summary,
     * perQuery, irMeasures, definition }] (params: none, cutoffs, numbers or pairs).
     */
    measures() {
      if (measureList === null && core !== null) measureList = Object.freeze(core.measureCatalogue().map((m) => Object.freeze(m)));
      return measureList ?? [];
    },

    /** trec_eval's sets of measures: [{ name: 'official', measures: ['runid', ...] }, ...]. */
    measureSets() {
      if (measureSetList === null && core !== null) {
        measureSetList = Object.freeze(core.measureNicknames().map((n) => Object.freeze({ ...n, measures: Object.freeze(n.measures) })));
      }
      return measureSetList ?? [];
    },

    explain(request) {
      if (!isObject(request)) {
        throw new CalculatorUsageError('explain() takes an object { ranking, judgments, options }');
      }
      const { ranking = '', judgments = '', options, columnar = false } = request;
      if (typeof ranking !== 'string' || typeof judgments !== 'string') {
        throw new CalculatorUsageError('ranking and judgments must be strings (judgments may be omitted)');
      }
      const optionText = optionsToText(options);
      if (core === null) return unavailable('ranking');
      try {
        const raw = core.explain(wellFormed(ranking), wellFormed(judgments), optionText);
        return columnar === true ? shapeColumnar(raw) : shapeExplanation(raw);
      } catch (error) {
        return failed(error, 'ranking');
      }
    },

    /**
     * One ranking under every preset (NDCG@k, DCG@k, IDCG@k), beside the options as given, and
     * for two presets (`between`, default trec_eval and sklearn) each option that differs with
     * NDCG@k when only it is switched from the first's value to the second's.
     */
    compareConventions(request) {
      if (!isObject(request)) {
        throw new CalculatorUsageError('compareConventions() takes an object { ranking, judgments, options, between }');
      }
      const { ranking = '', judgments = '', options, between = ['trec_eval', 'sklearn'] } = request;
      if (typeof ranking !== 'string' || typeof judgments !== 'string') {
        throw new CalculatorUsageError('ranking and judgments must be strings (judgments may be omitted)');
      }
      if (!Array.isArray(between) || between.length !== 2 || !between.every((name) => typeof name === 'string')) {
        throw new CalculatorUsageError('between must name two presets, such as ["trec_eval", "sklearn"]');
      }
      const optionText = optionsToText(options);
      if (core === null) return unavailable('ranking');
      try {
        const raw = core.compareConventions(wellFormed(ranking), wellFormed(judgments), optionText, between[0], between[1]);
        if (!raw.ok) return { ok: false, errors: raw.errors, warnings: raw.warnings };
        const shape = ({ preset, ok, k, ndcgAtK, dcgAtK, idcgAtK }) => ({ preset, ok, k, ndcgAtK, dcgAtK, idcgAtK });
        return {
          ok: true,
          asGiven: shape(raw.asGiven),
          presets: raw.presets.map(shape),
          between: [raw.first, raw.second],
          effects: raw.effects,
          warnings: raw.warnings,
        };
      } catch (error) {
        return failed(error, 'ranking');
      }
    },

    /**
     * Checks someone's own working (a column of G, CG, DCG, IDCG or NDCG, a table with those
     * headers, or a sum of terms) against the calculation under the same options: each value
     * matches or not, and the cause of the differences is named when it is a usual slip.
     */
    checkWorking(request) {
      if (!isObject(request)) {
        throw new CalculatorUsageError('checkWorking() takes an object { ranking, judgments, options, working, quantity }');
      }
      const { ranking = '', judgments = '', options, working = '', quantity = '' } = request;
      if (![ranking, judgments, working, quantity].every((text) => typeof text === 'string')) {
        throw new CalculatorUsageError('ranking, judgments, working and quantity must be strings');
      }
      const optionText = optionsToText(options);
      if (core === null) return unavailable('ranking');
      try {
        const raw = core.checkWorking(wellFormed(ranking), wellFormed(judgments), optionText, wellFormed(working), wellFormed(quantity));
        if (!raw.ok) return { ok: false, errors: raw.errors, warnings: raw.warnings };
        return { ok: true, columns: raw.columns, warnings: raw.warnings };
      } catch (error) {
        return failed(error, 'ranking');
      }
    },

    evaluate(request) {
      if (!isObject(request)) {
        throw new CalculatorUsageError('evaluate() takes an object { qrels, run, measures, options }');
      }
      const qrels = chunksOf(request.qrels, 'qrels');
      const run = chunksOf(request.run, 'run');
      const args = sessionArguments(request);
      if (core === null) return unavailable('run');
      let session;
      try {
        session = new core.TrecSession(...args);
        const feedQrels = chunkFeeder(core, session, 'feedQrelsBuffer');
        const feedRun = chunkFeeder(core, session, 'feedRunBuffer');
        for (const chunk of qrels) feedQrels(chunk);
        session.finishQrels();
        do {
          for (const chunk of run) feedRun(chunk);
        } while (session.finishRun());
        return shapeEvaluation(session.result(), session, request);
      } catch (error) {
        return failed(error, 'run');
      } finally {
        if (session) closeSession(session);
      }
    },

    /**
     * Several runs against one qrels, compared query by query (ndcg/compare.hpp): `runs` maps
     * names to texts (or bytes, or lists of chunks), the first being the baseline; `options`
     * holds the evaluation's options and the comparison's (tests, permutations, seed, alpha,
     * correction, missing, pairs).
     */
    compare(request) {
      if (!isObject(request)) {
        throw new CalculatorUsageError('compare() takes an object { qrels, runs: { name: text, ... }, measures, options }');
      }
      const qrels = chunksOf(request.qrels, 'qrels');
      const runs = runEntries(request.runs, 'compare()').map(([name, run]) => [String(name), chunksOf(run, 'run')]);
      const args = compareArguments(request);
      if (core === null) return unavailable('run');
      let session;
      try {
        session = new core.CompareSession(...args);
        const names = runs.map(([name]) => name);
        if (session.optionErrors().length > 0) return { ok: false, errors: session.optionErrors(), warnings: [] };
        const feedQrels = chunkFeeder(core, session, 'feedQrelsBuffer');
        const feedRun = chunkFeeder(core, session, 'feedRunBuffer');
        for (const chunk of qrels) feedQrels(chunk);
        session.finishQrels();
        const results = [];
        for (const [name, chunks] of runs) {
          do {
            for (const chunk of chunks) feedRun(chunk);
          } while (session.finishRun());
          results.push(session.endRun(name));
        }
        return shapeComparison(results.every((r) => r.ok) ? session.result() : { ok: true }, names, results);
      } catch (error) {
        return failed(error, 'run');
      } finally {
        if (session) closeSession(session);
      }
    },

    /**
     * compare() for inputs too large to hold: `qrels` and each of `runs` are functions that
     * return a fresh (async) iterable of chunks each time they are called. `onProgress({ file,
     * run, bytes })` follows the reading, and `onProgress({ file: 'tests', bytes: 0 })` says
     * when the reading is done and the tests begin.
     */
    async compareStreams(request) {
      return comparing(request, false);
    },

    /**
     * The first half of compareStreams(), for spreading a comparison over several instances of
     * the core (workers): each evaluates some of the runs against the qrels with the
     * comparison's measures and options, and one compareStreams() compares them all, given as
     * `runs: { name: evaluated }`. Resolves { ok, errors, warnings, runs: { name: { ok, errors,
     * warnings, runTag, packed } } } (packed: the run's per-query values as bytes). One run is
     * enough here.
     */
    async evaluateForComparison(request) {
      return comparing(request, true);
    },

    /**
     * Like evaluate(), for inputs too large to hold: `qrels` and `run` are functions that return a
     * fresh (async) iterable of chunks each time they are called. A run not grouped by query is
     * read a second time. `onProgress({ file, bytes })` follows the reading. An error while
     * reading (a file that cannot be read) is an error value naming the file.
     */
    async evaluateStreams(request) {
      const { qrels, run, onProgress } = request ?? {};
      if (typeof qrels !== 'function' || typeof run !== 'function') {
        throw new CalculatorUsageError('evaluateStreams() takes functions { qrels, run } that return iterables of chunks');
      }
      const args = sessionArguments(request);
      printing(request);
      if (core === null && restarting) await restarting;
      if (core === null) return unavailable('run');
      let session;
      let reading = 'qrels';
      let bytes = 0;
      try {
        session = new core.TrecSession(...args);
        const read = async (file, open, feed) => {
          reading = file;
          bytes = 0;
          await feedAll(open, feed, file, (fed) => {
            bytes = fed;
            onProgress?.({ file, bytes });
          });
        };
        await read('qrels', qrels, chunkFeeder(core, session, 'feedQrelsBuffer'));
        session.finishQrels();
        const feedRun = chunkFeeder(core, session, 'feedRunBuffer');
        do {
          await read('run', run, feedRun);
        } while (session.finishRun());
        reading = null;
        return await conclude(session, request);  // awaited: it may write, with the session open
      } catch (error) {
        if (error instanceof CalculatorUsageError || error instanceof OutputError) throw error;
        if (reading !== null && !(error instanceof WebAssembly.RuntimeError)) {
          // The stream failed, not the core: the file could not be read to its end.
          return { ok: false, errors: [{ source: reading, line: 0, column: 0, message: `the ${reading} file could not be read: ${error?.message ?? error}` }], warnings: [] };
        }
        // Where it happened, as far as the reading knows: the file and how much of it was read.
        const where = reading === null ? '' : ` while reading the ${reading} file, at byte ${bytes.toLocaleString('en')}`;
        return failed(error, reading ?? 'run', where);
      } finally {
        if (session) closeSession(session);
      }
    },
  };
  // Methods of one entry point only (wasm/split.mjs and command-line.mjs, Node's): they reach
  // the core through these.
  if (extend) {
    Object.assign(calculator, extend({ core: () => core, calculator: () => calculator, unavailable, closeSession, printing, conclude }));
  }
  return Object.freeze(calculator);
}
