// Instantiates the core from a module URL; shared by the page and its worker, which must not
// bundle the module itself (see core.js).
import { makeCalculator } from '../wasm/api.mjs';

/** A blob: URL for a module's source text, importable by the context that made it. */
export function moduleUrl(source) {
  return URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
}

export async function loadCalculator(url) {
  const { default: createNdcgCore } = await import(/* @vite-ignore */ url);
  // A failed core (out of memory, a trap) is replaced by a fresh instance; see wasm/api.mjs.
  const instantiate = () => createNdcgCore({ printErr: () => {} });
  return makeCalculator(await instantiate(), { restart: instantiate });
}
