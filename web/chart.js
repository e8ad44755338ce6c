// CG, DCG and IDCG (left axis) and NDCG (right axis) by rank, as a small SVG drawn here: no
// library, follows the colour theme through CSS and prints cleanly. The drawing is as wide as
// its box, so that its 12 px labels stay 12 px on a phone; each line has its own marker (the
// NDCG line can lie on another at some ranks), and the cut-off k is marked.
import { formatNumber } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const HEIGHT = 280;
const PAD = { left: 44, right: 40, top: 34, bottom: 36 };
const MAX_POINTS = 800;  // long rankings are sampled; the table keeps every rank
const MAX_MARKERS = 40;  // beyond that, markers would merge into a band

export function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Box widths as the ResizeObserver last reported them (after layout). Reading clientWidth while
// rendering would force a layout of the freshly patched tables on every keystroke.
const widths = new WeakMap();
const clamp = (width) => Math.round(Math.max(320, Math.min(900, width || 720)));

const drawn = new WeakMap();
const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver((entries) => {
  for (const entry of entries) {
    if (entry.contentRect.width === 0) continue;  // hidden (another tab): keep the last width
    widths.set(entry.target, clamp(entry.contentRect.width));
    const state = drawn.get(entry.target);
    if (state && Math.abs(widths.get(entry.target) - state.width) > 24) state.draw();
  }
});
/**
 * The width to draw `container` at, within 320–900 px, with `draw()` called again when the
 * box's width changes (a phone turned, a window resized). Undefined until the ResizeObserver has
 * reported the width, which it does after the first layout: the first drawing waits for it.
 */
export function drawingWidth(container, draw) {
  if (!drawn.has(container)) observer?.observe(container);
  if (!observer && !widths.has(container)) widths.set(container, 720);
  const width = widths.get(container);
  drawn.set(container, { width: width ?? 0, draw });
  return width;
}

function niceMax(value) {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((m) => m >= value);
}

// One marker shape per line: CG square, DCG circle, IDCG triangle, NDCG diamond.
function marker(field, cx, cy) {
  const r = 3.6;
  if (field === 'cg') return svg('rect', { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r });
  if (field === 'dcg') return svg('circle', { cx, cy, r });
  if (field === 'idcg') return svg('path', { d: `M${cx},${cy - r - 0.8}L${cx + r + 0.6},${cy + r}L${cx - r - 0.6},${cy + r}Z` });
  return svg('path', { d: `M${cx},${cy - r - 1}L${cx + r + 1},${cy}L${cx},${cy + r + 1}L${cx - r - 1},${cy}Z` });
}

export function renderChart(container, result) {
  const rows = result.rows;
  if (rows.length === 0) {
    container.replaceChildren();
    return;
  }
  const WIDTH = drawingWidth(container, () => renderChart(container, result));
  if (WIDTH === undefined) return;
  const step = Math.max(1, Math.ceil(rows.length / MAX_POINTS));
  const sample = rows.filter((_, i) => i % step === 0 || i === rows.length - 1);
  const left = niceMax(Math.max(...sample.map((r) => Math.max(r.cg, r.idcg, r.dcg))));
  const n = rows.length;
  const k = result.summary.k;
  const x = (rank) => PAD.left + (n === 1 ? 0.5 : (rank - 1) / (n - 1)) * (WIDTH - PAD.left - PAD.right);
  const yLeft = (v) => HEIGHT - PAD.bottom - (v / left) * (HEIGHT - PAD.top - PAD.bottom);
  const yRight = (v) => HEIGHT - PAD.bottom - Math.min(1, Math.max(0, v)) * (HEIGHT - PAD.top - PAD.bottom);

  const last = rows[rows.length - 1];
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: 'img', class: 'chart-svg',
    'aria-label': `Chart over ${n} ranks, cut-off k = ${k}: at rank ${n}, CG ${formatNumber(last.cg, 2)}, DCG ${formatNumber(last.dcg, 2)}, IDCG ${formatNumber(last.idcg, 2)}, NDCG ${formatNumber(last.ndcg, 2)}.`,
  });
  const grid = svg('g', { class: 'grid' });
  for (let t = 0; t <= 4; t++) {
    const y = PAD.top + (t / 4) * (HEIGHT - PAD.top - PAD.bottom);
    grid.append(svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y, y2: y }));
    grid.append(svg('text', { x: PAD.left - 6, y: y + 4, 'text-anchor': 'end' }, formatNumber(left * (1 - t / 4), 2, { trim: true })));
    grid.append(svg('text', { x: WIDTH - PAD.right + 6, y: y + 4 }, formatNumber(1 - t / 4, 2)));
  }
  // Rank labels at least 28 px apart: every rank when they fit, else round steps.
  const fit = Math.max(1, Math.floor((WIDTH - PAD.left - PAD.right) / 28));
  const stepSize = n <= fit ? 1 : niceMax(n / Math.min(fit, 8));
  const ranks = stepSize === 1 ? Array.from({ length: n }, (_, i) => i + 1)
    : [1, ...Array.from({ length: Math.floor(n / stepSize) }, (_, i) => (i + 1) * stepSize)];
  for (const rank of ranks) {
    grid.append(svg('text', { x: x(rank), y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle' }, String(rank)));
  }
  grid.append(svg('text', { x: (WIDTH + PAD.left - PAD.right) / 2, y: HEIGHT - 4, 'text-anchor': 'middle' }, 'rank'));
  root.append(grid);

  if (k >= 1 && k <= n) {
    const kx = x(k);
    root.append(svg('line', { x1: kx, x2: kx, y1: PAD.top - 4, y2: HEIGHT - PAD.bottom, class: 'cutoff' }));
    root.append(svg('text', { x: kx, y: PAD.top - 8, 'text-anchor': kx > WIDTH - 80 ? 'end' : 'middle', class: 'cutoff-label' }, `k = ${k}`));
  }

  const series = [
    ['cg', 'CG', yLeft], ['dcg', 'DCG', yLeft], ['idcg', 'IDCG', yLeft], ['ndcg', 'NDCG (right axis)', yRight],
  ];
  const markers = sample.length <= MAX_MARKERS;
  const legend = svg('g', { class: 'legend' });
  let lx = PAD.left;
  series.forEach(([field, name, y]) => {
    const points = sample.map((r) => `${x(r.rank).toFixed(1)},${y(r[field]).toFixed(1)}`).join(' ');
    root.append(svg('polyline', { points, class: `series ${field}` }));
    if (markers) {
      const group = svg('g', { class: `markers ${field}` });
      for (const r of sample) group.append(marker(field, x(r.rank), y(r[field])));
      root.append(group);
    }
    legend.append(svg('line', { x1: lx, x2: lx + 22, y1: 12, y2: 12, class: `series ${field}` }));
    const key = svg('g', { class: `markers ${field}` });
    key.append(marker(field, lx + 11, 12));
    legend.append(key);
    legend.append(svg('text', { x: lx + 27, y: 16 }, name));
    lx += 36 + name.length * 7.2;
  });
  root.append(legend);
  container.replaceChildren(root);
}
