// The wasm core, shipped once as the text of its Emscripten module (a script the page runs
// inline) and its wasm binary, both gzip-compressed and base64-encoded (see vite.config.mjs), so
// that the page and its Web Worker share one copy (the single-file page has a size budget, and a
// worker bundle would carry a second copy of the module). The worker is sent the packed texts and
// imports the script from a blob: URL of its own.
import coreSource from 'virtual:ndcg-core-source';
import coreWasm from 'virtual:ndcg-core-wasm';
import { compileWasm, loadCalculator as loadFrom, runCoreScript } from './core-loader.js';

export { coreSource, coreWasm };

export const loadCalculator = () => loadFrom(runCoreScript(coreSource), compileWasm(coreWasm));
