// Display helpers: numbers as text and small MathML builders. No metric is computed here.

const MATHML = 'http://www.w3.org/1998/Math/MathML';

// One collator for every comparison: localeCompare with options builds one per call. Made at the
// first comparison that needs it, not as the page loads: making it loads the locale's collation
// data, about 9 ms of the main thread on the way to the page's first result.
let collator = null;

/** Query ids in the order a person expects: the numbers in them by value ("2" before "10"). */
export function compareQueries(a, b) {
  collator ??= new Intl.Collator(undefined, { numeric: true });
  return collator.compare(a, b);
}

/** The indexes 0 to n - 1 in the order `compare` gives them, equal ones in their own order. */
export function sortedIndexes(n, compare) {
  const order = new Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort(compare);
}

/**
 * The order of `ids` (query ids) by compareQueries, reversed when `descending`, equal ids in the
 * order given: an array of their indexes. An id of one run of ASCII digits among ASCII characters
 * that are not digits ("301", "q12", "test-7 b"), as nearly all query ids are, is read once as
 * what comes before the run, its number and what comes after; two such ids alike but for their
 * numbers are ordered by the numbers, which is the collator's order (it compares the runs by
 * value, and nothing else differs). The collator's compare took 23 ms of the task that draws the
 * table of 5,000 numeric queries (some 60,000 comparisons) and 90 ms for 100,000 ids "q…". A
 * double keeps the runs' order (rounding never swaps two values); two that round to the same
 * double ("7" and "007"), and any other pair, are compared by compareQueries. Runs longer than 64
 * digits are left to the collator, which compares digits by value in runs of its own length.
 */
export function queryOrder(ids, descending = false) {
  const n = ids.length;
  const before = new Array(n);
  const after = new Array(n);
  const numbers = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    let start = -1;
    let end = -1;
    let number = 0;  // exact while it has at most 15 digits
    for (let k = 0; k < id.length && start !== -2; k++) {
      const c = id.charCodeAt(k);
      if (c > 127) start = -2;
      else if (c >= 48 && c <= 57) {
        if (start === -1) start = k;
        else if (end !== k) start = -2;  // a second run of digits
        end = k + 1;
        number = number * 10 + c - 48;
      }
    }
    if (start >= 0 && end - start <= 64) {
      before[i] = id.slice(0, start);
      after[i] = id.slice(end);
      numbers[i] = end - start <= 15 ? number : Number(id.slice(start, end));
    }
  }
  return sortedIndexes(n, (i, j) => {
    const x = numbers[i];
    const y = numbers[j];
    // Two numbers that differ (NaN differs from itself: an id that is not one goes on).
    const c = x === x && y === y && x !== y && before[i] === before[j] && after[i] === after[j]
      ? (x < y ? -1 : 1) : compareQueries(ids[i], ids[j]);
    return descending ? -c : c;
  });
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
