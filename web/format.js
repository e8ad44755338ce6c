// Display helpers: numbers as text and small MathML builders. No metric is computed here.

const MATHML = 'http://www.w3.org/1998/Math/MathML';

// One collator for every comparison: localeCompare with options builds one per call. Made at the
// first comparison that needs it, not as the page loads: making it loads the locale's collation
// data, about 9 ms of the main thread on the way to the page's first result.
let queryOrder = null;

/** Query ids in the order a person expects: the numbers in them by value ("2" before "10"). */
export function compareQueries(a, b) {
  queryOrder ??= new Intl.Collator(undefined, { numeric: true });
  return queryOrder.compare(a, b);
}

// Whether an id is ASCII digits alone, whose collator order is the order of their values. Ids
// longer than 64 characters are left to the collator, which compares digits by value in runs of
// its own length.
function isNumber(id) {
  if (id.length === 0 || id.length > 64) return false;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * `rows` (objects with a `query` id) in compareQueries's order of their ids, reversed when
 * `descending`, rows of equal ids in the order given: a new array. Ids of digits alone, as most
 * TREC query ids are, are read as numbers once and compared as such: the collator's compare took
 * 23 ms of the task that draws the table of 5,000 queries (some 60,000 comparisons). A double
 * keeps their order (rounding never swaps two values); two that round to the same double ("7"
 * and "007"), and any other pair, are compared by compareQueries.
 */
export function sortByQuery(rows, descending = false) {
  const numbers = rows.map(({ query }) => (isNumber(query) ? Number(query) : NaN));
  const order = rows.map((_, i) => i);
  order.sort((i, j) => {
    const x = numbers[i];
    const y = numbers[j];
    // Two numbers that differ (NaN differs from itself: an id that is not one goes on).
    const c = x === x && y === y && x !== y ? (x < y ? -1 : 1) : compareQueries(rows[i].query, rows[j].query);
    return descending ? -c : c;
  });
  return order.map((i) => rows[i]);
}

/** A number with `decimals` places; integers stay short when `trim` is set. */
export function formatNumber(value, decimals, { trim = false } = {}) {
  if (!Number.isFinite(value)) return String(value);
  let text = value.toFixed(decimals);
  // No "-0.00" for a value that rounds to 0.
  if (text.charCodeAt(0) === 45 && /^-0(\.0*)?$/.test(text)) text = text.slice(1);
  if (trim && decimals > 0 && text.charCodeAt(text.length - 1) === 48) text = text.replace(/\.?0+$/, '');
  return text;
}

/** NDCG is a ratio in [0, 1]: it is shown with at least two decimals. */
export const ndcgDecimals = (decimals) => Math.max(2, decimals);

/** A grade as written: 1, 0.6, 2.5. */
export const formatGrade = (grade) => formatNumber(grade, 6, { trim: true });

export function math(tag, ...children) {
  const node = document.createElementNS(MATHML, tag);
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

export const mi = (text) => math('mi', text);
export const mn = (text) => math('mn', text);
export const mo = (text) => math('mo', text);
export const mrow = (...children) => math('mrow', ...children);
export const mfrac = (top, bottom) => math('mfrac', top, bottom);
export const msub = (base, sub) => math('msub', base, sub);
export const msup = (base, sup) => math('msup', base, sup);

/** log_b(x) as MathML, with x an MathML node or text. */
export function logOf(base, argument) {
  // log₂(j + 1), not log₂ j + 1: an argument of more than one term is in parentheses.
  const compound = argument.localName === 'mrow' && argument.childElementCount > 1;
  const shown = compound ? mrow(mo('('), argument, mo(')')) : argument;
  return mrow(msub(mi('log'), mn(formatNumber(base, 6, { trim: true }))), mo('\u2061'), shown);
}

/** A <math> element; `label` is its text for screen readers and copy-paste. */
export function mathBlock(label, display, ...children) {
  const node = math('math', mrow(...children));
  if (display) node.setAttribute('display', 'block');
  if (label) node.setAttribute('aria-label', label);
  return node;
}

/**
 * Gives `node` these children (nodes or text), unless it holds equal ones already (isEqualNode:
 * the same tags, attributes and text): a part of the page that an edit leaves as it was is not
 * laid out again, nor a button under the pointer replaced between mousedown and mouseup. The
 * nodes kept are the old ones, with their listeners, which were made for what they show.
 */
export function replaceIfChanged(node, ...children) {
  const nodes = children.map((child) => (typeof child === 'string' ? document.createTextNode(child) : child));
  const old = node.childNodes;
  if (old.length === nodes.length && nodes.every((child, i) => child.isEqualNode(old[i]))) return false;
  node.replaceChildren(...nodes);
  return true;
}

/** Sets `node`'s text, unless it is that text already (a text set again is laid out again). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Creates an element with text (never HTML) and attributes. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') node.className = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** A button that looks like a link (class "link"): el('button', ...) with type "button". */
export function linkButton(attributes, ...children) {
  return el('button', { type: 'button', className: 'link', ...attributes }, ...children);
}
