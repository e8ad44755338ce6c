#!/usr/bin/env bash
# Builds the native core and tests (build/native), the wasm modules (wasm/dist), or both.
# Usage: scripts/build.sh native|wasm|all
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="${NDCG_JOBS:-2}"

build_native() {
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build/native -j "$jobs"
}

build_wasm() {
  # Debian's emscripten runs its JS optimizer with Debian's acorn, which plain node cannot find.
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
  # Release (-O3): 10% larger than MinSizeRel, several times faster on large pastes.
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasm -j "$jobs"
}

case "$what" in
  native) build_native ;;
  wasm) build_wasm ;;
  all) build_native; build_wasm ;;
  *) echo "usage: scripts/build.sh native|wasm|all" >&2; exit 2 ;;
esac
