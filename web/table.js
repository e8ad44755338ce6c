// Tables patched in place: an edit of one line of a 1,000-row ranking changes a few thousand
// strings, not 2,000 rows of DOM, which keeps recomputation inside one frame. A row's cells are
// slots named by what they show (data-field), and each remembers what it last showed: comparing
// strings in JS is far cheaper than reading the DOM back.
//
// A long table is drawn in blocks of rows. Laid out as a table, a thousand rows cost the browser
// more than the whole recomputation: one changed cell lays out every row again, since any cell may
// widen its column. Past LONG_ROWS rows a table the renderer fits (fitColumns) becomes rows of a
// grid whose columns are measured once, from the widest cell of each, and each block of
// BLOCK_ROWS rows (a <tbody>) is laid out only when it is near the screen (style.css). Every row
// stays in the document: find in page, copying, printing and screen readers see all of them.
// An edit patches the blocks near the screen in its own frame, and the others in a task after it
// (fillNearFirst): below an edit at rank 1, every DCG and NDCG of a thousand rows changes.
import { el, replaceIfChanged } from './format.js';

const bodies = new WeakMap();
const BLOCK_ROWS = 50;
const LONG_ROWS = 50;

export function writeText(cell, text) {
  const only = cell.firstChild;
  if (only !== null && only === cell.lastChild && only.nodeType === Node.TEXT_NODE) only.data = text;
  else cell.textContent = text;
}

// Equal to nothing same() is given (a fresh object): a slot not yet shown, or forgotten.
const FORGOTTEN = Object.freeze({});

class PatchedRow {
  constructor(tr, cells, slots, count, table) {
    this.tr = tr;
    this.cells = cells;  // field -> cell
    this.lengths = new Array(count).fill(0);  // characters each slot shows (for fitColumns)
    this.table = table;  // its table's state (patchRows): the lengths its columns were fitted to
    this.keys = Object.create(null);  // field -> what it last showed
    this.flags = Object.create(null);  // class name -> whether the row has it
    this.slot = slots;  // field -> its index among the row's slots
    this.inputs = new Array(4 * count).fill(FORGOTTEN);  // what each slot was last shown from (same())
    this.working = null;  // free for a renderer to remember what its slow texts were built from
  }

  /**
   * Whether the slot was last shown from these same inputs (numbers, strings, booleans); when
   * not, remembers them, and the caller shows it anew. Most cells of a long table keep their
   * inputs from one edit to the next: comparing them makes no text at all, where formatting
   * them anew made thousands of strings for the garbage collector per keystroke.
   */
  same(field, a, b = null, c = null, d = null) {
    // Four inputs per slot in one array per row: a table of a thousand rows keeps a thousand of
    // these, not one object per cell for the garbage collector to trace.
    const at = this.slot[field] * 4;
    const m = this.inputs;
    if (m[at] === a && m[at + 1] === b && m[at + 2] === c && m[at + 3] === d) return true;
    m[at] = a;
    m[at + 1] = b;
    m[at + 2] = c;
    m[at + 3] = d;
    return false;
  }

  /** Notes that slot `slot` shows `length` characters, and whether its column must widen. */
  setLength(slot, length) {
    this.lengths[slot] = length;
    const { fitted } = this.table;
    if (fitted !== null && length > fitted.lengths[slot]) this.table.grew = true;
  }

  /** Forgets what the slot was shown from: the next same() for it is false. */
  forget(field) {
    this.inputs[this.slot[field] * 4] = FORGOTTEN;
  }

  /** Shows `text` in the slot, if it is not what the slot shows already. */
  text(field, text) {
    if (this.keys[field] === text) return;
    this.keys[field] = text;
    this.setLength(this.slot[field], text.length);
    writeText(this.cells[field], text);
  }

  /** Replaces the slot's content with `build(cell)` (call it when same() says the inputs changed). */
  content(field, build) {
    this.keys[field] = undefined;
    const cell = this.cells[field];
    const content = build(cell);
    if (content === null || content === undefined) cell.replaceChildren();
    else cell.replaceChildren(content);
    this.setLength(this.slot[field], cell.textContent.length);
  }

  /** A number as shown, and, when it is shown rounded another way, the exact one beside it. */
  value(field, text, exact = null) {
    const key = exact === null ? text : `${text}|${exact}`;
    if (this.keys[field] === key) return;
    this.keys[field] = key;
    const cell = this.cells[field];
    cell.classList.toggle('changed', exact !== null);
    if (exact === null) {
      this.setLength(this.slot[field], text.length);
      writeText(cell, text);
      return;
    }
    // The exact value stands on a line of its own (.exact is a block): the longer line counts.
    const note = `exact ${exact}`;
    this.setLength(this.slot[field], Math.max(text.length, note.length));
    cell.replaceChildren(text, el('span', { className: 'exact' }, note));
  }

  /** Sets a class of the row on or off. */
  flag(name, on) {
    if (this.flags[name] === on) return;
    this.flags[name] = on;
    this.tr.classList.toggle(name, on);
  }
}

// Whether each block of rows is near the screen (within half a screen of it), as an
// IntersectionObserver last said; a block it has not yet reported counts as near.
const near = new WeakMap();
const watcher = typeof IntersectionObserver === 'undefined' ? null : new IntersectionObserver((entries) => {
  for (const entry of entries) near.set(entry.target, entry.isIntersecting);
}, { rootMargin: '50% 0px' });

const isNear = (body) => watcher === null || near.get(body) !== false;

/** The table's `k`th block of rows (its `k`th <tbody>), made when missing. */
function block(table, k) {
  while (table.tBodies.length <= k) {
    const body = document.createElement('tbody');
    if (table.tFoot) table.tFoot.before(body);
    else table.append(body);
    watcher?.observe(body);
  }
  return table.tBodies[k];
}

function dropBlock(body) {
  watcher?.unobserve(body);
  body.remove();
}

/**
 * Makes `table` hold exactly `count` rows, BLOCK_ROWS to a <tbody>, with one slot for each of
 * `columns` ({ field, className }; the first is the row header), and returns them. A change of
 * columns (a score column that comes and goes) rebuilds the rows.
 */
export function patchRows(table, count, columns) {
  const signature = columns.map((c) => c.field).join(' ');
  // A table emptied by its page (replaceChildren) starts again from its new first block.
  const first = block(table, 0);
  let state = bodies.get(table);
  if (!state || state.signature !== signature || state.first !== first) {
    for (const row of state?.rows ?? []) row.tr.remove();
    // Blocks the page emptied out of the table are no longer watched.
    for (const body of state?.blocks ?? []) if (body.parentNode !== table) watcher?.unobserve(body);
    state?.waiting?.disconnect();
    state = {
      signature,
      first,
      rows: [],
      slots: Object.fromEntries(columns.map(({ field }, i) => [field, i])),
      fitted: null,  // what fitColumns last measured
      // Whether a row's cell grew past the length its column was fitted to (PatchedRow.setLength):
      // an edit that widens no column costs no look at a thousand rows.
      grew: false,
      sizer: state?.sizer ?? null,  // its hidden copy of the titles and the longest cells
      waiting: null,  // its wait for a hidden table to be shown
      blocks: null,  // its <tbody>s when the rows were last patched
      later: 0,  // the latest fillNearFirst's turn: an older one's rows left for later are its
    };
    bodies.set(table, state);
  }
  const { rows } = state;
  const had = rows.length;
  while (rows.length > count) rows.pop().tr.remove();
  for (let k = table.tBodies.length - 1; k >= Math.max(1, Math.ceil(count / BLOCK_ROWS)); k--) dropBlock(table.tBodies[k]);
  while (rows.length < count) {
    const cells = {};
    const list = columns.map(({ field, className = '' }, c) => {
      const cell = c === 0
        ? el('th', { scope: 'row', className, 'data-field': field })
        : el('td', { className, 'data-field': field });
      cells[field] = cell;
      return cell;
    });
    const tr = document.createElement('tr');
    tr.append(...list);
    block(table, Math.floor(rows.length / BLOCK_ROWS)).append(tr);
    rows.push(new PatchedRow(tr, cells, state.slots, columns.length, state));
  }
  state.blocks = [...table.tBodies];
  // A block not yet laid out stands in at its rows' height (style.css): the last one may hold
  // fewer, and a block that was last may have filled up since. Only the blocks from the first
  // whose rows came or went are looked at: an edit that keeps the count looks at none.
  if (had !== count) {
    for (const body of state.blocks.slice(Math.floor(Math.min(had, count) / BLOCK_ROWS))) {
      const held = body.rows.length === BLOCK_ROWS ? '' : String(body.rows.length);
      if (body.style.getPropertyValue('--rows') !== held) body.style.setProperty('--rows', held);
    }
  }
  return rows;
}

// Tables with rows left for after the frame, and how to fill them: printing fills them first.
const unfilled = new Map();
if (typeof window !== 'undefined') {
  window.addEventListener('beforeprint', () => {
    for (const finish of [...unfilled.values()]) finish();
  });
}

/** Fills now the rows fillNearFirst left for after the frame: for a table about to be scrolled to. */
export function fillAll(table) {
  unfilled.get(table)?.();
}

/**
 * Fills `rows` (what patchRows returned for `table`) with `fill(row, i)`: now, the rows of a short
 * table and those of the blocks near the screen; in a task after the next frame, the others,
 * unless a newer call for the table comes first (it fills them itself). Then fits the columns.
 * Rows left for later show what they showed for at most that frame, off the screen.
 */
export function fillNearFirst(table, rows, fill) {
  const state = bodies.get(table);
  const turn = state.later + 1;
  state.later = turn;
  unfilled.delete(table);
  const later = [];
  for (let from = 0; from < rows.length; from += BLOCK_ROWS) {
    const to = Math.min(rows.length, from + BLOCK_ROWS);
    if (rows.length > LONG_ROWS && !isNear(rows[from].tr.parentNode)) {
      later.push(from);
      continue;
    }
    for (let i = from; i < to; i++) fill(rows[i], i);
  }
  fitColumns(table);
  if (later.length === 0) return;
  const finish = () => {
    // A newer call's rows may be waiting by now: only this call's entry goes.
    if (unfilled.get(table) === finish) unfilled.delete(table);
    if (state.later !== turn || bodies.get(table) !== state) return;
    state.later += 1;
    for (const from of later) {
      for (let i = from; i < Math.min(rows.length, from + BLOCK_ROWS); i++) fill(rows[i], i);
    }
    fitColumns(table);
  };
  unfilled.set(table, finish);
  afterFrame().then(finish);
}

/** Resolves in a task of its own, after the next frame is drawn. */
export function afterFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

const drawings = new WeakMap();
const FIRST_ROWS = BLOCK_ROWS;
const FRAME_BUDGET_MS = 8;

/**
 * Patches `count` rows into `table` (patchRows, with `columns`) and fills row i with
 * `fill(row, i)`, a block at a time over as many frames as it takes: the first frame draws
 * FIRST_ROWS rows (more than a screen holds), each later one blocks for about FRAME_BUDGET_MS.
 * The 500 rows of the TREC tab's first page, drawn at once, took 30-50 ms of script. Rows a
 * previous drawing left keep what they showed until their turn comes; a newer drawing of the
 * table (a sort, new results) takes over. The columns are fitted (fitColumns) as the rows come,
 * for `count` rows.
 */
export function drawRows(table, count, columns, fill) {
  const drawing = (drawings.get(table) ?? 0) + 1;
  drawings.set(table, drawing);
  let done = 0;
  const step = (least) => {
    if (drawings.get(table) !== drawing) return;
    const started = performance.now();
    while (done < count && (least > 0 ? done < least : performance.now() - started < FRAME_BUDGET_MS)) {
      const to = Math.min(count, done + BLOCK_ROWS);
      const kept = Math.min(count, bodies.get(table)?.rows.length ?? 0);
      const rows = patchRows(table, Math.max(to, kept), columns);
      for (let i = done; i < to; i++) fill(rows[i], i);
      done = to;
    }
    if (done === 0) patchRows(table, 0, columns);
    fitColumns(table, count);
    // In a task after the next frame, rather than in it: the frame that first shows the rows
    // lays them out and paints them, and drawing more inside it made it longer.
    if (done < count) afterFrame().then(() => step(0));
  };
  step(FIRST_ROWS);
}

/**
 * The row with the longest text in each of the `n` slots. A function of its own: V8 optimises a
 * long loop while it runs, and code after the loop, optimised before it first ran, sent each
 * later call of the function around it back to the interpreter.
 */
function widestRows(rows, n) {
  const widest = new Array(n).fill(0);
  for (let i = 0; i < rows.length; i++) {
    const lengths = rows[i].lengths;
    for (let c = 0; c < n; c++) if (lengths[c] > rows[widest[c]].lengths[c]) widest[c] = i;
  }
  return widest;
}

/**
 * Lays a table of more than LONG_ROWS rows (`expected`, when more are still to come) out as
 * blocks of grid rows (see the top of this file), after its rows are patched. Each column is as
 * wide as the wider of its title and its longest cell, measured in a hidden copy of the two laid
 * out as a table; more room is shared out in proportion. While the titles stay, columns only
 * widen: a column does not jump back and forth as a long value comes and goes, and a shorter
 * value costs no measuring. A table that is not shown (a hidden tab) is measured once it is.
 * Inside fittingTogether(), the measuring waits for the end of its drawing.
 */
export function fitColumns(table, expected = bodies.get(table)?.rows.length ?? 0) {
  if (together !== null) together.set(table, expected);
  else fitAll([[table, expected]]);
}

// The tables whose columns wait to be fitted, with the rows each expects, inside fittingTogether.
let together = null;

/**
 * Runs `draw`, which draws tables, and then fits the columns of every table it drew (fitColumns)
 * in one layout: measured one after the other, each table's copy was laid out anew, a forced
 * layout of the page each (15-20 ms apiece for the two tables of a TREC query's explanation, on a
 * slow machine). All the copies are written first, then all measured, then all fitted. Returns
 * what `draw` returns.
 */
export function fittingTogether(draw) {
  if (together !== null) return draw();
  together = new Map();
  let tables;
  let drawn;
  try {
    drawn = draw();
  } finally {
    tables = together;
    together = null;
  }
  fitAll(tables);
  return drawn;
}

// Fits the columns of each [table, expected rows] of `entries`: every copy written, then every
// one measured (one layout), then every table fitted.
function fitAll(entries) {
  const plans = [...entries].map(([table, expected]) => planFit(table, expected)).filter((plan) => plan !== null);
  const measures = plans.map(measureFit);
  plans.forEach((plan, i) => applyFit(plan, measures[i]));
}

// What fitting a table's columns needs measured, its hidden copy written: null when nothing does
// (a short table, or columns that still fit).
function planFit(table, expected) {
  const state = bodies.get(table);
  const rows = state?.rows ?? [];
  if (expected <= LONG_ROWS || rows.length === 0 || !table.tHead) {
    table.classList.remove('long');
    if (state) state.fitted = null;
    return null;
  }
  const n = rows[0].lengths.length;
  const titles = table.tHead.dataset.key;
  const fitted = state.fitted?.titles === titles ? state.fitted : null;
  if (fitted && !state.grew) return null;
  const widest = widestRows(rows, n);
  // A length that grew past its column's may have gone again (a row removed, a value shortened).
  if (fitted && widest.every((i, c) => rows[i].lengths[c] <= fitted.lengths[c])) {
    state.grew = false;
    return null;
  }
  if (!state.sizer) {
    // Clipped to nothing, so that it neither shows nor widens the page.
    state.sizer = el('div', { className: 'column-sizer', 'aria-hidden': 'true' }, el('table'));
    table.after(state.sizer);
  }
  // Laid out as blocks before it is measured: a thousand rows laid out as a table, for that
  // measure, cost more than the whole update.
  table.classList.add('long');
  const copy = state.sizer.firstChild;
  copy.className = table.className.replace(/\blong\b/, '').trim();
  copy.replaceChildren(
    el('thead', {}, el('tr', {}, ...[...table.tHead.rows[0].cells].map((cell) => cell.cloneNode(true)))),
    el('tbody', {}, el('tr', {}, ...widest.map((i, c) => rows[i].tr.cells[c].cloneNode(true)))),
  );
  return { table, state, rows, titles, fitted, widest, copy };
}

// The widths of a planned table's columns and the height of a row, from its copy.
function measureFit({ copy }) {
  return {
    widths: [...copy.tHead.rows[0].cells].map((cell) => cell.getBoundingClientRect().width),
    // A row's height, for the blocks not yet laid out to stand in at (style.css): with a guess
    // instead, a block laid out as it neared the screen moved what was below it, a button a
    // person was about to click included.
    rowSize: copy.tBodies[0].rows[0].getBoundingClientRect().height,
  };
}

function applyFit({ table, state, rows, titles, fitted, widest, copy }, { widths: measured, rowSize }) {
  copy.replaceChildren();
  if (measured.every((w) => w === 0)) {
    // Not shown (a hidden tab or section): measured once it is, in the frame that shows it,
    // before it is painted. It stays in blocks meanwhile: as a table, that frame would first lay
    // out every row (500 rows of the TREC tab's first page: 120 ms of style and layout).
    state.fitted = null;
    state.waiting ??= new ResizeObserver(() => {
      if (table.getBoundingClientRect().width === 0) return;
      state.waiting.disconnect();
      state.waiting = null;
      fitColumns(table);
    });
    state.waiting.observe(table);
    return;
  }
  const widths = measured.map((w, c) => Math.max(w, fitted?.widths[c] ?? 0));
  state.fitted = {
    titles,
    widths,
    lengths: widest.map((i, c) => Math.max(rows[i].lengths[c], fitted?.lengths[c] ?? 0)),
  };
  state.grew = false;
  const total = widths.reduce((a, b) => a + b, 0);
  table.style.setProperty('--columns', widths.map((w) => `minmax(${w.toFixed(2)}px, ${w.toFixed(2)}fr)`).join(' '));
  table.style.setProperty('--columns-width', `${Math.ceil(total)}px`);
  table.style.setProperty('--row-size', `${rowSize}px`);
  table.classList.add('long');
}

/**
 * The table's caption and header row ([text, title] per column; rebuilt when they change). A
 * table that scrolls sideways would take its caption out of view: the caption stays for screen
 * readers, and the same words stand above the scrolling box (a title just before the box, or
 * before its scroll hint), unless `headed`: the table sits under a heading of its own, which
 * stands in for them.
 */
export function setHeader(table, caption, titles, { headed = false } = {}) {
  const key = titles.map(([text, title]) => `${text}\u0000${title ?? ''}`).join('\u0001');
  if (!table.tHead) table.append(el('caption'), el('thead'), el('tbody'));
  if (table.tHead.dataset.key !== key) {
    table.tHead.dataset.key = key;
    table.tHead.replaceChildren(el('tr', {}, ...titles.map(([text, title]) => el('th', { scope: 'col', title }, text))));
  }
  replaceIfChanged(table.caption, ...caption);
  const wrap = table.parentElement?.classList.contains('table-wrap') ? table.parentElement : null;
  if (!wrap) return;
  table.caption.classList.add('visually-hidden');
  if (headed) return;
  // Found by its place, not by an id: a table drawn anew before it replaces the old one would
  // otherwise find, and update, the old one's title.
  const hint = wrap.previousElementSibling?.classList.contains('scroll-hint') ? wrap.previousElementSibling : null;
  const above = (hint ?? wrap).previousElementSibling;
  let title = above?.classList.contains('table-title') ? above : null;
  if (!title) {
    if (!wrap.parentNode) throw new Error(`setHeader: the box of table #${table.id} must be placed before its title can be`);
    title = el('p', { className: 'table-title', id: `${table.id}-title`, 'aria-hidden': 'true' });
    (hint ?? wrap).before(title);
  }
  replaceIfChanged(title, ...[...table.caption.childNodes].map((node) => node.cloneNode(true)));
}

const sorters = new WeakMap();

/**
 * A sortable table's caption and header row: a button per column ([label, key, className]) that
 * sorts by `key`, the current one marked with its direction. A click calls `onSort` with the
 * sort it asks for: the current column the other way; another column descending, or ascending
 * for the first (the rows' names). The header row is rebuilt only when its labels or the sort
 * change.
 */
export function setSortHeader(table, caption, titles, sort, onSort) {
  if (!table.tHead) table.append(el('caption'), el('thead'), el('tbody'));
  sorters.set(table, (key) => onSort({ key, descending: key === sort.key ? !sort.descending : key !== titles[0][1] }));
  const mark = (key) => (key === sort.key ? (sort.descending ? ' ▼' : ' ▲') : '');
  const labels = titles.map(([label, key]) => `${label}${mark(key)}`);
  const key = labels.join('\u0001');
  if (table.tHead.dataset.key !== key) {
    if (table.tHead.dataset.key === undefined) {
      table.tHead.addEventListener('click', (event) => {
        const button = event.target.closest?.('button[data-sort]');
        if (button) sorters.get(table)?.(button.dataset.sort);
      });
    }
    table.tHead.dataset.key = key;
    table.tHead.replaceChildren(el('tr', {}, ...titles.map(([, sortKey, className = ''], c) => el('th', {
      scope: 'col',
      className,
      'aria-sort': sortKey !== sort.key ? 'none' : sort.descending ? 'descending' : 'ascending',
    }, el('button', { type: 'button', className: 'sort', 'data-sort': sortKey }, labels[c])))));
  }
  if (table.caption.textContent !== caption) table.caption.textContent = caption;
}
