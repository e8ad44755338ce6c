#!/usr/bin/env bash
# The whole suite: doctest through CTest, then node:test over the wasm API, both over the same
# vectors in tests/vectors.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh native
ctest --test-dir build/native --output-on-failure
bash scripts/build.sh wasm
node --test tests/wasm/
