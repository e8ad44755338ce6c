#!/usr/bin/env bash
# Formats the C++ sources with the project's .clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."
clang-format -i core/include/ndcg/*.hpp core/src/*.cpp wasm/*.cpp tests/core/*.cpp tests/core/*.hpp
