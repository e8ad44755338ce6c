// Sorting one query's documents by score, highest first, as trec_eval ranks them: a radix sort
// of the scores' bits, then each run of equal scores by the tie rule. Internal to the core
// (trec.cpp's Evaluator::rank_order); tests/core/score_sort_test.cpp holds it to std::sort with
// the same comparison.
//
// A comparison sort of 1,000 documents made about 10,000 comparisons, each loading two scores
// through their indices: for a run not already in rank order it was 40 % of the native
// program's time, and as much in wasm. Eight passes over 1,000 keys (fewer: a byte that every
// key shares is skipped) cost a fraction of that.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ndcg/trec.hpp"

namespace ndcg::detail {

// A score as an unsigned key in the opposite order: a higher score, a smaller key. -0 is read
// as +0, which it equals; scores are never NaN (the readers refuse them).
inline std::uint64_t descending_key(double score) {
  const double zero_as_plus = score + 0.0;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &zero_as_plus, sizeof bits);
  const std::uint64_t ascending = (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
  return ~ascending;
}

// ScoreKey (a key and a document's index) is declared with the Evaluator that keeps them
// (ndcg/trec.hpp).

// `order` (indices of documents) ranked by `score_of(index)`, highest first, equal scores by
// `tie_before(a, b)`, and documents equal by both (a docno retrieved twice with one score) by
// their index: one order, the one std::sort gives with that comparison. `keys` and `spare` are
// scratch space, kept by the caller from query to query.
template <class ScoreOf, class TieBefore>
void sort_by_score(std::vector<std::uint32_t>& order, ScoreOf score_of, TieBefore tie_before,
                   std::vector<ScoreKey>& keys, std::vector<ScoreKey>& spare) {
  const std::size_t n = order.size();
  const auto tied_before = [&](std::uint32_t a, std::uint32_t b) {
    if (tie_before(a, b)) return true;
    return !tie_before(b, a) && a < b;
  };
  // Keys in order: a lower key first (a higher score), equal keys by the tie rule.
  const auto before = [&](const ScoreKey& a, const ScoreKey& b) {
    return a.key != b.key ? a.key < b.key : tied_before(a.index, b.index);
  };
  keys.resize(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = ScoreKey{descending_key(score_of(order[i])), order[i]};
  constexpr std::size_t kFew = 64;  // below this, the passes cost more than they save
  if (n < kFew) {
    std::sort(keys.begin(), keys.end(), before);
  } else {
    spare.resize(n);
    std::array<std::array<std::uint32_t, 256>, 8> counts{};
    for (const ScoreKey& k : keys) {
      for (unsigned d = 0; d < 8; ++d) ++counts[d][(k.key >> (8 * d)) & 0xff];
    }
    // Least significant byte first; each pass keeps the order of the one before among equal
    // bytes, so that the last leaves the keys in order.
    for (unsigned d = 0; d < 8; ++d) {
      auto& count = counts[d];
      if (count[(keys[0].key >> (8 * d)) & 0xff] == n) continue;  // every key has this byte
      std::uint32_t at = 0;
      for (std::uint32_t& c : count) {
        const std::uint32_t here = c;
        c = at;
        at += here;
      }
      for (const ScoreKey& k : keys) spare[count[(k.key >> (8 * d)) & 0xff]++] = k;
      keys.swap(spare);
    }
    // Equal scores, by the tie rule.
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && keys[j].key == keys[i].key) ++j;
      if (j - i > 1) {
        std::sort(keys.begin() + static_cast<std::ptrdiff_t>(i),
                  keys.begin() + static_cast<std::ptrdiff_t>(j), before);
      }
      i = j;
    }
  }
  for (std::size_t i = 0; i < n; ++i) order[i] = keys[i].index;
}

}  // namespace ndcg::detail
