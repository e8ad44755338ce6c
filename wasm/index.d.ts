/** Where a diagnostic points: which input, 1-based line and column (0 = the input as a whole). */
export interface Diagnostic {
  source: 'ranking' | 'judgments' | 'options' | 'qrels' | 'run' | 'working';
  line: number;
  /** Counted in Unicode code points. */
  column: number;
  /** A sentence for a person, without the location (show it with `line`/`column`). */
  message: string;
  /**
   * Present on a diagnostic a user interface can offer to fix: 'judgments-unmatched' (judgments
   * given, none of them about a ranked document), 'files-swapped' (a qrels file given as the run
   * or the other way round), 'scores-tied' (documents share a score; the tie rule decides).
   */
  code?: string;
}

/** The libraries and sources whose conventions one option sets (see `Calculator.presets()`). */
export type PresetName = 'trec_eval' | 'trec_eval-ndcg_cut' | 'sklearn' | 'torchmetrics' | 'ranx' | 'ranx-burges' | 'ir_measures' | 'gdeval' | 'lightgbm' | 'xgboost' | 'tf-ranking' | 'spark' | 'elasticsearch' | 'ntcir' | 'lecture';

/** The conventions NDCG depends on; tools differ in these, and a preset sets them all as one does. */
export interface Conventions {
  /** Every convention as the library sets it; an option given beside it overrides it. */
  preset?: PresetName;
  /** Gain of a grade g: g, 2^g − 1, or a map from grade to gain (grades missing from it are errors, except 0). Default linear. */
  gain?: 'linear' | 'exponential' | Record<string, number>;
  /** Default 'log2(rank+1)' (log_base(rank + 1)). 'jarvelin-kekalainen': no discount below rank `base`, then log_base(rank). */
  discount?: 'log2(rank+1)' | 'jarvelin-kekalainen';
  /** Log base of either discount, > 1 (scikit-learn's log_base). Default 2. */
  base?: number;
  /** Where the ideal ranking comes from: every judged document (default) or the ranked list itself. */
  ideal?: 'judgments' | 'ranking';
  /** Documents whose scores tie: kept in the order given (default), by document id descending (trec_eval), or sharing their mean gain (scikit-learn). */
  ties?: 'input' | 'docno-desc' | 'average';
  /** A negative grade gains 0 (default, trec_eval) or keeps its negative gain. */
  negativeGains?: 'zero' | 'keep';
  /** Grade of a ranked document nobody graded (Elasticsearch's unknown_doc_rating). Default 0. */
  unjudgedGrade?: number;
  /** The grade from which a document is relevant: lower grades gain 0 (ranx's rel_lvl). 'off' or '' for none (the default). */
  relevantFrom?: number | 'off' | '';
  /** NDCG reported when IDCG is 0. Default 0 (trec_eval). */
  ndcgWhenIdcgZero?: number;
}

export interface ExplainOptions extends Conventions {
  /** 'cut' (default): IDCG@k over the top k of the ideal. 'whole': over all of it (trec_eval's `ndcg`). */
  idealDepth?: 'cut' | 'whole';
  /** Cut-off; default (or 0) the length of the ranking. */
  k?: number;
  /** How "doc number" lines are read without a header row: 'auto' (default: grades), 'grade' or 'score'. */
  rankingNumbers?: 'auto' | 'grade' | 'score';
  /** Also divide DCG and IDCG rounded to this many decimals, as slides do (rows gain rounded* fields). */
  roundBeforeDividing?: number | 'off';
}

export interface ExplainRequest {
  /** One document a line ("doc", "doc grade", "doc,grade", tab-separated, table rows), one line of grades, or JSON (["d1", "d2"], {"d1": 3}, [{"doc": "d1", "score": 0.5}]). */
  ranking: string;
  /** "doc grade" lines, TREC qrels lines, set notation "R = { [d3, 3], ... }", or JSON ({"d1": 3}). Optional. */
  judgments?: string;
  options?: ExplainOptions;
}

/** One rank of the step-by-step table; numbers are full precision. */
export interface StepRow {
  rank: number;
  /** null when the ranking is a bare list of grades. */
  doc: string | null;
  /** Grade used: from the judgments, else from the ranking, else 0 (unjudged). */
  grade: number;
  /** G[r]; 0 for a document ranked a second time. */
  gain: number;
  /** The number G[r] is divided by (1 where there is no discount). */
  discount: number;
  /** gain / discount: what this rank adds to DCG. */
  term: number;
  cg: number;
  dcg: number;
  /** Document at rank r of the ideal ranking; null past the judged documents (zero padding). */
  idealDoc: string | null;
  idealGrade: number;
  idealGain: number;
  /** idealGain / discount: what this rank adds to IDCG. */
  idealTerm: number;
  idcg: number;
  /** dcg / idcg, or options.ndcgWhenIdcgZero when idcg is 0. */
  ndcg: number;
  /** The grade came from the judgments or the ranking (false: unjudged, counted as 0). */
  judged: boolean;
  /** The document was already ranked higher up. */
  repeated: boolean;
  /** Present when the ranking carries scores: it is then ranked by them. */
  score?: number;
  /** The document's own gain; `gain` differs from it when tied ranks share their mean gain (ties: 'average'). */
  ownGain?: number;
  /** The ranks that share this score, or null when it is not tied. */
  tie?: { first: number; last: number } | null;
  /** Present when options.roundBeforeDividing is set. */
  roundedDcg?: number;
  roundedIdcg?: number;
  roundedNdcg?: number;
}

export interface IdealEntry {
  doc: string | null;
  grade: number;
  gain: number;
}

export interface Summary {
  /** The cut-off used. */
  k: number;
  dcgAtK: number;
  idcgAtK: number;
  ndcgAtK: number;
  /** Documents with a positive gain in the ideal ranking. */
  judgedRelevant: number;
  roundedDecimals?: number;
  roundedDcgAtK?: number;
  roundedIdcgAtK?: number;
  roundedNdcgAtK?: number;
}

/** How the numbers beside the documents were read, and what said so. */
export interface Reading {
  numbers: 'none' | 'grade' | 'score';
  from: 'none' | 'assumed' | 'header' | 'option' | 'run' | 'json';
}

export type Explanation =
  | { ok: true; rows: StepRow[]; ideal: IdealEntry[]; summary: Summary; reading: Reading; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

/**
 * The step table one column at a time (explain with `columnar: true`): column[i] is StepRow i's
 * field (rank i + 1), as typed arrays, so that a million rows make no object per row.
 */
export interface StepColumns {
  doc: (string | null)[];
  grade: Float64Array; gain: Float64Array; discount: Float64Array; term: Float64Array;
  cg: Float64Array; dcg: Float64Array;
  idealDoc: (string | null)[];
  idealGrade: Float64Array; idealGain: Float64Array; idealTerm: Float64Array; idcg: Float64Array;
  ndcg: Float64Array;
  /** 1 or 0 */
  judged: Uint8Array;
  repeated: Uint8Array;
  /** When the ranking carries scores; tieFirst[i] is 0 where StepRow's tie is null. */
  score?: Float64Array; ownGain?: Float64Array; tieFirst?: Uint32Array; tieLast?: Uint32Array;
  /** When options.roundBeforeDividing is set. */
  roundedDcg?: Float64Array; roundedIdcg?: Float64Array; roundedNdcg?: Float64Array;
}

export type ColumnarExplanation =
  | {
      ok: true; length: number; columns: StepColumns;
      ideal: { doc: (string | null)[]; grade: Float64Array; gain: Float64Array };
      summary: Summary; reading: Reading; warnings: Diagnostic[];
    }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

export type Chunks = string | Uint8Array | ArrayBuffer | Iterable<string | Uint8Array>;

/**
 * A source that writes its bytes itself into the buffer it is given, in the core's memory, so
 * that no chunk is made and copied (Node's ndcg-calc reads its files so). readInto fills `into`
 * from its start, synchronously, and returns how many bytes it wrote: 0 at the end, never more
 * than `into.length`. close, when there is one, is called once the reading ends, however it
 * ends. The event loop runs between some of the calls.
 */
export interface ChunkReader {
  readInto(into: Uint8Array): number;
  close?(): void;
}

/** Called once per reading (a run may be read twice): a fresh iterable of chunks, or a ChunkReader. */
export type ChunkSource = () => Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array> | ChunkReader;

/**
 * Checked by the core: an unknown name or a bad value is an error value (source 'options'), never
 * ignored. Values may also be given as text ("2", "true").
 */
export interface EvaluateOptions extends Conventions {
  /** Grade from which a document is relevant in binary measures (trec_eval -l): a whole number ≥ 0, up to 2^63 − 1. Default 1. */
  relevanceLevel?: number | string;
  /** Average over every qrels query, a query without results counting 0 (trec_eval -c). true/false or "true"/"false". */
  averageComplete?: boolean | 'true' | 'false';
  /** Drop unjudged documents from every ranking first (trec_eval -J). */
  judgedOnly?: boolean | 'true' | 'false';
  /** Only the first N ranked documents of each query count (trec_eval -M). */
  maxPerQuery?: number | string;
  /** Documents in the collection, for utility's fourth coefficient (trec_eval -N). */
  docsInCollection?: number | string;
  /** "qrels" (the default) or "qrels_jg": the qrels' second field names a judgment group (trec_eval -R). */
  relInfoFormat?: 'qrels' | 'qrels_jg';
  /** Evaluate this query only (trec_eval -D level.qid). */
  onlyQuery?: string;
  /** The text of a -Z file ("query measure mean stddev" lines): values become z-scores. */
  zscores?: string;
  /** Also return where each query's lines are in each file (result.querySpans). */
  querySpans?: boolean;
}

/**
 * Where a file's queries are: one span of byte offsets [start, end) per stretch of consecutive
 * lines of one query, in file order (a query whose lines are apart has several). The bytes of a
 * query's spans, in order, evaluate that query as the whole file does; line numbers in what
 * they give count from the first byte read. Null for a file of more than 10^6 stretches.
 */
export interface QuerySpans {
  queries: string[];
  starts: Float64Array;
  ends: Float64Array;
}

/** A TREC measure of the catalogue (trec_eval 10.0's, in its order). */
export interface MeasureInfo {
  name: string;
  params: 'none' | 'cutoffs' | 'numberCutoffs' | 'numbers' | 'pairs';
  /** The parameters used when none are given ("5,10,15,20,30,100,200,500,1000"). */
  defaults: string;
  value: 'real' | 'whole' | 'text';
  summary: 'mean' | 'sum' | 'geometric' | 'count' | 'none' | 'runTag';
  perQuery: boolean;
  /** ir_measures' name, "" when it has none. */
  irMeasures: string;
  /** One of trec_eval 10.0's measures (else it is named by ir_measures only). */
  trecEval: boolean;
  definition: string;
}

export interface EvaluateRequest {
  /** "query iteration docno grade" lines. */
  qrels: Chunks;
  /** "query Q0 docno rank score tag" lines. */
  run: Chunks;
  /** trec_eval names ("ndcg_cut.10", "P.5,10", "ndcg.1=0.5,2=3"), its sets ("official", the default, "all_trec"), or ir_measures names ("nDCG@10", "AP(rel=2)"). */
  measures?: string[];
  options?: EvaluateOptions;
  /** Also explain this query step by step (result.explanation). */
  explainQuery?: string;
  /** Also give the working of this column for explainQuery (result.working): "map", "P_10", "bpref", "ERR@20", ... */
  explainMeasure?: string;
  /** The explanation's cut-off k (ndcg_cut_10: 10); 0 or absent: the whole ranking, as ndcg. */
  explainCutoff?: number | string;
  /**
   * Explanations (result.explanation, options.explainAll's result.explanations) one typed array
   * per column, as explain with `columnar: true` gives them (ColumnarExplanation): a query
   * ranking tens of thousands of documents then makes no object per rank.
   */
  columnar?: boolean;
  /**
   * The per-query values as columns (result.perQueryColumns) instead of an object per query
   * (result.perQuery): a run of 100,000 queries then makes no object a query.
   */
  perQueryColumns?: boolean;
  /** Also return trec_eval's text: the means only, every query too, or either without the "all" lines (summary: false, -n). */
  trecText?: 'summary' | 'per-query' | { perQuery?: boolean; summary?: boolean };
}

export interface StreamRequest extends Omit<EvaluateRequest, 'qrels' | 'run'> {
  /** Each call returns a fresh iterable of chunks or a ChunkReader (the run may be read twice). */
  qrels: ChunkSource;
  run: ChunkSource;
  onProgress?: (progress: { file: 'qrels' | 'run'; bytes: number }) => void;
  /**
   * Also return what ndcg-calc prints for this result under `argv` (result.commandLine: stdout,
   * stderr, exit status), the files named as given. Node's entry only (wasm/cli.mjs uses it):
   * elsewhere a request with it throws CalculatorUsageError, as does one whose commandLine lacks
   * argv, qrelsName or runName, before anything is read.
   * With `only`, the result is just { ok, commandLine } (PrintedEvaluation): the values are not
   * built in JS, which for thousands of queries takes longer than printing them. With `bytes`,
   * commandLine.out is its UTF-8 bytes, to be written as they are (not decoded into a string).
   * With `write`, the printed text is given to it as it is made, and the result's commandLine
   * holds the status alone: stderr's text first, then stdout in pieces of about a megabyte
   * (trec_eval's lines of 100,000 queries with -q are 100 MB), each awaited when it returns a
   * promise. What it throws is thrown as an OutputError, the evaluation not tried again.
   */
  commandLine?: {
    argv: string[];
    qrelsName: string;
    runName: string;
    only?: boolean;
    bytes?: boolean;
    write?: (text: string | Uint8Array, stream: 'out' | 'err') => void | Promise<void>;
  };
}

/** evaluateSplit()'s request: a StreamRequest whose `run` is the first part of the run. */
export interface SplitRequest extends StreamRequest {
  later: Promise<Uint8Array | null> | Uint8Array | null;
  whole: ChunkSource;
  samples?: PartSamples;
}

/**
 * Whole lines sampled from the two parts of a split run, in file order: `first` from the run's
 * first line on, `later` from the later part's first line on, ending with the run's last line.
 * Given alike to both parts, each keeps the judgments of its own queries only.
 */
export interface PartSamples {
  first: Uint8Array;
  later: Uint8Array;
}

/** What evaluateStreams() and evaluateSplit() return for a request with commandLine.only. */
export interface PrintedEvaluation {
  ok: boolean;
  /** out and err are absent when the request gave commandLine.write, which was given them. */
  commandLine: { out?: string | Uint8Array; err?: string; status: number };
}

/** ndcg-calc's arguments, as the core reads them (the native program reads them the same way). */
export type CommandLine =
  | { ok: false; /** the whole text for stderr: the message and the usage line */ error: string }
  | {
      ok: true;
      help: boolean;
      version: boolean;
      progress: boolean;
      files: string[];
      measures: string[];
      /** evaluation options and conventions, in order, as EvaluateOptions names them */
      options: [string, string][];
      zscoresFile: string | null;
      /** `ndcg-calc compare ...`: the options are the evaluation's, compareOptions the comparison's */
      compare: boolean;
      compareOptions: [string, string][];
      /** compare: the runs' names (the paths as given, a repeated one numbered "run.txt (2)") */
      runNames?: string[];
      /** compare -h: its usage text */
      helpText?: string;
    };

/** The comparison's options (ndcg/compare.hpp), given beside the evaluation's in `options`. */
export interface CompareOptions {
  /** Tests run, comma-separated or as an array; the first marks the table. Default all four: randomization, t, wilcoxon, bootstrap. */
  tests?: string | ('t' | 'randomization' | 'wilcoxon' | 'bootstrap')[];
  /** Random sign assignments and bootstrap resamples (default 10000); all 2^n are counted when that is no more. */
  permutations?: number | string;
  /** The random draws' seed (default 42), up to 2^64 - 1 (give a string beyond 2^53). */
  seed?: number | string;
  /** Significance level, and the bootstrap interval's 1 - alpha (default 0.05). */
  alpha?: number | string;
  correction?: 'holm' | 'bh' | 'none';
  /** zero (default): a query a run has no results for counts 0, as trec_eval -c; drop: only queries every run has results for. */
  missing?: 'zero' | 'drop';
  /** baseline (default): each run against the first; all: every pair. */
  pairs?: 'baseline' | 'all';
}

export interface CompareRequest {
  qrels: Chunks;
  /** Run name → its text (or bytes, or chunks); the first is the baseline. A Map keeps any names. */
  runs: Record<string, Chunks> | Map<string, Chunks>;
  /** As for evaluate(); default map, P.10 and ndcg_cut.10. Only measures averaged over queries are compared. */
  measures?: string[];
  options?: EvaluateOptions & CompareOptions;
}


/** A run evaluated for a comparison by evaluateForComparison(), possibly in another worker. */
export interface EvaluatedRun {
  ok: boolean;
  errors: Diagnostic[];
  warnings: Diagnostic[];
  runTag: string;
  /** Its per-query values as bytes (ndcg/compare.hpp's pack), transferable between workers. */
  packed: Uint8Array;
  /** options.querySpans: where each query's lines are in the qrels and in this run. */
  querySpans?: { qrels: QuerySpans | null; run: QuerySpans | null };
}

export interface CompareStreamRequest extends Omit<CompareRequest, 'qrels' | 'runs'> {
  /** Needed when some run is read here, not when every run is an EvaluatedRun. */
  qrels?: ChunkSource;
  /**
   * Run name → its chunks, or the run evaluated elsewhere with the same measures and options
   * (evaluateForComparison()); the first is the baseline.
   */
  runs: Record<string, ChunkSource | EvaluatedRun> | Map<string, ChunkSource | EvaluatedRun>;
  /** Follows the reading; `{ file: 'tests', bytes: 0 }` once, when the tests begin. */
  onProgress?: (progress: { file: 'qrels' | 'run' | 'tests'; run?: string; bytes: number }) => void;
  /**
   * Also return what `ndcg-calc compare` prints under `argv`. Node's entry only. With `only`,
   * the result is just { ok, commandLine } (PrintedEvaluation): the tests run once, for the
   * report, and no values are built in JS.
   */
  commandLine?: { argv: string[]; qrelsName: string; only?: boolean };
}

export interface PairedTest {
  test: 't' | 'randomization' | 'wilcoxon' | 'bootstrap';
  /** t; W+ (wilcoxon); the mean difference (randomization, bootstrap). */
  statistic: number;
  /** Two-sided; NaN when the test cannot be made (t with one query). */
  p: number;
  /** After the correction over every pair and measure of this test. */
  pAdjusted: number;
  significant: boolean;
  df?: number;
  /** wilcoxon's normal approximation */
  z?: number;
  /** every assignment counted (randomization, wilcoxon) */
  exact: boolean;
  samples: number;
  /** how the p-value was found, in words */
  method: string;
}

export type Comparison =
  | {
      ok: true;
      options: { tests: string[]; permutations: number; seed: string; alpha: number; correction: string; missing: string; pairs: string };
      /** The columns compared, in the order asked for. */
      measures: string[];
      /** The queries compared, in trec_eval's order. */
      queries: string[];
      runs: { name: string; runTag: string; mean: Record<string, number> }[];
      /** run → measure → its value for each query of `queries` */
      perQuery: Record<string, Record<string, Float64Array>>;
      /** comparisons each test's correction is over */
      family: number;
      /** b − a, by measure then pair */
      pairs: {
        measure: string; a: string; b: string; queries: number;
        meanA: number; meanB: number; difference: number; stdev: number;
        /** Cohen's d for paired samples: difference / stdev */
        effectSize: number;
        /** the bootstrap's percentile interval at 1 - alpha (NaN without it) */
        low: number; high: number;
        better: number; worse: number; tied: number;
        tests: PairedTest[];
      }[];
      warnings: (Diagnostic & { run?: string })[];
      commandLine?: { out: string; err: string; status: number };
    }
  | {
      ok: false;
      /** A run's diagnostics name it (`run`). */
      errors: (Diagnostic & { run?: string })[];
      warnings: (Diagnostic & { run?: string })[];
      commandLine?: { out: string; err: string; status: number };
    };

/** An evaluation's per-query values as columns (perQueryColumns: true). */
export interface PerQueryColumns {
  /** The query ids, in trec_eval's order. */
  queries: string[];
  /** A column's value for each query; views of one array. */
  values: Record<string, Float64Array>;
  /** A text column's text for each query (relstring); present when one is asked for. runid is
   * not a query's: its text is the result's runTag. */
  texts?: Record<string, string[]>;
}

/** A successful evaluation's fields, but for its per-query values (see Evaluation). */
export interface EvaluationFields {
  ok: true;
  /** Output columns in trec_eval's order: "map", "P_10", "ndcg_cut_10", … */
  columns: {
    name: string;
    wholeNumber: boolean;
    /** A text column: relstring's a query's, in perQuery[].texts or perQueryColumns.texts;
     * runid's the run's, in runTag. */
    text: boolean;
    /** Printed per query (gm_map, num_q and runid are summaries only). */
    perQuery: boolean;
    /** How the "all" line combines the queries. */
    summary: 'mean' | 'sum' | 'geometric' | 'count' | 'none' | 'runTag';
    /** Position of the measure it comes from in the list as given (show columns in the order typed). */
    measure: number;
    /** Its cut-off (P_10: 10); 0 when it covers the whole ranking. */
    cutoff: number;
  }[];
  /** The "all" line: means (sums for whole-number columns, a geometric mean for gm_*). */
  mean: Record<string, number>;
  /** Sample standard deviation (n − 1) of the per-query values over the queries averaged. */
  stdev: Record<string, number>;
  queriesAveraged: number;
  /** The tag of the run's last line (trec_eval's runid). */
  runTag: string;
  /** Values are z-scores (options.zscores). */
  zscores?: boolean;
  /** options.querySpans: where each query's lines are in the qrels and in the run. */
  querySpans?: { qrels: QuerySpans | null; run: QuerySpans | null };
  warnings: Diagnostic[];
  trec?: string;
  /** A ColumnarExplanation when the request says `columnar: true`. */
  explanation?: Explanation | ColumnarExplanation;
  /** explainMeasure's working for explainQuery: a row per ranked document, and how the value follows. */
  working?: {
    column: string;
    columns: string[];
    rows: { rank: number; doc: string; grade: number; counted: boolean; values: (number | null)[] }[];
    result: string;
    value: number;
  };
}

/** What an evaluation gives: its values with each query's in an object, in trec_eval's order of the queries. */
export type Evaluation =
  | (EvaluationFields & { perQuery: { query: string; values: Record<string, number>; texts?: Record<string, string> }[] })
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

/** The same when the request says `perQueryColumns: true`: values[name][i] is queries[i]'s. */
export type ColumnEvaluation =
  | (EvaluationFields & { perQueryColumns: PerQueryColumns })
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

/**
 * Strings are read as UTF-8 after a lone UTF-16 surrogate is replaced by U+FFFD. If the core
 * itself fails (it needs more memory than WebAssembly's 2 GB, or meets a bug) the call returns
 * { ok: false, errors } saying so and the core is restarted for the next call.
 */
export interface Calculator {
  /** Never throws for any text; bad input gives { ok: false, errors }. */
  explain(request: ExplainRequest & { columnar?: false }): Explanation;
  /** The same, the step table as typed arrays per column, for very long rankings. */
  explain(request: ExplainRequest & { columnar: true }): ColumnarExplanation;
  /** TREC evaluation with trec_eval 10.0's semantics. Never throws for any file content. */
  evaluate(request: EvaluateRequest & { perQueryColumns: true }): ColumnEvaluation;
  evaluate(request: EvaluateRequest): Evaluation;
  /** The same over streams, for files too large to hold. */
  evaluateStreams(request: StreamRequest & { commandLine: { only: true } }): Promise<PrintedEvaluation>;
  evaluateStreams(request: StreamRequest & { perQueryColumns: true }): Promise<ColumnEvaluation>;
  evaluateStreams(request: StreamRequest): Promise<Evaluation>;
  /**
   * evaluateStreams() for a run split between two instances of the core: `run` gives its first
   * part (up to a line where a query starts, queryBoundary), `later` the other part as
   * evaluateLaterPart() packed it (null: it could not be), `whole` the whole run, read when the
   * parts cannot be joined (a run not grouped by query). The result is the one reading the whole
   * run gives. Node's entry only (wasm/split.mjs), as are the two below.
   */
  evaluateSplit(request: SplitRequest & { commandLine: { only: true } }): Promise<PrintedEvaluation>;
  evaluateSplit(request: SplitRequest & { perQueryColumns: true }): Promise<ColumnEvaluation>;
  evaluateSplit(request: SplitRequest): Promise<Evaluation>;
  /**
   * The later part of a run split between two instances (see evaluateSplit): the qrels,
   * and the run's chunks from a line where a query starts, its first byte at offset `firstByte`
   * of the whole run (query spans are the whole run's), that line numbered `firstLine` (or a
   * promise of it, awaited after the qrels) when known: without it the part joins only when
   * nothing it says names a line. `packed` is null when the part cannot be joined.
   */
  evaluateLaterPart(request: Omit<StreamRequest, 'commandLine' | 'trecText'> & { firstLine?: number | Promise<number>; firstByte: number; samples?: PartSamples }): Promise<{ packed: Uint8Array | null }>;
  /** Where in `window` (run bytes from any offset) a line starts whose query differs from the line before's; null for none. */
  queryBoundary(window: Uint8Array): number | null;
  /** Two or more runs against one qrels, compared query by query with paired tests. Throws CalculatorUsageError for fewer than two runs. */
  compare(request: CompareRequest): Comparison;
  /** The same over streams, and over runs evaluated elsewhere. */
  compareStreams(request: CompareStreamRequest & { commandLine: { only: true } }): Promise<PrintedEvaluation>;
  compareStreams(request: CompareStreamRequest): Promise<Comparison>;
  /**
   * Evaluates runs for a comparison made by another instance of the core (a worker): one run or
   * more, with the comparison's measures and options; pass the results to its compareStreams().
   */
  evaluateForComparison(request: Omit<CompareStreamRequest, 'runs' | 'commandLine'> & { qrels: ChunkSource; runs: Record<string, ChunkSource> | Map<string, ChunkSource> }): Promise<{ ok: boolean; errors: Diagnostic[]; warnings: Diagnostic[]; runs: Record<string, EvaluatedRun> }>;
  /** The presets, in the order a menu lists them: the option values each stands for, and where they are defined. */
  presets(): readonly { name: PresetName; label: string; options: Record<string, string>; citation: string }[];
  /** The TREC measures, in trec_eval's order. */
  measures(): readonly MeasureInfo[];
  /** trec_eval's sets of measures (official, set, all_trec). */
  measureSets(): readonly { name: string; measures: readonly string[] }[];
  /**
   * Someone's own working held against the calculation: `working` is a column such as
   * "DCG = (1.0, 1.6)", a table whose header names G, CG, DCG, IG, IDCG or NDCG, or a sum
   * "7 + 1.893 + 3.5 = 12.393"; `quantity` names an unnamed column ('G', 'term', 'CG', 'DCG',
   * 'IG', 'ideal-term', 'IDCG', 'NDCG'). Errors in the working have source 'working'.
   */
  checkWorking(request: ExplainRequest & { working: string; quantity?: string }): WorkingCheck;
  /** One ranking under every preset, and what makes two presets (default trec_eval and sklearn) differ. */
  compareConventions(request: ExplainRequest & { between?: [PresetName, PresetName] }): ConventionsComparison;
  /** ndcg-calc's arguments read. Node's entry only (wasm/command-line.mjs): the page's core does not carry the command line. */
  parseCommandLine(argv: string[]): CommandLine;
  /** ndcg-calc -h's text, with the definitions of the measures named. Node's entry only. */
  commandLineHelp(measures?: string[]): string;
}

export interface CheckedColumn {
  quantity: 'G' | 'G / discount' | 'CG' | 'DCG' | 'IG' | 'IG / discount' | 'IDCG' | 'NDCG';
  /** Each value as written, against the calculation's (null past the end of the ranking). */
  values: { rank: number; theirs: number; decimals: number; ours: number | null; matches: boolean }[];
  /**
   * What the working shows: cause 'rounding', 'computed-from-rounded', 'discount', 'gain',
   * 'ideal-source', 'ideal-length', 'wrong-term', 'rank-left-out', 'sum', 'count' or 'differs';
   * rank 0 when it is about the whole column.
   */
  findings: { cause: string; rank: number; message: string }[];
  /** For a sum: its total as written, and the right one. */
  total?: number;
  ourTotal?: number;
}

export type WorkingCheck =
  | { ok: true; columns: CheckedColumn[]; warnings: Diagnostic[] }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

export interface PresetSummary {
  /** The preset's name, or '' for the options as given. */
  preset: string;
  ok: boolean;
  k: number;
  ndcgAtK: number;
  dcgAtK: number;
  idcgAtK: number;
}

export type ConventionsComparison =
  | {
      ok: true;
      asGiven: PresetSummary;
      presets: PresetSummary[];
      between: [string, string];
      /** Each option whose value differs between the two, with NDCG@k when only it is switched from the first's value to the second's. */
      effects: { option: string; from: string; to: string; ok: boolean; ndcgAtK: number; change: number }[];
      warnings: Diagnostic[];
    }
  | { ok: false; errors: Diagnostic[]; warnings: Diagnostic[] };

/** Thrown only when the API is called with the wrong types (e.g. ranking not a string). */
export class CalculatorUsageError extends TypeError {}
/** What a request's commandLine.write threw (its cause), once the output had begun. */
export class OutputError extends Error {
  cause: unknown;
}

/** Options as the text values the core reads ({ "3": 7 } → "3=7"). */
export function optionsToText(options?: ExplainOptions): Record<string, string>;
/**
 * The rows of a columnar explanation (explain with `columnar: true`), one object per rank, as
 * explain gives them without it.
 */
export function rowsOfColumns(explanation: { length: number; columns: StepColumns }): StepRow[];

/** Loads the wasm core (once) and returns the calculator. */
export function createCalculator(): Promise<Calculator>;

/**
 * In Node, the core's compiled WebAssembly.Module, compiled once per thread (null from the
 * browser entry). Post it to a worker thread and pass it to useCompiledCore() there, before
 * createCalculator(), so that the worker does not compile the core again.
 */
export function compiledCore(): Promise<WebAssembly.Module | null>;
/** In Node, makes this thread's instances of the core from `module` (compiledCore()'s); the browser entry throws CalculatorUsageError. */
export function useCompiledCore(module: WebAssembly.Module): void;
