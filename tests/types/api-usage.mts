// The API's declared types (wasm/index.d.ts) as a program uses them: checked by `tsc -p
// tests/types` in the test suite, so that a declaration that drifts from the API, or a change
// that makes correct code fail to type, fails there. Never run: the node:test suite runs the
// API itself. Lines marked @ts-expect-error must stay errors.
import {
  CalculatorUsageError,
  OutputError,
  compiledCore,
  createCalculator,
  optionsToText,
  rowsOfColumns,
  useCompiledCore,
} from 'ndcg-calculator';
import type { Calculator, ColumnEvaluation, Diagnostic, Evaluation, PrintedEvaluation, StepRow } from 'ndcg-calculator';

const calc: Calculator = await createCalculator();
const where = (d: Diagnostic): string => `${d.source}:${d.line}:${d.column}: ${d.message}`;

// explain, as rows and as columns
const r = calc.explain({ ranking: 'd1\nd2', judgments: 'd1 3', options: { gain: 'exponential', k: 10, ties: 'docno-desc' } });
if (r.ok) {
  const first: StepRow | undefined = r.rows[0];
  const ndcg: number = r.summary.ndcgAtK;
  const doc: string | null = first?.doc ?? null;
  void [ndcg, doc, r.reading.numbers, r.ideal.length];
} else {
  r.errors.map(where);
}
const columnar = calc.explain({ ranking: 'd1\nd2', columnar: true });
if (columnar.ok) {
  const rows: StepRow[] = rowsOfColumns(columnar);
  const dcg: Float64Array = columnar.columns.dcg;
  void [rows, dcg];
}
// @ts-expect-error: the ranking is text
calc.explain({ ranking: ['d1', 'd2'] });

// evaluate: an object a query, or columns
const qrels = '301 0 d1 1\n';
const run = '301 Q0 d1 1 2.5 tag\n';
const objects: Evaluation = calc.evaluate({ qrels, run, measures: ['ndcg_cut.10', 'map'], options: { relevanceLevel: 1 } });
if (objects.ok) {
  for (const q of objects.perQuery) {
    const value: number | undefined = q.values.map;
    const text: string | undefined = q.texts?.relstring_10;
    void [q.query, value, text];
  }
  const mean: number | undefined = objects.mean.ndcg_cut_10;
  void [mean, objects.runTag, objects.columns.map((c) => c.name)];
} else {
  objects.errors.map(where);
}
const columns: ColumnEvaluation = calc.evaluate({ qrels, run, measures: ['map'], perQueryColumns: true });
if (columns.ok) {
  const values: Float64Array | undefined = columns.perQueryColumns.values.map;
  const queries: string[] = columns.perQueryColumns.queries;
  void [values, queries];
  // @ts-expect-error: with perQueryColumns there is no perQuery
  void columns.perQuery;
}

// evaluateStreams: chunks from functions; what ndcg-calc prints, whole or written as it is made
const streamed: Evaluation = await calc.evaluateStreams({ qrels: () => [qrels], run: () => [run], measures: ['P.10'], onProgress: ({ file, bytes }) => void [file, bytes] });
void streamed;
const commandLine = { argv: ['-q', 'qrels', 'run'], qrelsName: 'qrels', runName: 'run', only: true as const };
const printed: PrintedEvaluation = await calc.evaluateStreams({ qrels: () => [qrels], run: () => [run], commandLine });
const out: string | Uint8Array | undefined = printed.commandLine.out;
void out;
const chunks: Uint8Array[] = [];
try {
  const written = await calc.evaluateStreams({
    qrels: () => [qrels],
    run: () => [run],
    commandLine: { ...commandLine, bytes: true, write: (text, stream) => { if (stream === 'out' && text instanceof Uint8Array) chunks.push(text); } },
  });
  const status: number = written.commandLine.status;
  void status;
} catch (error) {
  if (error instanceof OutputError) void error.cause;
  if (error instanceof CalculatorUsageError) void error.message;
}
await calc.evaluateStreams({
  qrels: () => [qrels],
  run: () => [run],
  // An asynchronous writer is awaited piece by piece.
  commandLine: { ...commandLine, write: async (text) => { await Promise.resolve(text); } },
});

// compare
const comparison = calc.compare({ qrels, runs: { a: run, b: run }, measures: ['nDCG@10'], options: { tests: 'randomization,t', seed: 42 } });
if (comparison.ok) {
  for (const pair of comparison.pairs) for (const t of pair.tests) void [t.test, t.p, t.significant];
  void comparison.perQuery.a?.ndcg_cut_10;
}

// the rest of the calculator, and the entry's functions
void [calc.presets()[0]?.name, calc.measures()[0]?.name, calc.measureSets(), optionsToText({ gain: { 1: 1, 2: 3 } })];
const check = calc.checkWorking({ ranking: '3 2 0', working: 'DCG = (3, 4.26)' });
if (check.ok) void check.columns[0]?.findings;
const conventions = calc.compareConventions({ ranking: '3 2 0', between: ['trec_eval', 'sklearn'] });
if (conventions.ok) void conventions.effects;
const parsed = calc.parseCommandLine(['-q', 'qrels', 'run']);
void (parsed.ok ? parsed : parsed.error);
const core = await compiledCore();
if (core !== null) useCompiledCore(core);
