// Two rankings rank by rank in one table: each one's document, grade, what the rank adds to DCG,
// DCG and NDCG (as the core computed them), with the ranks where the two hold different
// documents marked ≠. Used for a query in two runs (TREC tab) and for two pasted lists.
import { el, formatNumber } from './format.js';
import { stepColumns } from './steps.js';

const grade = (g) => (g === -1 ? 'not judged' : g === -2 ? 'judged negative' : formatNumber(g, 6, { trim: true }));

/**
 * Fills `parts.table` with the first `limit` ranks (at least the cut-off), `parts.more` offering
 * the rest. `explanations` are calc.explain results or null (nothing ranked); `names` their two
 * names. Returns { differing, length }: how many ranks differ, of how many.
 */
export function renderSideBySide(parts, { names, explanations, cutoff = 0, decimals = 4 }, limit = 100) {
  // Read a column at a time (stepColumns): a ranking of tens of thousands of documents makes no
  // object per rank.
  const [ea, eb] = explanations.map((e) => (e ? stepColumns(e) : null));
  const length = Math.max(ea?.length ?? 0, eb?.length ?? 0);
  const shown = Math.min(length, Math.max(limit, cutoff));
  const docAt = (e, i) => (e && i < e.length ? e.columns.doc[i] : undefined);
  let differing = 0;
  for (let i = 0; i < length; i++) if (docAt(ea, i) !== docAt(eb, i)) differing += 1;
  const number = (x) => formatNumber(x, decimals);
  const cells = (e, i) => {
    if (!e || i >= e.length) return Array.from({ length: 5 }, (_, k) => el('td', { className: k === 0 ? 'run-start' : undefined }));
    const c = e.columns;
    return [el('td', { className: 'doc-id run-start' }, c.doc[i]), el('td', {}, grade(c.grade[i])), el('td', { className: 'num' }, number(c.term[i])),
      el('td', { className: 'num' }, number(c.dcg[i])), el('td', { className: 'num' }, number(c.ndcg[i]))];
  };
  const header = (name) => ['Document', 'g', 'G / discount', 'DCG', 'NDCG']
    .map((h, i) => el('th', { scope: 'col', title: name, className: i === 0 ? 'run-start' : undefined }, h));
  const rows = [];
  for (let i = 0; i < shown; i++) {
    const differs = docAt(ea, i) !== docAt(eb, i);
    rows.push(el('tr', { className: `${differs ? 'differs' : ''}${i + 1 === cutoff ? ' at-k' : ''}`.trim() || undefined },
      el('th', { scope: 'row' }, String(i + 1)),
      el('td', { className: 'mark', 'aria-label': differs ? 'different documents' : 'same document' }, differs ? '≠' : ''),
      ...cells(ea, i), ...cells(eb, i)));
  }
  parts.table.replaceChildren(
    el('caption', {}, `Rank by rank: ${names[0]} (A) on the left, ${names[1]} (B) on the right`),
    el('thead', {},
      el('tr', {}, el('td', { colspan: 2 }), ...names.map((n, i) => el('th', { scope: 'colgroup', colspan: 5, className: 'run-start' }, `${n} (${'AB'[i]})`))),
      el('tr', {}, el('th', { scope: 'col' }, 'Rank'), el('th', { scope: 'col', title: 'different documents at this rank' }, '≠'), ...header(names[0]), ...header(names[1]))),
    el('tbody', {}, ...rows));
  parts.more.hidden = shown >= length;
  parts.more.textContent = `Show all ${length} ranks`;
  parts.more.onclick = () => renderSideBySide(parts, { names, explanations, cutoff, decimals }, length);
  return { differing, length };
}
