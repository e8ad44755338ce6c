// tests/bad-input/cases.json through the wasm API (explain, evaluate) and through ndcg-calc: the
// same expected outcomes as the native core's (tests/core/bad_input_test.cpp), so native and
// wasm accept and reject the same inputs, and nothing throws but CalculatorUsageError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createCalculator } from '../../wasm/index.mjs';
import { CLIS } from './clis.mjs';
import { asBytes, asText } from '../bad-input/inputs.mjs';

const CORPUS = JSON.parse(readFileSync(new URL('../bad-input/cases.json', import.meta.url), 'utf8'));
const calc = await createCalculator();

const runsIn = (c, layer) => !c.layers || c.layers.includes(layer);

function checkDiagnostic(got, want, listed) {
  assert.equal(got.source, want.source, listed);
  assert.equal(got.line, want.line, listed);
  if (want.column !== undefined) assert.equal(got.column, want.column, listed);
  assert.ok(got.message.includes(want.contains), `${listed}\nwanted: ${want.contains}`);
}

function checkErrors(errors, expect) {
  const listed = errors.map((d) => `${d.source}:${d.line}:${d.column}: ${d.message.slice(0, 200)}`).join('\n');
  assert.ok(errors.length >= expect.errors.length, listed);
  expect.errors.forEach((want, i) => checkDiagnostic(errors[i], want, listed));
  if (expect.errorCount !== undefined) assert.equal(errors.length, expect.errorCount, listed);
  if (expect.lastError) checkDiagnostic(errors.at(-1), expect.lastError, listed);
}

function checkWarnings(warnings, expect) {
  for (const w of expect.warnings ?? []) {
    assert.ok(warnings.some((d) => d.message.includes(w)), `no warning contains ${w}`);
  }
}

function close(actual, wanted, tolerance, what) {
  assert.ok(Math.abs(actual - wanted) <= tolerance, `${what}: ${actual} is not ${wanted}`);
}

for (const c of CORPUS.cases) {
  const { expect } = c;
  if (c.explain && runsIn(c, 'api')) {
    test(`bad input, API: ${c.name}`, () => {
      const options = Object.fromEntries(Object.entries(c.explain.options).map(([k, v]) => [k, asText(v)]));
      const r = calc.explain({ ranking: asText(c.explain.ranking), judgments: asText(c.explain.judgments), options });
      assert.equal(r.ok, expect.ok, JSON.stringify(r.errors ?? []).slice(0, 500));
      if (!r.ok) return checkErrors(r.errors, expect);
      if (expect.rows !== undefined) assert.equal(r.rows.length, expect.rows);
      expect.docs?.forEach((doc, i) => assert.equal(r.rows[i].doc, doc));
      expect.grades?.forEach((grade, i) => assert.equal(r.rows[i].grade, grade));
      if (expect.ndcgAtK !== undefined) close(r.summary.ndcgAtK, expect.ndcgAtK, 1e-9, 'ndcgAtK');
      checkWarnings(r.warnings, expect);
    });
  }
  if (c.evaluate && runsIn(c, 'api')) {
    test(`bad input, API: ${c.name}`, () => {
      const { qrels, run, measures, options } = c.evaluate;
      const r = calc.evaluate({ qrels: asBytes(qrels), run: asBytes(run), measures, options });
      assert.equal(r.ok, expect.ok, JSON.stringify(r.errors ?? []).slice(0, 500));
      if (!r.ok) return checkErrors(r.errors, expect);
      for (const [name, value] of Object.entries(expect.mean ?? {})) close(r.mean[name], value, 1e-9, name);
      if (expect.queries !== undefined) assert.equal(r.perQuery.length, expect.queries);
      checkWarnings(r.warnings, expect);
    });
  }
  if (c.evaluate && runsIn(c, 'cli')) {
    for (const cli of CLIS) test(`bad input, ${cli.name}: ${c.name}`, () => {
      const { qrels, run, measures, options } = c.evaluate;
      const dir = mkdtempSync(join(tmpdir(), 'ndcg-bad-input-'));
      try {
        writeFileSync(join(dir, 'qrels.txt'), asBytes(qrels));
        writeFileSync(join(dir, 'run.txt'), asBytes(run));
        const args = measures.flatMap((m) => ['-m', m]);
        if (options.relevanceLevel !== undefined) args.push('-l', options.relevanceLevel);
        if (options.averageComplete === 'true') args.push('-c');
        const r = spawnSync(cli.command, [...cli.args, ...args, 'qrels.txt', 'run.txt'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
        // One line per message, never a stack trace or the module's source.
        assert.ok(r.stderr.length < 20_000, `stderr is ${r.stderr.length} characters`);
        assert.doesNotMatch(r.stderr, /^\s+at /m);
        if (expect.ok) {
          assert.equal(r.status, 0, r.stderr);
          const means = Object.fromEntries(r.stdout.trim().split('\n').map((line) => line.split('\t'))
            .filter(([, qid]) => qid === 'all').map(([name, , value]) => [name.trim(), Number(value)]));
          for (const [name, value] of Object.entries(expect.mean ?? {})) close(means[name], value, 5e-5, name);
          return;
        }
        const usage = expect.errors.every((e) => e.source === 'options');
        assert.equal(r.status, usage ? 2 : 1, r.stderr);
        assert.equal(r.stdout, '');
        const file = { qrels: 'qrels.txt', run: 'run.txt' };
        for (const e of [...expect.errors, ...(expect.lastError ? [expect.lastError] : [])]) {
          const where = e.source === 'options' ? '' : `${file[e.source]}${e.line > 0 ? `:${e.line}${e.column > 0 ? `:${e.column}` : ''}` : ''}: `;
          // The message on the line that names the place, not anywhere in stderr.
          const line = r.stderr.split('\n').find((l) => l.startsWith(`ndcg-calc: ${where}`) && l.includes(e.contains));
          assert.ok(line, `no line 'ndcg-calc: ${where}…${e.contains}…' in\n${r.stderr.slice(0, 2000)}`);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
}

test('the corpus has at least 80 cases, each with an expected outcome', () => {
  assert.ok(CORPUS.cases.length >= 80);
  for (const c of CORPUS.cases) assert.equal(typeof c.expect.ok, 'boolean', c.name);
});
