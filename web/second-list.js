// The one-list mode's second list: another ranking under the same judgments and conventions,
// explained by the core and shown beside the first rank by rank (side-by-side.js), with each
// list's CG, DCG, IDCG and NDCG curves side by side.
import { renderChart } from './chart.js';
import { el, formatNumber } from './format.js';
import { renderDiagnostics, selectLine } from './render.js';
import { renderSideBySide } from './side-by-side.js';

const $ = (id) => document.getElementById(id);

/**
 * Explains `request.ranking` (the second list) with the first's judgments and options, and shows
 * both; `first` is the first list's explanation, `display` the page's display settings.
 */
export function renderSecond(calc, request, first, display) {
  const box = $('second-ranking');
  if (request.ranking.trim() === '') {
    $('second-results').hidden = true;
    renderDiagnostics($('second-diagnostics'), []);
    box.setAttribute('aria-invalid', 'false');
    return;
  }
  const second = calc.explain(request);
  // Errors in the judgments or the settings are the first list's too, and are shown there.
  const own = (list, kind) => list.filter((d) => d.source === 'ranking' && (kind === 'error' || d.line > 0)).map((d) => ({ ...d, kind }));
  const errors = second.ok ? [] : own(second.errors, 'error');
  renderDiagnostics($('second-diagnostics'), [...errors, ...own(second.warnings, 'warning')], (d) => selectLine(box, d.line));
  box.setAttribute('aria-invalid', String(errors.length > 0));
  if (!second.ok) {
    $('second-results').hidden = true;
    return;
  }
  const names = ['first list', 'second list'];
  const [a, b] = [first.summary, second.summary];
  const { differing, length } = renderSideBySide({ table: $('second-table'), more: $('second-more') },
    { names, explanations: [first, second], cutoff: a.k === b.k ? a.k : 0, decimals: display.decimals });
  const value = (s) => formatNumber(s.ndcgAtK, display.ndcgDecimals);
  $('second-summary').replaceChildren(
    el('strong', {}, `NDCG@${a.k} = ${value(a)}`), ' for the first list, ',
    el('strong', {}, `NDCG@${b.k} = ${value(b)}`), ' for the second; ',
    `${differing} of ${length} rank${length === 1 ? '' : 's'} hold${differing === 1 ? 's' : ''} different documents.`);
  $('second-results').hidden = false;
  renderChart($('second-chart-a'), first);
  renderChart($('second-chart-b'), second);
}
