// Writes the comparison data sets of this directory (run it again to check they are unchanged:
// node tests/compare/make.mjs && git diff --exit-code tests/compare). Each is a qrels file and
// three runs over the same documents, drawn from a fixed linear congruential generator, so that
// anyone can rebuild them. README.md says what each set is for.
import { writeFileSync } from 'node:fs';

function generator(seed) {
  let state = seed >>> 0;
  // Numerical Recipes' 32-bit LCG: enough to scatter grades and scores, and easy to redo.
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function dataSet({ name, queries, docs, seed, missing }) {
  const random = generator(seed);
  const qrels = [];
  const runs = { a: [], b: [], c: [] };
  for (let q = 1; q <= queries; q += 1) {
    const qid = String(100 + q);
    const grades = [];
    for (let d = 1; d <= docs; d += 1) {
      const u = random();
      const grade = u < 0.6 ? 0 : u < 0.85 ? 1 : 2;
      grades.push(grade);
      qrels.push(`${qid} 0 D${q}-${d} ${grade}`);
    }
    // Each run scores a document by its grade plus noise; b a little better than a, c worse.
    for (const [run, skill] of [['a', 1], ['b', 1.3], ['c', 0.6]]) {
      if (missing.includes(`${run}:${qid}`)) continue;
      const scored = grades.map((g, d) => ({ doc: `D${q}-${d + 1}`, score: skill * g + 5 * random() }));
      // Scores rounded to one decimal: ties, broken by trec_eval's docno rule.
      scored.forEach((s) => { s.score = Math.round(s.score * 10) / 10; });
      scored.sort((x, y) => y.score - x.score);
      scored.forEach((s, i) => runs[run].push(`${qid} Q0 ${s.doc} ${i + 1} ${s.score.toFixed(1)} run-${run}`));
    }
  }
  const dir = new URL('.', import.meta.url);
  writeFileSync(new URL(`${name}.qrels`, dir), `${qrels.join('\n')}\n`);
  for (const run of ['a', 'b', 'c']) writeFileSync(new URL(`${name}-${run}.run`, dir), `${runs[run].join('\n')}\n`);
}

// 25 queries: Wilcoxon's exact distribution; P@5 differences tie; run c misses query 107.
dataSet({ name: 'small', queries: 25, docs: 20, seed: 7, missing: ['c:107'] });
// 60 queries: sampled randomization, and Wilcoxon's normal approximation.
dataSet({ name: 'large', queries: 60, docs: 30, seed: 11, missing: [] });
