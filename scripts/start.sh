#!/usr/bin/env bash
# Builds what is missing, then serves the page on localhost (Vite prints the URL).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -f wasm/dist/ndcg-core.web.mjs ] || [ ! -f wasm/dist/ndcg-core.web.wasm ] || [ ! -f wasm/dist/ndcg-core.node.cjs ] || [ ! -f wasm/dist/ndcg-core.node.wasm ]; then
  bash scripts/build.sh wasm
fi
exec npx vite --config vite.config.mjs --host 127.0.0.1 "$@"
