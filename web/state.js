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
 * A link that brings other text moves what storage held to PREVIOUS_KEY, from which the page can
 * restore it: no saved text is lost to a link.
 */
export function loadState() {
  const hash = location.hash.replace(/^#/, '');
  const fromLink = decodeState(hash);
  const saved = readStorage(STORAGE_KEY);
  if (!fromLink) return { state: saved?.state ?? null, source: saved ? 'storage' : null, note: '' };
  if (saved && saved.link === hash) return { state: saved.state, source: 'storage', note: '' };
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

/**
 * Saves the state in storage (all of it) and in the address (all of it when short enough, else
 * the settings; with `address: false`, storage only). Returns { linked, stored }: whether the link holds the text, and whether storage
 * took it; when neither, a reload would lose the text and the page says so.
 */
export function saveState(state, { address = true } = {}) {
  const encoded = encodeState(state);
  const linked = encoded.length <= MAX_LINK_LENGTH;
  const settings = encodeState({ ...state, ranking: '', judgments: '', working: '', second: '' });
  const link = linked ? encoded : `${settings}${settings ? '&' : ''}${SETTINGS_ONLY}=1`;
  const stored = writeStorage(STORAGE_KEY, { state, link });
  if (!address) return { linked, stored };
  const url = `${location.pathname}${location.search}${link ? `#${link}` : ''}`;
  try {
    history.replaceState(null, '', url);
  } catch {
    // A sandboxed frame may refuse; storage still holds the state.
  }
  return { linked, stored };
}
