// CG, DCG and IDCG (left axis) and NDCG (right axis) by rank, as a small SVG drawn here: no
// library, scales with the page, follows the colour theme through CSS and prints cleanly.
import { formatNumber } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 720;
const HEIGHT = 280;
const PAD = { left: 48, right: 48, top: 34, bottom: 36 };
const MAX_POINTS = 800;  // long rankings are sampled; the table keeps every rank

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function niceMax(value) {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((m) => m >= value);
}

export function renderChart(container, result) {
  const rows = result.rows;
  if (rows.length === 0) {
    container.replaceChildren();
    return;
  }
  const step = Math.max(1, Math.ceil(rows.length / MAX_POINTS));
  const sample = rows.filter((_, i) => i % step === 0 || i === rows.length - 1);
  const left = niceMax(Math.max(...sample.map((r) => Math.max(r.cg, r.idcg, r.dcg))));
  const n = rows.length;
  const x = (rank) => PAD.left + (n === 1 ? 0.5 : (rank - 1) / (n - 1)) * (WIDTH - PAD.left - PAD.right);
  const yLeft = (v) => HEIGHT - PAD.bottom - (v / left) * (HEIGHT - PAD.top - PAD.bottom);
  const yRight = (v) => HEIGHT - PAD.bottom - Math.min(1, Math.max(0, v)) * (HEIGHT - PAD.top - PAD.bottom);

  const last = rows[rows.length - 1];
  const root = svg('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'chart-svg',
    'aria-label': `Chart over ${n} ranks: at rank ${n}, CG ${formatNumber(last.cg, 2)}, DCG ${formatNumber(last.dcg, 2)}, IDCG ${formatNumber(last.idcg, 2)}, NDCG ${formatNumber(last.ndcg, 2)}.`,
  });
  const grid = svg('g', { class: 'grid' });
  for (let t = 0; t <= 4; t++) {
    const y = PAD.top + (t / 4) * (HEIGHT - PAD.top - PAD.bottom);
    grid.append(svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y, y2: y }));
    grid.append(svg('text', { x: PAD.left - 6, y: y + 4, 'text-anchor': 'end' }, formatNumber(left * (1 - t / 4), 2, { trim: true })));
    grid.append(svg('text', { x: WIDTH - PAD.right + 6, y: y + 4 }, formatNumber(1 - t / 4, 2)));
  }
  // Every rank up to 20, beyond that round steps (1, 5, 10, … or 1, 50, 100, …).
  const stepSize = n <= 20 ? 1 : niceMax(n / 8);
  const ranks = n <= 20 ? Array.from({ length: n }, (_, i) => i + 1)
    : [1, ...Array.from({ length: Math.floor(n / stepSize) }, (_, i) => (i + 1) * stepSize)];
  for (const rank of ranks) {
    grid.append(svg('text', { x: x(rank), y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle' }, String(rank)));
  }
  grid.append(svg('text', { x: (WIDTH + PAD.left - PAD.right) / 2, y: HEIGHT - 4, 'text-anchor': 'middle' }, 'rank'));
  root.append(grid);

  const series = [
    ['cg', 'CG', yLeft], ['dcg', 'DCG', yLeft], ['idcg', 'IDCG', yLeft], ['ndcg', 'NDCG', yRight],
  ];
  const legend = svg('g', { class: 'legend' });
  series.forEach(([field, name, y], index) => {
    const points = sample.map((r) => `${x(r.rank).toFixed(1)},${y(r[field]).toFixed(1)}`).join(' ');
    root.append(svg('polyline', { points, class: `series ${field}` }));
    const lx = PAD.left + 8 + index * 80;
    legend.append(svg('line', { x1: lx, x2: lx + 18, y1: 12, y2: 12, class: `series ${field}` }));
    legend.append(svg('text', { x: lx + 22, y: 16 }, name));
  });
  root.append(legend);
  container.replaceChildren(root);
}
