#!/usr/bin/env bash
# The whole suite: formatting, doctest through CTest (plain, then under AddressSanitizer and
# UndefinedBehaviorSanitizer), node:test over the wasm API and the CLI, and Playwright over the
# built page; the three layers run the same vectors (tests/vectors, tests/bad-input).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase says how long it took: the suite is kept under ten minutes on a two-core machine.
phase_start=$SECONDS
phase() {
  echo "test.sh: $1 took $((SECONDS - phase_start)) s (${SECONDS} s in all)"
  phase_start=$SECONDS
}
bash scripts/setup.sh
bash scripts/format.sh --check
phase "set-up and formatting"
bash scripts/build.sh native
ctest --test-dir build/native --output-on-failure -j3
phase "the native build and its doctest"
bash scripts/build.sh sanitize
phase "the sanitized build"
# The sanitized suite runs while the wasm core builds: the builds' links use one core each.
ctest --test-dir build/sanitize --output-on-failure -j3 >build/sanitize/ctest.log 2>&1 &
sanitized=$!
bash scripts/build.sh wasm
phase "the wasm build"
status=0
wait "$sanitized" || status=$?
cat build/sanitize/ctest.log
if [ "$status" -ne 0 ]; then exit "$status"; fi
phase "the sanitized doctest, after the wasm build"
# Three test files at a time: Node runs one at a time on a two-core machine by default, and the
# command-line tests spend part of their time waiting for the programs they start.
node --test --test-concurrency=3 tests/wasm/ tests/web/
phase "node:test"
bash scripts/build.sh page
npx playwright test
phase "the page build and Playwright"
