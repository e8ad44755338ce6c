// Several runs compared (calc.compareStreams in the worker): the means with markers where a run
// is significantly better or worse than the baseline, each pair's tests, and for a chosen pair
// and measure the per-query differences (sorted bars), a scatter of A against B, and their
// table; a query opens both rankings side by side. The core computes every number shown.
import { el, formatNumber, linkButton, queryOrder } from './format.js';
import { renderSideBySide } from './side-by-side.js';
import { drawingWidth, niceMax, plotFrame, svg } from './svg.js';
import { afterFrame, drawRows, setSortHeader } from './table.js';

const $ = (id) => document.getElementById(id);

const TEST_WORDS = { t: 'paired t', randomization: 'randomization', wilcoxon: 'Wilcoxon', bootstrap: 'bootstrap' };
const CORRECTION_WORDS = { holm: 'Holm–Bonferroni corrected', bh: 'Benjamini–Hochberg corrected', none: 'uncorrected' };

let shown = null;  // { result, onQuery }
let sort = { key: 'difference', descending: true };
let rowLimit = 500;
const TABLE_COLUMNS = [{ field: 'query' }, { field: 'a', className: 'num' }, { field: 'b', className: 'num' }, { field: 'difference', className: 'num' }];

const value = (x) => formatNumber(x, 4);
const signed = (x) => (x > 0 ? `+${value(x)}` : value(x));
const pText = (p) => (Number.isNaN(p) ? '—' : p < 0.0001 ? '< 0.0001' : formatNumber(p, 4));

/** The pair (a, b) chosen in the pair select, and the measure. */
function chosen() {
  const [a, b] = JSON.parse($('cmp-pair').value);
  return { a, b, measure: $('cmp-measure').value };
}

/** A pair's entry for a measure; the marker test's result in it. */
const pairOf = (result, measure, a, b) => result.pairs.find((p) => p.measure === measure && p.a === a && p.b === b);
const markerTest = (result, pair) => pair.tests.find((t) => t.test === result.options.tests[0]);

function renderMeans(result) {
  const baseline = result.runs[0].name;
  const test = result.options.tests[0];
  const n = result.queries.length;
  $('cmp-means').replaceChildren(
    el('caption', {}, `Means over ${n} quer${n === 1 ? 'y' : 'ies'}; ▲ significantly better, ▼ significantly worse than ${baseline}`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Measure'),
      ...result.runs.map((r, i) => el('th', { scope: 'col', className: 'num' }, r.name, i === 0 ? el('span', { className: 'caption-note' }, ' (baseline)') : '')))),
    el('tbody', {}, ...result.measures.map((m) => el('tr', {}, el('th', { scope: 'row' }, m),
      ...result.runs.map((r, i) => {
        const pair = i === 0 ? null : pairOf(result, m, baseline, r.name);
        const t = pair && markerTest(result, pair);
        const mark = t?.significant ? (pair.difference > 0 ? ' ▲' : ' ▼') : '';
        return el('td', {
          className: `num${mark ? ' significant' : ''}`,
          title: t ? `${TEST_WORDS[test]} test: p = ${pText(t.pAdjusted)} (${CORRECTION_WORDS[result.options.correction]}), ${pText(t.p)} uncorrected` : undefined,
        }, value(r.mean[m]), mark);
      })))));
  $('cmp-markers').textContent = `Markers from the ${TEST_WORDS[test]} test (two-sided, ${
    CORRECTION_WORDS[result.options.correction]} over the ${result.family} comparisons, α = ${result.options.alpha}); ${
    result.options.missing === 'zero' ? 'a query missing from a run counts 0 there (trec_eval -c)' : 'only the queries every run answers are compared'}. Hover a mean for its p-value.`;
}

function renderPairs(result) {
  const tests = result.options.tests;
  const bootstrap = tests.includes('bootstrap');
  const level = formatNumber(100 * (1 - result.options.alpha), 1, { trim: true });
  $('cmp-pairs-table').replaceChildren(
    el('caption', {}, `Each pair, B − A per query: p-values ${CORRECTION_WORDS[result.options.correction]} (bold: below α = ${result.options.alpha})`),
    el('thead', {}, el('tr', {}, ...['Measure', 'A', 'B', 'B − A', ...(bootstrap ? [`${level}% interval`] : []),
      'Effect (d_z)', 'B better / worse / tied', ...tests.map((t) => `p, ${TEST_WORDS[t]}`)].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, ...result.pairs.map((p) => el('tr', {},
      el('th', { scope: 'row' }, p.measure), el('td', {}, p.a), el('td', {}, p.b),
      el('td', { className: 'num' }, signed(p.difference)),
      bootstrap ? el('td', { className: 'num' }, `${signed(p.low)} to ${signed(p.high)}`) : null,
      el('td', { className: 'num' }, Number.isFinite(p.effectSize) ? formatNumber(p.effectSize, 2) : '—'),
      el('td', { className: 'num' }, `${p.better} / ${p.worse} / ${p.tied}`),
      ...tests.map((name) => {
        const t = p.tests.find((x) => x.test === name);
        return el('td', { className: `num${t.significant ? ' significant' : ''}`, title: `${t.method}; uncorrected p = ${pText(t.p)}` },
          t.significant ? el('strong', {}, pText(t.pAdjusted)) : pText(t.pAdjusted));
      })))));
}

/** The per-query values of the chosen pair: [{ query, a, b, difference }] in the core's order. */
function pairedValues(result, { a, b, measure }) {
  const va = result.perQuery[a][measure];
  const vb = result.perQuery[b][measure];
  return result.queries.map((query, i) => ({ query, a: va[i], b: vb[i], difference: vb[i] - va[i] }));
}

const HEIGHT = 240;
const PAD = { left: 52, right: 16, top: 12, bottom: 36 };

/** B − A per query, sorted from B's largest gain to its largest loss, one bar per query. */
function renderDifferences(container, rows, names) {
  const width = drawingWidth(container, () => renderDifferences(container, rows, names));
  if (width === undefined) return;
  const sorted = [...rows].sort((x, y) => y.difference - x.difference);
  const top = niceMax(Math.max(...sorted.map((r) => Math.abs(r.difference))));
  const { root, grid, plotW, plotH } = plotFrame({
    width, height: HEIGHT, pad: PAD, className: 'differences', title: `queries, from ${names.b}'s largest gain to its largest loss`,
    label: `${names.measure}: ${names.b} − ${names.a} for each of ${rows.length} queries, sorted; ${
      sorted.filter((r) => r.difference > 0).length} above zero, ${sorted.filter((r) => r.difference < 0).length} below`,
    left: (t) => {
      const v = top * (2 * t - 1);
      return `${v > 0 ? '+' : ''}${formatNumber(v, 2)}`;
    },
  });
  const zero = PAD.top + plotH / 2;
  grid.append(svg('line', { x1: PAD.left, x2: PAD.left + plotW, y1: zero, y2: zero, class: 'zero' }));
  const step = plotW / sorted.length;
  // One path per sign: thousands of queries draw as two elements.
  const paths = { up: [], down: [] };
  const bar = (x, difference) => {
    const h = (difference / top) * (plotH / 2);
    paths[difference > 0 ? 'up' : 'down'].push(`M${x.toFixed(2)} ${zero}v${(-h).toFixed(2)}`);
  };
  if (step >= 1) {
    sorted.forEach((r, i) => {
      if (r.difference !== 0) bar(PAD.left + (i + 0.5) * step, r.difference);
    });
  } else {
    // More queries than pixels: a bar per pixel column and sign, the longest of the queries that
    // fall in it, which is what their bars of one pixel would cover; 5,000 queries then draw a
    // few hundred bars, not 5,000.
    const columns = Math.ceil(plotW);
    const up = new Float64Array(columns);
    const down = new Float64Array(columns);
    sorted.forEach((r, i) => {
      const c = Math.min(columns - 1, Math.floor((i + 0.5) * step));
      if (r.difference > up[c]) up[c] = r.difference;
      if (r.difference < down[c]) down[c] = r.difference;
    });
    for (let c = 0; c < columns; c++) {
      if (up[c] > 0) bar(PAD.left + c + 0.5, up[c]);
      if (down[c] < 0) bar(PAD.left + c + 0.5, down[c]);
    }
  }
  for (const [sign, d] of Object.entries(paths)) {
    if (d.length) root.append(svg('path', { d: d.join(''), class: `difference ${sign}`, 'stroke-width': Math.max(1, Math.min(12, step * 0.8)).toFixed(2) }));
  }
  root.addEventListener('click', (event) => {
    const i = Math.floor((pointer(root, event).x - PAD.left) / step);
    if (i >= 0 && i < sorted.length) shown.onQuery(sorted[i].query);
  });
  container.replaceChildren(root);
}

/** The point of a mouse event in the SVG's own coordinates. */
function pointer(root, event) {
  const box = root.getBoundingClientRect();
  const [, , w, h] = root.getAttribute('viewBox').split(' ').map(Number);
  return { x: ((event.clientX - box.left) / box.width) * w, y: ((event.clientY - box.top) / box.height) * h };
}

/** A against B, a dot per query, with the diagonal where they are equal. */
function renderScatter(container, rows, names) {
  const width = Math.min(420, drawingWidth(container, () => renderScatter(container, rows, names)) ?? 0);
  if (width === 0) return;
  const side = width - PAD.left - PAD.right;
  const height = side + PAD.top + PAD.bottom;
  const top = niceMax(Math.max(1e-9, ...rows.map((r) => Math.max(r.a, r.b))));
  const { root, grid } = plotFrame({
    width, height, pad: PAD, className: 'scatter', title: `${names.a} (A)`,
    label: `${names.measure} per query: ${names.a} across, ${names.b} up; ${rows.filter((r) => r.b > r.a).length} queries above the diagonal (B better), ${rows.filter((r) => r.b < r.a).length} below`,
    left: (t) => formatNumber(top * t, 2),
  });
  const x = (v) => PAD.left + (v / top) * side;
  const y = (v) => PAD.top + side - (v / top) * side;
  grid.append(svg('line', { x1: x(0), y1: y(0), x2: x(top), y2: y(top), class: 'zero' }));
  for (let t = 0; t <= 4; t++) grid.append(svg('text', { x: x((top * t) / 4), y: height - PAD.bottom + 16, 'text-anchor': 'middle' }, formatNumber((top * t) / 4, 2)));
  grid.append(svg('text', { x: 12, y: PAD.top + side / 2, transform: `rotate(-90 12 ${PAD.top + side / 2})`, 'text-anchor': 'middle' }, `${names.b} (B)`));
  const paths = { up: [], down: [], same: [] };
  for (const r of rows) paths[r.b > r.a ? 'up' : r.b < r.a ? 'down' : 'same'].push(`M${x(r.a).toFixed(1)} ${y(r.b).toFixed(1)}h0`);
  for (const [kind, d] of Object.entries(paths)) if (d.length) root.append(svg('path', { d: d.join(''), class: `dot ${kind}` }));
  root.addEventListener('click', (event) => {
    const at = pointer(root, event);
    let best = null;
    let distance = 64;  // within 8 px
    for (const r of rows) {
      const d = (x(r.a) - at.x) ** 2 + (y(r.b) - at.y) ** 2;
      if (d < distance) [best, distance] = [r, d];
    }
    if (best) shown.onQuery(best.query);
  });
  container.replaceChildren(root);
}

function renderQueryTable(rows, names) {
  const { key, descending } = sort;
  const sorted = key === 'query' ? queryOrder(rows.map((r) => r.query), descending).map((i) => rows[i]) : [...rows].sort((x, y) => {
    const order = x[key] - y[key];
    return descending ? -order : order;
  });
  const table = $('cmp-queries');
  table.hidden = false;  // before its columns are measured
  setSortHeader(table, `${names.measure} per query (click a column to sort, a query to see both rankings)`,
    [['Query', 'query'], [`${names.a} (A)`, 'a', 'num'], [`${names.b} (B)`, 'b', 'num'], ['B − A', 'difference', 'num']], sort, (chosen) => {
      sort = chosen;
      renderChosen();
    });
  // Patched in place and, past fifty rows, laid out in blocks drawn a few a frame (table.js):
  // a sort or another pair rewrites cells, and a frame lays out only the rows in view.
  drawRows(table, Math.min(sorted.length, rowLimit), TABLE_COLUMNS, (row, i) => {
    const r = sorted[i];
    if (!row.same('query', r.query)) {
      row.content('query', () => linkButton({ 'data-query': r.query, title: `Show query ${r.query} in both runs` }, r.query));
    }
    row.text('a', value(r.a));
    row.text('b', value(r.b));
    row.text('difference', signed(r.difference));
    row.flag('up', r.difference > 0);
    row.flag('down', r.difference < 0);
  });
  const more = $('cmp-more-queries');
  more.hidden = sorted.length <= rowLimit;
  more.textContent = `Show more: ${rowLimit} of ${sorted.length} queries shown`;
}

let tableTurn = 0;  // the latest call of renderChosen, whose table is the one to draw

/**
 * The charts and the table of the pair and measure chosen. A comparison's first showing draws
 * its table (up to 500 rows, their columns measured) in a task after the frame that shows the
 * means, the tests and the charts, so that neither makes a long frame.
 */
function renderChosen({ tableAfterFrame = false } = {}) {
  const { result } = shown;
  const names = chosen();
  const rows = pairedValues(result, names);
  const pair = pairOf(result, names.measure, names.a, names.b);
  const t = markerTest(result, pair);
  $('cmp-chosen-about').textContent = `${names.measure}: ${names.b} − ${names.a} = ${signed(pair.difference)} on average; ${
    names.b} is better on ${pair.better} queries, worse on ${pair.worse}, tied on ${pair.tied}. ${TEST_WORDS[t.test]} test: p = ${pText(t.pAdjusted)}${
    t.significant ? ', significant' : ', not significant'} at α = ${result.options.alpha}. Click a bar, a dot or a query to see both rankings.`;
  renderDifferences($('cmp-differences'), rows, names);
  renderScatter($('cmp-scatter'), rows, names);
  const turn = ++tableTurn;
  if (!tableAfterFrame) {
    renderQueryTable(rows, names);
    return;
  }
  // Until then it holds the comparison before (when there was one): hidden, not shown stale.
  $('cmp-queries').hidden = true;
  $('cmp-more-queries').hidden = true;
  afterFrame().then(() => {
    if (turn === tableTurn) renderQueryTable(rows, names);
  });
}

/** Shows a comparison; `onQuery(query, a, b, measure)` opens a query in both runs. */
export function renderComparison(result, onQuery) {
  shown = { result, onQuery: (query) => onQuery(query, chosen()) };
  rowLimit = 500;
  renderMeans(result);
  renderPairs(result);
  const pairSelect = $('cmp-pair');
  const keep = pairSelect.value;
  const pairs = [...new Map(result.pairs.map((p) => [JSON.stringify([p.a, p.b]), p])).keys()];
  pairSelect.replaceChildren(...pairs.map((key) => {
    const [a, b] = JSON.parse(key);
    return el('option', { value: key }, `${b} against ${a}`);
  }));
  if (pairs.includes(keep)) pairSelect.value = keep;
  const measureSelect = $('cmp-measure');
  const measure = measureSelect.value;
  measureSelect.replaceChildren(...result.measures.map((m) => el('option', { value: m }, m)));
  if (result.measures.includes(measure)) measureSelect.value = measure;
  $('cmp-side').hidden = true;
  renderChosen({ tableAfterFrame: true });
}

export function setUpComparison() {
  for (const id of ['cmp-pair', 'cmp-measure']) {
    $(id).addEventListener('change', () => {
      rowLimit = 500;
      if (shown) renderChosen();
    });
  }
  $('cmp-queries').addEventListener('click', (event) => {
    const query = event.target.closest?.('tbody button[data-query]')?.dataset.query;
    if (query !== undefined && shown) shown.onQuery(query);
  });
  $('cmp-more-queries').addEventListener('click', () => {
    rowLimit += 2000;
    renderChosen();
  });
}

/**
 * One query in two runs, rank by rank (see side-by-side.js); `explanations` are the core's for A
 * and B (null when a run has no line for the query), `values` the compared measure's per run.
 */
export function showQueryInBoth({ query, names, explanations, values, cutoff }) {
  $('cmp-side').hidden = false;
  $('cmp-side').dataset.query = query;
  $('cmp-side-heading').textContent = `Query ${query}: ${names.measure} ${value(values[0])} in ${names.a}, ${value(values[1])} in ${names.b}`;
  const { differing, length } = renderSideBySide({ table: $('cmp-side-table'), more: $('cmp-side-more') }, { names: [names.a, names.b], explanations, cutoff });
  const missing = [[explanations[0], names.a], [explanations[1], names.b]].filter(([e]) => !e).map(([, n]) => n);
  $('cmp-side-about').textContent = `Both rankings as trec_eval ranks them (score, then docno), under NDCG with gains from the qrels grades. ${
    differing} of ${length} ranks hold different documents; they are marked ≠.${cutoff > 0 ? ` The cut-off k = ${cutoff} is marked.` : ''}${
    missing.length ? ` ${missing.join(' and ')} retrieved nothing for this query.` : ''}`;
}
