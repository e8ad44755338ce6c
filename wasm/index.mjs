// Entry point for Node and for browsers loading this file directly. Bundlers that honour the
// "browser" export condition use index.browser.mjs instead, which never mentions Node.
import { CalculatorUsageError, instantiateCompiled, makeCalculator } from './api.mjs';
import { commandLineMethods, commandLineReports } from './command-line.mjs';
import { splitMethods } from './split.mjs';

export { CalculatorUsageError, OutputError, optionsToText, rowsOfColumns } from './api.mjs';

let factoryPromise;
let corePromise;
let compiledPromise;

const isNode = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

async function loadFactory() {
  if (isNode) {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    return require('./dist/ndcg-core.node.cjs');
  }
  return (await import('./dist/ndcg-core.web.mjs')).default;
}

/**
 * In Node, the core's compiled WebAssembly.Module, compiled once per thread that asks for it:
 * ndcg-calc hands it to its worker threads (a Module posted to a worker is shared, not copied),
 * so that each does not compile the core again (about 20 ms and 10 MB of memory a thread).
 * Read and compiled synchronously (about 4 ms): the thread has nothing else to do meanwhile,
 * and the module compiled in the background reached it later (an evaluation of one line took
 * 2 ms longer to the process's end, medians of 20 runs of each).
 */
export function compiledCore() {
  if (!isNode) return Promise.resolve(null);
  compiledPromise ??= import('node:fs').then(({ readFileSync }) =>
    new WebAssembly.Module(readFileSync(new URL('./dist/ndcg-core.node.wasm', import.meta.url))));
  return compiledPromise;
}

/** Uses `module`, compiled by another thread's compiledCore(), for this thread's instances. */
export function useCompiledCore(module) {
  if (!(module instanceof WebAssembly.Module)) throw new CalculatorUsageError('useCompiledCore() takes a WebAssembly.Module');
  compiledPromise = Promise.resolve(module);
}

// A new instance of the core. Its failures reach the caller as values (see api.mjs), so the
// module's own report of an abort on stderr is not printed.
async function instantiate() {
  factoryPromise ??= loadFactory();
  const factory = await factoryPromise;
  const module = await compiledCore();
  if (!module) return factory({ printErr: () => {} });
  return instantiateCompiled(factory, module);
}

// What Node's core does beside the page's: split a run between threads, read ndcg-calc's
// command line.
const nodeMethods = (internals) => ({ ...splitMethods(internals), ...commandLineMethods(internals) });

/** Instantiates the wasm core once and returns the calculator API (see index.d.ts). */
export async function createCalculator() {
  corePromise ??= instantiate();
  return makeCalculator(await corePromise, { restart: instantiate, extend: nodeMethods, commandLine: commandLineReports });
}
