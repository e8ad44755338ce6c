// The one-list mode: controls → calc.explain (the wasm core) → render. Every number shown comes
// from the core; this module only gathers input, keeps state and decides what to show.
import { renderChart } from './chart.js';
import { renderCheck } from './check-view.js';
import { renderCompare, setUpCompare } from './compare-view.js';
import { EXPORTS, downloadText } from './export.js';
import { el, linkButton, setText } from './format.js';
import { PRESETS, describeConventions, findSlip } from './presets.js';
import { renderSecond } from './second-list.js';
import { stepColumns } from './steps.js';
import { fittingTogether } from './table.js';
import {
  ROWS_PER_PAGE, displayOf, renderDiagnostics, renderFormulas, renderHeadline, renderIdeal, renderSteps, selectLine,
} from './render.js';
import {
  DEFAULT_SETTINGS, SETTING_NAMES, addressIsForeign, adoptAddress, encodeState, flushAddress, forgetPreviousState, loadState,
  previousState, saveState,
} from './state.js';

const $ = (id) => document.getElementById(id);
const controls = {
  gain: $('gain'), gainMap: $('gain-map'), discount: $('discount'), base: $('base'), ideal: $('ideal'),
  k: $('k'), idealDepth: $('ideal-depth'), zero: $('zero'), rankingNumbers: $('ranking-numbers'), ties: $('ties'),
  negativeGains: $('negative-gains'), unjudgedGrade: $('unjudged-grade'), relevantFrom: $('relevant-from'),
  decimals: $('decimals'),
  roundLikeSlide: $('round-like-slide'),
};
const ranking = $('ranking');
const judgments = $('judgments');
const working = $('working');
const workingQuantity = $('working-quantity');
const second = $('second-ranking');

let calc;
let lastGood = null;  // { result, display, settings }
let rowLimit = ROWS_PER_PAGE;
// The example loaded last, by id, until the person resets or keeps its conventions or starts anew.
let exampleId = '';

function readState() {
  const state = { ranking: ranking.value, judgments: judgments.value, working: working.value, workingQuantity: workingQuantity.value, second: second.value };
  for (const [name, control] of Object.entries(controls)) {
    state[name] = control.type === 'checkbox' ? control.checked : control.value;
  }
  state.example = exampleId;
  return state;
}

function writeState(state) {
  ranking.value = state.ranking ?? '';
  judgments.value = state.judgments ?? '';
  working.value = state.working ?? '';
  workingQuantity.value = state.workingQuantity ?? '';
  second.value = state.second ?? '';
  for (const [name, control] of Object.entries(controls)) {
    const value = state[name] ?? DEFAULT_SETTINGS[name];
    if (control.type === 'checkbox') control.checked = value === true;
    else control.value = String(value);
  }
  exampleId = PRESETS.some((p) => p.id === state.example) ? state.example : '';
  syncControls();
}

/** The state an example loads: its input and its conventions, every other setting at default. */
function presetState(preset) {
  return {
    ranking: preset.ranking, judgments: preset.judgments, working: preset.working ?? '', workingQuantity: '', second: '',
    ...DEFAULT_SETTINGS, ...preset.settings,
    k: String(preset.settings.k ?? ''), base: String(preset.settings.base ?? 2),
    decimals: String(preset.settings.decimals ?? 4), example: preset.id,
  };
}

const sameSetting = (a, b) => (typeof a === 'boolean' || typeof b === 'boolean' ? Boolean(a) === Boolean(b) : String(a ?? '') === String(b ?? ''));
// A gain map that is not in use (hidden) is not a convention in force.
const inUse = (state, name) => (name === 'gainMap' ? state.gain === 'custom' : true);
const differsFromDefaults = (state) => SETTING_NAMES.some((name) => inUse(state, name) && !sameSetting(state[name], DEFAULT_SETTINGS[name]));

function syncControls() {
  $('gain-map-control').hidden = controls.gain.value !== 'custom';
  syncLibrary();
}

// The page's name for each option of a preset (the core's names, but ndcgWhenIdcgZero).
const SETTING_OF_OPTION = { ndcgWhenIdcgZero: 'zero' };
const settingsOfPreset = (preset) => Object.fromEntries(Object.entries(preset.options)
  .map(([name, value]) => [SETTING_OF_OPTION[name] ?? name, value]));

/** Which library's conventions the controls hold, if any: shown, with where it is defined. */
let chosenLibrary = '';
function syncLibrary() {
  const select = $('library');
  const state = readState();
  const matches = (calc?.presets() ?? []).filter((preset) => Object.entries(settingsOfPreset(preset))
    .every(([name, value]) => sameSetting(state[name], value)));
  // Libraries can agree (scikit-learn and torchmetrics do): the one chosen stays shown.
  const shown = matches.find((p) => p.name === chosenLibrary) ?? matches[0];
  select.value = shown?.name ?? '';
  const others = matches.filter((p) => p !== shown).map((p) => p.label);
  setText($('library-citation'), shown
    ? `Defined as in ${shown.citation}.${others.length > 0 ? ` ${others.join(' and ')} ${others.length === 1 ? 'computes' : 'compute'} it the same way.` : ''}`
    : '');
}

function setUpLibraries() {
  const select = $('library');
  select.append(...calc.presets().map((preset) => el('option', { value: preset.name }, preset.label)));
  select.addEventListener('change', () => {
    const preset = calc.presets().find((p) => p.name === select.value);
    if (!preset) return;
    chosenLibrary = preset.name;
    const before = readState();
    writeState({ ...before, ...settingsOfPreset(preset) });
    update();
    offerUndo(`The conventions are now ${preset.label}’s.`, before);
  });
}

/** The request options the core takes, from the controls' text. */
function optionsOf(state) {
  return {
    gain: state.gain === 'custom' ? state.gainMap : state.gain,
    discount: state.discount,
    base: state.base,
    ideal: state.ideal,
    k: state.k.trim() === '' ? undefined : state.k,
    idealDepth: state.idealDepth,
    ndcgWhenIdcgZero: state.zero,
    rankingNumbers: state.rankingNumbers,
    ties: state.ties,
    negativeGains: state.negativeGains,
    unjudgedGrade: state.unjudgedGrade.trim() === '' ? undefined : state.unjudgedGrade,
    relevantFrom: state.relevantFrom.trim(),
    roundBeforeDividing: state.roundLikeSlide ? state.decimals : undefined,
  };
}

function showDiagnostics(errors, warnings) {
  const bySource = { ranking: [], judgments: [], options: [] };
  for (const [kind, list] of [['error', errors], ['warning', warnings]]) {
    for (const d of list) {
      // A note about the input as a whole is shown above the result (showContext), by the
      // number it is about; a located one beside the line it points to.
      if (kind === 'warning' && d.line === 0) continue;
      (bySource[d.source] ?? bySource.ranking).push({ ...d, kind });
    }
  }
  renderDiagnostics($('ranking-diagnostics'), bySource.ranking, (d) => selectLine(ranking, d.line));
  renderDiagnostics($('judgments-diagnostics'), bySource.judgments, (d) => selectLine(judgments, d.line));
  renderDiagnostics($('options-diagnostics'), bySource.options);
  ranking.setAttribute('aria-invalid', String(errors.some((d) => d.source === 'ranking')));
  judgments.setAttribute('aria-invalid', String(errors.some((d) => d.source === 'judgments')));
}

/**
 * Says above the result what it rests on: the example, if the input is still that example's, or
 * the conventions in force; and, where the eye is, anything in the input or the settings that
 * stopped fitting: an example's conventions carried over to other input, judgments that match
 * none of the ranked documents, a vector with a slip a source is known for, k past the list.
 */
function showContext(state, result) {
  const example = PRESETS.find((p) => p.id === exampleId);
  const departed = example && (state.ranking !== example.ranking || state.judgments !== example.judgments);
  if (example && departed && !differsFromDefaults(state)) exampleId = '';
  const active = example && !departed;
  for (const button of document.querySelectorAll('button.preset')) {
    button.setAttribute('aria-pressed', String(active && button.dataset.preset === example.id));
  }
  // Rebuilt only when its words change: a button rebuilt between mousedown and mouseup (an
  // update scheduled by the last keystroke) would swallow the click.
  const context = $('active-context');
  const conventions = describeConventions(state);
  const contextKey = `${active ? example.label : ''}\u0000${conventions}\u0000${JSON.stringify(result.reading ?? null)}`;
  if (context.dataset.key !== contextKey) {
    context.dataset.key = contextKey;
    context.replaceChildren(
      active ? el('span', { className: 'example-name' }, `Example: ${example.label}`) : el('span', { className: 'example-name' }, 'Conventions'),
      ' — ', conventions, '.', readingOf(result.reading) ?? '');
  }
  showPresetNote(active ? example : null);

  const notes = [];
  const note = (text, ...actions) => {
    const item = el('li', { className: 'warning' }, el('span', { className: 'kind' }, 'Note'), ' ', text);
    for (const action of actions) item.append(' ', action);
    notes.push(item);
  };
  const action = (id, label, run) => {
    const button = linkButton({ id }, label);
    button.addEventListener('click', run);
    return button;
  };
  if (example && departed && differsFromDefaults(state)) {
    note(`The input is no longer the example “${example.label}”, but its conventions are still set: ${describeConventions(state, { onlyChanged: true })}.`,
      action('keep-conventions', 'Keep them', () => {
        exampleId = '';
        update();
      }),
      action('reset-conventions', 'Reset to the defaults', () => {
        const before = readState();
        writeState({ ...before, ...DEFAULT_SETTINGS, example: '' });
        update();
        offerUndo('The conventions are back to the defaults.', before);
      }));
  }
  for (const w of result.warnings ?? []) {
    if (w.line !== 0) continue;
    if (w.code === 'judgments-unmatched') {
      note(sentence(w.message), action('clear-judgments', 'Clear the judgments', () => {
        const before = readState();
        judgments.value = '';
        update();
        offerUndo('The judgments were cleared.', before);
      }));
    } else {
      note(sentence(w.message));
    }
  }
  const slip = result.ok && result.length > 0 ? findSlip(stepColumns(result)) : null;
  if (slip) note(slip);
  // Rebuilt only when they change: a note rebuilt under the pointer between mousedown and
  // mouseup (a blur starts an update) would swallow the click on its button.
  const list = $('context-notes');
  const key = notes.map((n) => n.textContent).join('\n');
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(...notes);
}

const READ_FROM = { header: 'its header row', run: 'its TREC run lines or run dict', json: 'its JSON keys', option: 'the setting below', assumed: 'no header row says otherwise' };

/** How the numbers beside the documents were read, when there were any, with a way to switch. */
function readingOf(reading) {
  if (!reading || reading.numbers === 'none') return null;
  const span = el('span', { id: 'reading', className: 'reading' },
    ` The numbers beside the documents are read as ${reading.numbers === 'score' ? 'scores: the list is ranked by them' : 'grades'} (${READ_FROM[reading.from] ?? reading.from}).`);
  if (reading.from === 'assumed' || reading.from === 'option') {
    const other = reading.numbers === 'score' ? 'grade' : 'score';
    const button = linkButton({ id: 'read-as-other' }, `Read them as ${other}s`);
    button.addEventListener('click', () => {
      const before = readState();
      writeState({ ...before, rankingNumbers: other });
      update();
      offerUndo(`The numbers are now read as ${other}s.`, before);
    });
    span.append(' ', button);
  }
  return span;
}

const sentence = (text) => `${text}${/[.?!]$/.test(text) ? '' : '.'}`;

/** A state note with an Undo that brings back `before`: no action of the page loses input. */
function offerUndo(text, before) {
  const undo = linkButton({ id: 'undo' }, 'Undo');
  undo.addEventListener('click', () => {
    writeState(before);
    showStateNote('');
    update();
  });
  showStateNote(text, undo);
}

function newCalculation() {
  const before = readState();
  writeState({ ranking: '', judgments: '', working: '', workingQuantity: '', second: '', ...DEFAULT_SETTINGS, example: '' });
  rowLimit = ROWS_PER_PAGE;
  update();
  ranking.focus();
  if (before.ranking || before.judgments || before.second || differsFromDefaults(before)) offerUndo('Started a new calculation.', before);
}

function renderResult() {
  const { result, display, settings } = lastGood;
  renderHeadline($('headline'), result, display);
  renderFormulas($('formulas'), display, settings);
  // Both tables' columns fitted in one layout of the page, when they are measured.
  const shown = fittingTogether(() => {
    const rows = renderSteps($('steps'), result, display, rowLimit);
    renderIdeal($('ideal-table'), result, display, rowLimit);
    return rows;
  });
  const more = $('show-more');
  if (shown < result.length) {
    const button = more ?? el('button', { type: 'button', id: 'show-more' });
    button.textContent = `Show ${Math.min(ROWS_PER_PAGE, result.length - shown)} more of ${result.length} ranks`;
    button.onclick = () => {
      rowLimit += ROWS_PER_PAGE;
      renderResult();
    };
    if (!more) $('steps').closest('.table-wrap').after(button);
  } else {
    more?.remove();
  }
  renderChart($('chart'), result);
}

function update() {
  const started = performance.now();
  const state = readState();
  syncControls();
  // As columns (web/steps.js): no object per rank for the garbage collector.
  const result = calc.explain({ ranking: state.ranking, judgments: state.judgments, options: optionsOf(state), columnar: true });
  performance.measure('ndcg:explain', { start: started });
  const empty = result.ok && result.length === 0;
  document.body.dataset.state = empty ? 'empty' : result.ok ? 'ok' : 'error';
  showDiagnostics(result.ok ? [] : result.errors, empty ? [] : result.warnings);
  showContext(state, empty ? { ok: true, length: 0, warnings: [] } : result);
  setText($('ranking-print'), state.ranking);
  setText($('judgments-print'), state.judgments);
  if (empty) {
    lastGood = null;
    showEmpty();
  } else if (result.ok) {
    lastGood = { result, display: displayOf(state), settings: state };
    scheduleExtras(state);
    $('stale-note').hidden = true;
    renderResult();
    markStale(false);
  } else if (lastGood) {
    $('stale-note').hidden = false;
    markStale(true);
  }
  // Read by tests/bench: how long one recomputation takes, input to rendered table.
  performance.measure('ndcg:update', { start: started });
  if (!document.body.dataset.ready) performance.mark('ndcg:first-result');
  // While the input has errors the tables show the last good result: exporting them would
  // hand out numbers for another input, so Export waits for the input to be fixed.
  for (const id of ['download', 'copy']) {
    $(id).disabled = !result.ok || empty;
    $(id).title = result.ok ? '' : 'Fix the errors in the input first: the table shown is the last result that worked';
  }
  // Saved to storage at once, not debounced: a reload right after a keystroke must restore that
  // keystroke (the address follows a moment later; see saveState). A link that arrived since the
  // address was last written (its hashchange not yet handled) keeps the address: the update
  // saves to storage only, and the hashchange handler reads it.
  const { linked, stored } = saveState(state, { address: !addressIsForeign() });
  $('copy-link').title = linked ? 'Copy a link that restores this page' : 'The input is too long for a link; the link keeps the settings, and this browser keeps the text';
  showStorageWarning(!linked && !stored);
}

function markStale(stale) {
  $('results').classList.toggle('stale', stale);
  $('details').classList.toggle('stale', stale);
}

/** Two empty boxes: an invitation, not "NDCG = 0". */
function showEmpty() {
  $('stale-note').hidden = true;
  markStale(false);
  $('headline').replaceChildren(el('p', { className: 'empty-state' },
    'Paste a ranked list above (one document a line, or one line of grades such as 3 2 3 0 1 2) to see NDCG worked out rank by rank, or pick an example.'));
  for (const id of ['steps', 'ideal-table']) $(id).replaceChildren();
  $('show-more')?.remove();
  $('chart').replaceChildren();
  $('second-results').hidden = true;
}

function showStateNote(text, action) {
  const note = $('state-note');
  note.replaceChildren(text);
  if (action) note.append(' ', action);
  note.hidden = text === '';
}

let storageWarned = false;
function showStorageWarning(atRisk) {
  if (atRisk === storageWarned) return;
  storageWarned = atRisk;
  showStateNote(atRisk
    ? 'This browser\'s storage is full or turned off, and the input is too long for a link: a reload would lose it. Download or copy your input before you leave.'
    : '');
}

/** Starts from a loaded state, saying where it came from when that is not obvious. */
function applyLoaded({ state, note }) {
  writeState(state);
  update();
  if (note === 'previous') {
    const restore = linkButton({ id: 'restore-previous' }, 'Restore what you had before');
    restore.addEventListener('click', () => {
      const previous = previousState();
      if (previous) writeState(previous);
      forgetPreviousState();
      showStateNote('');
      update();
    });
    showStateNote('This link replaced the input this browser had saved.', restore);
  } else {
    showStateNote(note);
  }
}

// The comparison of conventions and the check of the working follow the result once typing
// pauses: each explains the ranking several times, and the step table comes first. Each part is
// a task of its own, so that a keystroke or click waits for one part at most: as one task, the
// three held the page for 40-100 ms after its first result on a slow machine.
let extras = 0;
function scheduleExtras(state) {
  clearTimeout(extras);
  let request;
  let display;
  const parts = [
    () => {
      request = { ranking: state.ranking, judgments: state.judgments, options: optionsOf(state) };
      display = displayOf(state);
      renderCompare(calc, request, display);
    },
    () => renderCheck(calc, request, state, display),
    () => {
      if (lastGood) renderSecond(calc, { ...request, ranking: state.second }, lastGood.result, display);
      performance.mark('ndcg:extras');
    },
  ];
  // A new edit's scheduleExtras clears the part still to come, and starts again from the first.
  const run = (i) => {
    extras = setTimeout(() => {
      parts[i]();
      if (i + 1 < parts.length) run(i + 1);
    }, i === 0 ? 120 : 0);
  };
  run(0);
}

let pending = 0;
function scheduleUpdate() {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(() => {
    pending = 0;
    update();
  });
}

/** The example's note, while the input is that example's; nothing otherwise. */
function showPresetNote(preset) {
  const note = $('preset-note');
  if (note.dataset.preset === (preset?.id ?? '')) return;
  note.dataset.preset = preset?.id ?? '';
  if (!preset) {
    note.replaceChildren();
    return;
  }
  note.replaceChildren(preset.note);
  if (preset.slideView) {
    const button = linkButton({ id: 'slide-view' }, preset.slideView.label);
    button.addEventListener('click', () => {
      writeState({ ...readState(), ...Object.fromEntries(Object.entries(preset.slideView.settings).map(([k, v]) => [k, typeof v === 'boolean' ? v : String(v)])) });
      update();
    });
    note.append(' ', button, '.');
  }
}

function applyPreset(preset, { undo = true } = {}) {
  const before = readState();
  writeState(presetState(preset));
  rowLimit = ROWS_PER_PAGE;
  update();
  // Text typed over an example is not lost to the next one.
  const typed = PRESETS.every((p) => p.ranking !== before.ranking || p.judgments !== before.judgments || (p.working ?? '') !== before.working);
  if (undo && typed && (before.ranking || before.judgments || before.working)) offerUndo(`Loaded the example “${preset.label}”.`, before);
}

function setUpPresets() {
  $('new-calculation').addEventListener('click', newCalculation);
  const holder = $('preset-buttons');
  for (const preset of PRESETS) {
    const button = el('button', { type: 'button', className: 'preset', 'data-preset': preset.id }, preset.label);
    button.addEventListener('click', () => applyPreset(preset));
    holder.append(button);
  }
}

function setUpDrop(textarea) {
  textarea.addEventListener('dragover', (event) => {
    event.preventDefault();
    textarea.classList.add('drop-target');
  });
  textarea.addEventListener('dragleave', () => textarea.classList.remove('drop-target'));
  textarea.addEventListener('drop', async (event) => {
    event.preventDefault();
    textarea.classList.remove('drop-target');
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    textarea.value = await file.text();
    update();
  });
}

function setStatus(text) {
  $('export-status').textContent = text;
  setTimeout(() => { if ($('export-status').textContent === text) $('export-status').textContent = ''; }, 4000);
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    setStatus(`${what} copied`);
  } catch {
    setStatus('Copying is blocked here: use Download instead');
  }
}

function setUpExport() {
  const current = () => {
    if (!lastGood) return null;
    const format = EXPORTS[$('export-format').value];
    return { format, text: format.make(lastGood.result, lastGood.display) };
  };
  $('download').addEventListener('click', () => {
    const made = current();
    if (!made) return;
    downloadText(made.text, made.format.type, `ndcg-steps.${made.format.extension}`);
  });
  $('copy').addEventListener('click', () => {
    const made = current();
    if (made) copyText(made.text, 'Table');
  });
  // The address holds the state as saved: all of it, or the settings when the text is too long.
  $('copy-link').addEventListener('click', () => {
    flushAddress();
    copyText(location.href, 'Link');
  });
}

/** Says when the step table is wider than its box: it scrolls sideways, the rank column stays. */
function watchTableWidth() {
  const wrap = $('steps-wrap');
  const hint = () => { $('steps-scroll-hint').hidden = wrap.scrollWidth <= wrap.clientWidth + 1; };
  const observer = new ResizeObserver(hint);
  observer.observe(wrap);
  observer.observe($('steps'));
}

/**
 * Wires the one-list mode. What needs no core is ready at once; `start(calc)` begins computing,
 * and `fail(message)` says why it cannot.
 */
export function setUpListMode() {
  setUpPresets();
  setUpExport();
  setUpDrop(ranking);
  setUpDrop(judgments);
  setUpDrop(second);
  watchTableWidth();
  return {
    start(calculator) {
      calc = calculator;
      setUpLibraries();
      setUpCompare(calc, () => lastGood && scheduleExtras(lastGood.settings));
      for (const node of [ranking, judgments, working, workingQuantity, second, ...Object.values(controls)]) {
        node.addEventListener('input', scheduleUpdate);
        node.addEventListener('change', scheduleUpdate);
      }
      // Leaving the page within a frame of a keystroke: that keystroke is saved first, and the
      // address written (a closed tab reopens at it).
      window.addEventListener('pagehide', () => {
        if (pending) {
          cancelAnimationFrame(pending);
          pending = 0;
          saveState(readState());
        }
        flushAddress();
      });
      window.addEventListener('hashchange', () => {
        // A keystroke not yet saved is saved now, before the new link is read, so that the link
        // cannot replace it unnoticed; the address is the link's, and stays so.
        if (pending) {
          cancelAnimationFrame(pending);
          pending = 0;
          saveState(readState(), { address: false });
        }
        adoptAddress();
        const loaded = loadState();
        if (loaded.state && encodeState(loaded.state) !== encodeState(readState())) applyLoaded(loaded);
      });
      adoptAddress();
      const loaded = loadState();
      if (loaded.state) {
        applyLoaded(loaded);
      } else {
        applyPreset(PRESETS[0], { undo: false });
      }
    },
    fail(message) {
      $('headline').replaceChildren(el('p', { className: 'fatal' }, message));
    },
  };
}
