#!/usr/bin/env bash
# The whole suite: formatting, doctest through CTest (plain, then under AddressSanitizer and
# UndefinedBehaviorSanitizer), node:test over the wasm API and the CLI, and Playwright over the
# built page; the three layers run the same vectors (tests/vectors, tests/bad-input).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/format.sh --check
bash scripts/build.sh native
ctest --test-dir build/native --output-on-failure
bash scripts/build.sh sanitize
ctest --test-dir build/sanitize --output-on-failure
bash scripts/build.sh wasm
# Two test files at a time: Node runs one at a time on a two-core machine by default.
node --test --test-concurrency=2 tests/wasm/ tests/web/
bash scripts/build.sh page
npx playwright test
