// Entry point for Node and for browsers loading this file directly. Bundlers that honour the
// "browser" export condition use index.browser.mjs instead, which never mentions Node.
import { makeCalculator } from './api.mjs';

export { CalculatorUsageError, optionsToText } from './api.mjs';

let corePromise;

async function loadCore() {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  if (isNode) {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    return require('./dist/ndcg-core.node.cjs')();
  }
  const { default: createNdcgCore } = await import('./dist/ndcg-core.web.mjs');
  return createNdcgCore();
}

/** Instantiates the wasm core once and returns the calculator API (see index.d.ts). */
export async function createCalculator() {
  corePromise ??= loadCore();
  return makeCalculator(await corePromise);
}
