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

/** The working of one rank, e.g. 3 / log₂ 6 + 1.6 — what the slide writes in "Calculation". */
export function calculation(row, previous, d, { ideal = false } = {}) {
  const gain = ideal ? row.idealGain : row.gain;
  const previousValue = previous ? (d.slide ? (ideal ? previous.roundedIdcg : previous.roundedDcg) : (ideal ? previous.idcg : previous.dcg)) : null;
  if (gain === 0 && previous) return null;
  const g = mn(formatNumber(gain, d.decimals, { trim: true }));
  // From rank b on the formula divides, even where log_b(b) = 1, as the lecture writes it.
  const divides = !d.jk || row.rank >= d.base;
  const discounted = divides ? mfrac(g, logOf(d.jk ? d.base : 2, mn(String(logArgument(row.rank, d))))) : g;
  const parts = [discounted];
  if (previous) parts.push(mo('+'), mn(formatNumber(previousValue, d.decimals)));
  const label = `${formatNumber(gain, d.decimals, { trim: true })}${!divides ? '' : ` / log${d.jk ? d.base : 2}(${logArgument(row.rank, d)})`}${previous ? ` + ${formatNumber(previousValue, d.decimals)}` : ''}`;
  return mathBlock(label, false, ...parts);
}

function valueCell(exact, shown, decimals, d, exactDecimals) {
  const text = formatNumber(shown, decimals);
  const cell = el('td', { className: 'num' }, text);
  if (d.slide && text !== formatNumber(exact, decimals)) {
    cell.append(el('span', { className: 'exact' }, `exact ${formatNumber(exact, exactDecimals)}`));
    cell.classList.add('changed');
  }
  return cell;
}

function docCell(doc, grade, judged, repeated) {
  if (doc === null) return el('td', { className: 'doc muted' }, '—');
  const cell = el('td', { className: 'doc' }, el('span', { className: 'doc-id' }, doc));
  if (judged && grade !== 0) cell.append(' ', el('span', { className: 'grade-note' }, `(r: ${formatGrade(grade)})`));
  if (!judged) cell.append(' ', el('span', { className: 'tag', title: 'no judgment: counted as not relevant' }, 'unjudged'));
  if (repeated) cell.append(' ', el('span', { className: 'tag warn', title: 'already ranked higher up: gains 0 here' }, 'repeat'));
  return cell;
}

function headerRow(...titles) {
  return el('thead', {}, el('tr', {}, ...titles.map(([text, title]) => el('th', { scope: 'col', title }, text))));
}

/** The step-by-step table; `limit` rows at most (the rest behind a button). */
export function renderSteps(table, result, d, limit) {
  const k = result.summary.k;
  table.replaceChildren(
    el('caption', {}, 'Step by step: gain, cumulated gain and discounted cumulated gain at every rank, against the ideal ranking',
      d.slide ? el('span', { className: 'caption-note' }, ` — DCG and IDCG rounded to ${d.decimals} decimal${d.decimals === 1 ? '' : 's'} before dividing, like the slide`) : null),
    headerRow(['Rank'], ['Document'], ['G', 'gain at this rank'], ['CG', 'cumulated gain'], ['Calculation'],
      ['DCG', 'discounted cumulated gain'], ['Ideal grade'], ['IDCG', 'DCG of the ideal ranking'], ['NDCG', 'DCG / IDCG']));
  const body = el('tbody');
  const rows = result.rows;
  const shown = Math.min(rows.length, limit);
  for (let i = 0; i < shown; i++) {
    const row = rows[i];
    const tr = el('tr', { className: row.rank === k ? 'at-k' : undefined },
      el('th', { scope: 'row', className: 'num' }, String(row.rank)),
      docCell(row.doc, row.grade, row.judged, row.repeated),
      el('td', { className: 'num' }, formatNumber(row.gain, d.decimals, { trim: true })),
      el('td', { className: 'num' }, formatNumber(row.cg, d.decimals, { trim: true })),
      el('td', { className: 'calc' }, calculation(row, rows[i - 1], d)),
      valueCell(row.dcg, d.slide ? row.roundedDcg : row.dcg, d.decimals, d, d.decimals + 3),
      el('td', { className: 'num' }, formatGrade(row.idealGrade)),
      valueCell(row.idcg, d.slide ? row.roundedIdcg : row.idcg, d.decimals, d, d.decimals + 3),
      valueCell(row.ndcg, d.slide ? row.roundedNdcg : row.ndcg, d.ndcgDecimals, d, 4));
    body.append(tr);
  }
  table.append(body);
  return shown;
}

/** The ideal ranking, as long as the ranked list (padded with zeros), as in the lecture. */
export function renderIdeal(table, result, d, limit) {
  table.replaceChildren(
    el('caption', {}, 'Ideal ranking: the best possible order of the judged documents'),
    headerRow(['Rank'], ['Document'], ['Grade'], ['IG', 'ideal gain'], ['Calculation'], ['IDCG']));
  const body = el('tbody');
  const rows = result.rows;
  const shown = Math.min(rows.length, limit);
  for (let i = 0; i < shown; i++) {
    const row = rows[i];
    body.append(el('tr', {},
      el('th', { scope: 'row', className: 'num' }, String(row.rank)),
      row.idealDoc === null ? el('td', { className: 'doc muted' }, '—') : el('td', { className: 'doc' }, el('span', { className: 'doc-id' }, row.idealDoc)),
      el('td', { className: 'num' }, formatGrade(row.idealGrade)),
      el('td', { className: 'num' }, formatNumber(row.idealGain, d.decimals, { trim: true })),
      el('td', { className: 'calc' }, calculation(row, rows[i - 1], d, { ideal: true })),
      el('td', { className: 'num' }, formatNumber(d.slide ? row.roundedIdcg : row.idcg, d.decimals))));
  }
  table.append(body);
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
