#!/usr/bin/env node
// ndcg-calc: evaluates a TREC run against qrels with trec_eval's semantics and output, from the
// same wasm core as the page. Files are read in chunks; a run is evaluated query by query.
import { createReadStream, createWriteStream, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { join } from 'node:path';

import { createCalculator } from './index.mjs';

const USAGE = `usage: ndcg-calc [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m MEASURE]... [-Z FILE]
                 [-D N[.QID]] [-R FORMAT] [-T trec_results] [--preset NAME] [-o NAME=VALUE]...
                 [--format trec|json|tsv] [--explain QID] QRELS RUN

Evaluates RUN ("query Q0 docno rank score tag" lines) against QRELS ("query iteration docno
grade" lines) as trec_eval 10.0 does, and prints its lines, with its flags (short, grouped as
-qc, or long as --level_for_rel 2). Either file may be - for stdin; gzipped files are read as
they are.

  -q, --query_eval_wanted         also print the value of every query
  -c, --complete_rel_info_wanted  average over every qrels query (one without results counts 0)
  -n, --nosummary                 do not print the "all" lines
  -l, --level_for_rel N           grade from which a document is relevant (default 1)
  -M, --Max_retrieved_per_topic N  only the first N ranked documents of each query count
  -N, --Number_docs_in_coll N     documents in the collection (utility's fourth coefficient)
  -J, --Judged_docs_only          drop unjudged documents from every ranking first
  -m, --measure MEASURE           a measure as trec_eval names it (map, P.5,10, ndcg_cut.10,
                                  ndcg.1=0.5,2=3, ...), a set of them (official, the default;
                                  all_trec; set; qrels_jg; prefs; all_prefs), or an ir_measures
                                  name (nDCG@10, AP(rel=2), P@10, RR@10, SetF, RBP(p=0.8), ...);
                                  repeat it for more.
                                  -h -m NAME describes a measure; -h -m all_trec all of them
  -Z, --Zscore FILE               print z-scores against "query measure mean stddev" lines
  -D, --Debug_level N[.QID]       evaluate QID only; with N >= 1 also print its working (on
                                  stderr); -D N alone prints every query's working
  -R, --Rel_info_format FORMAT    qrels; qrels_jg (the second field names a judgment group);
                                  prefs ("query group subgroup docno level" preferences); or
                                  qrels_prefs (a qrels file read as preferences). Without -m,
                                  the measures are the format's set (official, qrels_jg, prefs)
  -T, --Results_format FORMAT     trec_results (the only one trec_eval has)
  -v, --version                   the version
  -h, --help                      this text (with -m, the measures' definitions)
  --preset NAME    compute ndcg and ndcg_cut as a library does: trec_eval, trec_eval-ndcg_cut,
                   sklearn, torchmetrics, ranx, ranx-burges, ir_measures, gdeval, lightgbm,
                   xgboost, tf-ranking, spark, elasticsearch, ntcir, lecture (ties, gain,
                   ideal, ...; see the README)
  -o NAME=VALUE    one convention, over the preset's (or trec_eval's): gain, discount, base,
                   ideal, ties, negativeGains, unjudgedGrade, relevantFrom,
                   ndcgWhenIdcgZero (trec_eval's obsolete -o is not read)
  --format FORMAT  trec (default: trec_eval's lines), json, or tsv (one row a query)
  --explain QID[:COLUMN]  print one query's working: the step-by-step NDCG table, or for a
                   column such as map, P_10, bpref or ERR@20 the quantities at each rank
  --progress       report reading progress on stderr`;

class UsageError extends Error {}

// trec_eval's flags (getopt_long: short, grouped, -l2 or -l 2, long names or their unique
// prefixes) and this tool's own.
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  query_eval_wanted: { type: 'boolean', short: 'q' },
  measure: { type: 'string', short: 'm', multiple: true },
  complete_rel_info_wanted: { type: 'boolean', short: 'c' },
  level_for_rel: { type: 'string', short: 'l' },
  nosummary: { type: 'boolean', short: 'n' },
  Debug_level: { type: 'string', short: 'D' },
  Judged_docs_only: { type: 'boolean', short: 'J' },
  Number_docs_in_coll: { type: 'string', short: 'N' },
  Max_retrieved_per_topic: { type: 'string', short: 'M' },
  Rel_info_format: { type: 'string', short: 'R' },
  Results_format: { type: 'string', short: 'T' },
  Zscore: { type: 'string', short: 'Z' },
  preset: { type: 'string' },
  o: { type: 'string', short: 'o', multiple: true },
  format: { type: 'string' },
  explain: { type: 'string' },
  progress: { type: 'boolean' },
};

/**
 * argv as getopt_long reads it: "--level 2" is "--level_for_rel 2" (a unique prefix of a long
 * name), and an option that takes a value takes the next argument whatever it is ("-l -1").
 */
function asGetoptReads(argv) {
  const names = Object.keys(OPTIONS).filter((n) => n.length > 1);
  const takesValue = new Set(Object.entries(OPTIONS).filter(([, o]) => o.type === 'string')
    .flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]));
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    if (a.startsWith('--') && a !== '--') {
      const [name, ...value] = a.slice(2).split('=');
      if (!names.includes(name)) {
        const matches = names.filter((n) => n.startsWith(name));
        if (matches.length > 1) throw new UsageError(`option '--${name}' is ambiguous: ${matches.map((m) => `--${m}`).join(', ')}`);
        if (matches.length === 0) throw new UsageError(`unknown option '--${name}'`);
        a = `--${matches[0]}${value.length ? `=${value.join('=')}` : ''}`;
      }
    }
    if (takesValue.has(a) && i + 1 < argv.length && argv[i + 1].startsWith('-') && argv[i + 1] !== '-') {
      out.push(a.startsWith('--') ? `${a}=${argv[++i]}` : `${a}${argv[++i]}`);
    } else {
      out.push(a);
    }
  }
  return out;
}

const wholeNumber = (flag, text) => {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} takes a whole number 0 or more, not '${text}'`);
  return text;  // as text: the core reads it as a 64-bit integer, exactly
};

function parseArguments(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: asGetoptReads(argv), options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error.message.replace(/\. To specify a positional argument.*$/, ''));
  }
  const v = parsed.values;
  const args = {
    help: Boolean(v.help), version: Boolean(v.version),
    perQuery: Boolean(v.query_eval_wanted), summary: !v.nosummary,
    measures: v.measure ?? [], options: {}, conventions: {}, format: v.format ?? 'trec',
    explain: v.explain ?? '', explainMeasure: '', progress: Boolean(v.progress), files: parsed.positionals,
    zscores: v.Zscore, debugLevel: 0,
  };
  if (args.help || args.version) return args;
  // --explain 301:map: the working of one column ("301:P_10"); a query id may itself hold ':'.
  const colon = args.explain.lastIndexOf(':');
  if (colon > 0) {
    args.explainMeasure = args.explain.slice(colon + 1);
    args.explain = args.explain.slice(0, colon);
  }
  if (v.complete_rel_info_wanted) args.options.averageComplete = 'true';
  if (v.Judged_docs_only) args.options.judgedOnly = 'true';
  if (v.level_for_rel !== undefined) {
    if (!/^-?\d+$/.test(v.level_for_rel)) throw new UsageError(`-l takes a whole number, not '${v.level_for_rel}'`);
    args.options.relevanceLevel = v.level_for_rel;
  }
  if (v.Max_retrieved_per_topic !== undefined) args.options.maxPerQuery = wholeNumber('-M', v.Max_retrieved_per_topic);
  if (v.Number_docs_in_coll !== undefined) args.options.docsInCollection = wholeNumber('-N', v.Number_docs_in_coll);
  if (v.Debug_level !== undefined) {
    const [, level, query] = /^(\d+)(?:\.(.+))?$/.exec(v.Debug_level) ?? [];
    if (level === undefined) throw new UsageError(`-D takes a level and an optional query, such as 1 or 1.301, not '${v.Debug_level}'`);
    args.debugLevel = Number(level);
    if (query !== undefined) {
      args.options.onlyQuery = query;
      if (args.debugLevel > 0 && !args.explain) args.explain = query;
    } else if (args.debugLevel > 0) {
      args.options.explainAll = 'true';  // every query's working, on stderr
    }
  }
  if (v.Rel_info_format !== undefined) {
    if (!['qrels', 'qrels_jg', 'prefs', 'qrels_prefs'].includes(v.Rel_info_format)) {
      throw new UsageError(`-R takes a relevance file format (qrels, qrels_jg, prefs, qrels_prefs), not '${v.Rel_info_format}'`);
    }
    args.options.relInfoFormat = v.Rel_info_format;
  }
  if (v.Results_format !== undefined && v.Results_format !== 'trec_results') {
    throw new UsageError(`-T takes trec_results (the only results format), not '${v.Results_format}'`);
  }
  if (v.preset !== undefined) args.conventions.preset = v.preset;
  for (const text of v.o ?? []) {
    const eq = text.indexOf('=');
    if (eq <= 0) throw new UsageError(`-o takes NAME=VALUE, such as ties=average, not '${text}'`);
    args.conventions[text.slice(0, eq)] = text.slice(eq + 1);
  }
  if (!['trec', 'json', 'tsv'].includes(args.format)) throw new UsageError(`--format is trec, json or tsv, not '${args.format}'`);
  if (args.files.length !== 2) throw new UsageError(`expected two files, QRELS and RUN; got ${args.files.length}`);
  if (args.files[0] === '-' && args.files[1] === '-') throw new UsageError('only one of QRELS and RUN can be - (stdin)');
  return args;
}

async function sizeOf(path) {
  if (path === '-') return 0;
  const info = await stat(path);
  return info.isFile() ? info.size : 0;
}

/** Progress on stderr: one updating line on a terminal, a line per 10 % otherwise. */
function progressReporter(sizes) {
  let lastShown = '';
  return ({ file, bytes }) => {
    const total = sizes[file];
    const percent = total > 0 ? Math.floor((100 * bytes) / total) : -1;
    const step = `${file} ${process.stderr.isTTY ? percent : Math.floor(percent / 10) * 10}`;
    if (step === lastShown) return;
    lastShown = step;
    const text = `ndcg-calc: reading ${file}: ${percent >= 0 ? `${percent}% of ` : ''}${(total || bytes) >> 20} MB`;
    process.stderr.write(process.stderr.isTTY ? `\r${text}\x1b[K` : `${text}\n`);
  };
}

const CHUNK = 1 << 20;
const spoolDirectories = [];

/**
 * Chunks of a stream that can be read only once (stdin, a pipe, /dev/fd/N), copied to a
 * temporary file as they pass, so that a second reading (a run not grouped by query) comes from
 * there. Memory holds one chunk, as for a file read by path.
 */
async function spooled(stream) {
  const directory = await mkdtemp(join(tmpdir(), 'ndcg-calc-'));
  spoolDirectories.push(directory);
  const copy = join(directory, 'input');
  let first = true;
  return () => {
    if (!first) return createReadStream(copy, { highWaterMark: CHUNK });
    first = false;
    return (async function* tee() {
      const out = createWriteStream(copy);
      try {
        for await (const chunk of stream) {
          if (!out.write(chunk)) await once(out, 'drain');
          yield chunk;
        }
      } finally {
        out.end();
        await once(out, 'close');
      }
    })();
  };
}

/**
 * The chunks of `chunks`, inflated when they start with gzip's magic bytes (1f 8b): TREC runs
 * and qrels often travel compressed.
 */
async function* gunzipIfNeeded(chunks) {
  const iterator = chunks[Symbol.asyncIterator]();
  // The first two bytes, which may come in more than one chunk.
  let head = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done) break;
    head = Buffer.concat([head, Buffer.from(next.value)]);
  }
  const all = async function* all() {
    if (head.length > 0) yield head;
    for (let item = await iterator.next(); !item.done; item = await iterator.next()) yield item.value;
  };
  if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* all();
    return;
  }
  const source = Readable.from(all());
  const gunzip = createGunzip({ chunkSize: CHUNK });
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  yield* gunzip;
}

/** A function returning a fresh iterable of the file's chunks, inflated if gzipped. */
async function opener(path) {
  const open = await rawOpener(path);
  return () => gunzipIfNeeded(open());
}

/** Any readable path works; what can be read only once is spooled for a second reading. */
async function rawOpener(path) {
  if (path === '-') return spooled(process.stdin);
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw new UsageError(`cannot read '${path}': ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  }
  if (info.isDirectory()) throw new UsageError(`'${path}' is a directory, not a file`);
  if (!info.isFile()) return spooled(createReadStream(path, { highWaterMark: CHUNK }));
  return () => createReadStream(path, { highWaterMark: CHUNK });
}

/** A whole small file (-Z), as text; gzipped or not. */
async function readWhole(path) {
  const open = await opener(path);
  const parts = [];
  for await (const chunk of open()) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}

/** -h -m NAME: the definitions of the measures named, as trec_eval's -h prints its own. */
function describeMeasures(calc, names) {
  const catalogue = calc.measures();
  const wanted = new Set();
  for (const name of names) {
    const set = calc.measureSets().find((s) => s.name === name);
    for (const member of set ? set.measures : [name.split('.')[0]]) wanted.add(member);
  }
  const lines = ['\nMeasures:'];
  for (const m of catalogue) {
    if (!wanted.has(m.name) && !wanted.has(m.irMeasures)) continue;
    const params = m.defaults ? `.${m.defaults}` : '';
    lines.push(`  ${m.name}${params}${m.irMeasures ? ` (ir_measures: ${m.irMeasures})` : ''}`, `      ${m.definition}`);
  }
  return `${lines.join('\n')}\n`;
}

function formatTsv(result, perQuery) {
  const names = result.columns.map((c) => c.name);
  const lines = [['query', ...names].join('\t')];
  if (perQuery) for (const q of result.perQuery) lines.push([q.query, ...names.map((n) => q.values[n])].join('\t'));
  lines.push(['all', ...names.map((n) => result.mean[n])].join('\t'));
  return `${lines.join('\n')}\n`;
}

/** One measure's working for one query, as a table: rank, docno, grade, then its quantities. */
function formatWorking(qid, w) {
  const gradeText = (g) => (g === -1 ? '-' : g === -2 ? 'neg' : String(g));
  const number = (x) => (x === null ? '' : Number.isInteger(x) ? String(x) : x.toFixed(4));
  const header = ['rank', 'docno', 'grade', ...w.columns];
  const rows = w.rows.map((r) => [String(r.rank), r.doc, gradeText(r.grade), ...r.values.map(number)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [`Query ${qid}, ${w.column}: ranked by score, ties by docno descending (grade -: not in the qrels, neg: judged negative)`,
    line(header), ...rows.map(line), w.result, ''].join('\n');
}

function formatExplanation(qid, e) {
  const header = ['rank', 'docno', 'grade', 'gain', 'DCG', 'ideal docno', 'ideal grade', 'IDCG', 'NDCG'];
  const rows = e.rows.map((r) => [String(r.rank), r.doc ?? '', String(r.grade), String(r.gain), r.dcg.toFixed(4),
    r.idealDoc ?? '-', String(r.idealGrade), r.idcg.toFixed(4), r.ndcg.toFixed(4)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 1 || i === 5 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [`Query ${qid}: ranked by score, ties by docno descending; linear gain, log2(rank+1), ideal from every judged document`,
    line(header), ...rows.map(line),
    `ndcg = ${e.summary.dcgAtK.toFixed(4)} / ${e.summary.idcgAtK.toFixed(4)} = ${e.summary.ndcgAtK.toFixed(4)} (the whole ideal ranking)`, ''].join('\n');
}

async function main(argv) {
  let args;
  try {
    args = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ndcg-calc: ${error.message}\n${USAGE.split('\n\n')[0]}\n(ndcg-calc -h for every option)\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    if (args.measures.length > 0) process.stdout.write(describeMeasures(await createCalculator(), args.measures));
    return 0;
  }
  if (args.version) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`ndcg-calc ${pkg.version} (trec_eval 10.0's measures and flags)\n`);
    return 0;
  }
  let qrels;
  let run;
  let zscores;
  try {
    qrels = await opener(args.files[0]);
    run = await opener(args.files[1]);
    if (args.zscores !== undefined) zscores = await readWhole(args.zscores);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ndcg-calc: ${error.message}\n`);
    return 2;
  }
  if (zscores !== undefined) args.options.zscores = zscores;
  const calc = await createCalculator();
  const onProgress = args.progress
    ? progressReporter({ qrels: await sizeOf(args.files[0]), run: await sizeOf(args.files[1]) })
    : undefined;
  const result = await calc.evaluateStreams({
    qrels, run, measures: args.measures, explainQuery: args.explain, explainMeasure: args.explainMeasure, onProgress,
    options: { ...args.options, ...args.conventions },
    trecText: args.format === 'trec' ? { perQuery: args.perQuery, summary: args.summary } : undefined,
  });
  if (args.progress && process.stderr.isTTY) process.stderr.write('\n');
  const fileOf = { qrels: args.files[0], run: args.files[1] };
  const where = (d) => (d.source === 'options' ? ''
    : `${fileOf[d.source] ?? d.source}${d.line > 0 ? `:${d.line}${d.column > 0 ? `:${d.column}` : ''}` : ''}: `);
  for (const w of result.warnings) process.stderr.write(`ndcg-calc: warning: ${where(w)}${w.message}\n`);
  if (!result.ok) {
    for (const e of result.errors) process.stderr.write(`ndcg-calc: ${where(e)}${e.message}\n`);
    // A bad -m or -l is a usage error (2), like a bad flag; a bad file is an error in the data (1).
    return result.errors.every((e) => e.source === 'options') ? 2 : 1;
  }
  if (args.explainMeasure && result.working) {
    process.stdout.write(formatWorking(args.explain, result.working));
  } else if (args.explain && result.explanation) {
    // -D's working goes to stderr, beside the lines trec_eval prints; --explain's to stdout.
    (args.debugLevel > 0 && args.explain === args.options.onlyQuery ? process.stderr : process.stdout)
      .write(formatExplanation(args.explain, result.explanation));
  }
  for (const { query, explanation } of result.explanations ?? []) process.stderr.write(formatExplanation(query, explanation));
  if (args.format === 'trec') {
    process.stdout.write(result.trec);
  } else if (args.format === 'tsv') {
    process.stdout.write(formatTsv(result, args.perQuery));
  } else {
    const { trec, explanation, explanations, ...rest } = result;
    const json = { ...rest, perQuery: args.perQuery ? rest.perQuery : undefined, explanation: args.explain ? explanation : undefined };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  }
  return 0;
}

// Whatever happens, one line on stderr and status 1 or 2: never a stack trace, never the wasm
// module's source (Node prints the line of a throw, and the module is one long line).
function fail(error) {
  const message = String(error?.message ?? error).split('\n')[0].slice(0, 300);
  process.stderr.write(`ndcg-calc: ${message}\n`);
  process.exitCode = 1;
}
process.on('uncaughtException', (error) => {
  fail(error);
  process.exit();
});
process.on('unhandledRejection', (error) => {
  fail(error);
  process.exit();
});
// A reader that stops early (| head) is not a failure of ours.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  fail(error);
});
process.on('exit', () => {
  for (const directory of spoolDirectories) rmSync(directory, { recursive: true, force: true });
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  fail(error);
}
