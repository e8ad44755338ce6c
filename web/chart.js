// CG, DCG and IDCG (left axis) and NDCG (right axis) by rank, as a small SVG (see svg.js). The
// drawing is as wide as its box, so that its 12 px labels stay 12 px on a phone; each line has
// its own marker (the NDCG line can lie on another at some ranks), and the cut-off k is marked.
import { formatNumber } from './format.js';
import { stepColumns } from './steps.js';
import { drawingWidth, niceMax, plotFrame, svg } from './svg.js';

const HEIGHT = 280;
const PAD = { left: 44, right: 40, top: 34, bottom: 36 };
const MAX_POINTS = 800;  // long rankings are sampled; the table keeps every rank
const MAX_MARKERS = 40;  // beyond that, markers would merge into a band

// One marker shape per line: CG square, DCG circle, IDCG triangle, NDCG diamond.
function marker(field, cx, cy) {
  const r = 3.6;
  if (field === 'cg') return svg('rect', { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r });
  if (field === 'dcg') return svg('circle', { cx, cy, r });
  if (field === 'idcg') return svg('path', { d: `M${cx},${cy - r - 0.8}L${cx + r + 0.6},${cy + r}L${cx - r - 0.6},${cy + r}Z` });
  return svg('path', { d: `M${cx},${cy - r - 1}L${cx + r + 1},${cy}L${cx},${cy + r + 1}L${cx - r - 1},${cy}Z` });
}

const SERIES = [['cg', 'CG', 'left'], ['dcg', 'DCG', 'left'], ['idcg', 'IDCG', 'left'], ['ndcg', 'NDCG (right axis)', 'right']];

// What each container shows: its frame's key, and per line the values it was drawn from. An edit
// of a long list redraws only the lines whose values changed (the ideal's seldom does), and keeps
// the axes, labels and legend, which Chromium would otherwise lay out again as text.
const charts = new WeakMap();

export function renderChart(container, result) {
  const { length: n, columns: c } = stepColumns(result);
  if (n === 0) {
    charts.delete(container);
    container.replaceChildren();
    return;
  }
  const WIDTH = drawingWidth(container, () => renderChart(container, result));
  if (WIDTH === undefined) return;
  const step = Math.max(1, Math.ceil(n / MAX_POINTS));
  // The ranks drawn (indices into the columns): every step-th, and the last.
  const sample = [];
  for (let i = 0; i < n; i += step) sample.push(i);
  if (sample[sample.length - 1] !== n - 1) sample.push(n - 1);
  let top = 0;
  for (const i of sample) top = Math.max(top, c.cg[i], c.idcg[i], c.dcg[i]);
  const left = niceMax(top);
  const k = result.summary.k;
  const x = (rank) => PAD.left + (n === 1 ? 0.5 : (rank - 1) / (n - 1)) * (WIDTH - PAD.left - PAD.right);
  const yLeft = (v) => HEIGHT - PAD.bottom - (v / left) * (HEIGHT - PAD.top - PAD.bottom);
  const yRight = (v) => HEIGHT - PAD.bottom - Math.min(1, Math.max(0, v)) * (HEIGHT - PAD.top - PAD.bottom);
  const markers = sample.length <= MAX_MARKERS;
  const last = n - 1;
  const label = `Chart over ${n} ranks, cut-off k = ${k}: at rank ${n}, CG ${formatNumber(c.cg[last], 2)}, DCG ${formatNumber(c.dcg[last], 2)}, IDCG ${formatNumber(c.idcg[last], 2)}, NDCG ${formatNumber(c.ndcg[last], 2)}.`;
  const key = `${WIDTH}|${n}|${k}|${left}`;

  let chart = charts.get(container);
  if (chart?.key !== key || chart.root.parentNode !== container) {
    // x of each sampled rank, as the points attribute writes it: the same for every line.
    chart = { ...drawFrame(container, { WIDTH, n, k, left, x, label }), key, label, xs: sample.map((i) => `${x(i + 1).toFixed(1)},`) };
    charts.set(container, chart);
  } else if (chart.label !== label) {
    chart.root.setAttribute('aria-label', label);
    chart.label = label;
  }

  for (const line of chart.lines) {
    const y = line.axis === 'left' ? yLeft : yRight;
    const column = c[line.field];
    const values = sample.map((i) => column[i]);
    if (line.values !== null && line.values.length === values.length && line.values.every((v, j) => v === values[j])) continue;
    line.values = values;
    line.poly.setAttribute('points', values.map((v, j) => `${chart.xs[j]}${y(v).toFixed(1)}`).join(' '));
    if (markers) line.markers.replaceChildren(...sample.map((i, j) => marker(line.field, x(i + 1), y(values[j]))));
    else line.markers.replaceChildren();
  }
}

/**
 * Draws the chart's axes, ticks, cut-off and legend into `container`, with an empty line and
 * marker group per series; returns { root, lines }.
 */
function drawFrame(container, { WIDTH, n, k, left, x, label }) {
  const { root, grid } = plotFrame({
    width: WIDTH, height: HEIGHT, pad: PAD, title: 'rank', label,
    left: (t) => formatNumber(left * t, 2, { trim: true }),
    right: (t) => formatNumber(t, 2),
  });
  // Rank labels at least 28 px apart: every rank when they fit, else round steps.
  const fit = Math.max(1, Math.floor((WIDTH - PAD.left - PAD.right) / 28));
  const stepSize = n <= fit ? 1 : niceMax(n / Math.min(fit, 8));
  const ranks = stepSize === 1 ? Array.from({ length: n }, (_, i) => i + 1)
    : [1, ...Array.from({ length: Math.floor(n / stepSize) }, (_, i) => (i + 1) * stepSize)];
  for (const rank of ranks) {
    grid.append(svg('text', { x: x(rank), y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle' }, String(rank)));
  }

  if (k >= 1 && k <= n) {
    const kx = x(k);
    root.append(svg('line', { x1: kx, x2: kx, y1: PAD.top - 4, y2: HEIGHT - PAD.bottom, class: 'cutoff' }));
    root.append(svg('text', { x: kx, y: PAD.top - 8, 'text-anchor': kx > WIDTH - 80 ? 'end' : 'middle', class: 'cutoff-label' }, `k = ${k}`));
  }

  const lines = [];
  const legend = svg('g', { class: 'legend' });
  let lx = PAD.left;
  for (const [field, name, axis] of SERIES) {
    const poly = svg('polyline', { points: '', class: `series ${field}` });
    const markers = svg('g', { class: `markers ${field}` });
    root.append(poly, markers);
    lines.push({ field, axis, poly, markers, values: null });
    legend.append(svg('line', { x1: lx, x2: lx + 22, y1: 12, y2: 12, class: `series ${field}` }));
    const key = svg('g', { class: `markers ${field}` });
    key.append(marker(field, lx + 11, 12));
    legend.append(key);
    legend.append(svg('text', { x: lx + 27, y: 16 }, name));
    lx += 36 + name.length * 7.2;
  }
  root.append(legend);
  container.replaceChildren(root);
  return { root, lines };
}
