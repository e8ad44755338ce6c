#include "score_sort.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

// Scores drawn from a few kinds, so that a query has equal scores, both zeros, infinities,
// negatives, neighbours one ulp apart and the extremes of a double's range.
double draw_score(std::mt19937_64& random, int kind) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  static const double special[] = {0.0,
                                   -0.0,
                                   inf,
                                   -inf,
                                   1.0,
                                   std::nextafter(1.0, 2.0),
                                   std::nextafter(1.0, 0.0),
                                   -1.0,
                                   std::numeric_limits<double>::min(),
                                   std::numeric_limits<double>::denorm_min(),
                                   -std::numeric_limits<double>::denorm_min(),
                                   std::numeric_limits<double>::max(),
                                   -std::numeric_limits<double>::max()};
  switch (kind) {
    case 0:  // few distinct values: many ties
      return static_cast<double>(random() % 7) - 3.0;
    case 1:  // 4 decimals, as most runs print them
      return static_cast<double>(random() % 400000) / 1e4 - 10.0;
    case 2:
      return special[random() % std::size(special)];
    default:  // any bits but NaN
      for (;;) {
        const std::uint64_t bits = random();
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        if (!std::isnan(d)) return d;
      }
  }
}

}  // namespace

TEST_CASE("sorting by score: the order std::sort gives, ties by docno and then by index") {
  std::mt19937_64 random(20261127);
  std::vector<ndcg::detail::ScoreKey> keys;
  std::vector<ndcg::detail::ScoreKey> spare;  // kept from query to query, as the evaluator does
  for (int round = 0; round < 3000; ++round) {
    const std::size_t n = round % 10 == 0 ? random() % 3000 : random() % 300;
    const int kind = round % 4;
    std::vector<double> scores(n);
    std::vector<std::string> docnos(n);
    for (std::size_t i = 0; i < n; ++i) {
      scores[i] = kind == 3 && random() % 2 ? draw_score(random, 2) : draw_score(random, kind);
      // Docnos from a small set too: equal scores with equal docnos (a repeat) happen.
      docnos[i] = std::to_string(random() % (n / 2 + 2));
    }
    const bool ascending_docnos = round % 2 == 0;  // trec_eval's rule for preferences
    const auto tie_before = [&](std::uint32_t a, std::uint32_t b) {
      return ascending_docnos ? docnos[a] < docnos[b] : docnos[a] > docnos[b];
    };
    std::vector<std::uint32_t> expected(n);
    std::iota(expected.begin(), expected.end(), 0u);
    std::sort(expected.begin(), expected.end(), [&](std::uint32_t a, std::uint32_t b) {
      if (scores[a] != scores[b]) return scores[a] > scores[b];
      if (tie_before(a, b)) return true;
      return !tie_before(b, a) && a < b;
    });
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    ndcg::detail::sort_by_score(
        order, [&](std::uint32_t i) { return scores[i]; }, tie_before, keys, spare);
    REQUIRE_MESSAGE(order == expected, "round " << round << ", " << n << " documents");
  }
}

TEST_CASE("a score's sort key orders as the score does, highest first, -0 as +0") {
  using ndcg::detail::descending_key;
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double ascending[] = {-inf, -1e300,
                              -1.0, -std::numeric_limits<double>::denorm_min(),
                              0.0,  std::numeric_limits<double>::denorm_min(),
                              1.0,  1e300,
                              inf};
  for (std::size_t i = 1; i < std::size(ascending); ++i) {
    CHECK(descending_key(ascending[i]) < descending_key(ascending[i - 1]));
  }
  CHECK(descending_key(-0.0) == descending_key(0.0));
}
