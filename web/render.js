// Renders an explanation from the core: headline, formulas, step table, ideal table, warnings.
// It formats numbers the core computed; it computes none.
import {
  el, formatGrade, formatNumber, logOf, math, mathBlock, mfrac, mi, mn, mo, mrow, msub, msup, ndcgDecimals,
} from './format.js';

export const ROWS_PER_PAGE = 1000;

/** Display settings derived from the controls. */
export function displayOf(settings) {
  const decimals = Math.min(10, Math.max(0, Number.parseInt(settings.decimals, 10) || 0));
  return {
    decimals,
    ndcgDecimals: ndcgDecimals(decimals),
    slide: settings.roundLikeSlide,
    jk: settings.discount === 'jarvelin-kekalainen',
    base: Number(settings.base) > 1 ? Number(settings.base) : 2,
    gain: settings.gain,
  };
}

// The argument of the log as the sources write it: log₂ 6 at rank 6 (J&K), log₂ 7 at rank 6
// (rank + 1).
const logArgument = (rank, d) => (d.jk ? rank : rank + 1);

/**
 * The working of one rank, e.g. 3 / log₂ 6 + 1.6 — what the slide writes in "Calculation" — as
 * plain data; null where the rank adds nothing (the slides leave those cells empty).
 */
export function working(row, previous, d, { ideal = false } = {}) {
  const gain = ideal ? row.idealGain : row.gain;
  if (gain === 0 && previous) return null;
  let before = null;
  if (previous) {
    const value = d.slide ? (ideal ? previous.roundedIdcg : previous.roundedDcg) : (ideal ? previous.idcg : previous.dcg);
    before = formatNumber(value, d.decimals);
  }
  // From rank b on the formula divides, even where log_b(b) = 1, as the lecture writes it.
  const divides = !d.jk || row.rank >= d.base;
  const gainText = formatNumber(gain, d.decimals, { trim: true });
  const base = d.jk ? d.base : 2;
  const argument = logArgument(row.rank, d);
  const text = `${gainText}${divides ? ` / log${base}(${argument})` : ''}${before === null ? '' : ` + ${before}`}`;
  return { gainText, divides, base, argument, before, text };
}

/** The working as MathML. */
export function workingMath(w) {
  const g = mn(w.gainText);
  const parts = [w.divides ? mfrac(g, logOf(w.base, mn(String(w.argument)))) : g];
  if (w.before !== null) parts.push(mo('+'), mn(w.before));
  return mathBlock(null, false, ...parts);
}

// Tables are patched in place: an edit of one line of a 1,000-row ranking changes a few
// thousand strings, not 2,000 rows of DOM, which keeps recomputation inside one frame.

// Each row of a patched table body, with its cells and what each cell last showed: comparing
// strings in JS is far cheaper than reading the DOM back. Index `cells.length` holds the row's
// class, the one after it a formula's changing number.
const bodies = new WeakMap();

function writeText(cell, text) {
  const only = cell.firstChild;
  if (only !== null && only === cell.lastChild && only.nodeType === Node.TEXT_NODE) only.data = text;
  else cell.textContent = text;
}

function setText(r, column, text) {
  if (r.keys[column] === text) return;
  r.keys[column] = text;
  writeText(r.cells[column], text);
}

/** Replaces a cell's content with `build()` when its key changed. */
function setContent(r, column, key, build) {
  if (r.keys[column] === key) return;
  r.keys[column] = key;
  const content = build();
  if (content === null || content === undefined) r.cells[column].replaceChildren();
  else r.cells[column].replaceChildren(content);
}

/** Makes `body` hold exactly `count` rows of `cells` cells (a row header first); returns them. */
function sizeRows(body, count, cells, classes) {
  if (!bodies.has(body)) bodies.set(body, []);
  const rows = bodies.get(body);
  while (rows.length > count) rows.pop().tr.remove();
  while (rows.length < count) {
    const tr = document.createElement('tr');
    const list = [el('th', { scope: 'row', className: 'num' })];
    for (let c = 1; c < cells; c++) list.push(el('td', { className: classes[c] ?? '' }));
    tr.append(...list);
    body.append(tr);
    rows.push({ tr, cells: list, keys: new Array(cells + 2).fill(null) });
  }
  return rows;
}

function patchValue(r, column, exact, shown, decimals, d, exactDecimals) {
  const text = formatNumber(shown, decimals);
  const changed = d.slide && text !== formatNumber(exact, decimals);
  const key = changed ? `${text}|${formatNumber(exact, exactDecimals)}` : text;
  if (r.keys[column] === key) return;
  r.keys[column] = key;
  const cell = r.cells[column];
  cell.classList.toggle('changed', changed);
  if (changed) cell.replaceChildren(text, el('span', { className: 'exact' }, `exact ${formatNumber(exact, exactDecimals)}`));
  else writeText(cell, text);
}

function docContent(doc, grade, judged, repeated) {
  const fragment = document.createDocumentFragment();
  fragment.append(el('span', { className: 'doc-id' }, doc));
  if (judged && grade !== 0) fragment.append(' ', el('span', { className: 'grade-note' }, `(r: ${formatGrade(grade)})`));
  if (!judged) fragment.append(' ', el('span', { className: 'tag', title: 'no judgment: counted as not relevant' }, 'unjudged'));
  if (repeated) fragment.append(' ', el('span', { className: 'tag warn', title: 'already ranked higher up: gains 0 here' }, 'repeat'));
  return fragment;
}

function patchDoc(r, column, doc, grade = 0, judged = true, repeated = false) {
  const key = doc === null ? '\u0000' : `${doc}\u0000${grade}\u0000${judged}\u0000${repeated}`;
  if (r.keys[column] === key) return;
  r.keys[column] = key;
  const cell = r.cells[column];
  cell.classList.toggle('muted', doc === null);
  cell.replaceChildren(doc === null ? '—' : docContent(doc, grade, judged, repeated));
}

// A formula is rebuilt only when its shape changes (gain, log, whether a sum follows); when only
// the previous DCG changes, as it does below any edit, that one number is rewritten.
function patchCalculation(r, column, row, previous, d, options) {
  const w = working(row, previous, d, options);
  const shape = w === null ? '' : `${w.gainText}|${w.divides}|${w.base}|${w.argument}|${w.before === null}`;
  setContent(r, column, shape, () => (w === null ? null : workingMath(w)));
  if (w === null) return;
  const last = r.keys.length - 1;
  if (r.keys[last] === w.text) return;
  r.keys[last] = w.text;
  // <math><mrow>… + <mn>before</mn></mrow></math>: the number is the row's last child.
  if (w.before !== null) r.cells[column].firstChild.firstChild.lastChild.textContent = w.before;
}

function setHeader(table, caption, titles) {
  if (!table.tHead) {
    table.append(el('caption'), headerRow(...titles), el('tbody'));
  }
  table.caption.replaceChildren(...caption);
}

function headerRow(...titles) {
  return el('thead', {}, el('tr', {}, ...titles.map(([text, title]) => el('th', { scope: 'col', title }, text))));
}

const STEP_CLASSES = ['num', 'doc', 'num', 'num', 'calc', 'num', 'num', 'num', 'num'];

/** The step-by-step table; `limit` rows at most (the rest behind a button). */
export function renderSteps(table, result, d, limit) {
  const k = result.summary.k;
  setHeader(table, [
    'Step by step: gain, cumulated gain and discounted cumulated gain at every rank, against the ideal ranking',
    d.slide ? el('span', { className: 'caption-note' }, ` — DCG and IDCG rounded to ${d.decimals} decimal${d.decimals === 1 ? '' : 's'} before dividing, like the slide`) : '',
  ], [['Rank'], ['Document'], ['G', 'gain at this rank'], ['CG', 'cumulated gain'], ['Calculation'],
    ['DCG', 'discounted cumulated gain'], ['Ideal grade'], ['IDCG', 'DCG of the ideal ranking'], ['NDCG', 'DCG / IDCG']]);
  const rows = result.rows;
  const shown = Math.min(rows.length, limit);
  const body = table.tBodies[0];
  const patched = sizeRows(body, shown, 9, STEP_CLASSES);
  for (let i = 0; i < shown; i++) {
    const row = rows[i];
    const r = patched[i];
    const atK = row.rank === k;
    if (r.keys[9] !== atK) {
      r.keys[9] = atK;
      r.tr.classList.toggle('at-k', atK);
    }
    setText(r, 0, String(row.rank));
    patchDoc(r, 1, row.doc, row.grade, row.judged, row.repeated);
    setText(r, 2, formatNumber(row.gain, d.decimals, { trim: true }));
    setText(r, 3, formatNumber(row.cg, d.decimals, { trim: true }));
    patchCalculation(r, 4, row, rows[i - 1], d);
    patchValue(r, 5, row.dcg, d.slide ? row.roundedDcg : row.dcg, d.decimals, d, d.decimals + 3);
    setText(r, 6, formatGrade(row.idealGrade));
    patchValue(r, 7, row.idcg, d.slide ? row.roundedIdcg : row.idcg, d.decimals, d, d.decimals + 3);
    patchValue(r, 8, row.ndcg, d.slide ? row.roundedNdcg : row.ndcg, d.ndcgDecimals, d, 4);
  }
  return shown;
}

const IDEAL_CLASSES = ['num', 'doc', 'num', 'num', 'calc', 'num'];

/** The ideal ranking, as long as the ranked list (padded with zeros), as in the lecture. */
export function renderIdeal(table, result, d, limit) {
  setHeader(table, ['Ideal ranking: the best possible order of the judged documents'],
    [['Rank'], ['Document'], ['Grade'], ['IG', 'ideal gain'], ['Calculation'], ['IDCG']]);
  const rows = result.rows;
  const shown = Math.min(rows.length, limit);
  const body = table.tBodies[0];
  const patched = sizeRows(body, shown, 6, IDEAL_CLASSES);
  for (let i = 0; i < shown; i++) {
    const row = rows[i];
    const r = patched[i];
    setText(r, 0, String(row.rank));
    patchDoc(r, 1, row.idealDoc);
    setText(r, 2, formatGrade(row.idealGrade));
    setText(r, 3, formatNumber(row.idealGain, d.decimals, { trim: true }));
    patchCalculation(r, 4, row, rows[i - 1], d, { ideal: true });
    setText(r, 5, formatNumber(d.slide ? row.roundedIdcg : row.idcg, d.decimals));
  }
  table.tFoot?.remove();
  const beyond = result.ideal.length - rows.length;
  if (beyond > 0) {
    table.append(el('tfoot', {}, el('tr', {}, el('td', { colspan: 6 },
      `${beyond} more judged document${beyond === 1 ? '' : 's'} would follow; NDCG@k counts them only when k reaches past rank ${rows.length}.`))));
  }
}

export function renderHeadline(node, result, d) {
  const { summary } = result;
  const k = summary.k;
  const exact = formatNumber(summary.ndcgAtK, Math.max(4, d.ndcgDecimals));
  const main = d.slide ? formatNumber(summary.roundedNdcgAtK, d.ndcgDecimals) : formatNumber(summary.ndcgAtK, d.ndcgDecimals);
  node.replaceChildren(
    el('p', { className: 'headline-value' },
      el('span', { className: 'metric' }, `NDCG@${k}`), ' = ', el('output', { id: 'ndcg-at-k' }, main)),
    el('p', { className: 'headline-parts' },
      `DCG@${k} = ${formatNumber(d.slide ? summary.roundedDcgAtK : summary.dcgAtK, d.decimals)}`, ' · ',
      `IDCG@${k} = ${formatNumber(d.slide ? summary.roundedIdcgAtK : summary.idcgAtK, d.decimals)}`, ' · ',
      `${summary.judgedRelevant} relevant judged document${summary.judgedRelevant === 1 ? '' : 's'}`,
      d.slide && main !== exact
        ? el('span', { className: 'exact' }, ` — exact NDCG@${k} = ${exact}; rounded like the slide, ${formatNumber(summary.roundedDcgAtK, d.decimals)} / ${formatNumber(summary.roundedIdcgAtK, d.decimals)}`)
        : null));
}

/** The definitions in force, as MathML. */
export function renderFormulas(node, d, settings) {
  // MathML nodes can stand in one place only: every use builds its own.
  const i = () => mi('i');
  const G = (idx) => mrow(mi('G'), mo('['), idx, mo(']'));
  const DCG = (idx) => mrow(mi('DCG'), mo('['), idx, mo(']'));
  const g = () => msub(mi('g'), i());
  let gainDef;
  if (settings.gain === 'exponential') gainDef = mrow(msup(mn('2'), g()), mo('−'), mn('1'));
  else if (settings.gain === 'custom') gainDef = mrow(mi('map'), mo('('), g(), mo(')'));
  else gainDef = g();
  const gainLine = mathBlock('gain', true, G(i()), mo('='), gainDef);
  let dcgLine;
  if (d.jk) {
    dcgLine = mathBlock('DCG, Järvelin–Kekäläinen', true, DCG(i()), mo('='),
      mrow(mi('DCG'), mo('['), i(), mo('−'), mn('1'), mo(']')), mo('+'),
      mfrac(G(i()), mrow(mi('max'), mo('('), mn('1'), mo(','), logOf(d.base, i()), mo(')'))));
  } else {
    dcgLine = mathBlock('DCG, log2(rank+1)', true, DCG(i()), mo('='),
      mrow(math('munderover', mo('∑'), mrow(mi('j'), mo('='), mn('1')), i())),
      mfrac(G(mi('j')), logOf(2, mrow(mi('j'), mo('+'), mn('1')))));
  }
  const ndcgLine = mathBlock('NDCG', true, mrow(mi('NDCG'), mo('['), i(), mo(']')), mo('='),
    mfrac(DCG(i()), mrow(mi('IDCG'), mo('['), i(), mo(']'))));
  const idealText = settings.ideal === 'ranking'
    ? 'IDCG is the DCG of the ranked list re-sorted best first.'
    : 'IDCG is the DCG of all judged documents sorted best first (padded with zeros).';
  node.replaceChildren(
    el('div', { className: 'formula-row' }, gainLine, dcgLine, ndcgLine),
    el('p', { className: 'formula-note' }, idealText,
      d.jk ? ` Ranks below ${formatNumber(d.base, 6, { trim: true })} are not discounted.` : '',
      settings.idealDepth === 'whole' ? ' IDCG@k counts the whole ideal ranking (trec_eval’s ndcg).' : ''));
}

export function renderDiagnostics(list, diagnostics, onSelect) {
  list.replaceChildren(...diagnostics.map((d) => {
    const where = d.line > 0 ? `Line ${d.line}${d.column > 0 ? `, column ${d.column}` : ''}: ` : '';
    const item = el('li', { className: d.kind }, el('span', { className: 'kind' }, d.kind === 'error' ? 'Error' : 'Note'), ' ');
    if (d.line > 0 && onSelect) {
      const button = el('button', { type: 'button', className: 'link' }, where.slice(0, -2));
      button.addEventListener('click', () => onSelect(d));
      item.append(button, ': ', d.message);
    } else {
      item.append(where, d.message);
    }
    return item;
  }));
}
