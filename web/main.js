// Starts the page: the two modes as tabs, the embed layout, and the wasm core they share.
import { loadCalculator } from './core.js';
import { setUpListMode } from './list-mode.js';
import { afterFrame } from './table.js';
import { offerMeasures, offerPresets, setUpTrecMode } from './trec.js';

const $ = (id) => document.getElementById(id);

const params = new URLSearchParams(location.search);
// ?embed=1 lays the page out for an iframe in a course page: the result first, no header; with
// &show=examples,conventions,trec,chart,second,compare,check only the parts listed (of those
// seven) are shown.
const EMBED_PARTS = ['examples', 'conventions', 'trec', 'chart', 'second', 'compare', 'check'];
if (params.get('embed') === '1') {
  document.body.classList.add('embed');
  if (params.has('show')) {
    const shown = new Set(params.get('show').split(',').map((part) => part.trim()));
    for (const part of EMBED_PARTS) document.body.classList.toggle(`hide-${part}`, !shown.has(part));
  }
}

const MODE_KEY = 'ndcg-calculator:mode';

// The TREC tab's catalogue of measures (offerMeasures), once the core is ready: called when that
// tab is shown, and in a task after the frame that shows the first result.
let offerCatalogue = () => {};

/** The two modes are tabs: arrow keys move between them, the choice is remembered. */
function setUpModes() {
  const tabs = [$('tab-list'), $('tab-trec')];
  const select = (tab, focus) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      $(t.getAttribute('aria-controls')).hidden = !on;
    }
    if (tab.id === 'tab-trec') offerCatalogue();
    if (focus) tab.focus();
    try {
      localStorage.setItem(MODE_KEY, tab.id);
    } catch {
      // The choice of tab is a convenience; without storage it is simply not remembered.
    }
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab, false));
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
      select(tabs[(i + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length], true);
    });
  });
  let saved = null;
  try {
    saved = localStorage.getItem(MODE_KEY);
  } catch {
    saved = null;
  }
  if (new URLSearchParams(location.search).get('mode') === 'trec' || saved === 'tab-trec') select(tabs[1], false);
}

/** In an iframe, tells the embedding page the height the calculator needs (see the README). */
function postHeight() {
  if (window.parent === window) return;
  let posted = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === posted) return;
    posted = height;
    window.parent.postMessage({ type: 'ndcg-calculator:height', height }, '*');
  }).observe(document.body);
}

async function main() {
  // The core loads (inflating, importing, compiling) while the controls are set up.
  const loading = loadCalculator();
  setUpModes();
  setUpTrecMode();
  const listMode = setUpListMode();
  postHeight();
  let calc;
  try {
    calc = await loading;
  } catch (error) {
    listMode.fail(`The calculator could not start in this browser (${error.message}). It needs WebAssembly.`);
    return;
  }
  offerPresets(calc.presets());
  listMode.start(calc);
  // The catalogue fills a picker of some 300 elements in a hidden tab: built in the task that
  // showed the first result, it held back the frame that paints it (about 10 ms on a slow
  // machine). It follows that frame now, unless the TREC tab is the one shown.
  let offered = false;
  offerCatalogue = () => {
    if (offered) return;
    offered = true;
    offerMeasures(calc.measures(), calc.measureSets());
  };
  if ($('tab-trec').getAttribute('aria-selected') === 'true') offerCatalogue();
  else afterFrame().then(offerCatalogue);
  document.body.dataset.ready = 'true';
}

main();
