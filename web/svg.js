// The small SVG toolkit both charts draw with (the NDCG chart and the TREC histogram): elements,
// a width that follows the box, round axis maxima, and the frame of a plot. No library: SVG
// follows the colour theme through CSS and prints cleanly.
const SVG = 'http://www.w3.org/2000/svg';

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

export function niceMax(value) {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((m) => m >= value);
}

/**
 * The frame of a plot `width` × `height` with padding `pad`: the root <svg> (role img, labelled
 * `label`), `title` under the x axis, and, when `left` is given, a grid of five horizontal lines
 * with the left axis labelled by `left(t)` (t from 1 at the top to 0) and the right axis by
 * `right(t)` when given.
 * Returns { root, grid, plotW, plotH } for the plot to draw into.
 */
export function plotFrame({ width, height, pad, label, className, left, right, title }) {
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', class: `chart-svg ${className ?? ''}`.trim(), 'aria-label': label,
  });
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const grid = svg('g', { class: 'grid' });
  for (let t = 0; t <= 4 && left; t++) {
    const y = pad.top + (t / 4) * plotH;
    grid.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y, y2: y }));
    grid.append(svg('text', { x: pad.left - 6, y: y + 4, 'text-anchor': 'end' }, left(1 - t / 4)));
    if (right) grid.append(svg('text', { x: width - pad.right + 6, y: y + 4 }, right(1 - t / 4)));
  }
  grid.append(svg('text', { x: pad.left + plotW / 2, y: height - 4, 'text-anchor': 'middle' }, title));
  root.append(grid);
  return { root, grid, plotW, plotH };
}
