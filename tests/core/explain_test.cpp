#include "ndcg/explain.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace ndcg;

TEST_CASE("a hand-worked list: grades 2, 0, 1 with linear gain and log2(rank + 1)") {
  Options o;
  o.ideal = IdealFrom::ranking;
  const Explanation r = explain("a 2\nb 0\nc 1\n", "", o);
  REQUIRE(r.ok);
  REQUIRE(r.rows.size() == 3);
  // DCG[3] = 2/log2(2) + 0/log2(3) + 1/log2(4) = 2 + 0 + 0.5 = 2.5
  CHECK(r.rows[2].dcg == doctest::Approx(2.5));
  // ideal a, c, b: IDCG[3] = 2/1 + 1/log2(3) + 0 = 2.6309
  CHECK(r.rows[1].ideal_doc == "c");
  CHECK(r.rows[2].idcg == doctest::Approx(2.0 + 1.0 / std::log2(3.0)));
  CHECK(r.summary.ndcg_at_k == doctest::Approx(2.5 / (2.0 + 1.0 / std::log2(3.0))));
  CHECK(r.summary.judged_relevant == 2);
}

TEST_CASE("the ideal is cut at k for NDCG@k and whole for trec_eval's ndcg") {
  Options o;
  o.k = 1;
  const char* judgments = "a 1\nb 3\n";
  const Explanation cut = explain("a\nb\n", judgments, o);
  REQUIRE(cut.ok);
  // DCG@1 = 1, IDCG@1 = 3
  CHECK(cut.summary.ndcg_at_k == doctest::Approx(1.0 / 3.0));
  o.ideal_depth = IdealDepth::whole;
  const Explanation whole = explain("a\nb\n", judgments, o);
  // IDCG = 3 + 1/log2(3) = 3.6309, DCG@1 = 1
  CHECK(whole.summary.ndcg_at_k == doctest::Approx(1.0 / (3.0 + 1.0 / std::log2(3.0))));
}

TEST_CASE("ties in the ideal ranking keep the order of the judgments") {
  const Explanation r = explain("x\n", "d9 1\nd3 3\nd5 3\n", Options{});
  REQUIRE(r.ok);
  REQUIRE(r.ideal.size() == 3);
  CHECK(r.ideal[0].doc == "d3");
  CHECK(r.ideal[1].doc == "d5");
  CHECK(r.ideal[2].doc == "d9");
}

TEST_CASE("invalid options are reported together with the input's errors") {
  const Explanation r = explain("d1 x\n", "", std::vector<OptionValue>{{"base", "0.5"}});
  CHECK_FALSE(r.ok);
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].source == Source::options);
  CHECK(r.errors[1].source == Source::ranking);
  CHECK(r.rows.empty());
}

TEST_CASE("a failed explanation carries no partial table") {
  Options o;
  o.gain = GainKind::exponential;
  const Explanation r = explain("a 1\nb 5000\n", "", o);
  CHECK_FALSE(r.ok);
  CHECK(r.rows.empty());
  CHECK(r.ideal.empty());
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].line == 2);
}

TEST_CASE("a judged grade with no gain is reported once, at the judgment") {
  Options o;
  o.gain = GainKind::custom;
  o.custom_gains = {{3, 7}};
  // d1 is ranked and judged: the ranking and the ideal ranking both meet grade 2.
  const Explanation r = explain("d1\nd2\n", "d1 2\nd2 3\n", o);
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].source == Source::judgments);
  CHECK(r.errors[0].line == 1);
  CHECK(r.errors[0].column == 4);
}

TEST_CASE(
    "notes about the whole input come before notes about one line, and are never the ones cut") {
  // 150 documents ranked twice: 150 notes of a repeat, more than a list keeps; and two ranked
  // documents without a judgment, said in one note.
  std::string ranking;
  std::string judgments;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 150; ++i) ranking += "d" + std::to_string(i) + "\n";
  }
  for (int i = 0; i < 150; ++i) judgments += "d" + std::to_string(i) + " 1\n";
  ranking += "x1\nx2\n";
  const Explanation r = explain(ranking, judgments, Options{});
  REQUIRE(r.ok);
  REQUIRE(r.warnings.size() == DiagnosticList::kDefaultLimit + 1);
  CHECK(r.warnings.front().message.find("2 ranked documents have no judgment") == 0);
  CHECK(r.warnings.front().line == 301);
  CHECK(r.warnings[1].message.find("d0 is ranked again here (first at rank 1)") == 0);
  CHECK(r.warnings[1].line == 151);
  // The 99 repeats listed, then the 51 left out, counted.
  CHECK(r.warnings[DiagnosticList::kDefaultLimit - 1].message.find("d98 is ranked again") == 0);
  CHECK(r.warnings.back().message.find("… and 51 more like these") == 0);
}

TEST_CASE("documents without an id are named by their rank, the first eight of them") {
  // A line of grades names no document: a warning about some of them names them "#rank".
  const Explanation r = explain("3 -1 2 -2 1 -3 -4 -5 -6 -7 -8 -9", "", Options{});
  REQUIRE(r.ok);
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[1].message ==
        "9 documents have a negative grade and count as not relevant (gain 0), as in "
        "trec_eval: #2, #4, #6, #7, #8, #9, #10, #11, …");
}

TEST_CASE("a repeated document is told by its whole id, in rankings short and long, by score too") {
  // Ids drawn from a pool half the ranking's size, so that most repeat; ids of 1 to 40 bytes
  // that often differ from another in one byte only. The reference keeps a std::map.
  std::uint64_t x = 20261126;
  const auto next = [&](std::uint64_t bound) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % bound;
  };
  for (const std::size_t n : {1u, 2u, 17u, 1000u, 20000u}) {
    std::vector<std::string> pool;
    for (std::size_t i = 0; i < std::max<std::size_t>(1, n / 2); ++i) {
      std::string id = "d" + std::to_string(i);
      id += std::string(next(40), 'x');
      if (next(3) == 0) id.back() = static_cast<char>('a' + next(26));
      pool.push_back(id);
    }
    for (const bool scored : {false, true}) {
      CAPTURE(n);
      CAPTURE(scored);
      std::string ranking = scored ? "doc score\n" : "";
      std::vector<std::string> ranked;
      for (std::size_t i = 0; i < n; ++i) {
        ranked.push_back(pool[next(pool.size())]);
        // Scores fall with the rank, so the order is the one given.
        ranking += ranked.back() + (scored ? " " + std::to_string(n - i) : "") + "\n";
      }
      std::string judgments;
      for (std::size_t i = 0; i < pool.size(); i += 3) judgments += pool[i] + " 2\n";
      const Explanation r = explain(ranking, judgments, Options{});
      REQUIRE(r.ok);
      REQUIRE(r.rows.size() == n);
      std::map<std::string, std::size_t> first;
      std::size_t repeats = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const bool repeated = !first.emplace(ranked[i], i + 1).second;
        CHECK(r.rows[i].repeated == repeated);
        if (repeated) CHECK(r.rows[i].gain == 0);
        repeats += repeated ? 1 : 0;
      }
      // The notes name the first rank of each repeat listed (all but the list's last line).
      std::size_t named = 0;
      for (const Diagnostic& d : r.warnings) {
        const auto at = d.message.find(" is ranked again here (first at rank ");
        if (at == std::string::npos) continue;
        const std::string id = d.message.substr(0, at);
        const std::size_t rank = std::stoul(d.message.substr(at + 37));
        CHECK(first.at(id) == rank);
        ++named;
      }
      CHECK(named == std::min<std::size_t>(repeats, DiagnosticList::kDefaultLimit - 1));
    }
  }
}

TEST_CASE("a document graded in the ranking but not judged joins the ideal with its first gain") {
  // Each of a, b, c is graded in the ranking and ranked twice; only d is judged.
  const Explanation r = explain("a 3\nb 1\na 3\nc 2\nb 1\nd\n", "d 1\n", Options{});
  REQUIRE(r.ok);
  std::map<std::string, double> ideal;
  for (const IdealEntry& e : r.ideal) ideal[*e.doc] = e.gain;
  CHECK(ideal == std::map<std::string, double>{{"a", 3}, {"b", 1}, {"c", 2}, {"d", 1}});
  CHECK(r.rows[2].repeated);
  CHECK(r.rows[4].repeated);
}
