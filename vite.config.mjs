import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipAsync } from '@gfx/zopfli';
import { build, defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

// SCRIPT_HASHES is replaced by the SHA-256 of each inlined script once the bundle is one file:
// no other inline script, event-handler attribute or javascript: URL can run.
const CSP = [
  "default-src 'none'",
  // blob: for the TREC worker's script and the core's module in it; the page runs the core's
  // script inline, allowed by its hash as the page's own scripts are.
  "script-src SCRIPT_HASHES 'wasm-unsafe-eval' blob:",
  'worker-src blob: data:',
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  // The core's wasm binary is handed to it (see PACKED): nothing is fetched at all.
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

// The core, gzip-compressed and base64-encoded, as two virtual modules the page inflates with
// DecompressionStream (web/core-loader.js): 'virtual:ndcg-core-wasm' for the wasm binary (167 KB
// of gzip carry its 396 KB; as plain base64 it would take 528 KB of the one-file page) and
// 'virtual:ndcg-core-source' for the text of its Emscripten module as a classic script (13 KB of
// gzip for 52 KB; see coreScript). The gzip is Zopfli's (@gfx/zopfli, Google's compressor built
// to wasm): any gzip reader inflates it, and it is 5 % smaller than zlib's best level, 12 KB of
// the page, for 2 s of build. 30 iterations rather than 15 take 40 bytes more off the page (60
// would take 24 more, for 3 s of build).
const pack = async (bytes) => Buffer.from(await gzipAsync(bytes, { numiterations: 30 })).toString('base64');
const PACKED = {
  'virtual:ndcg-core-wasm': './wasm/dist/ndcg-core.web.wasm',
  'virtual:ndcg-core-source': './wasm/dist/ndcg-core.web.mjs',
};
// The policy's hash of the core's script, once it is made (hashScripts).
let coreScriptHash = null;
const corePacked = {
  name: 'ndcg-core-packed',
  resolveId: (id) => (id in PACKED ? `\0${id}` : null),
  async load(id) {
    const path = id.startsWith('\0') ? PACKED[id.slice(1)] : undefined;
    if (path === undefined) return null;
    const file = new URL(path, import.meta.url);
    this.addWatchFile(file.pathname);
    let bytes = readFileSync(file);
    if (id === '\0virtual:ndcg-core-source') {
      const script = coreScript(bytes.toString('utf8'), (message) => this.error(message));
      coreScriptHash = `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
      bytes = Buffer.from(script, 'utf8');
    }
    const packed = await pack(bytes);
    return `export default ${JSON.stringify(packed)};`;
  },
};

/**
 * The Emscripten module (an ES module: `export default createNdcgCore`) as a classic script that
 * leaves its factory in `self.ndcgCoreFactory`. The page runs it as an inline script, which runs
 * at once: imported from a blob: URL, the module waited on a round trip to the browser's own
 * process, 6-97 ms on the way to the first result. The TREC worker, a module, imports it from a
 * blob: URL with an export added (web/core-loader.js). Its two uses of `import.meta.url` (where
 * the wasm file would be fetched from) are never reached: the page hands over the compiled wasm,
 * and a file name with it.
 */
function coreScript(module, fail) {
  const exported = 'export default createNdcgCore;';
  const uses = module.split('import.meta.url').length - 1;
  if (!module.trimEnd().endsWith(exported) || module.split(exported).length !== 2 || uses !== 2) {
    fail(`wasm/dist/ndcg-core.web.mjs is not the Emscripten module coreScript expects (${uses} uses of import.meta.url)`);
  }
  const body = module.trimEnd().slice(0, -exported.length).replaceAll('import.meta.url', 'undefined');
  return `self.ndcgCoreFactory = (() => {\n${body}\nreturn createNdcgCore;\n})();\n`;
}

// The TREC worker (web/trec-worker.js), bundled on its own and carried the same way, as
// 'virtual:trec-worker-packed': the page inflates it once and starts every worker from one blob:
// URL (web/trec.js). Inlined as plain text, as Vite's ?worker&inline does, its 19 KB of script
// would take 19 KB of the page; packed, 9 KB.
const WORKER_ENTRY = fileURLToPath(new URL('./web/trec-worker.js', import.meta.url));
const workerPacked = {
  name: 'ndcg-worker-packed',
  resolveId: (id) => (id === 'virtual:trec-worker-packed' ? `\0${id}` : null),
  async load(id) {
    if (id !== '\0virtual:trec-worker-packed') return null;
    const [output] = [await build({
      configFile: false,
      logLevel: 'silent',
      root: fileURLToPath(new URL('./web', import.meta.url)),
      build: {
        write: false,
        target: 'es2022',
        minify: true,
        rolldownOptions: { input: WORKER_ENTRY, output: { format: 'iife' } },
      },
    })].flat();
    const chunk = output.output.find((o) => o.type === 'chunk' && o.isEntry);
    for (const file of chunk.moduleIds) if (!file.startsWith('\0')) this.addWatchFile(file);
    const packed = await pack(Buffer.from(chunk.code));
    return `export default ${JSON.stringify(packed)};`;
  },
};

const EMPTY_HASH = `'sha256-${createHash('sha256').update('').digest('base64')}'`;

// One self-contained HTML file (scripts, styles and the wasm core inlined) that works from
// file:// with no network: dist/ndcg-calculator.html.
export default defineConfig({
  root: 'web',
  base: './',
  server: { strictPort: false },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    // Compressing the core takes most of the build, by design (see PACKED): not worth a warning.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  plugins: [
    corePacked,
    workerPacked,
    viteSingleFile(),
    {
      name: 'name-the-single-file-and-hash-its-scripts',
      enforce: 'post',
      // After vite-plugin-singlefile's own post-ordered hook has inlined the scripts.
      generateBundle: { order: 'post', handler: hashScripts },
    },
  ],
});

/** Names the one-file page and puts the SHA-256 of each inlined script into its policy. */
function hashScripts(_, bundle) {
  const page = bundle['index.html'];
  if (!page) return;
  page.fileName = 'ndcg-calculator.html';
  // The page's own indentation goes (about 4 KB of the file): each line break stays, so text and
  // attributes read as before; scripts, styles and preformatted text are left as they are.
  const html = String(page.source).replace(/(<(script|style|pre|textarea)\b[\s\S]*?<\/\2>)|\n[ \t]+/g, (_, kept) => kept ?? '\n');
  const hashes = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
    .map(([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  if (hashes.length === 0 || hashes.includes(EMPTY_HASH) || !html.includes('<meta charset="utf-8">')) {
    this.error('the Content-Security-Policy has no script hashes to fill in');
  }
  if (coreScriptHash === null) this.error('the core\'s script was not made, so its hash is missing');
  hashes.push(coreScriptHash);
  // The built file may not reach the network at all: the browser enforces it.
  const policy = CSP.replace('SCRIPT_HASHES', hashes.join(' '));
  page.source = html.replace('<meta charset="utf-8">',
    `<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${policy}">`);
}
