// Instantiates the core from its script and its wasm binary (gzip, base64-encoded); shared by
// the page and its worker, which must not bundle the module itself (see core.js).
import { instantiateCompiled, makeCalculator } from '../wasm/api.mjs';

/**
 * A stream of the bytes inflated by the browser from their gzip-compressed base64 text. The
 * compressed bytes are handed over as a Response's body: a Blob's stream is read back from the
 * browser's own process, and the wasm came out of the decompressor 50-70 ms later so.
 */
function inflate(base64Gzip) {
  return new Response(bytesOfBase64(base64Gzip)).body.pipeThrough(new DecompressionStream('gzip'));
}

/**
 * All the bytes inflated from their packed text, read chunk by chunk: Response.text() over the
 * same stream ended 40-45 ms later, on the way to the first result.
 */
export async function inflateBytes(base64Gzip) {
  const reader = inflate(base64Gzip).getReader();
  const parts = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/**
 * Bytes from base64 text: by the browser's own decoder where it has one (Chrome 140, Firefox
 * 133, Safari 18.2), which took 0.3-0.5 ms for 300 KB where the loop below, run once and so
 * never optimised, took 4-14 ms on the page's critical path.
 */
export function bytesOfBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  // A plain loop over atob's output: Uint8Array.from with a mapping function takes ten times as
  // long.
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The wasm module compiled from its packed text as it is inflated: the browser compiles each
 * part of the binary as it comes out of the decompressor, not once the whole is out. A browser
 * without a decompressor (or WebAssembly) gets a rejected promise, which the page reports.
 */
export async function compileWasm(base64Gzip) {
  return WebAssembly.compileStreaming(new Response(inflate(base64Gzip), { headers: { 'Content-Type': 'application/wasm' } }));
}

/**
 * A blob: URL for a script from its packed text (and `append`, text after it), importable by the
 * context that made it (a worker makes its own: from a file:// page it may not import the page's).
 */
export async function moduleUrl(base64Gzip, append = '') {
  return URL.createObjectURL(new Blob([await inflateBytes(base64Gzip), append], { type: 'text/javascript' }));
}

/**
 * The core module's factory from its packed script (vite.config.mjs, coreScript), run as an
 * inline script, at once: imported from a blob: URL it waited on a round trip to the browser's
 * own process. The page's policy allows the script by its hash.
 */
export async function runCoreScript(base64Gzip) {
  const script = document.createElement('script');
  script.textContent = new TextDecoder().decode(await inflateBytes(base64Gzip));
  document.head.append(script);
  script.remove();
  const factory = self.ndcgCoreFactory;
  delete self.ndcgCoreFactory;
  if (typeof factory !== 'function') throw new Error('its script did not run (the page\'s policy may have blocked it)');
  return factory;
}

/** The same factory in a worker, which has no document: imported, from a blob: URL. */
export async function importCoreScript(base64Gzip) {
  const url = await moduleUrl(base64Gzip, '\nconst factory = self.ndcgCoreFactory;\ndelete self.ndcgCoreFactory;\nexport default factory;\n');
  return (await import(/* @vite-ignore */ url)).default;
}

/**
 * The calculator from promises of the core module's factory (runCoreScript, importCoreScript)
 * and of its compiled wasm (compileWasm): the script runs while the binary is still being
 * inflated and compiled.
 */
export async function loadCalculator(factory, compiled) {
  const [createNdcgCore, wasmModule] = await Promise.all([factory, compiled]);
  // The compiled module is handed over, so the Emscripten module neither locates nor fetches a
  // file (neither a blob: URL nor an inline script is a base for one). A failed core (out of
  // memory, a trap) is replaced by a fresh instance of it; see wasm/api.mjs.
  const instantiate = () => instantiateCompiled(createNdcgCore, wasmModule, { locateFile: (name) => name });
  return makeCalculator(await instantiate(), { restart: instantiate });
}
