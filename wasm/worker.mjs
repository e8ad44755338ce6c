// A thread of ndcg-calc (wasm/cli.mjs), with its own instance of the core. `task` says what it
// does: 'compare', evaluate its share of a comparison's runs and hand each back evaluated and
// packed (calc.evaluateForComparison); 'later-part', read the later part of a run split between
// two threads and hand it back packed (calc.evaluateLaterPart). It reports its reading.
import { parentPort, workerData } from 'node:worker_threads';

import { fileReader, opener } from './files.mjs';
import { createCalculator, useCompiledCore } from './index.mjs';

const progress = (p) => parentPort.postMessage({ type: 'progress', progress: p });
// Started before its task was known ('wait', cli.mjs's workerStartedEarly): the task comes as
// the first message.
const task = workerData.task === 'wait' ? await new Promise((resolve) => parentPort.once('message', resolve)) : workerData;
// The core as the thread that started this one compiled it.
if (task.core) useCompiledCore(task.core);
const calc = await createCalculator();

if (task.task === 'later-part') {
  const { qrelsPath, runPath, from, samples, measures, options } = task;
  // The number of the part's first line is not known here (see splitRun in cli.mjs).
  const result = await calc.evaluateLaterPart({
    qrels: await opener(qrelsPath),
    run: () => fileReader(runPath, from),
    firstByte: from,
    samples,
    measures,
    options,
    onProgress: progress,
  });
  parentPort.postMessage({ type: 'done', result }, result.packed ? [result.packed.buffer] : []);
} else {
  const { qrelsPath, runs, measures, options } = task;
  const result = await calc.evaluateForComparison({
    qrels: await opener(qrelsPath),
    runs: new Map(await Promise.all(runs.map(async ({ name, path }) => [name, await opener(path)]))),
    measures,
    options,
    onProgress: progress,
  });
  const packed = Object.values(result.runs ?? {}).map((r) => r.packed.buffer);
  parentPort.postMessage({ type: 'done', result }, packed);
}
