// Instantiates the core from a module URL and its wasm binary (gzip, base64-encoded); shared by
// the page and its worker, which must not bundle the module itself (see core.js).
import { makeCalculator } from '../wasm/api.mjs';

/** A blob: URL for a module's source text, importable by the context that made it. */
export function moduleUrl(source) {
  return URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
}

/** The wasm binary from its gzip-compressed base64 text, inflated by the browser. */
export async function inflateWasm(base64Gzip) {
  const packed = Uint8Array.from(atob(base64Gzip), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function loadCalculator(url, wasmBinary) {
  const { default: createNdcgCore } = await import(/* @vite-ignore */ url);
  // The binary is handed over, so the module neither locates nor fetches a file (a blob: URL is
  // no base for one). A failed core (out of memory, a trap) is replaced by a fresh instance; see
  // wasm/api.mjs.
  const instantiate = () => createNdcgCore({ printErr: () => {}, wasmBinary, locateFile: (name) => name });
  return makeCalculator(await instantiate(), { restart: instantiate });
}
