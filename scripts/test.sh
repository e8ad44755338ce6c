#!/usr/bin/env bash
# The whole suite: doctest through CTest, node:test over the wasm API and Playwright over the
# built page, all three over the same vectors in tests/vectors.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh native
ctest --test-dir build/native --output-on-failure
bash scripts/build.sh wasm
node --test tests/wasm/ tests/web/
npx vite build --config vite.config.mjs --logLevel warn
npx playwright test
