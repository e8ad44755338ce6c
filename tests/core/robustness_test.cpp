// Whatever is pasted, explain() returns: ok with a table, or not ok with located errors.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "ndcg/explain.hpp"

using namespace ndcg;

namespace {

void check_well_formed(const Explanation& r) {
  if (r.ok) {
    CHECK(r.errors.empty());
    for (const StepRow& row : r.rows) {
      REQUIRE(std::isfinite(row.dcg));
      REQUIRE(std::isfinite(row.idcg));
      REQUIRE(std::isfinite(row.ndcg));
    }
    CHECK(std::isfinite(r.summary.ndcg_at_k));
  } else {
    CHECK(r.rows.empty());
    REQUIRE_FALSE(r.errors.empty());
    CHECK(r.errors.size() <= DiagnosticList::kDefaultLimit + 1);
    for (const Diagnostic& d : r.errors) CHECK_FALSE(d.message.empty());
  }
  CHECK(r.warnings.size() <= 2 * DiagnosticList::kDefaultLimit + 20);
}

}  // namespace

TEST_CASE("random bytes in either box never crash and stay bounded") {
  std::mt19937 rng(20261122);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(0, 4000);
  Options exponential;
  exponential.gain = GainKind::exponential;
  for (int round = 0; round < 300; ++round) {
    std::string a(static_cast<std::size_t>(length(rng)), '\0');
    std::string b(static_cast<std::size_t>(length(rng)), '\0');
    for (char& c : a) c = static_cast<char>(byte(rng));
    for (char& c : b) c = static_cast<char>(byte(rng));
    check_well_formed(explain(a, b, Options{}));
    check_well_formed(explain(b, a, exponential));
  }
}

TEST_CASE("text made of the parsers' own punctuation never crashes") {
  const std::string alphabet = "d_{}[](),|\t \n\r$:=#r0123456789.-e+₁x";
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  for (int round = 0; round < 2000; ++round) {
    std::string a;
    std::string b;
    for (int i = 0; i < 60; ++i) a.push_back(alphabet[pick(rng)]);
    for (int i = 0; i < 60; ++i) b.push_back(alphabet[pick(rng)]);
    check_well_formed(explain(a, b, Options{}));
  }
}

TEST_CASE("awkward numbers give located errors or sensible results") {
  for (const char* grade : {"NaN", "nan", "-inf", "inf", "Infinity", "1e308", "1e309", "-1e308",
                            "0x1p3", "1e-400", "99999999999999999999999", "-0"}) {
    CAPTURE(grade);
    Options o;
    const Explanation r = explain(std::string("d1 ") + grade + "\nd2 1\n", "", o);
    check_well_formed(r);
    o.gain = GainKind::exponential;
    check_well_formed(explain(std::string("d1 ") + grade + "\nd2 1\n", "", o));
  }
  SUBCASE("huge linear grades that overflow when added up are an error") {
    const Explanation r = explain("a 1e308\nb 1e308\n", "", Options{});
    CHECK_FALSE(r.ok);
  }
}

TEST_CASE("a million lines are explained") {
#ifdef NDCG_SANITIZED
  // Sized for time in the plain build; under the sanitizers, which check memory, a tenth of it
  // takes the same paths.
  constexpr int kLines = 100'000;
#else
  constexpr int kLines = 1'000'000;
#endif
  std::string ranking;
  std::string judgments;
  ranking.reserve(12 * static_cast<std::size_t>(kLines));
  for (int i = 0; i < kLines; ++i) {
    ranking += "doc" + std::to_string(i) + "\n";
    if (i % 10 == 0) judgments += "doc" + std::to_string(i) + " " + std::to_string(i % 4) + "\n";
  }
  const Explanation r = explain(ranking, judgments, Options{});
  REQUIRE(r.ok);
  CHECK(r.rows.size() == static_cast<std::size_t>(kLines));
  check_well_formed(r);
  SUBCASE("and a million bad lines give a bounded list of errors") {
    std::string bad;
    for (int i = 0; i < kLines; ++i) bad += "d x\n";
    const Explanation e = explain(bad, "", Options{});
    REQUIRE_FALSE(e.ok);
    REQUIRE(e.errors.size() == DiagnosticList::kDefaultLimit + 1);
    const std::string more =
        std::to_string(kLines - static_cast<int>(DiagnosticList::kDefaultLimit)) + " more";
    CHECK(e.errors.back().message.find(more) != std::string::npos);
  }
}
