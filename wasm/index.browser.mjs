// Entry point for pages and workers (the "browser" export condition).
import createNdcgCore from './dist/ndcg-core.web.mjs';
import { CalculatorUsageError, makeCalculator } from './api.mjs';

export { CalculatorUsageError, OutputError, optionsToText, rowsOfColumns } from './api.mjs';

let corePromise;

const instantiate = () => createNdcgCore({ printErr: () => {} });

/** Instantiates the wasm core once and returns the calculator API (see index.d.ts). */
export async function createCalculator() {
  corePromise ??= instantiate();
  return makeCalculator(await corePromise, { restart: instantiate });
}

/** Node's entry only (index.mjs), where worker threads share it: null here. */
export async function compiledCore() {
  return null;
}

/** Node's entry only (index.mjs): pages and their workers each compile the core. */
export function useCompiledCore() {
  throw new CalculatorUsageError('useCompiledCore() is for Node\'s entry (wasm/index.mjs)');
}
