// The worked examples of the seed documents, each with the conventions it uses and, where the
// source slips or rounds, what and where. Inputs are pasted as the sources print them.

import { DEFAULT_SETTINGS } from './state.js';

const LECTURE_RANKING = `| Rank | Document | G |
|----|-------------------------|---|
| 1 | d ₁₂₃ (r: 1) | 1 |
| 2 | d ₈₄ | 0 |
| 3 | d ₅₆ (r: 1) | 1 |
| 4 | d_6 | 0 |
| 5 | d_8 | 0 |
| 6 | d ₉ (r: 3) | 3 |
| 7 | d_{511} | 0 |
| 8 | d_{129} | 0 |
| 9 | d ₁₈₇ | 0 |
| 10 | d ₂₅ (r: 2) | 2 |
| 11 | d_{38} | 0 |
| 12 | d_{48} | 0 |
| 13 | d_{250} | 0 |
| 14 | d ₁₁₃ | 0 |
| 15 | d ₃ (r: 3) | 3 |
`;

const LECTURE_JUDGMENTS =
  '$R = \\{ [d_3, 3], [d_5, 3], [d_9, 3], [d_{25}, 2], [d_{39}, 2], [d_{44}, 2], [d_{56}, 1], [d_{71}, 1], [d_{89}, 1], [d_{123}, 1] \\}$';

const SLIDES_RANKING = `588 1.0
589 0.6
576 0.0
590 0.8
986 0.0
592 1.0
984 0.0
988 0.0
578 0.0
985 0.0
103 0.0
591 0.0
772 0.2
990 0.0
`;

const BLOG_RANKING = `iPhone 3
Xiaomi 2
Huawei 3
OPPO 0
VIVO 1
Samsung 2
`;

const BLOG_MORE_JUDGMENTS = `${BLOG_RANKING}result7 3
result8 2
`;

// The sources' own working, as they print it, for "Check my working".
const LECTURE_WORKING = `DCG=(1.0, 1.0, 1.6, 1.6, 1.6, 2.8, 2.8, 2.8, 2.8, 3.4, 3.4, 3.4, 3.4, 3.4, 4.2)
IDCG=(3.0, 6.0, 7.9, 8.9, 9.8, 10.5, 10.9, 11.2, 11.5, 11.8, 11.8, 11.8, 11.8)
| NDCG | 0.33 | 0.17 | 0.20 | 0.18 | 0.16 | 0.27 | 0.26 | 0.25 | 0.24 | 0.29 | 0.29 | 0.29 | 0.29 | 0.29 | 0.36 |
G = (1, 0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 3)
`;

const JK2 = { discount: 'jarvelin-kekalainen', base: 2 };
const BURGES = { discount: 'log2(rank+1)', base: 2 };

export const PRESETS = [
  {
    id: 'lecture',
    label: 'Lecture (COMP3009J)',
    ranking: LECTURE_RANKING,
    judgments: LECTURE_JUDGMENTS,
    working: LECTURE_WORKING,
    settings: { gain: 'linear', ...JK2, ideal: 'judgments', k: 10, idealDepth: 'cut', decimals: 4, roundLikeSlide: false },
    slideView: { label: 'Show it as the slide does', settings: { decimals: 1, roundLikeSlide: true } },
    note: 'Linear gain, DCG[i] = DCG[i−1] + G[i] / log₂ i (no discount at rank 1), ideal from all ten judged documents, k = 10. ' +
      'The slide divides DCG and IDCG after rounding them to one decimal, so its NDCG row shows 0.20, 0.16 and 0.36 at ranks 3, 5 and 15 where the exact values are 0.2066, 0.1672 and 0.3517. ' +
      'Slips in the slides: the gain vector G = (1, 0, 1, …) lists 14 grades for 15 ranks (one 0 after rank 10 is missing), and the IDCG vector stops at 13 values.',
  },
  {
    id: 'slides',
    label: 'Textbook slides (grades 0–1)',
    ranking: SLIDES_RANKING,
    judgments: '',
    settings: { gain: 'linear', ...JK2, ideal: 'ranking', k: '', idealDepth: 'cut', decimals: 2, roundLikeSlide: false },
    note: 'Real-valued grades, DCG = rel₁ + Σ relᵢ / log₂ i, ideal from the ranked list itself, two decimals. DCG₁₄ = 2.4409, NDCG₁₄ = 0.8443 (slide: 2.44 and 0.84). ' +
      'Slip in the slides: the first table titled “Ideal ranking” repeats the actual ranking; the ideal ranking is the table after it (588, 592, 590, 589, 772, …).',
  },
  {
    id: 'blog-linear',
    label: 'Blog: linear gain',
    ranking: BLOG_RANKING,
    judgments: '',
    working: 'DCG_6 = 3 + 1.262 + 1.5 + 0 + 0.387 + 0.712 = 6.861\nIDCG_6 = 3/1 + 3/1.585 + 2/2 + 2/2.322 + 0.387 + 0/2.807 = 7.141\n',
    settings: { gain: 'linear', ...BURGES, ideal: 'ranking', k: 6, idealDepth: 'cut', decimals: 3, roundLikeSlide: false },
    note: 'Linear gain, discount log₂(i + 1) at every rank, ideal from the six results themselves (3, 3, 2, 2, 1, 0): DCG₆ = 6.861, IDCG₆ = 7.141, NDCG₆ = 0.961, as the blog prints.',
  },
  {
    id: 'blog-exponential',
    label: 'Blog: exponential gain',
    ranking: BLOG_RANKING,
    judgments: '',
    working: 'DCG_6 = 7 + 1.893 + 3.5 + 0 + 2.585 + 1.069 = 16.047\n',
    settings: { gain: 'exponential', ...BURGES, ideal: 'ranking', k: 6, idealDepth: 'cut', decimals: 3, roundLikeSlide: false },
    note: 'Gain 2^g − 1, discount log₂(i + 1). Slip in the blog: it prints DCG₆ = 16.047 because at rank 5 it adds 2.585 (log₂ 6 itself) where 1 / 2.585 = 0.387 belongs; the correct DCG₆ is 13.848 and NDCG₆ = 0.949.',
  },
  {
    id: 'blog-judged',
    label: 'Blog: two more judged results',
    ranking: BLOG_RANKING,
    judgments: BLOG_MORE_JUDGMENTS,
    settings: { gain: 'linear', ...BURGES, ideal: 'judgments', k: 6, idealDepth: 'cut', decimals: 3, roundLikeSlide: false },
    note: 'As the blog’s last step: results 7 and 8 are judged 3 and 2 but not retrieved, so the ideal becomes 3, 3, 3, 2, 2, 2 and NDCG₆ = 0.785.',
  },
];

// Vectors a source prints with a slip, recognised when pasted as a bare list of grades.
const SLIPS = [
  {
    grades: [1, 0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 3],
    note: 'These are the 14 grades of the lecture’s gain vector G = (1, 0, 1, …, 3), which has a slip: its table ranks 15 documents, and one 0 is missing after rank 10, so here d₃’s grade 3 lands on rank 14 instead of 15. ' +
      'NDCG@10 is not affected; CG, DCG and NDCG from rank 14 on are. Add a 0 after the tenth grade to match the table.',
  },
];

/**
 * The note about a known slip when a step table (stepColumns) is a bare list of grades that is
 * one of SLIPS; or null.
 */
export function findSlip({ length, columns }) {
  if (length === 0 || columns.doc.some((doc) => doc !== null)) return null;
  const slip = SLIPS.find((s) => s.grades.length === length && s.grades.every((g, i) => g === columns.grade[i]));
  return slip?.note ?? null;
}

const TIE_WORDS = { 'docno-desc': 'tied scores ranked by document id, descending', average: 'tied scores share their mean gain' };

const GAIN_WORDS = { linear: 'linear gain (G = g)', exponential: 'exponential gain (G = 2^g − 1)', custom: 'a custom gain map' };

/**
 * The conventions of a page state in words, for the line above the result and the printout. With
 * `onlyChanged`, only those that differ from the defaults.
 */
export function describeConventions(state, { onlyChanged = false } = {}) {
  const jk = state.discount === 'jarvelin-kekalainen';
  const parts = [
    ['gain', GAIN_WORDS[state.gain] ?? state.gain],
    ['discount', jk ? `Järvelin–Kekäläinen discount, base ${state.base} (no discount below rank ${state.base})` : String(state.base) === '2' ? 'discount log₂(rank + 1)' : `discount log base ${state.base} of (rank + 1)`],
    ['ideal', state.ideal === 'ranking' ? 'ideal from the ranked list itself' : 'ideal from all judged documents'],
    ['k', String(state.k ?? '').trim() === '' ? 'k = the whole list' : `k = ${String(state.k).trim()}`],
  ];
  if (state.idealDepth === 'whole') parts.push(['idealDepth', 'IDCG@k over the whole ideal ranking']);
  if (state.rankingNumbers && state.rankingNumbers !== 'auto') parts.push(['rankingNumbers', `numbers beside the documents read as ${state.rankingNumbers}s`]);
  if (state.ties && state.ties !== 'input') parts.push(['ties', TIE_WORDS[state.ties] ?? state.ties]);
  if (state.negativeGains === 'keep') parts.push(['negativeGains', 'negative grades keep their negative gain']);
  if (state.unjudgedGrade !== undefined && String(state.unjudgedGrade).trim() !== '0') parts.push(['unjudgedGrade', `unjudged documents count as grade ${String(state.unjudgedGrade).trim()}`]);
  if (String(state.relevantFrom ?? '').trim() !== '') parts.push(['relevantFrom', `relevant from grade ${String(state.relevantFrom).trim()} (lower grades gain 0)`]);
  if (String(state.zero) === '1') parts.push(['zero', 'NDCG = 1 when IDCG = 0']);
  if (state.roundLikeSlide) parts.push(['roundLikeSlide', `DCG and IDCG rounded to ${state.decimals} decimals before dividing`]);
  if (onlyChanged) {
    parts.push(['decimals', `${state.decimals} decimals`]);
    return parts.filter(([name]) => String(state[name] ?? '').trim() !== String(DEFAULT_SETTINGS[name])).map(([, text]) => text).join(', ');
  }
  return parts.map(([, text]) => text).join(' · ');
}
