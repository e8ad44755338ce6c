#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan + UBSan) and runs each for NDCG_FUZZ_SECONDS
# (default 60), two at a time. Seeds come from the shared test cases; what the fuzzers learn
# stays in build/fuzz/corpus, and any finding is written to build/fuzz/findings and fails the
# run: make it a case of tests/bad-input. The corpus only grows; NDCG_FUZZ_MERGE=1 first cuts each
# target's down to the inputs that reach something no other does (libFuzzer's -merge=1), which is
# worth doing when the summary says that loading the corpus took much of the time.
# Usage: scripts/fuzz.sh [TARGET...]   (targets: ranking judgments options qrels run trec explain
# working packed)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${NDCG_FUZZ_SECONDS:-60}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ranking judgments options qrels run trec explain working packed)

if ! command -v clang++-14 >/dev/null 2>&1 || [ ! -f /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ]; then
  echo "fuzz: needs clang-14 and its libFuzzer runtime: apt-get install -y clang-14 libclang-rt-14-dev" >&2
  exit 1
fi
CC=clang-14 CXX=clang++-14 cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNDCG_FUZZ=ON -DNDCG_BUILD_TESTS=OFF >/dev/null
cmake --build build/fuzz -j "${NDCG_JOBS:-2}" >/dev/null
rm -rf build/fuzz/seeds
node tests/fuzz/seeds.mjs build/fuzz/seeds >/dev/null
mkdir -p build/fuzz/findings build/fuzz/logs

# The same limits for fuzzing and for merging (an input that takes 10 s is a finding either way).
limits=(-timeout=10 -rss_limit_mb=2560 -max_len=65536)

run_one() {
  local target="$1"
  local corpus="build/fuzz/corpus/$target"
  mkdir -p "$corpus"
  if [ "${NDCG_FUZZ_MERGE:-0}" = 1 ] && [ -n "$(ls -A "$corpus")" ]; then
    # Into a new directory, which then takes the old one's place: a merge that stops half-way
    # leaves the corpus as it was.
    rm -rf "$corpus.merging"
    mkdir "$corpus.merging"
    "build/fuzz/tests/fuzz/fuzz_$target" -merge=1 "${limits[@]}" \
      -artifact_prefix="build/fuzz/findings/$target-" "$corpus.merging" "$corpus" \
      >"build/fuzz/logs/$target.merge.log" 2>&1 ||
      { cp "build/fuzz/logs/$target.merge.log" "build/fuzz/logs/$target.log"; return 1; }
    echo "fuzz: $target: corpus merged, $(ls "$corpus" | wc -l) inputs to $(ls "$corpus.merging" | wc -l)"
    rm -rf "$corpus"
    mv "$corpus.merging" "$corpus"
  fi
  # -timeout: an input that takes 10 s is a finding (parsing must stay linear).
  "build/fuzz/tests/fuzz/fuzz_$target" -max_total_time="$seconds" "${limits[@]}" \
    -print_final_stats=1 -artifact_prefix="build/fuzz/findings/$target-" \
    "$corpus" "build/fuzz/seeds/$target" >"build/fuzz/logs/$target.log" 2>&1
}

status=0
pids=()
names=()
for target in "${targets[@]}"; do
  run_one "$target" &
  pids+=($!)
  names+=("$target")
  if [ ${#pids[@]} -ge 2 ]; then
    wait "${pids[0]}" || { echo "fuzz: ${names[0]}: FINDING, see build/fuzz/logs/${names[0]}.log"; status=1; }
    pids=("${pids[@]:1}")
    names=("${names[@]:1}")
  fi
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "fuzz: ${names[$i]}: FINDING, see build/fuzz/logs/${names[$i]}.log"; status=1; }
done
for target in "${targets[@]}"; do
  log="build/fuzz/logs/$target.log"
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -oE '(#[0-9]+\s+)?DONE\s+cov: [0-9]+ ft: [0-9]+' "$log" | grep -oE 'cov: [0-9]+ ft: [0-9]+' | tail -1)
  printf 'fuzz: %-10s %s s, %s executions, %s\n' "$target" "$seconds" "$runs" "${cov:-see $log}"
  # libFuzzer runs every input of the corpus and the seeds before it mutates any ("INITED", with
  # the executions so far and their rate): when that took half the time, little was left to fuzz.
  inited=$(grep -oE '#[0-9]+\s+INITED .*exec/s: [0-9]+' "$log" | head -1 || true)
  if [ -n "$inited" ]; then
    loaded=$(echo "$inited" | awk '{ n = substr($1, 2); r = $NF; print (r > 0 ? int(n / r) : 0) }')
    if [ "$loaded" -ge $((seconds / 2)) ]; then
      if [ "${NDCG_FUZZ_MERGE:-0}" = 1 ]; then
        hint="the corpus is merged: give it more time (NDCG_FUZZ_SECONDS)"
      else
        hint="NDCG_FUZZ_MERGE=1 cuts the corpus down first, NDCG_FUZZ_SECONDS gives more time"
      fi
      echo "fuzz: $target: loading the corpus and seeds took about $loaded s of the $seconds; $hint"
    fi
  fi
done
exit $status
