// The page's loader of its core: the base64 decoding it falls back to where the browser has no
// Uint8Array.fromBase64 (Node 20 has none either: this is that path; the page's tests in
// Chromium run the other).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { bytesOfBase64 } from '../../web/core-loader.js';

test('base64 text decodes to its bytes, every byte value and every length of padding', () => {
  assert.equal(typeof Uint8Array.fromBase64, 'undefined', 'this test is for the fallback path');
  const every = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (let length = 0; length <= 260; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => every[(i * 97 + length) % 256]);
    const text = Buffer.from(bytes).toString('base64');
    assert.deepEqual(bytesOfBase64(text), bytes, `${length} bytes`);
  }
});
