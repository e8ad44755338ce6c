// Entry point for pages and workers (the "browser" export condition).
import createNdcgCore from './dist/ndcg-core.web.mjs';
import { makeCalculator } from './api.mjs';

export { CalculatorUsageError, optionsToText } from './api.mjs';

let corePromise;

const instantiate = () => createNdcgCore({ printErr: () => {} });

/** Instantiates the wasm core once and returns the calculator API (see index.d.ts). */
export async function createCalculator() {
  corePromise ??= instantiate();
  return makeCalculator(await corePromise, { restart: instantiate });
}
