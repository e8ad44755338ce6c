// The step table as CSV (full precision), Markdown and LaTeX booktabs (as displayed).
import { el, formatGrade, formatNumber } from './format.js';
import { stepRows } from './steps.js';

/** Offers `text` as a file named `name`, through a temporary link. */
export function downloadText(text, type, name) {
  const link = el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

const csvField = (value) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * A document id as a CSV cell. A spreadsheet runs a cell that starts with = + - @ (or a tab or
 * CR) as a formula, so such an id, which can arrive through a shared link, is written with a
 * leading apostrophe, as OWASP recommends; numbers are written as numbers.
 */
const csvText = (value) => {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return csvField(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
};

/** One CSV line: numbers as numbers, text as safe cells (see csvText). */
export const csvRow = (values) => values.map((v) => (typeof v === 'number' ? String(v) : csvText(v))).join(',');

export function toCSV(result) {
  const header = ['rank', 'doc', 'grade', 'gain', 'discount', 'cg', 'dcg', 'ideal_doc', 'ideal_grade', 'ideal_gain', 'idcg', 'ndcg'];
  const rows = stepRows(result);
  const rounded = rows.length > 0 && 'roundedNdcg' in rows[0];
  if (rounded) header.push('rounded_dcg', 'rounded_idcg', 'rounded_ndcg');
  const lines = [header.join(',')];
  for (const r of rows) {
    const fields = [r.rank, csvText(r.doc), r.grade, r.gain, r.discount, r.cg, r.dcg, csvText(r.idealDoc), r.idealGrade, r.idealGain, r.idcg, r.ndcg];
    if (rounded) fields.push(r.roundedDcg, r.roundedIdcg, r.roundedNdcg);
    lines.push(fields.map((f) => (typeof f === 'number' ? String(f) : f)).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function displayedRows(result, d) {
  return stepRows(result).map((r) => [
    String(r.rank),
    r.doc ?? '',
    formatGrade(r.grade),
    formatNumber(r.gain, d.decimals, { trim: true }),
    formatNumber(r.cg, d.decimals, { trim: true }),
    formatNumber(d.slide ? r.roundedDcg : r.dcg, d.decimals),
    formatGrade(r.idealGrade),
    formatNumber(d.slide ? r.roundedIdcg : r.idcg, d.decimals),
    formatNumber(d.slide ? r.roundedNdcg : r.ndcg, d.ndcgDecimals),
  ]);
}

const HEADER = ['Rank', 'Document', 'Grade', 'G', 'CG', 'DCG', 'Ideal grade', 'IDCG', 'NDCG'];

export function toMarkdown(result, d) {
  // Markdown renderers pass HTML through: an id such as <img onerror=…> is written as entities.
  const escape = (text) => text.replaceAll('\\', '\\\\').replaceAll('|', '\\|')
    .replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map((_, i) => (i === 1 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const row of displayedRows(result, d)) lines.push(`| ${row.map(escape).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}

export function toLaTeX(result, d) {
  const escape = (text) => text.replace(/[\\{}$&#%_^~]/g, (c) => ({
    '\\': '\\textbackslash{}', '^': '\\textasciicircum{}', '~': '\\textasciitilde{}',
  })[c] ?? `\\${c}`);
  const lines = [
    '% \\usepackage{booktabs}',
    '\\begin{tabular}{rlrrrrrrr}',
    '\\toprule',
    `${HEADER.join(' & ')} \\\\`,
    '\\midrule',
    ...displayedRows(result, d).map((row) => `${row.map(escape).join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
  ];
  return `${lines.join('\n')}\n`;
}

export const EXPORTS = {
  csv: { make: toCSV, type: 'text/csv', extension: 'csv' },
  markdown: { make: toMarkdown, type: 'text/markdown', extension: 'md' },
  latex: { make: toLaTeX, type: 'application/x-tex', extension: 'tex' },
};
