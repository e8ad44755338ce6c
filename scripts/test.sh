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
# Waits for a step started in the background, prints its log, and stops the suite if it failed.
finish_background() {
  local status=0
  wait "$1" || status=$?
  cat "$2"
  if [ "$status" -ne 0 ]; then exit "$status"; fi
}
bash scripts/setup.sh
bash scripts/format.sh --check
phase "set-up and formatting"
# The sanitized build runs beside the native one, whose steps leave a core idle at times (a
# link, one source alone).
mkdir -p build
bash scripts/build.sh sanitize >build/sanitize-build.log 2>&1 &
sanitize_build=$!
# Without the profile-guided build (scripts/build.sh): its instrumented build and training took
# 50-70 s of the suite, which passed ten minutes at busy moments of a two-core host (634 s in a
# fresh clone). The tests run the same sources built without a profile; npm run build:native and
# npm run bench build the profile-guided program, and the benchmark checks its output against
# trec_eval's.
NDCG_NATIVE_PROFILE=0 bash scripts/build.sh native
ctest --test-dir build/native --output-on-failure -j3
phase "the native build and its doctest"
finish_background "$sanitize_build" build/sanitize-build.log
phase "the rest of the sanitized build, built beside the native one"
# The sanitized suite runs while the wasm core builds: the builds' links use one core each.
ctest --test-dir build/sanitize --output-on-failure -j3 >build/sanitize/ctest.log 2>&1 &
sanitized=$!
bash scripts/build.sh wasm
phase "the wasm build"
finish_background "$sanitized" build/sanitize/ctest.log
phase "the sanitized doctest, after the wasm build"
# The API's declared types (wasm/index.d.ts) held to a program that uses them (tests/types).
npx tsc -p tests/types
# Three test files at a time: Node runs one at a time on a two-core machine by default, and the
# command-line tests spend part of their time waiting for the programs they start.
# Without NODE_EXTRA_CA_CERTS, where it is set: Node then reads the certificates at every start
# (about 0.09 s of CPU for a system's bundle), and these tests start Node's ndcg-calc hundreds of
# times. ndcg-calc makes no network connection; the suite took 64 s instead of 74 s.
env -u NODE_EXTRA_CA_CERTS node --test --test-concurrency=3 tests/wasm/ tests/web/
phase "the type check and node:test"
bash scripts/build.sh page
npx playwright test
phase "the page build and Playwright"
