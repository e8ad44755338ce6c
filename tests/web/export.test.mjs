// The page's exports, fed by the real core.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createCalculator } from '../../wasm/index.mjs';
import { toCSV, toLaTeX, toMarkdown } from '../../web/export.js';

const calc = await createCalculator();
const display = { decimals: 3, ndcgDecimals: 3, slide: false };
const blog = calc.explain({ ranking: 'iPhone 3\nXiaomi 2\nHuawei 3\nOPPO 0\nVIVO 1\nSamsung 2',
  options: { ideal: 'ranking' } });

test('Markdown: a header, an alignment row and one row per rank, as displayed', () => {
  const lines = toMarkdown(blog, display).trimEnd().split('\n');
  assert.equal(lines.length, 8);
  assert.equal(lines[0], '| Rank | Document | Grade | G | CG | DCG | Ideal grade | IDCG | NDCG |');
  assert.match(lines[1], /^\| ---: \| --- \| ---: /);
  // DCG6 = 6.861, IDCG6 = 7.141, NDCG6 = 0.961 (seeds/004)
  assert.equal(lines[7], '| 6 | Samsung | 2 | 2 | 11 | 6.861 | 0 | 7.141 | 0.961 |');
});

test('Markdown escapes pipes in document ids', () => {
  // The ranking parser reads '|' as a table separator, but ids from TREC files may hold one.
  const row = { rank: 1, doc: 'a|b', grade: 1, gain: 1, cg: 1, dcg: 1, idealGrade: 1, idcg: 1, ndcg: 1 };
  assert.match(toMarkdown({ rows: [row] }, display), /\| 1 \| a\\\|b \| 1 \|/);
});

test('LaTeX: a booktabs tabular with escaped ids', () => {
  const r = calc.explain({ ranking: 'doc_#1&2\t1\nd%3\t0', options: { ideal: 'ranking' } });
  const tex = toLaTeX(r, display);
  assert.match(tex, /\\begin\{tabular\}\{rlrrrrrrr\}\n\\toprule\n/);
  assert.match(tex, /\\midrule\n1 & doc\\_\\#1\\&2 & 1 /);
  assert.match(tex, /2 & d\\%3 & 0 /);
  assert.match(tex, /\\bottomrule\n\\end\{tabular\}\n$/);
});

test('CSV quotes fields that need it and keeps full precision', () => {
  const r = calc.explain({ ranking: 'a,"x"\t1\nb\t0', options: { ideal: 'ranking' } });
  const lines = toCSV(r).split('\r\n');
  assert.equal(lines[1].split(',')[0], '1');
  assert.ok(lines[1].startsWith('1,"a,""x""",1,'));
  const dcg6 = Number(toCSV(blog).split('\r\n')[6].split(',')[6]);
  assert.equal(dcg6, blog.rows[5].dcg);
});

test('with slide rounding, the exports show the rounded numbers and CSV adds them as columns', () => {
  const r = calc.explain({ ranking: '1 0 1 0 0 3', options: { discount: 'jarvelin-kekalainen', ideal: 'ranking', roundBeforeDividing: 1 } });
  const slide = { decimals: 1, ndcgDecimals: 2, slide: true };
  assert.match(toCSV(r).split('\r\n')[0], /,rounded_dcg,rounded_idcg,rounded_ndcg$/);
  // rank 3: DCG 1 + 1/log2(3) = 1.63 -> 1.6; IDCG 3 + 1 + 1/log2(3) = 4.63 -> 4.6; 1.6 / 4.6 = 0.35
  assert.equal(toMarkdown(r, slide).split('\n')[4], '| 3 |  | 1 | 1 | 2 | 1.6 | 1 | 4.6 | 0.35 |');
});

test('CSV: ids that a spreadsheet would run as formulas are written as text', () => {
  const r = calc.explain({ ranking: '=HYPERLINK("http://x")\t1\n+1\t0\n-2+3\t0\n@SUM(A1)\t0\nplain\t1', options: { ideal: 'ranking' } });
  assert.ok(r.ok);
  const rows = toCSV(r).trimEnd().split('\r\n').slice(1);
  assert.equal(rows[0].split(',')[1], '"\'=HYPERLINK(""http://x"")"');
  assert.deepEqual(rows.slice(1, 4).map((line) => line.split(',')[1]), ["'+1", "'-2+3", "'@SUM(A1)"]);
  assert.equal(rows[4].split(',')[1], 'plain');
  // Numbers stay numbers, even negative ones.
  const negative = toCSV(calc.explain({ ranking: 'd1\t-1', options: { ideal: 'ranking' } })).split('\r\n')[1];
  assert.equal(negative.split(',')[2], '-1');
});

test('Markdown: HTML in an id is written as entities, never passed through', () => {
  const row = { rank: 1, doc: '<img src=x onerror=alert(1)>&', grade: 1, gain: 1, cg: 1, dcg: 1, idealGrade: 1, idcg: 1, ndcg: 1 };
  const md = toMarkdown({ rows: [row] }, display);
  assert.ok(md.includes('&lt;img src=x onerror=alert(1)&gt;&amp;'));
  assert.ok(!md.includes('<img'));
});
