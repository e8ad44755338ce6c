#!/usr/bin/env bash
# Formats the C++ sources with the project's .clang-format; with --check, changes nothing and
# fails listing the files that are not formatted (npm test runs it so).
set -euo pipefail
cd "$(dirname "$0")/.."
files=(core/include/ndcg/*.hpp core/src/*.cpp core/tools/*.cpp wasm/*.cpp tests/core/*.cpp tests/core/*.hpp
  tests/fuzz/*.cpp tests/fuzz/*.hpp)
if [ "${1:-}" = "--check" ]; then
  if ! clang-format --dry-run --Werror "${files[@]}" 2>/dev/null; then
    echo "format: these files are not clang-formatted (run npm run format):" >&2
    for f in "${files[@]}"; do
      clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "  $f" >&2
    done
    exit 1
  fi
else
  clang-format -i "${files[@]}"
fi
