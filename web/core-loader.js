// Instantiates the core from a module URL and its wasm binary (gzip, base64-encoded); shared by
// the page and its worker, which must not bundle the module itself (see core.js).
import { makeCalculator } from '../wasm/api.mjs';

/** A blob: URL for a module's source text, importable by the context that made it. */
export function moduleUrl(source) {
  return URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
}

/** The wasm binary from its gzip-compressed base64 text, inflated by the browser. */
export async function inflateWasm(base64Gzip) {
  // A plain loop over atob's output: Uint8Array.from with a mapping function takes ten times as
  // long on the page's critical path.
  const text = atob(base64Gzip);
  const packed = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) packed[i] = text.charCodeAt(i);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The calculator from the core module's URL and its binary (or a promise of it): the module is
 * imported while the binary is still being inflated.
 */
export async function loadCalculator(url, binary) {
  const [{ default: createNdcgCore }, wasmBinary] = await Promise.all([import(/* @vite-ignore */ url), binary]);
  // The binary is handed over, so the module neither locates nor fetches a file (a blob: URL is
  // no base for one). A failed core (out of memory, a trap) is replaced by a fresh instance; see
  // wasm/api.mjs.
  const instantiate = () => createNdcgCore({ printErr: () => {}, wasmBinary, locateFile: (name) => name });
  return makeCalculator(await instantiate(), { restart: instantiate });
}
