// Instantiates the core from a module URL and its wasm binary (gzip, base64-encoded); shared by
// the page and its worker, which must not bundle the module itself (see core.js).
import { makeCalculator } from '../wasm/api.mjs';

/** Bytes from their gzip-compressed base64 text, inflated by the browser. */
async function inflate(base64Gzip) {
  // A plain loop over atob's output: Uint8Array.from with a mapping function takes ten times as
  // long on the page's critical path.
  const text = atob(base64Gzip);
  const packed = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) packed[i] = text.charCodeAt(i);
  return new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip')));
}

/** The wasm binary from its packed text. */
export async function inflateWasm(base64Gzip) {
  return new Uint8Array(await (await inflate(base64Gzip)).arrayBuffer());
}

/**
 * A blob: URL for the core module from its packed source text, importable by the context that
 * made it (a worker makes its own: from a file:// page it may not import the page's).
 */
export async function moduleUrl(base64Gzip) {
  return URL.createObjectURL(new Blob([await (await inflate(base64Gzip)).arrayBuffer()], { type: 'text/javascript' }));
}

/**
 * The calculator from promises of the core module's URL and of its binary: the module is
 * imported while the binary is still being inflated.
 */
export async function loadCalculator(url, binary) {
  const [{ default: createNdcgCore }, wasmBinary] = await Promise.all([url.then((u) => import(/* @vite-ignore */ u)), binary]);
  // The binary is handed over, so the module neither locates nor fetches a file (a blob: URL is
  // no base for one). A failed core (out of memory, a trap) is replaced by a fresh instance; see
  // wasm/api.mjs.
  const instantiate = () => createNdcgCore({ printErr: () => {}, wasmBinary, locateFile: (name) => name });
  return makeCalculator(await instantiate(), { restart: instantiate });
}
