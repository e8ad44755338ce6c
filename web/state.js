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
  decimals: '4',
  roundLikeSlide: false,
});

const KEYS = {
  ranking: 'r', judgments: 'j', gain: 'gain', gainMap: 'map', discount: 'disc', base: 'base',
  ideal: 'ideal', k: 'k', idealDepth: 'depth', zero: 'zero', decimals: 'dec', roundLikeSlide: 'slide',
};
const STORAGE_KEY = 'ndcg-calculator:state';
// Longer inputs stay in localStorage only: browsers and chat apps truncate very long links.
const MAX_LINK_LENGTH = 60_000;

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
  if (![...params.keys()].some((key) => Object.values(KEYS).includes(key))) return null;
  const state = { ranking: '', judgments: '', ...DEFAULT_SETTINGS };
  for (const [field, key] of Object.entries(KEYS)) {
    if (!params.has(key)) {
      if (field === 'roundLikeSlide') state[field] = false;
      continue;
    }
    const value = params.get(key);
    state[field] = field === 'roundLikeSlide' ? value === '1' : value;
  }
  return state;
}

/** The state to start from: the link first, then what this browser saved, else null. */
export function loadState() {
  const fromLink = decodeState(location.hash);
  if (fromLink) return fromLink;
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved ? decodeState(saved) : null;
  } catch {
    return null;  // storage disabled (private mode, sandboxed iframe)
  }
}

export function saveState(state) {
  const encoded = encodeState(state);
  try {
    localStorage.setItem(STORAGE_KEY, encoded);
  } catch {
    // Quota exceeded or storage disabled: the link below still carries the state.
  }
  const link = encoded.length <= MAX_LINK_LENGTH ? encoded : encodeState({ ...state, ranking: '', judgments: '' });
  const url = `${location.pathname}${location.search}${link ? `#${link}` : ''}`;
  history.replaceState(null, '', url);
  return encoded.length <= MAX_LINK_LENGTH;
}
