// Tables patched in place: an edit of one line of a 1,000-row ranking changes a few thousand
// strings, not 2,000 rows of DOM, which keeps recomputation inside one frame. A row's cells are
// slots named by what they show (data-field), and each remembers what it last showed: comparing
// strings in JS is far cheaper than reading the DOM back.
import { el } from './format.js';

const bodies = new WeakMap();

export function writeText(cell, text) {
  const only = cell.firstChild;
  if (only !== null && only === cell.lastChild && only.nodeType === Node.TEXT_NODE) only.data = text;
  else cell.textContent = text;
}

// Equal to nothing same() is given (a fresh object): a slot not yet shown, or forgotten.
const FORGOTTEN = Object.freeze({});

class PatchedRow {
  constructor(tr, cells, slots, count) {
    this.tr = tr;
    this.cells = cells;  // field -> cell
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

  /** Forgets what the slot was shown from: the next same() for it is false. */
  forget(field) {
    this.inputs[this.slot[field] * 4] = FORGOTTEN;
  }

  /** Shows `text` in the slot, if it is not what the slot shows already. */
  text(field, text) {
    if (this.keys[field] === text) return;
    this.keys[field] = text;
    writeText(this.cells[field], text);
  }

  /** Replaces the slot's content with `build(cell)` (call it when same() says the inputs changed). */
  content(field, build) {
    this.keys[field] = undefined;
    const cell = this.cells[field];
    const content = build(cell);
    if (content === null || content === undefined) cell.replaceChildren();
    else cell.replaceChildren(content);
  }

  /** A number as shown, and, when it is shown rounded another way, the exact one beside it. */
  value(field, text, exact = null) {
    const key = exact === null ? text : `${text}|${exact}`;
    if (this.keys[field] === key) return;
    this.keys[field] = key;
    const cell = this.cells[field];
    cell.classList.toggle('changed', exact !== null);
    if (exact !== null) cell.replaceChildren(text, el('span', { className: 'exact' }, `exact ${exact}`));
    else writeText(cell, text);
  }

  /** Sets a class of the row on or off. */
  flag(name, on) {
    if (this.flags[name] === on) return;
    this.flags[name] = on;
    this.tr.classList.toggle(name, on);
  }
}

/**
 * Makes `body` hold exactly `count` rows with one slot for each of `columns` ({ field,
 * className }; the first is the row header), and returns them. A change of columns (a score
 * column that comes and goes) rebuilds the rows.
 */
export function patchRows(body, count, columns) {
  const signature = columns.map((c) => c.field).join(' ');
  let state = bodies.get(body);
  if (!state || state.signature !== signature) {
    for (const row of state?.rows ?? []) row.tr.remove();
    state = { signature, rows: [], slots: Object.fromEntries(columns.map(({ field }, i) => [field, i])) };
    bodies.set(body, state);
  }
  const { rows } = state;
  while (rows.length > count) rows.pop().tr.remove();
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
    body.append(tr);
    rows.push(new PatchedRow(tr, cells, state.slots, columns.length));
  }
  return rows;
}

/**
 * The table's caption and header row ([text, title] per column; rebuilt when they change). A
 * table that scrolls sideways would take its caption out of view: the caption stays for screen
 * readers, and the same words stand above the scrolling box.
 */
export function setHeader(table, caption, titles) {
  const key = titles.map(([text, title]) => `${text}\u0000${title ?? ''}`).join('\u0001');
  if (!table.tHead) table.append(el('caption'), el('thead'), el('tbody'));
  if (table.tHead.dataset.key !== key) {
    table.tHead.dataset.key = key;
    table.tHead.replaceChildren(el('tr', {}, ...titles.map(([text, title]) => el('th', { scope: 'col', title }, text))));
  }
  table.caption.replaceChildren(...caption);
  const wrap = table.parentElement?.classList.contains('table-wrap') ? table.parentElement : null;
  if (!wrap) return;
  let title = document.getElementById(`${table.id}-title`);
  if (!title) {
    title = el('p', { className: 'table-title', id: `${table.id}-title`, 'aria-hidden': 'true' });
    const hint = wrap.previousElementSibling?.classList.contains('scroll-hint') ? wrap.previousElementSibling : null;
    (hint ?? wrap).before(title);
  }
  title.replaceChildren(...[...table.caption.childNodes].map((node) => node.cloneNode(true)));
  table.caption.classList.add('visually-hidden');
}
