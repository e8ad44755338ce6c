// Histogram of one measure over the queries, as SVG (see svg.js). Drawn as wide as its box, so
// that its labels keep their size on a phone.
import { formatNumber } from './format.js';
import { drawingWidth, plotFrame, svg } from './svg.js';

const HEIGHT = 220;
const PAD = { left: 44, right: 16, top: 12, bottom: 36 };

/** Counts of `values` in `bins` equal bins over [0, top]; the last bin includes `top`. */
export function binCounts(values, bins, top) {
  const counts = new Array(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.max(0, Math.floor((v / top) * bins)))] += 1;
  return counts;
}

export function renderHistogram(container, values, name) {
  const WIDTH = drawingWidth(container, () => renderHistogram(container, values, name));
  if (WIDTH === undefined) return;
  // A loop, not Math.max(...values): a spread of a million values passes the engine's limit on
  // a call's arguments.
  let top = 1;
  for (const v of values) if (v > top) top = v;
  const bins = 10;
  const counts = binCounts(values, bins, top);
  // Counts are whole numbers: the axis goes up to a multiple of 4 so its 5 labels are too.
  const highest = Math.max(4, Math.ceil(Math.max(...counts) / 4) * 4);
  const { root, grid, plotW, plotH } = plotFrame({
    width: WIDTH, height: HEIGHT, pad: PAD, className: 'histogram', title: name,
    label: `Histogram of ${name} over ${values.length} queries: ${counts.map((c, i) => `${formatNumber((i * top) / bins, 2)}–${formatNumber(((i + 1) * top) / bins, 2)}: ${c}`).join(', ')}`,
    left: (t) => formatNumber(highest * t, 0),
  });
  // Every bin edge where 11 labels fit, every other one on a phone.
  const every = plotW / bins < 34 ? 2 : 1;
  for (let i = 0; i <= bins; i += every) {
    grid.append(svg('text', { x: PAD.left + (i / bins) * plotW, y: HEIGHT - PAD.bottom + 16, 'text-anchor': 'middle' },
      formatNumber((i * top) / bins, top > 1 ? 0 : 1)));
  }
  counts.forEach((count, i) => {
    const h = (count / highest) * plotH;
    root.append(svg('rect', {
      x: PAD.left + (i / bins) * plotW + 1, y: PAD.top + plotH - h, width: plotW / bins - 2, height: h, class: 'bar',
    }));
  });
  container.replaceChildren(root);
}
