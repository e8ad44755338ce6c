// Check my working: the person's own values (calc.checkWorking) beside the calculation's, each
// value marked, and what the differences come from. The core compares; this module shows.
import { el, formatNumber, replaceIfChanged } from './format.js';
import { renderDiagnostics, selectLine } from './render.js';
import { patchRows, setHeader } from './table.js';

const $ = (id) => document.getElementById(id);

const COLUMNS = [
  { field: 'rank', className: 'num' }, { field: 'theirs', className: 'num' }, { field: 'ours', className: 'num' },
  { field: 'verdict', className: 'verdict' },
];

/** The check of the working in `state` against `request` ({ ranking, judgments, options }). */
export function renderCheck(calc, request, state, d) {
  const result = $('working-result');
  const working = state.working ?? '';
  if (working.trim() === '') {
    renderDiagnostics($('working-diagnostics'), []);
    replaceIfChanged(result);
    return;
  }
  const r = calc.checkWorking({ ...request, working, quantity: state.workingQuantity ?? '' });
  $('working').setAttribute('aria-invalid', String(!r.ok && r.errors.some((e) => e.source === 'working')));
  renderDiagnostics($('working-diagnostics'), r.ok ? [] : r.errors.filter((e) => e.source === 'working' || e.source === 'options')
    .map((e) => ({ ...e, kind: 'error' })), (e) => selectLine($('working'), e.line));
  if (!r.ok) return;
  const blocks = r.columns.map((column, i) => {
    const differ = column.values.filter((v) => !v.matches && v.ours !== null).length;
    const heading = el('h3', {}, `Your ${column.quantity}: `,
      differ === 0 ? 'every value checks' : `${differ} of ${column.values.length} value${column.values.length === 1 ? '' : 's'} differ${differ === 1 ? 's' : ''}`);
    const findings = el('ul', { className: 'findings' }, ...column.findings.map((f) => el('li', {
      className: f.cause === 'rounding' || (f.cause === 'sum' && f.message.endsWith('is right')) ? 'ok' : 'finding',
      'data-cause': f.cause,
    }, sentence(f.message))));
    const wrap = el('div', { className: 'table-wrap' });
    const table = el('table', { className: 'steps working', id: `working-table-${i + 1}` });
    wrap.append(table);
    // Under the heading above, which stands in for a title over the box.
    setHeader(table, [`Your ${column.quantity} against the calculation`], [['Rank'], ['Yours'], ['Calculated'], ['']], { headed: true });
    const rows = patchRows(table, column.values.length, COLUMNS);
    column.values.forEach((v, j) => {
      const row = rows[j];
      const differs = !v.matches && v.ours !== null;
      row.text('rank', String(v.rank));
      row.text('theirs', formatNumber(v.theirs, Math.min(v.decimals, 6), { trim: v.decimals > 6 }));
      row.text('ours', v.ours === null ? '—' : formatNumber(v.ours, Math.max(d.decimals, Math.min(v.decimals + 2, 8)), { trim: true }));
      row.text('verdict', v.ours === null ? 'no such rank' : differs ? '✗ differs' : '✓');
      for (const field of ['theirs', 'ours', 'verdict']) row.cells[field].classList.toggle('differs', differs);
    });
    return el('div', { className: 'working-column', 'data-quantity': column.quantity }, heading, findings, wrap);
  });
  replaceIfChanged(result, ...blocks);
}

const sentence = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.?!]$/.test(text) ? '' : '.'}`;
