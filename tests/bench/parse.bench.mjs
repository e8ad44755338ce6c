// Inputs that were once parsed in super-linear time, timed through the wasm API: each must stay
// near-linear. Prints the median and the range of 5 runs for each size and the ratio between the
// two sizes (2.0 means linear when the input doubles, 4.0 quadratic). Asserts nothing.
import { createCalculator } from '../../wasm/index.mjs';

const calc = await createCalculator();
const RUNS = 5;

const CASES = [
  ['set notation, N pairs on one line', (n) => ({ ranking: 'd1', judgments: `R = { ${Array.from({ length: n }, (_, i) => `[d${i}, 1]`).join(', ')} }` }), 100_000],
  ['one line of N grades', (n) => ({ ranking: `G = (${Array(n).fill('1').join(', ')})` }), 100_000],
  ['N nested brackets in set notation', (n) => ({ ranking: 'd1', judgments: `R = {${'['.repeat(n)}d1, 1${']'.repeat(n)}}` }), 200_000],
  ['a gain map of N entries', (n) => ({ ranking: '1 0 1', options: { gain: Array.from({ length: n }, (_, i) => `${i}=${i}`).join(',') } }), 100_000],
];

function time(request) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    calc.explain(request);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(RUNS / 2)], min: times[0], max: times.at(-1) };
}

const ms = (t) => `${t.median.toFixed(0)} ms (${t.min.toFixed(0)}–${t.max.toFixed(0)})`;
console.log('\nParsing inputs that were once super-linear (calc.explain, median of 5, range)');
console.log('| input | N | 2N | 2N / N |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, make, n] of CASES) {
  const small = time(make(n));
  const large = time(make(2 * n));
  console.log(`| ${name} (N = ${n.toLocaleString('en')}) | ${ms(small)} | ${ms(large)} | ${(large.median / small.median).toFixed(1)} |`);
}
