// The page's loader of its core: the base64 decoding it falls back to where the browser has no
// Uint8Array.fromBase64 (Node 20 has none either: this is that path; the page's tests in
// Chromium run the other).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { gzipSync } from 'node:zlib';

import { bytesOfBase64, inflateBytes, loadCalculator } from '../../web/core-loader.js';

test('base64 text decodes to its bytes, every byte value and every length of padding', () => {
  assert.equal(typeof Uint8Array.fromBase64, 'undefined', 'this test is for the fallback path');
  const every = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (let length = 0; length <= 260; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => every[(i * 97 + length) % 256]);
    const text = Buffer.from(bytes).toString('base64');
    assert.deepEqual(bytesOfBase64(text), bytes, `${length} bytes`);
  }
});

test('packed text inflates to its bytes, whole, across the decompressor\'s chunks', async () => {
  // 300 KB that gzip does not shrink much, so that the decompressor hands it out in many chunks.
  let x = 1;
  const bytes = Uint8Array.from({ length: 300_000 }, () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x >>> 24;
  });
  for (const original of [new Uint8Array(0), new TextEncoder().encode('var createNdcgCore;\n'), bytes]) {
    const packed = Buffer.from(gzipSync(original)).toString('base64');
    assert.deepEqual(await inflateBytes(packed), original, `${original.length} bytes`);
  }
});

// The Emscripten module's side of instantiation, as the page's module does it: it asks
// `instantiateWasm` for an instance and resolves once it is handed one.
const fakeFactory = (made) => ({ instantiateWasm }) => new Promise((resolve) => {
  instantiateWasm({ env: {} }, (instance, module) => {
    made.push({ instance, module });
    resolve({ explain() { throw new WebAssembly.RuntimeError('unreachable'); } });
  });
});
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
// Imports a function env.f, which the Emscripten side above never provides.
const NEEDS_IMPORT = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x02, 0x09, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x01, 0x66, 0x00, 0x00]);

test('the core is instantiated from the compiled module, and again after it fails', async () => {
  const made = [];
  const compiled = WebAssembly.compile(EMPTY_MODULE);
  const calc = await loadCalculator(Promise.resolve(fakeFactory(made)), compiled);
  assert.equal(made.length, 1);
  assert.ok(made[0].instance instanceof WebAssembly.Instance);
  assert.equal(made[0].module, await compiled);
  const failed = calc.explain({ ranking: 'd1 1' });
  assert.equal(failed.ok, false);
  assert.match(failed.errors[0].message, /restarted/);
  // The fresh instance comes from the same compiled module.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(made.length, 2);
  assert.equal(made[1].module, await compiled);
  assert.notEqual(made[1].instance, made[0].instance);
});

test('a core that cannot be instantiated is an error, not a wait forever', { timeout: 5000 }, async () => {
  await assert.rejects(loadCalculator(Promise.resolve(fakeFactory([])), WebAssembly.compile(NEEDS_IMPORT)),
    WebAssembly.LinkError);
});
