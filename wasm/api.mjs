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
  });
}
