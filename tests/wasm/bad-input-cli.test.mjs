// tests/bad-input/cases.json through both ndcg-calc programs (Node and native): each case's
// expected outcome, as the API's (bad-input.test.mjs) and the native core's
// (tests/core/bad_input_test.cpp), with the exit status, the located messages on stderr, and
// never a stack trace. A file of its own so that it runs beside the API's cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CLIS } from './clis.mjs';
import { asBytes } from '../bad-input/inputs.mjs';

const CORPUS = JSON.parse(readFileSync(new URL('../bad-input/cases.json', import.meta.url), 'utf8'));

const runsIn = (c, layer) => !c.layers || c.layers.includes(layer);

function close(actual, wanted, tolerance, what) {
  assert.ok(Math.abs(actual - wanted) <= tolerance, `${what}: ${actual} is not ${wanted}`);
}

for (const c of CORPUS.cases) {
  const { expect } = c;
  if (c.evaluate && runsIn(c, 'cli')) {
    // The cases sized to catch a quadratic reader ("scale") run end to end through the Node
    // program; the native program's reading of them is the core's, which ctest runs on them.
    const clis = c.scale ? CLIS.filter((cli) => cli.command === process.execPath) : CLIS;
    for (const cli of clis) test(`bad input, ${cli.name}: ${c.name}`, () => {
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
