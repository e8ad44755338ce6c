// Renders an explanation from the core: headline, formulas, step table, ideal table, warnings.
// It formats numbers the core computed; it computes none.
import {
  el, formatGrade, formatNumber, linkButton, logOf, math, mathBlock, mfrac, mi, mn, mo, mrow, msub, msup, ndcgDecimals, replaceIfChanged, setText,
} from './format.js';
import { stepColumns } from './steps.js';
import { fillNearFirst, patchRows, setHeader } from './table.js';

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
    idealFromRanking: settings.ideal === 'ranking',
  };
}

// The argument of the log as the sources write it: log₂ 6 at rank 6 (J&K), log₂ 7 at rank 6
// (rank + 1).
const logArgument = (rank, d) => (d.jk ? rank : rank + 1);

// From rank b on the J&K formula divides, even where log_b(b) = 1, as the lecture writes it.
const divides = (rank, d) => !d.jk || rank >= d.base;

const SUBSCRIPT = { 0: '₀', 1: '₁', 2: '₂', 3: '₃', 4: '₄', 5: '₅', 6: '₆', 7: '₇', 8: '₈', 9: '₉' };
const SUPERSCRIPT = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '.': '·', '-': '⁻' };

/** "log₂ 6"; a base such as 2.5 without a subscript digit for every character is log_2.5. */
export function logText(base, argument) {
  const b = formatNumber(base, 6, { trim: true });
  const sub = /^\d+$/.test(b) ? [...b].map((c) => SUBSCRIPT[c]).join('') : `_${b}`;
  return `log${sub} ${argument}`;
}

/** The gain as worked out: "2³ − 1 = 7" for exponential gain, else the gain itself. */
export function gainText(grade, gain, d) {
  const value = formatNumber(gain, d.decimals, { trim: true });
  if (d.gain !== 'exponential' || gain === 0) return value;
  const g = formatGrade(grade);
  const exponent = [...g].every((c) => c in SUPERSCRIPT) ? [...g].map((c) => SUPERSCRIPT[c]).join('') : `^${g}`;
  return `2${exponent} − 1 = ${value}`;
}

/** The discount at a rank as worked out: "log₂ 6 = 2.585", or "1" where nothing is divided. */
export function discountText(rank, discount, d) {
  if (!divides(rank, d)) return '1';
  return `${logText(d.base, logArgument(rank, d))} = ${formatNumber(discount, d.decimals, { trim: true })}`;
}

/** What a rank adds: "3 / 2.585 = 1.161"; the gain alone where there is no discount or no gain. */
export function termText(gain, discount, term, rank, d) {
  const value = formatNumber(term, d.decimals, { trim: true });
  if (gain === 0 || !divides(rank, d)) return value;
  return `${formatNumber(gain, d.decimals, { trim: true })} / ${formatNumber(discount, d.decimals, { trim: true })} = ${value}`;
}

/** The division at the cut-off: "3.3935 / 11.8339 = 0.2868" (rounded values like the slide). */
export function divisionText(dcg, idcg, ndcg, d) {
  return `${formatNumber(dcg, d.decimals)} / ${formatNumber(idcg, d.decimals)} = ${formatNumber(ndcg, d.ndcgDecimals)}`;
}

function patchDoc(r, field, doc, grade = 0, judged = true, repeated = false) {
  if (r.same(field, doc, grade, judged, repeated)) return;
  r.content(field, (cell) => {
    cell.classList.toggle('muted', doc === null);
    return doc === null ? '—' : docContent(doc, grade, judged, repeated);
  });
}

function docContent(doc, grade, judged, repeated) {
  const fragment = document.createDocumentFragment();
  fragment.append(el('span', { className: 'doc-id' }, doc));
  if (judged && grade !== 0) fragment.append(' ', el('span', { className: 'grade-note' }, `(r: ${formatGrade(grade)})`));
  if (!judged) fragment.append(' ', el('span', { className: 'tag', title: 'no judgment: counted as not relevant' }, 'unjudged'));
  if (repeated) fragment.append(' ', el('span', { className: 'tag warn', title: 'already ranked higher up: gains 0 here' }, 'repeat'));
  return fragment;
}

/** A value as the settings show it: rounded like the slide, with the exact value beside it. */
function patchValue(r, field, exact, shown, decimals, d, exactDecimals) {
  if (r.same(field, exact, shown, decimals, d.slide)) return;
  const text = formatNumber(shown, decimals);
  const changed = d.slide && text !== formatNumber(exact, decimals);
  r.value(field, text, changed ? formatNumber(exact, exactDecimals) : null);
}

/** A number with `decimals` places, trimmed, formatted only when it changed. */
function patchNumber(r, field, value, decimals) {
  if (!r.same(field, value, decimals)) r.text(field, formatNumber(value, decimals, TRIM));
}
const TRIM = { trim: true };

/** "0.5, tied at ranks 2–3" for a score that other documents share (`first` 0: none). */
function scoreText(score, first, last) {
  const text = formatGrade(score);
  return first !== 0 ? `${text} (tied, ranks ${first}–${last})` : text;
}

/**
 * The gain of rank i + 1, whose score ties under ties: average: "(3 + 2) / 2 = 2.5", the mean of
 * the tied documents' own gains, which every rank of the tie gains.
 */
function sharedGainText(c, i, d) {
  const own = [];
  for (let j = c.tieFirst[i] - 1; j < c.tieLast[i]; j++) own.push(formatNumber(c.ownGain[j], d.decimals, { trim: true }));
  return `(${own.join(' + ')}) / ${own.length} = ${formatNumber(c.gain[i], d.decimals, { trim: true })}`;
}

const column = (field, className = 'num') => ({ field, className });
const STEP_COLUMNS = [
  column('rank'), column('doc', 'doc'), column('grade'), column('gain'), column('cg'), column('discount'),
  column('term'), column('dcg'), column('idealGain'), column('idcg'), column('ndcg'),
];
// A ranking with scores shows them after the document: it is ranked by them.
const SCORED_STEP_COLUMNS = [...STEP_COLUMNS.slice(0, 2), column('score'), ...STEP_COLUMNS.slice(2)];

/** The step-by-step table; `limit` rows at most (the rest behind a button). */
export function renderSteps(table, result, d, limit) {
  const k = result.summary.k;
  const scored = result.reading?.numbers === 'score';
  const { length, columns: c } = stepColumns(result);
  let averaged = false;
  for (let i = 0; scored && !averaged && i < length; i++) averaged = c.tieFirst[i] !== 0 && c.gain[i] !== c.ownGain[i];
  const discountTitle = d.jk
    ? `${logText(d.base, '').trim()} of the rank; 1 below rank ${formatNumber(d.base, 6, { trim: true })}`
    : `${logText(d.base, '').trim()}(rank + 1)`;
  setHeader(table, [
    'Step by step: each rank’s gain, its discount, what it adds to DCG, and DCG against the ideal',
    scored ? el('span', { className: 'caption-note' }, ' — ranked by score') : '',
    d.slide ? el('span', { className: 'caption-note' }, ` — DCG and IDCG rounded to ${d.decimals} decimal${d.decimals === 1 ? '' : 's'} before dividing, like the slide`) : '',
  ], [['Rank'], ['Document'], ...(scored ? [['Score', 'the system’s score: the list is ranked by it, highest first']] : []),
    ['g', 'grade'], ['G', averaged ? 'gain; tied ranks share the mean gain of their documents' : d.gain === 'exponential' ? 'gain: 2^g − 1' : 'gain'], ['CG', 'cumulated gain: the sum of G so far'],
    ['Discount', discountTitle], ['G / discount', 'what this rank adds to DCG'],
    ['DCG', 'discounted cumulated gain: the sum of G / discount so far'], ['IG', 'gain at this rank of the ideal ranking'],
    ['IDCG', 'DCG of the ideal ranking'], [`NDCG`, `DCG / IDCG; at k = ${k} the division is written out`]]);
  const shown = Math.min(length, limit);
  const patched = patchRows(table, shown, scored ? SCORED_STEP_COLUMNS : STEP_COLUMNS);
  const style = `${d.decimals}|${d.jk}|${d.base}|${d.gain}`;
  // Read a column at a time: an object per rank was a third of what an edit allocated.
  const dcgShown = (d.slide && c.roundedDcg) || c.dcg;
  const idcgShown = (d.slide && c.roundedIdcg) || c.idcg;
  const ndcgShown = (d.slide && c.roundedNdcg) || c.ndcg;
  fillNearFirst(table, patched, (r, i) => {
    const rank = i + 1;
    const grade = c.grade[i];
    const gain = c.gain[i];
    const repeated = c.repeated[i] === 1;
    const tied = scored && c.tieFirst[i] !== 0;
    const atK = rank === k;
    r.flag('at-k', atK);
    r.flag('tied', tied);
    if (!r.same('rank', rank)) r.text('rank', String(rank));
    patchDoc(r, 'doc', c.doc[i], grade, c.judged[i] === 1, repeated);
    if (scored && !r.same('score', c.score[i], c.tieFirst[i], c.tieLast[i])) r.text('score', scoreText(c.score[i], c.tieFirst[i], c.tieLast[i]));
    if (!r.same('grade', grade)) r.text('grade', formatGrade(grade));
    // The working of a rank changes only with its gain or the conventions: below an edit, most
    // rows keep theirs, and their text is not even rebuilt.
    const shared = tied && gain !== c.ownGain[i];
    // Kept in one object per row, changed in place: a new object per changed row was garbage
    // on every edit at rank 1, and V8 recompiled this code when it began to keep them.
    const w = r.working ??= { gain: NaN, repeated: false, grade: NaN, rank: 0, style: '', shared: false };
    if (shared || w.gain !== gain || w.repeated !== repeated || w.grade !== grade ||
        w.rank !== rank || w.style !== style || w.shared) {
      w.gain = gain;
      w.repeated = repeated;
      w.grade = grade;
      w.rank = rank;
      w.style = style;
      w.shared = shared;
      r.text('gain', repeated ? '0 (repeat)' : shared ? sharedGainText(c, i, d) : gainText(grade, gain, d));
      r.text('discount', discountText(rank, c.discount[i], d));
      r.text('term', termText(gain, c.discount[i], c.term[i], rank, d));
    }
    patchNumber(r, 'cg', c.cg[i], d.decimals);
    patchValue(r, 'dcg', c.dcg[i], dcgShown[i], d.decimals, d, d.decimals + 3);
    patchNumber(r, 'idealGain', c.idealGain[i], d.decimals);
    patchValue(r, 'idcg', c.idcg[i], idcgShown[i], d.decimals, d, d.decimals + 3);
    if (atK) {
      // The division, for one row: what the other rows' NDCG was shown from no longer holds.
      r.forget('ndcg');
      r.value('ndcg', divisionText(dcgShown[i], idcgShown[i], ndcgShown[i], d));
    } else {
      patchValue(r, 'ndcg', c.ndcg[i], ndcgShown[i], d.ndcgDecimals, d, 4);
    }
  });
  return shown;
}

const IDEAL_COLUMNS = [
  column('rank'), column('idealDoc', 'doc'), column('idealGrade'), column('idealGain'), column('discount'),
  column('idealTerm'), column('idcg'),
];

/** The ideal ranking, as long as the ranked list (padded with zeros), as in the lecture. */
export function renderIdeal(table, result, d, limit) {
  setHeader(table, [d.idealFromRanking
    ? 'Ideal ranking: the ranked documents in the best possible order, and its DCG (IDCG)'
    : 'Ideal ranking: the best possible order of the judged documents, and its DCG (IDCG)'],
    [['Rank'], ['Document'], ['Grade'], ['IG', d.gain === 'exponential' ? 'ideal gain: 2^grade − 1' : 'ideal gain'], ['Discount'],
      ['IG / discount', 'what this rank adds to IDCG'], ['IDCG']]);
  const { length, idealLength, columns: c } = stepColumns(result);
  const shown = Math.min(length, limit);
  const patched = patchRows(table, shown, IDEAL_COLUMNS);
  const style = `${d.decimals}|${d.jk}|${d.base}|${d.gain}`;
  const idcgShown = (d.slide && c.roundedIdcg) || c.idcg;
  fillNearFirst(table, patched, (r, i) => {
    const rank = i + 1;
    const grade = c.idealGrade[i];
    const gain = c.idealGain[i];
    if (!r.same('rank', rank)) r.text('rank', String(rank));
    patchDoc(r, 'idealDoc', c.idealDoc[i]);
    const w = r.working ??= { gain: NaN, grade: NaN, rank: 0, style: '' };
    if (w.gain !== gain || w.grade !== grade || w.rank !== rank || w.style !== style) {
      w.gain = gain;
      w.grade = grade;
      w.rank = rank;
      w.style = style;
      r.text('idealGrade', formatGrade(grade));
      r.text('idealGain', gainText(grade, gain, d));
      r.text('discount', discountText(rank, c.discount[i], d));
      r.text('idealTerm', termText(gain, c.discount[i], c.idealTerm[i], rank, d));
    }
    const idcg = idcgShown[i];
    if (!r.same('idcg', idcg, d.decimals)) r.text('idcg', formatNumber(idcg, d.decimals));
  });
  table.tFoot?.remove();
  const beyond = idealLength - length;
  if (beyond > 0) {
    table.append(el('tfoot', {}, el('tr', {}, el('td', { colspan: IDEAL_COLUMNS.length },
      `${beyond} more judged document${beyond === 1 ? '' : 's'} would follow; NDCG@k counts them only when k reaches past rank ${length}.`))));
  }
}

/** The headline; `ids` prefixes its element ids, so that two headlines on one page stay apart. */
export function renderHeadline(node, result, d, ids = '') {
  const { summary } = result;
  const k = summary.k;
  const exact = formatNumber(summary.ndcgAtK, Math.max(4, d.ndcgDecimals));
  const dcg = d.slide ? summary.roundedDcgAtK : summary.dcgAtK;
  const idcg = d.slide ? summary.roundedIdcgAtK : summary.idcgAtK;
  const main = formatNumber(d.slide ? summary.roundedNdcgAtK : summary.ndcgAtK, d.ndcgDecimals);
  const relevant = summary.judgedRelevant;
  replaceIfChanged(node,
    el('p', { className: 'headline-value' },
      el('span', { className: 'metric' }, `NDCG@${k}`), ' = ', el('output', { id: `${ids}ndcg-at-k` }, main)),
    el('p', { className: 'headline-working' },
      `= DCG@${k} / IDCG@${k} = `,
      el('span', { id: `${ids}headline-division` }, `${formatNumber(dcg, d.decimals)} / ${formatNumber(idcg, d.decimals)}`),
      idcg > 0 ? '' : ` (IDCG is 0: NDCG is set to ${main})`),
    el('p', { className: 'headline-parts' },
      `${relevant} relevant document${relevant === 1 ? '' : 's'} in the ideal ranking`,
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
    dcgLine = mathBlock(`DCG, log${d.base === 2 ? '2' : `_${d.base}`}(rank+1)`, true, DCG(i()), mo('='),
      mrow(math('munderover', mo('∑'), mrow(mi('j'), mo('='), mn('1')), i())),
      mfrac(G(mi('j')), logOf(d.base, mrow(mi('j'), mo('+'), mn('1')))));
  }
  const ndcgLine = mathBlock('NDCG', true, mrow(mi('NDCG'), mo('['), i(), mo(']')), mo('='),
    mfrac(DCG(i()), mrow(mi('IDCG'), mo('['), i(), mo(']'))));
  const idealText = settings.ideal === 'ranking'
    ? 'IDCG is the DCG of the ranked list re-sorted best first.'
    : 'IDCG is the DCG of all judged documents sorted best first (padded with zeros).';
  replaceIfChanged(node,
    el('div', { className: 'formula-row' }, gainLine, dcgLine, ndcgLine),
    el('p', { className: 'formula-note' }, idealText,
      d.jk ? ` Ranks below ${formatNumber(d.base, 6, { trim: true })} are not discounted.` : '',
      settings.idealDepth === 'whole' ? ' IDCG@k counts the whole ideal ranking (trec_eval’s ndcg).' : ''));
}

/** Selects line `line` (1-based) of a textarea, where a diagnostic points. */
export function selectLine(textarea, line) {
  const lines = textarea.value.split(/\r\n|\r|\n/);
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  textarea.focus();
  textarea.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
}

// list -> what it shows: the diagnostics as one string, their items by what each says, and the
// fold of the rest.
const shownDiagnostics = new WeakMap();

// Past this many, the rest of a list's errors and notes are folded under one line that opens
// them: twenty notes of repeated documents would push the results a screen down, and every
// note added would move them again.
const DIAGNOSTICS_SHOWN = 3;

/** Makes `parent`'s children exactly `nodes`, in order, moving only those out of place. */
function placeChildren(parent, nodes) {
  for (let i = 0; i < nodes.length; i++) {
    const at = parent.childNodes[i] ?? null;
    if (at !== nodes[i]) parent.insertBefore(nodes[i], at);
  }
  while (parent.childNodes.length > nodes.length) parent.lastChild.remove();
}

/**
 * Errors and notes as list items, each line number a button that selects the line
 * (`onSelect`): the first DIAGNOSTICS_SHOWN, then the others folded in a <details> that stays
 * open across edits once opened. An item stays in the document while its diagnostic is given,
 * and the fold stays while there is one: an edit that adds a repeated document's note inserts
 * one item and counts it, where rebuilding the list and its <details> took 2-3 ms of style.
 */
export function renderDiagnostics(list, diagnostics, onSelect) {
  // Compared as data first: the notes of a long list (701 documents without a judgment, …) are
  // the same from one keystroke to the next, and building their elements took 0.4 ms.
  const keys = diagnostics.map((d) => `${d.kind}\u0000${d.line}\u0000${d.column}\u0000${d.message}`);
  const selectable = Boolean(onSelect);
  const key = `${selectable}\u0001${keys.join('\u0001')}`;
  // Shown as they are up to one more than DIAGNOSTICS_SHOWN, else that many and the fold.
  const folded = diagnostics.length > DIAGNOSTICS_SHOWN + 1;
  const children = folded ? DIAGNOSTICS_SHOWN + 1 : diagnostics.length;
  const before = shownDiagnostics.get(list);
  if (before?.key === key && list.childNodes.length === children) return;
  const kept = before?.selectable === selectable ? before.items : new Map();
  const items = new Map();
  const itemOf = (d, i) => {
    let item = kept.get(keys[i]);
    // A diagnostic given twice word for word gets an item of its own.
    if (item === undefined || items.has(keys[i])) {
      const where = d.line > 0 ? `Line ${d.line}${d.column > 0 ? `, column ${d.column}` : ''}: ` : '';
      item = el('li', { className: d.kind }, el('span', { className: 'kind' }, d.kind === 'error' ? 'Error' : 'Note'), ' ');
      if (d.line > 0 && onSelect) {
        const button = linkButton({}, where.slice(0, -2));
        button.addEventListener('click', () => onSelect(d));
        item.append(button, ': ', d.message);
      } else {
        item.append(where, d.message);
      }
    }
    items.set(keys[i], item);
    return item;
  };
  const shown = (folded ? diagnostics.slice(0, DIAGNOSTICS_SHOWN) : diagnostics).map(itemOf);
  let more = null;
  if (folded) {
    more = before?.more ?? el('li', { className: 'more' }, el('details', {}, el('summary'), el('ul', { className: 'diagnostics' })));
    const rest = diagnostics.slice(DIAGNOSTICS_SHOWN);
    const errors = rest.filter((d) => d.kind === 'error').length;
    const what = errors === rest.length ? 'errors' : errors === 0 ? 'notes' : 'errors and notes';
    const [summary, inner] = more.firstChild.children;
    setText(summary, `${rest.length} more ${what}`);
    placeChildren(inner, rest.map((d, i) => itemOf(d, DIAGNOSTICS_SHOWN + i)));
    shown.push(more);
  }
  placeChildren(list, shown);
  shownDiagnostics.set(list, { key, selectable, items, more });
}
