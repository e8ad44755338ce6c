#!/usr/bin/env bash
# Makes sure the system packages and node_modules the project builds with are present.
# As root it installs what is missing; otherwise it prints the exact command and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v em++ >/dev/null 2>&1 || missing+=(emscripten)
[ -f /usr/lib/cmake/doctest/doctestConfig.cmake ] || missing+=(doctest-dev)
[ -f /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake ] || missing+=(nlohmann-json3-dev)
[ -f /usr/include/fast_float/fast_float.h ] || missing+=(libfast-float-dev)
[ -f /usr/include/zlib.h ] || missing+=(zlib1g-dev)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v c++ >/dev/null 2>&1 || missing+=(g++)
command -v clang-format >/dev/null 2>&1 || missing+=(clang-format)
# The sanitized build is Clang 14's (emscripten depends on clang-14), with its sanitizer runtimes.
resources="$(clang++-14 -print-resource-dir 2>/dev/null || true)"
[ -n "$resources" ] && [ -f "$resources/lib/linux/libclang_rt.asan-$(uname -m).a" ] ||
  missing+=(libclang-rt-14-dev)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: these system packages are missing: ${missing[*]}" >&2
    echo "setup: install them with:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
fi

# Also when the lock file changed after the last install (npm writes node_modules/.package-lock.json
# at each): a checkout that adds a dev dependency installs it.
if [ -f package-lock.json ] && { [ ! -d node_modules ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
