// The wasm core, shipped once as the text of its Emscripten module (imported from a blob: URL)
// and its wasm binary (gzip, base64), so that the page and its Web Worker share one copy (the
// single-file page has a size budget, and a worker bundle would carry a second copy of the
// module). A worker makes its own blob: URL from the same text: from a file:// page it may not
// import the page's.
import coreSource from '../wasm/dist/ndcg-core.web.mjs?raw';
import coreWasm from 'virtual:ndcg-core-wasm';
import { inflateWasm, loadCalculator as loadFrom, moduleUrl } from './core-loader.js';

export { coreSource, coreWasm };

/** A URL the page and its workers can import the core module from. */
export const coreUrl = moduleUrl(coreSource);

export const loadCalculator = () => loadFrom(coreUrl, inflateWasm(coreWasm));
