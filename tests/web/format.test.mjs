// The page's order of query ids: queryOrder compares ids of one run of digits by value itself, and
// must give the collator's order for them, and leave every other id to the collator.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { queryOrder } from '../../web/format.js';

const collator = new Intl.Collator(undefined, { numeric: true });

/** A repeatable stream of pseudo-random integers from `seed` (a linear congruential generator). */
function randoms(seed) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2147483648) >>> 8);
}

/**
 * queryOrder puts every pair of `ids` in the collator's order, both ways: for each pair, the
 * two ids sorted, ascending and descending.
 */
function agreesWithCollator(ids) {
  for (const a of ids) {
    for (const b of ids) {
      for (const descending of [false, true]) {
        const sign = Math.sign(collator.compare(a, b)) * (descending ? -1 : 1);
        // Equal ids keep their order; else the one the collator puts first comes first.
        const expected = sign > 0 ? [1, 0] : [0, 1];
        assert.deepEqual(queryOrder([a, b], descending), expected, `${JSON.stringify(a)} vs ${JSON.stringify(b)}${descending ? ', descending' : ''}`);
      }
    }
  }
}

test('ids of digits alone are ordered by value, as the collator orders them', () => {
  agreesWithCollator(['1', '2', '10', '9', '301', '0', '00', '007', '7', '70', '0070', '999999999999999999999',
    '1000000000000000000000', '12345678901234567890123', '12345678901234567890124', '450', '451', '0451']);
});

test('random ids of digits, with and without leading zeros, agree with the collator', () => {
  const next = randoms(20261126);
  const ids = Array.from({ length: 160 }, () => {
    const zeros = next() % 4 === 0 ? '0'.repeat(1 + (next() % 3)) : '';
    const digits = Array.from({ length: 1 + (next() % 24) }, () => String(next() % 10)).join('');
    return zeros + digits;
  });
  agreesWithCollator(ids);
});

test('other ids, and ids mixing digits with other characters, keep the collator\'s order', () => {
  agreesWithCollator(['1/2', '1/10', '19', '1:2', '/1', '1/', '0/5', 'q1', 'q10', 'q2', 'Q2', '1a', '1', '10a', 'a', 'é1', 'e1', '', '１２', '12', '-1', '1.5', '1 2',
    `1${'0'.repeat(70)}`, `2${'0'.repeat(69)}`, '٣', '3']);
});

test('ids of one run of digits among other characters are ordered by value when the rest is alike', () => {
  agreesWithCollator(['q1', 'q2', 'q10', 'q007', 'q7', 'Q2', 'Q10', 'test-7 b', 'test-10 b', 'test-10 a', 'a1b', 'a10b', 'a2c', 'a1c',
    'q-1', 'q-10', 'q+2', 'q 3', ' q3', 'é1', 'é10', 'e2', 'q１２', 'q12', 'q١2', 'q١10', '١9', '١10', '٩009', '٩10', 'q0', 'q00',
    `q${'9'.repeat(64)}`, `q1${'0'.repeat(64)}`, 'MSMARCO_12', 'MSMARCO_9', 'msmarco_10', '\u00011', '\u000110']);
});

test('random ids with a number between ASCII text agree with the collator', () => {
  const next = randoms(20261127);
  const parts = ['', 'q', 'Q', 'q-', 'test_', 'a b', '#', '.', 'x', 'é', '_v', 'b'];
  const ids = Array.from({ length: 160 }, () => {
    const zeros = next() % 5 === 0 ? '0'.repeat(1 + (next() % 2)) : '';
    const digits = Array.from({ length: 1 + (next() % 18) }, () => String(next() % 10)).join('');
    return parts[next() % parts.length] + zeros + digits + parts[next() % parts.length];
  });
  agreesWithCollator(ids);
});

test('sorting 5,000 TREC query ids puts them in numeric order', () => {
  const ids = Array.from({ length: 5000 }, (_, i) => String(301 + ((i * 7919) % 5000)));
  const sorted = queryOrder(ids).map((i) => ids[i]);
  assert.deepEqual(sorted, [...ids].sort((a, b) => Number(a) - Number(b)));
});

test('queryOrder gives the sort the collator gives, both ways, equal ids kept in their order', () => {
  const next = randoms(7);
  const pool = ['1', '2', '10', '007', '7', '0', '00', 'q1', 'q10', 'Q2', '1/2', '301', '1234567890123456', '1234567890123457',
    '999999999999999', '1000000000000000', '12345678901234567', '12345678901234568', '012345678901234567', `1${'0'.repeat(30)}`, '٣', 'é', 'e',
    // Number() reads these as numbers too; the collator does not order them by those values.
    '1e3', '999', ' 12', '12', '0x1A', '26', '+5', '5', '-1', 'Infinity',
    // Past 254 digits the collator compares runs of digits, not values: left to it.
    '9'.repeat(260), `1${'0'.repeat(299)}`];
  // Rows with repeated ids, told apart by `at`, so that the order of equal ids shows.
  const rows = Array.from({ length: 400 }, (_, at) => ({ query: pool[next() % pool.length], at }));
  for (const descending of [false, true]) {
    const expected = [...rows].sort((a, b) => (descending ? -1 : 1) * collator.compare(a.query, b.query));
    assert.deepEqual(queryOrder(rows.map((r) => r.query), descending), expected.map((r) => r.at), descending ? 'descending' : 'ascending');
  }
});
