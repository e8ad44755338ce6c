// Entry point for Node and for browsers loading this file directly. Bundlers that honour the
// "browser" export condition use index.browser.mjs instead, which never mentions Node.
import { makeCalculator } from './api.mjs';
import { splitMethods } from './split.mjs';

export { CalculatorUsageError, optionsToText } from './api.mjs';

let factoryPromise;
let corePromise;

async function loadFactory() {
  const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  if (isNode) {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    return require('./dist/ndcg-core.node.cjs');
  }
  return (await import('./dist/ndcg-core.web.mjs')).default;
}

// A new instance of the core. Its failures reach the caller as values (see api.mjs), so the
// module's own report of an abort on stderr is not printed.
async function instantiate() {
  factoryPromise ??= loadFactory();
  return (await factoryPromise)({ printErr: () => {} });
}

/** Instantiates the wasm core once and returns the calculator API (see index.d.ts). */
export async function createCalculator() {
  corePromise ??= instantiate();
  return makeCalculator(await corePromise, { restart: instantiate, extend: splitMethods });
}
