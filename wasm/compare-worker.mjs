// One of the threads that evaluate a comparison's runs side by side for ndcg-calc compare
// (wasm/cli.mjs): its own instance of the core reads the qrels and its share of the runs, and
// hands each run back evaluated and packed (calc.evaluateForComparison), with the progress of
// its reading.
import { parentPort, workerData } from 'node:worker_threads';

import { opener } from './files.mjs';
import { createCalculator } from './index.mjs';

const { qrelsPath, runs, measures, options } = workerData;
const calc = await createCalculator();
const result = await calc.evaluateForComparison({
  qrels: await opener(qrelsPath),
  runs: new Map(await Promise.all(runs.map(async ({ name, path }) => [name, await opener(path)]))),
  measures,
  options,
  onProgress: (progress) => parentPort.postMessage({ type: 'progress', progress }),
});
const packed = Object.values(result.runs ?? {}).map((r) => r.packed.buffer);
parentPort.postMessage({ type: 'done', result }, packed);
