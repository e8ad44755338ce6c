// trec_eval 10.0's own test suite ("make quicktest"): each of its 15 commands, with ndcg-calc in
// place of ./trec_eval, must print the expected file byte for byte. The files are trec_eval's
// (tests/trec/trec_eval-10.0/SOURCE.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { CLIS } from './clis.mjs';

const run = promisify(execFile);
const here = fileURLToPath(new URL('../trec/trec_eval-10.0/', import.meta.url));

// As trec_eval's Makefile writes them (test/ is this directory).
const COMMANDS = [
  'qrels.test results.test | out.test',
  'qrels.test.with-comments results.test | out.test',
  'qrels.comment.test results.comment.test | out.comment.test',
  '-m all_trec qrels.test results.test | out.test.a',
  '-m all_trec -q qrels.test results.test | out.test.aq',
  '-m all_trec -q -c qrels.test results.trunc | out.test.aqc',
  '-m all_trec -q -c -M100 qrels.test results.trunc | out.test.aqcM',
  '-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test | out.test.aql',
  '-m all_prefs -q -R prefs prefs.test prefs.results.test | out.test.prefs',
  '-m all_prefs -q -R prefs prefs.comment.test prefs.results.test | out.test.prefs',
  '-m all_prefs -q -R qrels_prefs qrels.test results.test | out.test.qrels_prefs',
  '-m qrels_jg -q -R qrels_jg qrels.123 results.test | out.test.qrels_jg',
  '-m qrels_jg -q -R qrels_jg qrels.comments.123 results.test | out.test.qrels_jg',
  '-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test | out.test.meas_params',
  '-q -m all_trec -Z zscores_file qrels.test results.test | out.test.aqZ',
];

for (const cli of CLIS) {
  for (const command of COMMANDS) {
    const [args, expected] = command.split(' | ');
    test(`make quicktest: ${cli.name} ${args}`, async () => {
      const { stdout } = await run(cli.command, [...cli.args, ...args.split(' ')], { cwd: here, maxBuffer: 1 << 26 });
      assert.equal(stdout, readFileSync(`${here}${expected}`, 'utf8'));
    });
  }
}

for (const cli of CLIS) {
  test(`${cli.name}: -D 1 traces every query on stderr, in trec_eval's query order, and leaves stdout as trec_eval's`, async () => {
    const { stdout, stderr } = await run(cli.command, [...cli.args, '-D', '1', 'qrels.test', 'results.test'], { cwd: here, maxBuffer: 1 << 26 });
    assert.equal(stdout, readFileSync(`${here}out.test`, 'utf8'));
    assert.deepEqual(stderr.match(/^Query [^:]+/gm), ['Query 301', 'Query 302', 'Query 303']);
    // Each table ends in the query's ndcg over the whole ranking: 500 ranked rows a query.
    assert.equal(stderr.split('\n').filter((line) => /^ +\d+ {2}\S/.test(line)).length, 1500);
  });

  test(`${cli.name}: -D 1.302 evaluates and traces query 302 only`, async () => {
    const { stdout, stderr } = await run(cli.command, [...cli.args, '-q', '-D', '1.302', '-m', 'num_ret', 'qrels.test', 'results.test'], { cwd: here });
    assert.equal(stdout, 'num_ret               \t302\t500\nnum_ret               \tall\t500\n');
    assert.deepEqual(stderr.match(/^Query [^:]+/gm), ['Query 302']);
  });
}
