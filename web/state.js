// The whole page state in one flat object, kept in the URL hash (a shareable link) and in
// localStorage, so that a reload or a shared link restores exactly what the person typed.

export const DEFAULT_SETTINGS = Object.freeze({
  gain: 'linear',
  gainMap: '',
  discount: 'log2(rank+1)',
  base: '2',
  ideal: 'judgments',
  k: '',
  idealDepth: 'cut',
  zero: '0',
  rankingNumbers: 'auto',
  ties: 'input',
  negativeGains: 'zero',
  unjudgedGrade: '0',
  relevantFrom: '',
  decimals: '4',
  roundLikeSlide: false,
});

const KEYS = {
  ranking: 'r', judgments: 'j', gain: 'gain', gainMap: 'map', discount: 'disc', base: 'base',
  ideal: 'ideal', k: 'k', idealDepth: 'depth', zero: 'zero', rankingNumbers: 'nums', ties: 'ties',
  negativeGains: 'neg', unjudgedGrade: 'unj', relevantFrom: 'relfrom', decimals: 'dec', roundLikeSlide: 'slide', example: 'ex',
  working: 'w', workingQuantity: 'wq', second: 'r2',
};
/** The settings a new calculation starts from, and which the conventions of an example replace. */
export const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS);
const STORAGE_KEY = 'ndcg-calculator:state';
// What was in storage before a link with other text replaced it: one step of undo.
const PREVIOUS_KEY = 'ndcg-calculator:previous';
// Longer inputs stay in localStorage only: browsers and chat apps truncate very long links.
const MAX_LINK_LENGTH = 60_000;
// In a link whose text was too long to carry: the link holds the settings only.
const SETTINGS_ONLY = 'only';

export function encodeState(state) {
  const params = new URLSearchParams();
  for (const [field, key] of Object.entries(KEYS)) {
    const value = state[field];
    if (value === undefined || value === '' || value === false) continue;
    params.set(key, value === true ? '1' : String(value));
  }
  return params.toString();
}

export function decodeState(text) {
  const params = new URLSearchParams(text.replace(/^#/, ''));
  if (![...params.keys()].some((key) => Object.values(KEYS).includes(key) || key === SETTINGS_ONLY)) return null;
  const state = { ranking: '', judgments: '', working: '', second: '', ...DEFAULT_SETTINGS };
  for (const [field, key] of Object.entries(KEYS)) {
    if (!params.has(key)) {
      if (field === 'roundLikeSlide') state[field] = false;
      continue;
    }
    const value = params.get(key);
    state[field] = field === 'roundLikeSlide' ? value === '1' : value;
  }
  if (params.has(SETTINGS_ONLY)) state.settingsOnly = true;
  return state;
}

function readStorage(key) {
  try {
    const text = localStorage.getItem(key);
    if (!text) return null;
    const record = JSON.parse(text);
    return record && typeof record === 'object' && record.state ? record : null;
  } catch {
    return null;  // storage disabled (private mode, sandboxed iframe), or not ours
  }
}

function writeStorage(key, record) {
  try {
    localStorage.setItem(key, JSON.stringify(record));
    return true;
  } catch {
    return false;  // quota exceeded or storage disabled
  }
}

const hasText = (state) => Boolean(state && (state.ranking || state.judgments || state.working || state.second));

/**
 * The state to start from, and what to tell the person about it:
 *   { state, source: 'link' | 'storage' | null, note }
 * The link wins, except where it cannot hold the text: a reload of this page's own link restores
 * the text saved with it, and a link that carries the settings only keeps this browser's text.
 * The page's own link is the one saved with the text, or the one the address still showed when it
 * was saved (the address follows a moment later: see scheduleAddress). A link that brings other
 * text moves what storage held to PREVIOUS_KEY, from which the page can restore it: no saved text
 * is lost to a link.
 */
export function loadState() {
  const hash = location.hash.replace(/^#/, '');
  const fromLink = decodeState(hash);
  const saved = readStorage(STORAGE_KEY);
  if (!fromLink) return { state: saved?.state ?? null, source: saved ? 'storage' : null, note: '' };
  if (saved && (saved.link === hash || (typeof saved.shown === 'string' && saved.shown === hash))) {
    return { state: saved.state, source: 'storage', note: '' };
  }
  if (fromLink.settingsOnly) {
    delete fromLink.settingsOnly;
    if (!hasText(saved?.state)) {
      return { state: fromLink, source: 'link', note: 'This link carried the settings only: its text was too long for a link, and this browser has none saved.' };
    }
    return { state: { ...fromLink, ranking: saved.state.ranking, judgments: saved.state.judgments, working: saved.state.working ?? '', second: saved.state.second ?? '' }, source: 'link', note: 'This link carried the settings only (its text was too long for a link); the text is the one this browser saved.' };
  }
  if (hasText(saved?.state) && encodeState(saved.state) !== encodeState(fromLink)) {
    writeStorage(PREVIOUS_KEY, saved);
    return { state: fromLink, source: 'link', note: 'previous' };
  }
  return { state: fromLink, source: 'link', note: '' };
}

/** The input this browser held before a link replaced it, or null. */
export function previousState() {
  return readStorage(PREVIOUS_KEY)?.state ?? null;
}

export function forgetPreviousState() {
  try {
    localStorage.removeItem(PREVIOUS_KEY);
  } catch {
    // Nothing to forget where storage is disabled.
  }
}

// The address is written at most every ADDRESS_INTERVAL_MS, in a task of its own: browsers
// refuse history.replaceState past a rate (WebKit 100 calls in 10 s, Gecko and Chromium 200),
// which typing at ten keys a second reaches, and the call took 3 ms of an edit's frame with the
// 10 KB link of a 1,000-row list. Storage is written at once, and says which link the address
// still shows (`shown`), so that a reload before the address follows restores the last keystroke.
const ADDRESS_INTERVAL_MS = 250;
let ownHash = null;  // location.hash as this page last wrote it, or took it from a link
let waiting = null;  // the URL to write
let timer = 0;
let lastWrite = -Infinity;

/** The URL waiting to be written, or null; it waits no longer. */
function takeWaiting() {
  clearTimeout(timer);
  timer = 0;
  const url = waiting;
  waiting = null;
  return url;
}

/** Takes the address as it is for the page's own: at start, and when a link arrives (hashchange). */
export function adoptAddress() {
  takeWaiting();
  ownHash = location.hash;
}

/**
 * Whether a link arrived in the address since the page last wrote it, its hashchange not yet
 * handled: the page then saves to storage only, and writes no address over the link.
 */
export function addressIsForeign() {
  return ownHash !== null && location.hash !== ownHash;
}

/** Writes the waiting address now (before its link is copied, or the page is left). */
export function flushAddress() {
  const url = takeWaiting();
  if (url === null || addressIsForeign()) return;
  try {
    history.replaceState(null, '', url);
  } catch {
    // A sandboxed frame may refuse; storage still holds the state.
  }
  lastWrite = performance.now();
  ownHash = location.hash;
}

function scheduleAddress(url) {
  waiting = url;
  if (timer) return;
  timer = setTimeout(flushAddress, Math.max(0, lastWrite + ADDRESS_INTERVAL_MS - performance.now()));
}

/**
 * Saves the state in storage (all of it) and in the address (all of it when short enough, else
 * the settings), the address a moment later (scheduleAddress); with `address: false`, storage
 * only. Returns { linked, stored }: whether the link holds the text, and whether storage took it;
 * when neither, a reload would lose the text and the page says so.
 */
export function saveState(state, { address = true } = {}) {
  const encoded = encodeState(state);
  const linked = encoded.length <= MAX_LINK_LENGTH;
  const settings = encodeState({ ...state, ranking: '', judgments: '', working: '', second: '' });
  const link = linked ? encoded : `${settings}${settings ? '&' : ''}${SETTINGS_ONLY}=1`;
  const shown = address ? location.hash.replace(/^#/, '') : null;
  const stored = writeStorage(STORAGE_KEY, shown === null || shown === link ? { state, link } : { state, link, shown });
  if (!address) return { linked, stored };
  if (shown === link) {
    // Nothing to write; an older URL still waiting would undo this one.
    takeWaiting();
  } else {
    scheduleAddress(`${location.pathname}${location.search}${link ? `#${link}` : ''}`);
  }
  return { linked, stored };
}
