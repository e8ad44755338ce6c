import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const CSP = [
  "default-src 'none'",
  // blob: for the core module, which the page and its worker import from one blob: URL.
  "script-src 'unsafe-inline' 'wasm-unsafe-eval' blob:",
  'worker-src blob: data:',
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  // Emscripten fetches its embedded data: URI; no host can be reached.
  'connect-src data:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

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
  },
  plugins: [
    viteSingleFile(),
    {
      // The built file may not reach the network at all: the browser enforces it.
      name: 'content-security-policy',
      apply: 'build',
      transformIndexHtml: (html) => html.replace('<meta charset="utf-8">',
        '<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="' + CSP + '">'),
    },
    {
      name: 'name-the-single-file',
      enforce: 'post',
      generateBundle(_, bundle) {
        const page = bundle['index.html'];
        if (page) page.fileName = 'ndcg-calculator.html';
      },
    },
  ],
});
