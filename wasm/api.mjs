// The idiomatic JavaScript API over the raw embind module: plain objects and arrays in and out.
// It shapes and validates; every number comes from the C++ core.

/** Thrown for a call that breaks the API's contract (not for bad input text: that is a value). */
export class CalculatorUsageError extends TypeError {
  constructor(message) {
    super(message);
    this.name = 'CalculatorUsageError';
  }
}

function splitDocs({ joined, present }) {
  const parts = present.length === 0 ? [] : joined.split('\n');
  return Array.from(present, (flag, i) => (flag ? parts[i] : null));
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
      text[name] = String(value);
    }
  }
  return text;
}

function shapeExplanation(raw) {
  if (!raw.ok) return { ok: false, errors: raw.errors, warnings: raw.warnings };
  const { columns: c, summary } = raw;
  const docs = splitDocs(c.doc);
  const idealDocs = splitDocs(c.idealDoc);
  const rounded = summary.roundedDecimals !== null;
  const rows = new Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const row = {
      rank: i + 1, doc: docs[i], grade: c.grade[i], gain: c.gain[i], discount: c.discount[i],
      cg: c.cg[i], dcg: c.dcg[i], idealDoc: idealDocs[i], idealGrade: c.idealGrade[i],
      idealGain: c.idealGain[i], idcg: c.idcg[i], ndcg: c.ndcg[i],
      judged: c.judged[i] === 1, repeated: c.repeated[i] === 1,
    };
    if (rounded) {
      row.roundedDcg = c.roundedDcg[i];
      row.roundedIdcg = c.roundedIdcg[i];
      row.roundedNdcg = c.roundedNdcg[i];
    }
    rows[i] = row;
  }
  const ideal = splitDocs(raw.ideal.doc).map((doc, i) => ({
    doc, grade: raw.ideal.grade[i], gain: raw.ideal.gain[i],
  }));
  const shapedSummary = {
    k: summary.k, dcgAtK: summary.dcgAtK, idcgAtK: summary.idcgAtK, ndcgAtK: summary.ndcgAtK,
    judgedRelevant: summary.judgedRelevant,
  };
  if (rounded) {
    shapedSummary.roundedDecimals = summary.roundedDecimals;
    shapedSummary.roundedDcgAtK = summary.roundedDcgAtK;
    shapedSummary.roundedIdcgAtK = summary.roundedIdcgAtK;
    shapedSummary.roundedNdcgAtK = summary.roundedNdcgAtK;
  }
  return { ok: true, rows, ideal, summary: shapedSummary, warnings: raw.warnings };
}

function isChunk(value) {
  return typeof value === 'string' || value instanceof Uint8Array;
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

function sessionArguments({ measures = [], options = {}, explainQuery = '' }) {
  if (!Array.isArray(measures) || !measures.every((m) => typeof m === 'string')) {
    throw new CalculatorUsageError('measures must be an array of names such as ["ndcg_cut.10", "map"]');
  }
  const { relevanceLevel = 1, averageComplete = false } = options ?? {};
  if (!Number.isInteger(relevanceLevel)) throw new CalculatorUsageError('options.relevanceLevel must be a whole number');
  if (typeof explainQuery !== 'string') throw new CalculatorUsageError('explainQuery must be a query id');
  return [measures.join('\n'), relevanceLevel, Boolean(averageComplete), explainQuery];
}

function shapeEvaluation(raw, session, trecText) {
  if (!raw.ok) return { ok: false, errors: raw.errors, warnings: raw.warnings };
  const names = raw.columns.map((c) => c.name);
  const valuesOf = (array) => Object.fromEntries(names.map((name, i) => [name, array[i]]));
  const result = {
    ok: true,
    columns: raw.columns,
    perQuery: raw.perQuery.map((q) => ({ query: q.query, values: valuesOf(q.values) })),
    mean: valuesOf(raw.mean),
    queriesAveraged: raw.queriesAveraged,
    runTag: raw.runTag,
    warnings: raw.warnings,
  };
  if (trecText) result.trec = session.formatTrec(trecText === 'per-query');
  if (raw.explanation) result.explanation = shapeExplanation(raw.explanation);
  return result;
}

/** Wraps an instantiated embind module (see index.mjs / index.browser.mjs). */
export function makeCalculator(core) {
  return Object.freeze({
    explain(request) {
      if (request === null || typeof request !== 'object') {
        throw new CalculatorUsageError('explain() takes an object { ranking, judgments, options }');
      }
      const { ranking = '', judgments = '', options } = request;
      if (typeof ranking !== 'string' || typeof judgments !== 'string') {
        throw new CalculatorUsageError('ranking and judgments must be strings (judgments may be omitted)');
      }
      return shapeExplanation(core.explain(ranking, judgments, optionsToText(options)));
    },

    evaluate(request) {
      if (request === null || typeof request !== 'object') {
        throw new CalculatorUsageError('evaluate() takes an object { qrels, run, measures, options }');
      }
      const qrels = chunksOf(request.qrels, 'qrels');
      const run = chunksOf(request.run, 'run');
      const session = new core.TrecSession(...sessionArguments(request));
      try {
        for (const chunk of qrels) session.feedQrels(chunk);
        session.finishQrels();
        const readRun = () => {
          for (const chunk of run) session.feedRun(chunk);
          session.finishRun();
        };
        readRun();
        if (session.regroupNeeded()) {
          session.restartRun();
          readRun();
        }
        return shapeEvaluation(session.result(), session, request.trecText);
      } finally {
        session.delete();
      }
    },

    /**
     * Like evaluate(), for inputs too large to hold: `qrels` and `run` are functions that return a
     * fresh (async) iterable of chunks each time they are called. A run not grouped by query is
     * read a second time. `onProgress({ file, bytes })` follows the reading.
     */
    async evaluateStreams(request) {
      const { qrels, run, onProgress } = request ?? {};
      if (typeof qrels !== 'function' || typeof run !== 'function') {
        throw new CalculatorUsageError('evaluateStreams() takes functions { qrels, run } that return iterables of chunks');
      }
      const session = new core.TrecSession(...sessionArguments(request));
      try {
        const read = async (file, open, feed) => {
          let bytes = 0;
          for await (const chunk of open()) {
            if (!isChunk(chunk)) throw new CalculatorUsageError(`${file} chunks must be strings or Uint8Arrays`);
            feed(chunk);
            bytes += chunk.length;
            onProgress?.({ file, bytes });
          }
        };
        await read('qrels', qrels, (chunk) => session.feedQrels(chunk));
        session.finishQrels();
        await read('run', run, (chunk) => session.feedRun(chunk));
        session.finishRun();
        if (session.regroupNeeded()) {
          session.restartRun();
          await read('run', run, (chunk) => session.feedRun(chunk));
          session.finishRun();
        }
        return shapeEvaluation(session.result(), session, request.trecText);
      } finally {
        session.delete();
      }
    },
  });
}
