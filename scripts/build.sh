#!/usr/bin/env bash
# Builds the native core and tests (build/native, profile-guided: build/native-profile holds the
# build that takes the profile), the same under ASan + UBSan (build/sanitize),
# the wasm modules (wasm/dist), the one-file page (dist/ndcg-calculator.html), or all but the
# sanitized build.
# Usage: scripts/build.sh native|sanitize|wasm|page|all
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
jobs="${NDCG_JOBS:-2}"

build_native() {
  # Line tables (-g1) are enough for a profile or a backtrace; full debug information makes the
  # build a quarter slower.
  local flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1")
  # NDCG_NATIVE_PROFILE=0 builds without a profile (faster to build; the program is slower).
  local why=""
  if [ "${NDCG_NATIVE_PROFILE:-1}" = 0 ]; then
    why="NDCG_NATIVE_PROFILE=0"
  elif "${CXX:-c++}" -dM -E -x c++ /dev/null | grep -q __clang__; then
    why="${CXX:-c++} is clang (that takes GCC)"
  fi
  if [ -n "$why" ]; then
    echo "build: the native build is not profile-guided: $why"
    cmake -S . -B build/native "${flags[@]}" -DNDCG_PROFILE= >/dev/null
    cmake --build build/native -j "$jobs"
    return
  fi
  # Profile-guided (CMakeLists.txt): the core and ndcg-calc built to count what runs, then run
  # over scripts/train-profile.mjs's inputs, and build/native optimised from those counts.
  # ndcg-calc reading the benchmark's 174 MB run took 13-14 % less time than without (0.27 s
  # against 0.31 s, medians of 15 runs of each in turn), for a build of 45-50 s more.
  local profile="$PWD/build/native-profile"
  cmake -S . -B "$profile" "${flags[@]}" -DNDCG_BUILD_TESTS=OFF -DNDCG_PROFILE=generate \
    -DNDCG_PROFILE_DIR="$profile/data" >/dev/null
  cmake --build "$profile" -j "$jobs" --target ndcg_calc_native
  if [ ! -f "$profile/data/trained" ] || [ "$profile/ndcg-calc" -nt "$profile/data/trained" ] ||
    [ scripts/train-profile.mjs -nt "$profile/data/trained" ]; then
    rm -rf "$profile/data"
    node scripts/train-profile.mjs "$profile/ndcg-calc"
    touch "$profile/data/trained"
    # Every object of the core built anew from the new counts, not only those whose code changed.
    if [ -d build/native/CMakeFiles ]; then
      find build/native/CMakeFiles/ndcg.dir build/native/CMakeFiles/ndcg_calc_native.dir \
        -name '*.o' -delete 2>/dev/null || true
    fi
  fi
  cmake -S . -B build/native "${flags[@]}" -DNDCG_PROFILE=use -DNDCG_PROFILE_DIR="$profile/data" \
    >/dev/null
  cmake --build build/native -j "$jobs"
}

build_sanitize() {
  # Clang 14 (which emscripten brings), the core at -O1 and the tests unoptimised
  # (tests/CMakeLists.txt). Built and run on two cores, one after the other: GCC with everything
  # at -O0, 74 s of build and 90 s of suite (128 s of CPU); Clang so, 42 s and 135 s (194 s);
  # Clang with the core at -O1, 73 s and 42 s (69 s of CPU), which the suite's million-line
  # inputs spend in the core. Line tables (-g1) are all a sanitizer report needs: full debug
  # information doubles the build. The doctest suite is build/native's, and only it is built: no
  # test runs a sanitized ndcg-calc (14 s of build).
  if [ -f build/sanitize/CMakeCache.txt ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-14$' \
    build/sanitize/CMakeCache.txt; then
    rm -rf build/sanitize  # built before with another compiler
  fi
  cmake -S . -B build/sanitize -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DNDCG_SANITIZE=ON >/dev/null
  cmake --build build/sanitize -j "$jobs" --target ndcg_tests
}

build_wasm() {
  # Debian's emscripten runs its JS optimizer with Debian's acorn, which plain node cannot find.
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
  # Release for NDEBUG; each module sets its own optimisation level (wasm/CMakeLists.txt).
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasm -j "$jobs"
}

build_page() {
  # Incremental: the page carries the core as it is now, never a core built before a change.
  build_wasm
  npx vite build --config vite.config.mjs --logLevel warn
  echo "build: wrote dist/ndcg-calculator.html ($(( $(wc -c < dist/ndcg-calculator.html) / 1024 )) KB)"
}

case "$what" in
  native) build_native ;;
  sanitize) build_sanitize ;;
  wasm) build_wasm ;;
  page) build_page ;;
  all) build_native; build_page ;;  # build_page builds the wasm first
  *) echo "usage: scripts/build.sh native|sanitize|wasm|page|all" >&2; exit 2 ;;
esac
