#!/usr/bin/env node
// ndcg-calc: evaluates a TREC run against qrels with trec_eval's semantics and output, from the
// same wasm core as the page. Files are read in chunks; a run is evaluated query by query.
import { createReadStream, createWriteStream, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createCalculator } from './index.mjs';

const USAGE = `usage: ndcg-calc [-q] [-c] [-l N] [-m MEASURE]... [--preset NAME] [-o NAME=VALUE]...
                 [--format trec|json|tsv] [--explain QID] QRELS RUN

Evaluates RUN ("query Q0 docno rank score tag" lines) against QRELS ("query iteration docno
grade" lines) as trec_eval 10.0 does, and prints its lines. Either file may be - for stdin.

  -q               also print the value of every query
  -c               average over every qrels query (a query without results counts 0)
  -l N             grade from which a document counts as relevant in binary measures (default 1)
  -m MEASURE       a measure, as trec_eval names it (ndcg, ndcg_cut.10, map, map_cut.100, P.10,
                   recall.100, recip_rank, Rprec, bpref, num_ret, num_rel, num_rel_ret,
                   ndcg.1=0.5,2=3) or as ir_measures does (nDCG@10, AP, P@10, R@100, RR, Rprec,
                   Bpref); repeat it for more. Default: map P.5,10 ndcg ndcg_cut.10 recip_rank bpref
  --preset NAME    compute ndcg and ndcg_cut as a library does: trec_eval, trec_eval-ndcg_cut,
                   sklearn, torchmetrics, ranx, ranx-burges, ir_measures, gdeval, lightgbm,
                   xgboost, tf-ranking, spark, elasticsearch, ntcir, lecture (ties, gain,
                   ideal, ...; see the README)
  -o NAME=VALUE    one convention, over the preset's (or trec_eval's): gain, discount, base,
                   ideal, ties, negativeGains, unjudgedGrade, relevantFrom,
                   ndcgWhenIdcgZero
  --format FORMAT  trec (default: trec_eval's lines), json, or tsv (one row a query)
  --explain QID    print the step-by-step NDCG table of one query
  --progress       report reading progress on stderr
  -h, --help       this text
  --version        the version`;

class UsageError extends Error {}

function parseArguments(argv) {
  const args = { perQuery: false, averageComplete: false, relevanceLevel: '1', measures: [], conventions: {}, format: 'trec', explain: '', progress: false, files: [] };
  const value = (i, flag) => {
    if (i >= argv.length) throw new UsageError(`${flag} needs a value`);
    return argv[i];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') return { help: true };
    if (a === '--version') return { version: true };
    if (a === '-q') args.perQuery = true;
    else if (a === '-c') args.averageComplete = true;
    else if (a === '-l' || a.startsWith('-l') && a.length > 2) {
      const text = a === '-l' ? value(++i, '-l') : a.slice(2);
      if (!/^-?\d+$/.test(text)) throw new UsageError(`-l takes a whole number, not '${text}'`);
      args.relevanceLevel = text;  // as text: the core reads it as a 64-bit integer, exactly
    } else if (a === '-m' || a.startsWith('-m') && a.length > 2) {
      args.measures.push(a === '-m' ? value(++i, '-m') : a.slice(2));
    } else if (a === '--preset' || a.startsWith('--preset=')) {
      args.conventions.preset = a === '--preset' ? value(++i, '--preset') : a.slice('--preset='.length);
    } else if (a === '-o' || a.startsWith('-o') && a.length > 2) {
      const text = a === '-o' ? value(++i, '-o') : a.slice(2);
      const eq = text.indexOf('=');
      if (eq <= 0) throw new UsageError(`-o takes NAME=VALUE, such as ties=average, not '${text}'`);
      args.conventions[text.slice(0, eq)] = text.slice(eq + 1);
    } else if (a === '--format' || a.startsWith('--format=')) {
      args.format = a === '--format' ? value(++i, '--format') : a.slice('--format='.length);
      if (!['trec', 'json', 'tsv'].includes(args.format)) throw new UsageError(`--format is trec, json or tsv, not '${args.format}'`);
    } else if (a === '--explain' || a.startsWith('--explain=')) {
      args.explain = a === '--explain' ? value(++i, '--explain') : a.slice('--explain='.length);
    } else if (a === '--progress') {
      args.progress = true;
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option '${a}'`);
    } else {
      args.files.push(a);
    }
  }
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

/** A function returning a fresh iterable of the file's chunks. Any readable path works. */
async function opener(path) {
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

function formatTsv(result, perQuery) {
  const names = result.columns.map((c) => c.name);
  const lines = [['query', ...names].join('\t')];
  if (perQuery) for (const q of result.perQuery) lines.push([q.query, ...names.map((n) => q.values[n])].join('\t'));
  lines.push(['all', ...names.map((n) => result.mean[n])].join('\t'));
  return `${lines.join('\n')}\n`;
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
    process.stderr.write(`ndcg-calc: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    process.stdout.write(`ndcg-calc ${pkg.version}\n`);
    return 0;
  }
  let qrels;
  let run;
  try {
    qrels = await opener(args.files[0]);
    run = await opener(args.files[1]);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ndcg-calc: ${error.message}\n`);
    return 2;
  }
  const calc = await createCalculator();
  const onProgress = args.progress
    ? progressReporter({ qrels: await sizeOf(args.files[0]), run: await sizeOf(args.files[1]) })
    : undefined;
  const result = await calc.evaluateStreams({
    qrels, run, measures: args.measures, explainQuery: args.explain, onProgress,
    options: { relevanceLevel: args.relevanceLevel, averageComplete: args.averageComplete, ...args.conventions },
    trecText: args.format === 'trec' ? (args.perQuery ? 'per-query' : 'summary') : undefined,
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
  if (args.explain && result.explanation) process.stdout.write(formatExplanation(args.explain, result.explanation));
  if (args.format === 'trec') {
    process.stdout.write(result.trec);
  } else if (args.format === 'tsv') {
    process.stdout.write(formatTsv(result, args.perQuery));
  } else {
    const { trec, explanation, ...rest } = result;
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
