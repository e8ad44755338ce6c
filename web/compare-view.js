// Why tools disagree: the ranking under every library's conventions side by side
// (calc.compareConventions), a chart of NDCG@k per library, and for two of them each option
// that differs with how far it alone moves NDCG@k. The core computes every number.
import { el, formatNumber, replaceIfChanged } from './format.js';
import { drawingWidth, plotFrame, svg } from './svg.js';
import { patchRows, setHeader } from './table.js';

const $ = (id) => document.getElementById(id);

const OPTION_WORDS = {
  gain: 'gain', discount: 'discount', base: 'log base', ideal: 'ideal ranking from', idealDepth: 'IDCG@k over',
  ties: 'tied scores', negativeGains: 'negative grades', unjudgedGrade: 'grade of unjudged documents',
  relevantFrom: 'relevant from grade',
  ndcgWhenIdcgZero: 'NDCG when IDCG = 0',
};
const VALUE_WORDS = {
  discount: { 'log2(rank+1)': 'log(rank + 1)', 'jarvelin-kekalainen': 'Järvelin–Kekäläinen (log_b rank from rank b)' },
  gain: { linear: 'linear (G = g)', exponential: 'exponential (G = 2^g − 1)' },
  ideal: { judgments: 'every judged document', ranking: 'the ranked list alone' },
  idealDepth: { cut: 'the top k of the ideal', whole: 'the whole ideal' },
  ties: { input: 'kept in the order given', 'docno-desc': 'ranked by document id, descending', average: 'sharing their mean gain' },
  negativeGains: { zero: 'gain 0', keep: 'keep their negative gain' },
  relevantFrom: { '': 'any grade that gains' },
};
const valueWords = (option, value) => VALUE_WORDS[option]?.[value] ?? value;

const COLUMNS = [
  { field: 'preset', className: 'doc' }, { field: 'ndcg', className: 'num' }, { field: 'dcg', className: 'num' },
  { field: 'idcg', className: 'num' },
];

let presets = [];

/** Fills the two choosers; `onChange` runs when either changes. */
export function setUpCompare(calc, onChange) {
  presets = calc.presets();
  for (const [id, chosen] of [['compare-first', 'trec_eval'], ['compare-second', 'sklearn']]) {
    const select = $(id);
    select.replaceChildren(...presets.map((p) => el('option', { value: p.name }, p.label)));
    select.value = chosen;
    select.addEventListener('change', onChange);
  }
}

const labelOf = (name) => presets.find((p) => p.name === name)?.label ?? name;

/** The comparison for `request` ({ ranking, judgments, options }), as the display `d` shows numbers. */
export function renderCompare(calc, request, d) {
  const between = [$('compare-first').value, $('compare-second').value];
  const section = $('compare');
  const r = calc.compareConventions({ ...request, between });
  section.hidden = !r.ok;
  if (!r.ok) return;
  const k = r.asGiven.k;
  const table = $('compare-table');
  setHeader(table, [`NDCG@${k}, DCG@${k} and IDCG@${k} of this ranking under each library’s conventions`],
    [['Conventions'], [`NDCG@${k}`], [`DCG@${k}`], [`IDCG@${k}`]]);
  // The table names each library in full; the chart, beside it, by the preset's short name.
  const rows = [{ ...r.asGiven, label: 'As set above', short: 'as set above' },
    ...r.presets.map((p) => ({ ...p, label: labelOf(p.preset), short: p.preset }))];
  const patched = patchRows(table, rows.length, COLUMNS);
  rows.forEach((row, i) => {
    const p = patched[i];
    p.flag('as-set', i === 0);
    p.text('preset', row.label);
    p.text('ndcg', row.ok ? formatNumber(row.ndcgAtK, d.ndcgDecimals) : '—');
    p.text('dcg', row.ok ? formatNumber(row.dcgAtK, d.decimals) : '—');
    p.text('idcg', row.ok ? formatNumber(row.idcgAtK, d.decimals) : '—');
  });
  renderBars($('compare-chart'), rows.filter((row) => row.ok), k, d);
  renderEffects(r, d);
}

function renderEffects(r, d) {
  const [first, second] = r.between;
  const from = r.presets.find((p) => p.preset === first);
  const to = r.presets.find((p) => p.preset === second);
  const list = $('compare-effects');
  if (first === second) {
    replaceIfChanged(list, el('li', { className: 'none' }, 'Choose two different libraries.'));
    return;
  }
  const items = [el('li', {}, `${labelOf(first)} gives NDCG@${from.k} = ${formatNumber(from.ndcgAtK, d.ndcgDecimals)}, ${labelOf(second)} gives ${formatNumber(to.ndcgAtK, d.ndcgDecimals)}. `,
    r.effects.length === 0 ? 'Their conventions are the same.' : `They differ in ${r.effects.length} convention${r.effects.length === 1 ? '' : 's'}; each one alone, switched from the first’s to the second’s:`)];
  for (const e of r.effects) {
    const moved = e.ok && Math.abs(e.change) >= 0.5 * 10 ** -Math.max(4, d.ndcgDecimals);
    items.push(el('li', { 'data-option': e.option },
      el('strong', {}, OPTION_WORDS[e.option] ?? e.option), `: ${valueWords(e.option, e.from)} → ${valueWords(e.option, e.to)}: `,
      !e.ok ? el('span', { className: 'none' }, 'cannot be computed here')
        : moved ? el('span', { className: 'change' }, `NDCG@${from.k} ${formatNumber(from.ndcgAtK, d.ndcgDecimals)} → ${formatNumber(e.ndcgAtK, d.ndcgDecimals)} (${e.change > 0 ? '+' : '−'}${formatNumber(Math.abs(e.change), Math.max(4, d.ndcgDecimals))})`)
          : el('span', { className: 'none' }, 'no effect on this input')));
  }
  replaceIfChanged(list, ...items);
}

const BAR_HEIGHT = 26;
const PAD = { left: 150, right: 56, top: 8, bottom: 30 };

/** NDCG@k per row as horizontal bars on a 0–1 axis. */
function renderBars(container, rows, k, d) {
  const width = drawingWidth(container, () => renderBars(container, rows, k, d));
  if (width === undefined) return;
  const height = PAD.top + PAD.bottom + rows.length * BAR_HEIGHT;
  // On a phone the names take less room, and the axis fewer labels.
  const pad = { ...PAD, left: Math.min(PAD.left, Math.round(width * 0.45)) };
  const { root, grid, plotW } = plotFrame({
    width, height, pad, className: 'compare-bars', title: `NDCG@${k}`,
    label: `NDCG@${k} by conventions: ${rows.map((row) => `${row.label} ${formatNumber(row.ndcgAtK, d.ndcgDecimals)}`).join(', ')}`,
  });
  const steps = plotW < 220 ? 2 : 4;
  for (let t = 0; t <= steps; t++) {
    const x = pad.left + (t / steps) * plotW;
    grid.append(svg('line', { x1: x, x2: x, y1: pad.top, y2: height - pad.bottom }));
    grid.append(svg('text', { x, y: height - pad.bottom + 14, 'text-anchor': 'middle' }, formatNumber(t / steps, 2)));
  }
  rows.forEach((row, i) => {
    const y = pad.top + i * BAR_HEIGHT;
    const w = Math.max(0, Math.min(1, row.ndcgAtK)) * plotW;
    root.append(svg('text', { x: pad.left - 8, y: y + BAR_HEIGHT / 2 + 4, 'text-anchor': 'end' }, row.short));
    root.append(svg('rect', { x: pad.left, y: y + 4, width: w, height: BAR_HEIGHT - 8, class: i === 0 ? 'bar as-set' : 'bar' }));
    root.append(svg('text', { x: pad.left + w + 6, y: y + BAR_HEIGHT / 2 + 4 }, formatNumber(row.ndcgAtK, d.ndcgDecimals)));
  });
  replaceIfChanged(container, root);
}
