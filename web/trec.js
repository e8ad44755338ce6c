// The TREC files mode: a qrels and a run, evaluated in a worker by the core; a means table, a
// histogram, a sortable per-query table, and any query step by step. No metric is computed here.
import workerScript from 'virtual:trec-worker-packed';
import { moduleUrl } from './core-loader.js';
import { coreSource, coreWasm } from './core.js';
import { csvRow, downloadText } from './export.js';
import { el, formatNumber, linkButton, queryOrder, sortedIndexes } from './format.js';
import { renderHistogram } from './histogram.js';
import { displayOf, renderDiagnostics, renderHeadline, renderIdeal, renderSteps } from './render.js';
import { stepColumns } from './steps.js';
import { afterFrame, drawRows, fillAll, fittingTogether, setSortHeader } from './table.js';
import { renderComparison, setUpComparison, showQueryInBoth } from './trec-compare.js';
import { shareBySize } from '../wasm/shares.mjs';

const $ = (id) => document.getElementById(id);
const STORAGE_KEY = 'ndcg-calculator:trec';
const EXPLAIN_DISPLAY = displayOf({ decimals: '4', roundLikeSlide: false, discount: 'log2(rank+1)', base: '2', gain: 'linear' });

let worker = null;
// Workers that evaluate some of a comparison's runs beside `worker`, kept for the next one.
let helpers = [];
// The workers' script (web/trec-worker.js, bundled and packed by the build), inflated once into
// a blob: URL that every worker starts from.
let workerUrl = null;
const primed = new WeakSet();  // workers sent the core's source already
let job = 0;
let last = null;  // { result, inputs }
let sort = { key: 'query', descending: false };

const files = { qrels: null, run: null };
// The runs after the first, to compare with it: { file, text (its textarea), box }.
const moreRuns = [];
let runBoxes = 0;  // ids of the boxes made so far
// ?pace=1: the worker reads one chunk per click of "Next chunk" (a hook for tests that must not
// depend on timing; see tests/e2e/trec.spec.mjs).
const PACED = new URLSearchParams(location.search).get('pace') === '1';

function inputOf(name) {
  return files[name] ?? $(`${name}-text`).value;
}

function nameOf(name) {
  return files[name]?.name ?? `pasted ${name}`;
}

/** Every run given, the first one the baseline: { name, input } with names made unique. */
function runSources() {
  const sources = [{ name: nameOf('run'), input: inputOf('run') },
    ...moreRuns.map((r, i) => ({ name: r.file?.name ?? `pasted run ${i + 2}`, input: r.file ?? r.text.value }))];
  const seen = new Map();
  for (const s of sources) {
    const count = (seen.get(s.name) ?? 0) + 1;
    seen.set(s.name, count);
    if (count > 1) s.name = `${s.name} (${count})`;
  }
  return sources;
}

const COMPARE_CONTROLS = ['cmp-test', 'cmp-permutations', 'cmp-seed', 'cmp-alpha', 'cmp-correction', 'cmp-missing', 'cmp-pairs'];

/** The comparison's options as typed (the core checks them); every test runs, the chosen one first. */
function compareOptions() {
  const first = $('cmp-test').value;
  return {
    tests: [first, ...['randomization', 't', 'wilcoxon', 'bootstrap'].filter((t) => t !== first)].join(','),
    permutations: $('cmp-permutations').value.trim() || '10000', seed: $('cmp-seed').value.trim() || '42',
    alpha: $('cmp-alpha').value.trim() || '0.05', correction: $('cmp-correction').value,
    missing: $('cmp-missing').value, pairs: $('cmp-pairs').value,
  };
}

function request(extra = {}) {
  return {
    type: 'evaluate',
    qrels: inputOf('qrels'),
    run: inputOf('run'),
    measures: typedMeasures(),
    // As typed: the core checks it (a negative or fractional level is a located error); 0 is 0.
    options: {
      relevanceLevel: $('trec-level').value.trim() || '1', averageComplete: $('trec-complete').checked,
      judgedOnly: $('trec-judged').checked, relInfoFormat: $('trec-format').value,
      ...($('trec-max').value.trim() ? { maxPerQuery: $('trec-max').value.trim() } : {}),
      ...($('trec-preset').value ? { preset: $('trec-preset').value } : {}),
    },
    ...(PACED ? { paced: true } : {}),
    ...extra,
  };
}

let storageFailed = false;
function save() {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({
      qrels: $('qrels-text').value, run: $('run-text').value, measures: $('trec-measures').value,
      level: $('trec-level').value, complete: $('trec-complete').checked, preset: $('trec-preset').value,
      judged: $('trec-judged').checked, max: $('trec-max').value, format: $('trec-format').value,
      measuresByFormat,
      // Pasted runs to compare (a chosen file cannot be kept: the browser gives it again only when chosen).
      moreRuns: moreRuns.filter((r) => !r.file).map((r) => r.text.value),
      compare: Object.fromEntries(COMPARE_CONTROLS.map((id) => [id, $(id).value])),
    }));
    if (storageFailed) setStatus('');
    storageFailed = false;
  } catch {
    // Storage full or disabled: the boxes keep their text for this visit only, and the page says so.
    if (!storageFailed) setStatus('This browser\'s storage is full or turned off: what is pasted here will not survive a reload. Save large files and choose them instead.');
    storageFailed = true;
  }
}

let restoredPreset = '';

// How the picker groups the catalogue (a measure the core adds later lands in "Other").
const MEASURE_GROUPS = [
  ['Graded: nDCG and its kin', ['ndcg', 'ndcg_cut', 'ndcg_exp', 'dcg', 'ideal_dcg', 'ndcg_rel', 'Rndcg', 'G', 'err', 'rbp', 'rbp_resid']],
  ['Average precision and rank', ['map', 'gm_map', 'map_cut', 'recip_rank', 'bpref', 'gm_bpref', 'infAP', 'yaap', 'binG']],
  ['Precision and recall at cut-offs', ['P', 'recall', 'relative_P', 'success', 'Rprec', 'Rprec_mult', 'iprec_at_recall', '11pt_avg']],
  ['Sets (the whole retrieved list)', ['set_P', 'set_recall', 'set_relative_P', 'set_map', 'set_F', 'utility']],
  ['Counts and judged documents', ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'num_nonrel_judged_ret', 'unj', 'judged', 'relstring']],
  ['Judgment groups (qrels_jg)', ['map_avgjg', 'P_avgjg', 'Rprec_mult_avgjg']],
  ['Preferences (prefs, qrels_prefs)', ['prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret', 'prefs_simp', 'prefs_pair', 'prefs_avgjg', 'prefs_avgjg_Rnonrel',
    'prefs_simp_ret', 'prefs_pair_ret', 'prefs_avgjg_ret', 'prefs_avgjg_Rnonrel_ret', 'prefs_simp_imp', 'prefs_pair_imp', 'prefs_avgjg_imp']],
];

// What each relevance format's lines are, and the set of measures it starts with.
const FORMATS = {
  qrels: { fields: 'query iteration docno grade', help: '.', placeholder: '301 0 doc-17 2', set: 'official' },
  qrels_jg: { fields: 'query group docno grade', help: ': the second field names a judgment group, such as an assessor; the measures average over the groups.', placeholder: '301 alice doc-17 2', set: 'qrels_jg' },
  prefs: { fields: 'query group subgroup docno level', help: ': within a subgroup a higher level is preferred, and 0 means not relevant.', placeholder: '301 alice s1 doc-17 2', set: 'prefs' },
  qrels_prefs: { fields: 'query group docno grade', help: ', read as preferences: within a group a higher grade is preferred.', placeholder: '301 0 doc-17 2', set: 'prefs' },
};

// The measures typed for each format, so that switching formats and back loses nothing.
const measuresByFormat = {};
let shownFormat = 'qrels';

function describeFormat() {
  const name = $('trec-format').value;
  const format = FORMATS[name];
  $('qrels-help').replaceChildren('Lines ', el('code', {}, format.fields), `${format.help} Drop a file on the box (gzipped is fine).`);
  $('qrels-text').placeholder = format.placeholder;
  // Preferences have no grade to be relevant from and ignore -J (as trec_eval's do); only qrels
  // have ndcg, whose conventions the preset sets. Controls without effect are not offered.
  const preferences = name === 'prefs' || name === 'qrels_prefs';
  for (const id of ['trec-level', 'trec-judged']) $(id).closest('.control').hidden = preferences;
  $('trec-preset').closest('.control').hidden = name !== 'qrels';
}

/** Keeps the measures typed under the format left, and offers the ones of the format chosen. */
function switchFormat() {
  const format = $('trec-format').value;
  measuresByFormat[shownFormat] = $('trec-measures').value;
  shownFormat = format;
  setTypedMeasures((measuresByFormat[format] ?? FORMATS[format].set).split(/\s+/).filter(Boolean));
  syncPicker();
  describeFormat();
  save();
}

/** The name a catalogue entry is typed as: trec_eval's, or ir_measures' for the others. */
function typedName(m) {
  return m.trecEval ? m.name : m.irMeasures.replace('@k', `@${m.defaults}`);
}

/** The base name of something typed: "P.5,10" → "P", "nDCG@10" → "nDCG". */
function baseOf(typed) {
  return typed.split(/[.@(]/)[0];
}

function typedMeasures() {
  return $('trec-measures').value.split(/\s+/).filter(Boolean);
}

function setTypedMeasures(list) {
  $('trec-measures').value = list.join(' ');
  $('trec-measures').dispatchEvent(new Event('input'));
}

let catalogue = [];
let measureSets = [];

/** Ticks the picker's boxes for the measures typed (by their base name, either naming). */
function syncPicker() {
  // A set typed (official, all_trec) ticks its members.
  const typed = new Set(typedMeasures().flatMap((t) => measureSets.find((s) => s.name === t)?.measures ?? [baseOf(t)]));
  for (const box of document.querySelectorAll('#trec-measure-groups input[type=checkbox]')) {
    const m = catalogue.find((c) => c.name === box.value);
    box.checked = typed.has(m.name) || (m.irMeasures !== '' && typed.has(baseOf(m.irMeasures)));
  }
}

/** The whole catalogue of the core as a picker, grouped; ticking a box types its name. */
export function offerMeasures(measures, sets) {
  catalogue = measures;
  measureSets = sets;
  const groups = MEASURE_GROUPS.map(([title, names]) => [title, names.map((n) => measures.find((m) => m.name === n)).filter(Boolean)]);
  const placed = new Set(groups.flatMap(([, list]) => list.map((m) => m.name)));
  const others = measures.filter((m) => !placed.has(m.name));
  if (others.length > 0) groups.push(['Other', others]);
  $('trec-measure-groups').replaceChildren(...groups.map(([title, list]) => el('fieldset', { class: 'measure-group' },
    el('legend', {}, title),
    ...list.map((m) => {
      const id = `trec-pick-${m.name}`;
      const box = el('input', { type: 'checkbox', id, value: m.name });
      box.addEventListener('change', () => {
        const expanded = typedMeasures().flatMap((t) => measureSets.find((s) => s.name === t && !box.checked)?.measures ?? [t]);
        const rest = expanded.filter((t) => baseOf(t) !== m.name && (m.irMeasures === '' || baseOf(t) !== baseOf(m.irMeasures)));
        setTypedMeasures(box.checked ? [...rest, typedName(m)] : rest);
      });
      const names = m.trecEval ? (m.irMeasures ? `${m.name} · ${m.irMeasures}` : m.name) : m.irMeasures;
      return el('div', { class: 'measure-choice' }, box,
        el('label', { for: id }, el('code', {}, names), el('span', { class: 'measure-definition' }, ` ${m.definition}`)));
    }))));
  for (const button of document.querySelectorAll('#trec-measure-picker [data-set]')) {
    button.addEventListener('click', () => {
      const set = sets.find((s) => s.name === button.dataset.set);
      setTypedMeasures(set ? [set.name] : []);
      syncPicker();
    });
  }
  $('trec-measures').addEventListener('input', syncPicker);
  syncPicker();
}

/** The libraries whose conventions ndcg and ndcg_cut can follow instead of trec_eval's. */
export function offerPresets(presets) {
  const select = $('trec-preset');
  select.append(...presets.filter((p) => p.name !== 'trec_eval')
    .map((p) => el('option', { value: p.name }, p.label)));
  select.value = presets.some((p) => p.name === restoredPreset) ? restoredPreset : '';
}

function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (!saved) return;
    $('qrels-text').value = saved.qrels ?? '';
    $('run-text').value = saved.run ?? '';
    if (saved.measures) $('trec-measures').value = saved.measures;
    if (saved.level) $('trec-level').value = saved.level;
    $('trec-complete').checked = saved.complete === true;
    $('trec-judged').checked = saved.judged === true;
    $('trec-max').value = saved.max ?? '';
    if (FORMATS[saved.format]) $('trec-format').value = saved.format;
    Object.assign(measuresByFormat, saved.measuresByFormat ?? {});
    restoredPreset = saved.preset ?? '';
    for (const text of saved.moreRuns ?? []) addRunBox(null, String(text));
    for (const id of COMPARE_CONTROLS) {
      const v = saved.compare?.[id];
      if (typeof v === 'string' && ($(id).localName !== 'select' || [...$(id).options].some((o) => o.value === v))) $(id).value = v;
    }
  } catch {
    // Unreadable saved state: start empty.
  }
}

function setStatus(text) {
  $('trec-status').textContent = text;
}

function showProgress(visible) {
  $('trec-progress').hidden = !visible;
  $('trec-evaluate').disabled = visible;
}

function stopWorkers() {
  worker?.terminate();
  worker = null;
  for (const h of helpers) h.terminate();
  helpers = [];
}

function cancel() {
  stopWorkers();
  job += 1;
  showProgress(false);
  setStatus('Cancelled. Nothing was evaluated.');
}

/** A worker that failed is not reused: the next evaluation starts a fresh one. */
function workerFailed(mine, reason) {
  stopWorkers();
  showProgress(false);
  return {
    ok: false,
    errors: [{ source: 'run', line: 0, column: 0, message: `the evaluation stopped (${reason}). The evaluator has been restarted and your files are kept: press Evaluate to try again` }],
    warnings: [],
  };
}

/**
 * The bar: the qrels are its first tenth, the runs the rest, shared equally; when runs are
 * compared, their tests take the last tenth.
 */
function showProgressOf(data) {
  const bar = $('trec-progress-bar');
  const label = $('trec-progress-label');
  if (data.file === 'tests') {
    bar.value = 0.9;
    label.textContent = `Testing the differences (${formatNumber(Number($('cmp-permutations').value) || 10000, 0)} permutations and resamples)…`;
    return;
  }
  const fraction = data.total > 0 ? data.bytes / data.total : 1;
  const runs = data.runs ?? 1;
  const share = data.runs ? 0.8 : 0.9;
  bar.value = data.file === 'qrels' ? 0.1 * fraction : 0.1 + (share * ((data.index ?? 0) + fraction)) / runs;
  const what = data.file === 'qrels' ? 'qrels' : data.runs ? `run ${data.index + 1} of ${runs} (${data.run})` : 'run';
  label.textContent = `Reading ${what}: ${Math.floor(100 * fraction)}% of ${formatNumber(data.total / 1048576, 1)} MB`;
}

/**
 * Sends one request to a worker: resolves with its result, or a failure when the worker fails;
 * stays pending once the job is cancelled or replaced. A new worker gets the core's source with
 * its first request and keeps its instance for later ones.
 */
function ask(target, message, onProgress) {
  const mine = job;
  const fresh = !primed.has(target);
  primed.add(target);
  return new Promise((resolve) => {
    target.onmessage = ({ data }) => {
      if (mine !== job) return;
      if (data.type === 'progress') onProgress(data);
      else if (data.type === 'done') resolve(data.result);
      else resolve(workerFailed(mine, data.message));
    };
    target.onerror = (event) => {
      event.preventDefault?.();
      if (mine !== job) return;
      resolve(workerFailed(mine, event.message || 'the worker failed'));
    };
    target.onmessageerror = () => {
      if (mine !== job) return;
      resolve(workerFailed(mine, 'a message from the worker could not be read'));
    };
    target.postMessage(fresh ? { ...message, coreSource, coreWasm } : message);
  });
}

function startProgress(label) {
  job += 1;
  showProgress(true);
  $('trec-progress-bar').value = 0;
  $('trec-progress-label').textContent = label;
}

/**
 * The URL workers start from, once the script is inflated (at the first evaluation); null when
 * the job was cancelled or replaced meanwhile.
 */
async function workerScriptUrl() {
  const mine = job;
  workerUrl ??= moduleUrl(workerScript);
  const url = await workerUrl;
  return mine === job ? url : null;
}

/** Runs one evaluation in the worker; resolves with its result (pending when cancelled). */
async function run(message) {
  startProgress('Reading qrels…');
  const url = await workerScriptUrl();
  if (url === null) return new Promise(() => {});
  worker ??= new Worker(url, { name: 'ndcg-calculator' });
  const result = await ask(worker, message, showProgressOf);
  showProgress(false);
  return result;
}

/** How many workers evaluate a comparison's runs: every core, and one more while the page waits. */
function lanesFor(runs) {
  const cores = navigator.hardwareConcurrency || 1;
  return PACED || cores < 2 ? 1 : Math.min(runs, cores + 1, 8);
}

/**
 * A comparison with its runs evaluated by several workers side by side (the largest first, each
 * to the worker with the fewest bytes so far), then compared by one of them; on one core, or
 * paced, by one worker as run() does.
 */
async function runComparison(message) {
  const lanes = lanesFor(message.runs.length);
  if (lanes < 2) return run(message);
  startProgress(`Reading qrels and ${message.runs.length} runs side by side…`);
  const url = await workerScriptUrl();
  if (url === null) return new Promise(() => {});
  worker ??= new Worker(url, { name: 'ndcg-calculator' });
  while (helpers.length < lanes - 1) helpers.push(new Worker(url, { name: 'ndcg-calculator' }));
  const workers = [worker, ...helpers.slice(0, lanes - 1)];
  const sizeOf = (input) => input.size ?? input.length;
  const shares = shareBySize(message.runs.map((r, index) => ({ ...r, index })), workers.length, (r) => sizeOf(r.input));
  const progress = sharedProgress(message.runs.map((r) => sizeOf(r.input)));
  // Every worker's runs, or the first failure (which stops them all).
  const answers = await new Promise((resolve) => {
    const busy = workers.filter((w, lane) => shares[lane].length > 0);
    const got = [];
    busy.forEach((w, i) => {
      const lane = workers.indexOf(w);
      ask(w, { ...message, type: 'evaluate-for-comparison', runs: shares[lane], total: message.runs.length }, (data) => progress(lane, data))
        .then((answer) => {
          if (answer.runs === undefined) resolve(answer);
          got[i] = answer;
          if (got.filter(Boolean).length === busy.length) resolve(got);
        });
    });
  });
  if (!Array.isArray(answers)) {
    showProgress(false);
    return answers;
  }
  const evaluated = Object.assign({}, ...answers.map((a) => a.runs));
  const result = await ask(worker, {
    ...message, qrels: '', runs: message.runs.map((r) => ({ name: r.name, evaluated: { ...evaluated[r.name], querySpans: undefined } })),
  }, showProgressOf);
  showProgress(false);
  // Where each run's queries are, for explaining a query of two runs side by side.
  if (result?.ok) result.querySpans = Object.fromEntries(message.runs.map((r) => [r.name, evaluated[r.name]?.querySpans]));
  return result;
}

/**
 * The bar while several workers read: the qrels (each worker reads them) are its first tenth,
 * the runs' bytes the next eight.
 */
function sharedProgress(sizes) {
  const read = sizes.map(() => 0);
  const qrels = new Map();
  const total = sizes.reduce((a, b) => a + b, 0);
  return (lane, data) => {
    if (data.file === 'qrels') qrels.set(lane, data.total > 0 ? data.bytes / data.total : 1);
    else if (data.file === 'run') read[data.index] = data.bytes;
    const runBytes = read.reduce((a, b) => a + b, 0);
    const qrelsRead = qrels.size === 0 ? 0 : Math.min(...qrels.values());
    $('trec-progress-bar').value = 0.1 * qrelsRead + (total > 0 ? (0.8 * runBytes) / total : 0);
    $('trec-progress-label').textContent = runBytes === 0
      ? 'Reading qrels…'
      : `Reading ${sizes.length} runs side by side: ${Math.floor((100 * runBytes) / Math.max(total, 1))}% of ${formatNumber(total / 1048576, 1)} MB`;
  };
}

function showDiagnostics(result) {
  const where = { qrels: nameOf('qrels'), run: nameOf('run'), options: 'measures' };
  const items = [
    ...(result.ok ? [] : result.errors.map((d) => ({ ...d, kind: 'error' }))),
    ...result.warnings.map((d) => ({ ...d, kind: 'warning' })),
  ].map((d) => ({ ...d, message: `${d.run ?? where[d.source] ?? d.source}${d.line > 0 ? `, line ${d.line}${d.column > 0 ? `, column ${d.column}` : ''}` : ''}: ${d.message}`, line: 0 }));
  renderDiagnostics($('trec-diagnostics'), items);
  // The core says once when the qrels look like a run or the run like qrels: one click fixes it.
  if (!result.ok && result.errors.some((d) => d.code === 'files-swapped')) {
    const swap = linkButton({ id: 'trec-swap' }, 'Swap the qrels and the run, and evaluate');
    swap.addEventListener('click', swapFiles);
    $('trec-diagnostics').append(el('li', { className: 'error' }, swap));
  }
}

function swapFiles() {
  [files.qrels, files.run] = [files.run, files.qrels];
  const qrelsText = $('qrels-text').value;
  $('qrels-text').value = $('run-text').value;
  $('run-text').value = qrelsText;
  $('qrels-text').disabled = files.qrels !== null;
  $('run-text').disabled = files.run !== null;
  save();
  setStatus(files.qrels || files.run ? `Qrels: ${nameOf('qrels')}; run: ${nameOf('run')}.` : '');
  evaluate();
}

/** The columns in the order the measures were typed (the core lists them in trec_eval's). */
function orderedColumns(result) {
  return [...result.columns].sort((a, b) => a.measure - b.measure);
}

/** Columns shown per query (gm_map, num_q and runid are summaries only). */
function queryColumns(result) {
  return orderedColumns(result).filter((c) => c.perQuery);
}

/** Per-query columns holding numbers (not relstring's text): histogram and drill-down. */
function numericColumns(result) {
  return queryColumns(result).filter((c) => !c.text);
}

/** Whether the last evaluation's queries can be shown step by step: those of graded qrels. */
function stepwise() {
  return (last?.message.options.relInfoFormat ?? 'qrels') === 'qrels';
}

function valueText(column, value) {
  return column.wholeNumber ? String(value) : formatNumber(value, 4);
}

/** Query i's value of a column (its text, for relstring), from the per-query columns. */
function queryCell({ perQueryColumns: { values, texts } }, column, i) {
  return column.text ? (texts?.[column.name]?.[i] ?? '') : values[column.name][i];
}

function renderMeans(result) {
  const table = $('trec-means');
  const n = result.queriesAveraged;
  table.replaceChildren(
    el('caption', {}, `Over ${n} quer${n === 1 ? 'y' : 'ies'}${result.runTag ? ` — run ${result.runTag}` : ''}`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Measure'),
      el('th', { scope: 'col', className: 'num', title: 'mean over the queries (a sum for counts), as trec_eval’s “all” line' }, 'all'),
      el('th', { scope: 'col', className: 'num', title: 'sample standard deviation of the per-query values (n − 1)' }, '± s.d.'))),
    el('tbody', {}, ...orderedColumns(result).filter((c) => c.summary !== 'none').map((c) => el('tr', {},
      el('th', { scope: 'row' }, c.name),
      el('td', { className: 'num', 'data-field': 'mean' }, c.summary === 'runTag' ? result.runTag
        : c.summary === 'count' ? String(result.mean[c.name]) : valueText(c, result.mean[c.name])),
      // A summary-only column (a geometric mean, the count of queries, the tag) has no spread to show.
      el('td', { className: 'num', 'data-field': 'stdev' }, c.perQuery ? formatNumber(result.stdev[c.name], 4) : '—')))));
}

/**
 * The order of the queries by a column's values (numbers, or relstring's texts), reversed when
 * `descending`: NaN after the numbers either way, and equal values in the queries' order.
 */
function byColumn(column, descending) {
  const sign = descending ? -1 : 1;
  return sortedIndexes(column.length, (i, j) => {
    const a = column[i];
    const b = column[j];
    if (typeof a === 'string') return sign * a.localeCompare(b);
    if (a !== a || b !== b) return (a !== a) - (b !== b);
    return sign * (a - b);
  });
}

const QUERY_ROWS_PER_PAGE = 500;
let queryRowLimit = QUERY_ROWS_PER_PAGE;

// The sorting column, the query a click in the table opens: one listener for every query button.
function sortQueries(chosen) {
  sort = chosen;
  renderQueries(last.result);
}

function openQuery(event) {
  const query = event.target.closest?.('tbody button[data-query]')?.dataset.query;
  if (query !== undefined) explainQuery(query);
}

/**
 * The per-query table, a page of rows at a time (Show more adds pages), patched in place: a
 * sort or new results rewrite the cells of the rows already there. Past fifty rows it is
 * laid out in blocks, drawn a few blocks a frame (table.js): thousands of rows never block the
 * page, and each frame lays out only the rows in view.
 */
function renderQueries(result) {
  const table = $('trec-queries');
  const { key, descending } = sort;
  const { queries, values, texts } = result.perQueryColumns;
  const rows = key === 'query' ? queryOrder(queries, descending) : byColumn(texts?.[key] ?? values[key], descending);
  const columns = queryColumns(result);
  const steps = stepwise();
  setSortHeader(table, steps ? 'Per query (click a column to sort, a query to see it step by step)'
    : 'Per query (click a column to sort; the step-by-step tables read graded qrels)',
  [['Query', 'query'], ...columns.map((c) => [c.name, c.name, c.text ? '' : 'num'])], sort, sortQueries);
  drawRows(table, Math.min(rows.length, queryRowLimit), [{ field: 'query' },
    ...columns.map((c) => ({ field: c.name, className: c.text ? 'relstring' : 'num' }))], (row, i) => {
    const q = rows[i];
    const query = queries[q];
    if (!row.same('query', query, steps)) {
      row.content('query', () => (steps
        ? linkButton({ 'data-query': query, title: `Show query ${query} step by step` }, query)
        : query));
    }
    for (const c of columns) {
      if (!c.text) row.text(c.name, valueText(c, values[c.name][q]));
      else if (!row.same(c.name, queryCell(result, c, q))) row.content(c.name, () => el('code', {}, queryCell(result, c, q)));
    }
  });
  let more = $('trec-more-queries');
  if (rows.length > queryRowLimit) {
    if (!more) {
      more = el('button', { type: 'button', id: 'trec-more-queries' });
      more.addEventListener('click', () => {
        queryRowLimit += QUERY_ROWS_PER_PAGE * 4;
        renderQueries(last.result);
      });
      (table.closest('.table-wrap') ?? table).after(more);
    }
    more.textContent = `Show more: ${queryRowLimit} of ${rows.length} queries shown`;
  } else {
    more?.remove();
  }
}

/** The per-query table as CSV: full precision, query ids safe for spreadsheets, the means last. */
function perQueryCsv(result) {
  const columns = queryColumns(result);
  const lines = [csvRow(['query', ...columns.map((c) => c.name)])];
  result.perQueryColumns.queries.forEach((query, i) => lines.push(csvRow([query, ...columns.map((c) => queryCell(result, c, i))])));
  lines.push(csvRow(['all', ...columns.map((c) => (c.summary === 'none' ? '' : result.mean[c.name]))]));
  return `${lines.join('\r\n')}\r\n`;
}

function downloadPerQuery() {
  if (last) downloadText(perQueryCsv(last.result), 'text/csv', `${last.result.runTag || 'run'}-per-query.csv`);
}

function renderHistogramOf(result) {
  const select = $('trec-histogram-measure');
  const names = numericColumns(result).map((c) => c.name);
  if (select.options.length !== names.length || [...select.options].some((o, i) => o.value !== names[i])) {
    select.replaceChildren(...names.map((n) => el('option', { value: n }, n)));
    select.value = names.find((n) => n.startsWith('ndcg')) ?? names[0];
  }
  const name = select.value;
  renderHistogram($('trec-histogram'), result.perQueryColumns.values[name], name);
  $('trec-histogram-caption').textContent = `How ${name} is spread over the ${result.perQueryColumns.queries.length} evaluated queries.`;
}

const EXPLAIN_ROWS = 100;

/** The measure the drill-down explains: chosen in its select, else the first one typed. */
function explainedColumn(result) {
  const columns = numericColumns(result);
  return columns.find((c) => c.name === $('trec-explain-measure').value) ?? columns[0];
}

function fillExplainMeasures(result) {
  const select = $('trec-explain-measure');
  select.closest('.control').hidden = !stepwise();
  const names = numericColumns(result).map((c) => c.name);
  const keep = select.value;
  select.replaceChildren(...names.map((n) => el('option', { value: n }, n)));
  // The drill-down shows NDCG's working: an ndcg column first, when there is one.
  select.value = names.includes(keep) ? keep : names.find((n) => n.startsWith('ndcg')) ?? names[0];
}

/** A measure's working from the core: a row per ranked document, and how the value follows. */
function renderWorking(working) {
  $('trec-working').hidden = !working;
  if (!working) return;
  const grade = (g) => (g === -1 ? 'not judged' : g === -2 ? 'judged negative' : String(g));
  const number = (x) => (x === null ? '' : Number.isInteger(x) ? String(x) : formatNumber(x, 4));
  $('trec-working-result').textContent = working.result;
  $('trec-working-steps').replaceChildren(
    el('caption', {}, `${working.column} at each rank`),
    el('thead', {}, el('tr', {}, ...['Rank', 'Document', 'Grade', ...working.columns].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, ...working.rows.slice(0, 1000).map((r) => el('tr', { className: r.counted ? 'relevant' : '' },
      el('td', { className: 'num' }, String(r.rank)), el('td', { className: 'doc-id' }, r.doc), el('td', {}, grade(r.grade)),
      ...r.values.map((v) => el('td', { className: 'num' }, number(v)))))));
}

/**
 * One query's byte spans in both files, from an evaluation's querySpans: reading them alone
 * explains the query without reading the rest. Undefined when a file has none to give (gzipped,
 * too many stretches) or the query has no lines in one of them (a qrels query the run lacks,
 * under -c): the whole files are read then.
 */
function querySpansOf(querySpans, query) {
  if (!querySpans?.qrels || !querySpans?.run) return undefined;
  // The ids as one text, joined by '\n' (sliceable in the worker).
  const pick = ({ queries, starts, ends }) => queries.split('\n').flatMap((q, i) => (q === query ? [[starts[i], ends[i]]] : []));
  const spans = { qrels: pick(querySpans.qrels), run: pick(querySpans.run) };
  return spans.qrels.length > 0 && spans.run.length > 0 ? spans : undefined;
}

async function explainQuery(query) {
  if (!last) return;
  const column = explainedColumn(last.result);
  // A measure other than NDCG: the core gives its own working (result.working) too.
  const ownWorking = !/^ndcg/.test(column.name);
  const spans = querySpansOf(last.result.querySpans, query);
  const result = await run({
    ...last.message, explainQuery: query, explainCutoff: column.cutoff, ...(ownWorking ? { explainMeasure: column.name } : {}), ...(spans ? { spans } : {}),
  });
  if (!result) return;
  const panel = $('trec-explain');
  if (!result.ok || !result.explanation) {
    showDiagnostics(result);
    return;
  }
  const e = result.explanation;
  const { queries, values } = last.result.perQueryColumns;
  const value = values[column.name][queries.indexOf(query)];
  panel.hidden = false;
  panel.dataset.query = query;
  $('trec-explain-heading').textContent = `Query ${query}: ${column.name} = ${value === undefined ? '—' : valueText(column, value)}`;
  $('trec-explain-about').textContent = `Ranked as trec_eval ranks it (score, then docno); gains from the qrels grades, discount log₂(rank + 1), ideal from every judged document. ${
    column.cutoff > 0 ? `The cut-off k = ${column.cutoff} of ${column.name} is marked in the table.` : `${column.name} covers the whole ranking.`}${
    ownWorking ? ` First the working of ${column.name} at each rank, then the same ranking under NDCG.` : ''}`;
  renderWorking(ownWorking ? result.working : null);
  renderHeadline($('trec-explain-headline'), e, EXPLAIN_DISPLAY, 'trec-');
  renderDiagnostics($('trec-explain-warnings'), e.warnings.map((w) => ({ ...w, kind: 'warning', line: 0 })));
  showExplanationRows(e, Math.max(EXPLAIN_ROWS, Math.min(column.cutoff, 1000)));
  panel.focus();
}

/** The first `shown` ranks of an explanation; the button shows the rest of the same one. */
function showExplanationRows(e, shown) {
  // Both tables' columns fitted in one layout of the page.
  fittingTogether(() => {
    renderSteps($('trec-explain-steps'), e, EXPLAIN_DISPLAY, shown);
    renderIdeal($('trec-explain-ideal'), e, EXPLAIN_DISPLAY, shown);
    // The panel is focused, and so scrolled to, right after: its rows cannot wait for the frame
    // (the previous query's would show in it).
    fillAll($('trec-explain-steps'));
    fillAll($('trec-explain-ideal'));
  });
  const more = $('trec-explain-more');
  const { length } = stepColumns(e);
  more.hidden = length <= shown;
  more.textContent = `Show all ${length} ranks`;
  more.onclick = () => showExplanationRows(e, length);
}

/** Back from a query's working to its row in the per-query table. */
function backToQueries() {
  const query = $('trec-explain').dataset.query;
  const button = [...document.querySelectorAll('#trec-queries button[data-query]')].find((b) => b.dataset.query === query);
  (button ?? $('trec-queries')).scrollIntoView({ block: 'center' });
  button?.focus();
}

// Evaluations and comparisons started, so that a reply drawn a frame late is not drawn over a
// newer one (`job` counts the worker's tasks, explanations included).
let evaluations = 0;

async function evaluate() {
  const message = request();
  if (message.qrels === '' || message.run === '') {
    setStatus('Choose or paste both a qrels file and a run file.');
    return;
  }
  if (moreRuns.length > 0) {
    compareRuns(message);
    return;
  }
  const started = performance.now();
  const evaluation = ++evaluations;
  const result = await runShown(message, 'Not evaluated');
  if (!result) return;
  // Drawn in a task after the next frame: a reply of thousands of queries takes most of a frame
  // to copy out of the worker's message (20 ms for 5,000), and drawing it in the same task made
  // that frame two.
  await afterFrame();
  if (evaluation !== evaluations) return;  // a newer evaluation or comparison shows its own
  last = { result, message };
  queryRowLimit = QUERY_ROWS_PER_PAGE;
  $('trec-explain').hidden = true;
  fillExplainMeasures(result);
  // Shown before it is drawn: the per-query table measures its columns as it is drawn.
  showResults('trec-results');
  renderMeans(result);
  renderQueries(result);
  const count = result.perQueryColumns.queries.length;
  setStatus(`Evaluated ${count} quer${count === 1 ? 'y' : 'ies'} in ${formatNumber((performance.now() - started) / 1000, 1)} s.`);
  // The histogram, below the table, in a task after the frame that shows the means and the
  // table: drawn with them, it made that frame longer still (6 ms of a 30 ms task for 5,000
  // queries on a slow machine, and the frame that lays out the table follows it).
  await afterFrame();
  if (evaluation === evaluations) renderHistogramOf(result);
}

/**
 * Runs a message in the worker and shows its diagnostics; on errors, hides the results and says
 * `failed` (resolves null then, or when cancelled).
 */
async function runShown(message, failed, via = run) {
  setStatus('');
  const result = await via(message);
  if (!result) return null;
  showDiagnostics(result);
  if (result.ok) return result;
  showResults(null);
  setStatus(`${failed}: fix the errors below.`);
  return null;
}

/** Shows one of the two results (an evaluation's or a comparison's), or neither. */
function showResults(id) {
  for (const other of ['trec-results', 'cmp-results']) $(other).hidden = other !== id;
}

let compared = null;  // { base, runs: [{ name, input }], result }

/** Two runs or more: the comparison, in the worker; the first run is the baseline. */
async function compareRuns(base) {
  const runs = runSources();
  const empty = runs.findIndex((r) => r.input === '');
  if (empty > 0) {
    setStatus(`Run ${empty + 1} is empty: choose or paste a run, or remove its box.`);
    moreRuns[empty - 1].text.focus();
    return;
  }
  const message = { ...base, type: 'compare', run: undefined, runs, options: { ...base.options, ...compareOptions() } };
  const started = performance.now();
  const evaluation = ++evaluations;
  const result = await runShown(message, 'Not compared', runComparison);
  if (!result) return;
  await afterFrame();
  if (evaluation !== evaluations) return;
  compared = { base, runs, result };
  showResults('cmp-results');
  const rendering = performance.now();
  renderComparison(result, explainPair);
  // Read by tests/bench: how long drawing the comparison took, after the worker's answer.
  performance.measure('ndcg:compare-render', { start: rendering });
  setStatus(`Compared ${runs.length} runs on ${result.queries.length} quer${result.queries.length === 1 ? 'y' : 'ies'} in ${
    formatNumber((performance.now() - started) / 1000, 1)} s.`);
}

/** One query of the chosen pair in both runs, side by side (each run's ranking from the core). */
async function explainPair(query, { a, b, measure }) {
  if (!compared) return;
  const { base, runs, result } = compared;
  const names = { a, b, measure };
  // A measure with a cut-off (P_10, ndcg_cut_10) marks its rank.
  const cutoff = Number(/_(\d+)$/.exec(measure)?.[1] ?? 0);
  const explanations = [];
  for (const name of [a, b]) {
    const spans = querySpansOf(result.querySpans?.[name], query);
    const explained = await run({ ...base, run: runs.find((r) => r.name === name).input, explainQuery: query, explainCutoff: cutoff, ...(spans ? { spans } : {}) });
    if (!explained) return;
    if (!explained.ok) {
      showDiagnostics(explained);
      return;
    }
    explanations.push(explained.explanation ?? null);
  }
  const i = result.queries.indexOf(query);
  showQueryInBoth({ query, names, explanations, values: [result.perQuery[a][measure][i], result.perQuery[b][measure][i]], cutoff });
  $('cmp-side').scrollIntoView({ block: 'start' });
  $('cmp-side').focus({ preventScroll: true });
}

/**
 * Makes a file input show `file` as its choice when the file came another way (dropped on the
 * text box, or chosen with others in the first run's chooser), so that it does not say "No file
 * chosen" beside a label naming the file. Where a browser does not let a page set it, the label
 * still names the file.
 */
function showChosen(input, file) {
  try {
    const list = new DataTransfer();
    list.items.add(file);
    input.files = list.files;
  } catch {
    // The label says which file it is.
  }
}

/** A box for one more run to compare, with its own file chooser and text. */
function addRunBox(file = null, text = '') {
  runBoxes += 1;
  const id = `run-${runBoxes + 1}`;
  const input = el('input', { type: 'file', id: `${id}-file` });
  const area = el('textarea', { id: `${id}-text`, rows: 4, spellcheck: 'false', autocomplete: 'off', placeholder: '301 Q0 doc-3 1 14.1 other-run' });
  area.value = text;
  const label = el('label', { for: `${id}-file` });
  const pasteLabel = el('label', { for: `${id}-text`, className: 'paste-label' });
  const remove = el('button', { type: 'button', className: 'link remove-run' });
  const box = el('div', { className: 'box more-run' }, label, input, pasteLabel, area, remove);
  const entry = { file, input, text: area, box, label, pasteLabel, remove };
  area.disabled = file !== null;
  if (file) {
    area.value = '';
    showChosen(input, file);
  }
  input.addEventListener('change', () => {
    entry.file = input.files?.[0] ?? null;
    area.disabled = entry.file !== null;
    save();
  });
  area.addEventListener('input', save);
  area.addEventListener('dragover', (event) => event.preventDefault());
  area.addEventListener('drop', (event) => {
    event.preventDefault();
    const dropped = event.dataTransfer?.files?.[0];
    if (!dropped) return;
    entry.file = dropped;
    showChosen(input, dropped);
    area.disabled = true;
    labelRuns();
  });
  remove.addEventListener('click', () => {
    moreRuns.splice(moreRuns.indexOf(entry), 1);
    box.remove();
    labelRuns();
    save();
    $('trec-add-run').focus();
  });
  moreRuns.push(entry);
  $('trec-more-runs').append(box);
  labelRuns();
  return entry;
}

/** Numbers the runs' boxes, and offers the comparison's options once there are two runs. */
function labelRuns() {
  moreRuns.forEach((r, i) => {
    r.label.textContent = `Run ${i + 2} file${r.file ? `: ${r.file.name}` : ''}`;
    r.pasteLabel.textContent = `or paste run ${i + 2}`;
    r.remove.textContent = `Remove run ${i + 2}`;
  });
  // The first box holds the baseline once there are others.
  $('run-file').labels[0].textContent = moreRuns.length === 0 ? 'Run file' : `Run 1 file (the baseline)${files.run ? `: ${files.run.name}` : ''}`;
  $('cmp-options').hidden = moreRuns.length === 0;
  $('trec-evaluate').textContent = moreRuns.length === 0 ? 'Evaluate' : `Compare ${moreRuns.length + 1} runs`;
}

/** Several run files chosen or dropped at once: the first in the run box, one more box for each other. */
function takeRunFiles(list) {
  const chosen = [...(list ?? [])];
  if (chosen.length === 0) return false;
  files.run = chosen[0];
  $('run-text').disabled = true;
  // Boxes left empty are reused before new ones are made.
  const free = moreRuns.filter((r) => !r.file && r.text.value === '');
  for (const file of chosen.slice(1)) {
    const box = free.shift();
    if (box) {
      box.file = file;
      showChosen(box.input, file);
      box.text.disabled = true;
    } else {
      addRunBox(file);
    }
  }
  labelRuns();
  return true;
}

function setUpFile(name) {
  const input = $(`${name}-file`);
  const text = $(`${name}-text`);
  input.addEventListener('change', () => {
    if (name === 'run' && (input.files?.length ?? 0) > 1) {
      // The first is this box's, the others went to boxes of their own: each shows its file.
      takeRunFiles(input.files);
      showChosen(input, input.files[0]);
    }
    files[name] = input.files?.[0] ?? null;
    text.disabled = files[name] !== null;
    if (name === 'run') labelRuns();
    if (files.qrels && files.run) evaluate();
  });
  text.addEventListener('input', save);
  text.addEventListener('dragover', (event) => event.preventDefault());
  text.addEventListener('drop', (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    if (name === 'run') takeRunFiles(event.dataTransfer.files);
    files[name] = file;
    showChosen(input, file);
    if (name === 'run') labelRuns();
    text.disabled = true;
    setStatus(`${name === 'qrels' ? 'Qrels' : 'Run'}: ${file.name}`);
    if (files.qrels && files.run) evaluate();
  });
}

export function setUpTrecMode() {
  restore();
  if (PACED) {
    const step = el('button', { type: 'button', id: 'trec-step' }, 'Next chunk');
    step.addEventListener('click', () => worker?.postMessage({ type: 'step' }));
    const rest = el('button', { type: 'button', id: 'trec-run-rest' }, 'Read the rest');
    rest.addEventListener('click', () => worker?.postMessage({ type: 'run' }));
    $('trec-cancel').after(step, rest);
  }
  shownFormat = $('trec-format').value;
  describeFormat();
  $('trec-format').addEventListener('change', switchFormat);
  setUpFile('qrels');
  setUpFile('run');
  // Saved as typed, not only on change: a reload right after typing keeps what was typed.
  for (const id of ['trec-measures', 'trec-level', 'trec-complete', 'trec-preset', 'trec-judged', 'trec-max']) {
    $(id).addEventListener('input', save);
    $(id).addEventListener('change', save);
  }
  $('trec-evaluate').addEventListener('click', evaluate);
  $('trec-add-run').addEventListener('click', () => {
    addRunBox().text.focus();
    save();
  });
  for (const id of COMPARE_CONTROLS) $(id).addEventListener('change', save);
  setUpComparison();
  $('trec-cancel').addEventListener('click', cancel);
  $('trec-histogram-measure').addEventListener('change', () => last && renderHistogramOf(last.result));
  $('trec-download-queries').addEventListener('click', downloadPerQuery);
  $('trec-queries').addEventListener('click', openQuery);
  for (const id of ['trec-back', 'trec-back-bottom']) $(id).addEventListener('click', backToQueries);
  $('trec-explain-measure').addEventListener('change', () => {
    const query = $('trec-explain').dataset.query;
    if (last && query !== undefined && !$('trec-explain').hidden) explainQuery(query);
  });
}
