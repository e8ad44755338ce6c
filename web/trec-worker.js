// Evaluates a qrels/run pair off the page's thread, so a 200 MB run never freezes the page. The
// page sends the source text of the core module it loads itself (one copy of the wasm in the file).
import { loadCalculator, moduleUrl } from './core-loader.js';

let calculator = null;

/** Chunks of a File (read as a stream) or of pasted text. */
function chunksOf(input) {
  return typeof input === 'string' ? () => [input] : () => input.stream();
}

self.onmessage = async ({ data }) => {
  if (data.type !== 'evaluate') return;
  try {
    calculator ??= await loadCalculator(moduleUrl(data.coreSource));
    const sizes = { qrels: data.qrels.size ?? data.qrels.length, run: data.run.size ?? data.run.length };
    let lastPost = 0;
    const result = await calculator.evaluateStreams({
      qrels: chunksOf(data.qrels),
      run: chunksOf(data.run),
      measures: data.measures,
      options: data.options,
      explainQuery: data.explainQuery ?? '',
      onProgress: ({ file, bytes }) => {
        const now = performance.now();
        if (now - lastPost < 50 && bytes < sizes[file]) return;
        lastPost = now;
        self.postMessage({ type: 'progress', file, bytes, total: sizes[file] });
      },
    });
    self.postMessage({ type: 'done', result });
  } catch (error) {
    self.postMessage({ type: 'failed', message: error?.message ?? String(error) });
  }
};
