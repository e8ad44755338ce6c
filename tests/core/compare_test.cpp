// The comparison of runs (compare.hpp): the distributions against closed forms and published
// values, each test on cases small enough to count by hand, the corrections against their
// definitions, and whole comparisons of trec_eval's test runs. tests/wasm/compare.test.mjs checks
// the same data sets against an independent JavaScript computation.
#include "ndcg/compare.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "ndcg/trec.hpp"

namespace {

namespace cmp = ndcg::compare;
using ndcg::Diagnostic;
namespace trec = ndcg::trec;

std::string read(const std::string& path) {
  std::ifstream in(std::string(NDCG_TREC_DIR) + "/" + path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

trec::Evaluation evaluate(const std::string& qrels, const std::string& run, bool complete) {
  trec::EvalOptions options;
  REQUIRE(trec::configure_evaluation(options, {"map", "P.5,10", "ndcg_cut.10", "num_ret"},
                                     {{"averageComplete", complete ? "true" : "false"}})
              .empty());
  trec::Evaluation e = trec::evaluate(read(qrels), read(run), options);
  REQUIRE(e.ok);
  return e;
}

const std::string kQrels = "trec_eval-10.0/qrels.test";
const std::string kRun = "trec_eval-10.0/results.test";
const std::string kTrunc = "trec_eval-10.0/results.trunc";

}  // namespace

TEST_CASE("compare: Student's t against closed forms and tables") {
  for (double t : {0.0, 0.3, 1.0, 2.5, 12.0}) {
    CAPTURE(t);
    // One degree of freedom is Cauchy's distribution; two have a closed form too.
    CHECK(cmp::student_t_two_sided(t, 1) ==
          doctest::Approx(1 - 2 / std::numbers::pi * std::atan(t)).epsilon(1e-12));
    CHECK(cmp::student_t_two_sided(t, 2) ==
          doctest::Approx(1 - t / std::sqrt(2 + t * t)).epsilon(1e-12));
    CHECK(cmp::student_t_two_sided(-t, 2) ==
          doctest::Approx(cmp::student_t_two_sided(t, 2)).epsilon(1e-15));
  }
  // Two-sided 5% critical values printed in every table: t(0.975; df).
  CHECK(cmp::student_t_two_sided(12.706, 1) == doctest::Approx(0.05).epsilon(1e-3));
  CHECK(cmp::student_t_two_sided(2.262, 9) == doctest::Approx(0.05).epsilon(1e-3));
  CHECK(cmp::student_t_two_sided(2.042, 30) == doctest::Approx(0.05).epsilon(1e-3));
  CHECK(cmp::student_t_two_sided(1.960, 1e7) == doctest::Approx(0.05).epsilon(1e-3));
  CHECK(cmp::student_t_two_sided(INFINITY, 5) == 0);
  CHECK(cmp::normal_two_sided(1.959963984540054) == doctest::Approx(0.05).epsilon(1e-12));
  for (double x : {0.1, 0.5, 0.9}) {
    CHECK(cmp::incomplete_beta(1, 1, x) == doctest::Approx(x).epsilon(1e-13));
    CHECK(cmp::incomplete_beta(3, 1, x) == doctest::Approx(x * x * x).epsilon(1e-13));
    CHECK(cmp::incomplete_beta(1, 4, x) == doctest::Approx(1 - std::pow(1 - x, 4)).epsilon(1e-13));
  }
}

TEST_CASE("compare: the paired t test on R's sleep data gives R's documented t, df and p") {
  // Cushny and Peebles' sleep data (R's `sleep`): extra hours of sleep with two drugs, ten
  // patients. R's example t.test(extra ~ group, data = sleep, paired = TRUE) prints
  // t = -4.0621, df = 9, p-value = 0.002833.
  const std::vector<double> one = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
  const std::vector<double> two = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
  std::vector<double> d;
  for (std::size_t i = 0; i < one.size(); ++i) d.push_back(one[i] - two[i]);
  const cmp::TestResult r = cmp::paired_t(d, cmp::tolerance(d));
  CHECK(r.statistic == doctest::Approx(-4.0621).epsilon(1e-4));
  CHECK(r.df == 9);
  CHECK(r.p == doctest::Approx(0.002833).epsilon(1e-3));
}

TEST_CASE("compare: tests counted by hand") {
  const std::vector<double> d = {1, 2, 3};
  // Randomization, exact: ±1 ±2 ±3 has |sum| 6, 4, 2, 0, 0, 2, 4, 6; two reach 6.
  cmp::TestResult r = cmp::randomization(d, cmp::tolerance(d), 10000, 1);
  CHECK(r.exact);
  CHECK(r.samples == 8);
  CHECK(r.p == doctest::Approx(0.25));
  CHECK(r.statistic == doctest::Approx(2));
  // Wilcoxon: W+ = 6, the largest of the 8 equally likely values; P(W+ >= 6) = 1/8, two-sided 1/4.
  r = cmp::wilcoxon(d, cmp::tolerance(d));
  CHECK(r.exact);
  CHECK(r.statistic == 6);
  CHECK(r.p == doctest::Approx(0.25));
  // Ties share their mean rank, and zeros are dropped: |d| = 1, 1, 2 rank 1.5, 1.5, 3.
  const std::vector<double> tied = {0.1, -0.1, 0.2, 0.0};
  r = cmp::wilcoxon(tied, cmp::tolerance(tied));
  CHECK(r.statistic == doctest::Approx(4.5));
  // W+ over the 8 assignments of ranks 1.5, 1.5, 3: 0, 1.5, 1.5, 3, 3, 4.5, 4.5, 6; P(>= 4.5) =
  // 3/8.
  CHECK(r.p == doctest::Approx(0.75));
  // 0.3 − 0.2 and 0.1 are the same difference.
  const std::vector<double> rounded = {0.3 - 0.2, 0.1, 0.3};
  r = cmp::wilcoxon(rounded, cmp::tolerance(rounded));
  CHECK(r.statistic == doctest::Approx(6));
  CHECK(r.method.find("tied") != std::string::npos);
  // No difference at all: nothing to reject.
  const std::vector<double> zeros(20, 0.0);
  double low = 0;
  double high = 0;
  for (const cmp::TestResult& z :
       {cmp::paired_t(zeros, 1e-12), cmp::randomization(zeros, 1e-12, 1000, 7),
        cmp::wilcoxon(zeros, 1e-12), cmp::bootstrap(zeros, 1e-12, 1000, 7, 0.05, low, high)}) {
    CAPTURE(cmp::test_name(z.test));
    CHECK(z.p == 1);
    CHECK(z.statistic == 0);
  }
  CHECK(low == 0);
  CHECK(high == 0);
}

TEST_CASE("compare: exact and sampled randomization agree within the sampling error") {
  // Twenty differences: all 2^20 assignments counted, or 200000 drawn.
  const std::vector<double> d = {0.12, -0.05, 0.3,  0.02, 0.08, -0.11, 0.25, 0.0,  0.07,  -0.02,
                                 0.15, 0.04,  -0.2, 0.01, 0.09, -0.03, 0.06, 0.11, -0.08, 0.05};
  const double tol = cmp::tolerance(d);
  const cmp::TestResult exact = cmp::randomization(d, tol, 1u << 20, 42);
  const cmp::TestResult sampled = cmp::randomization(d, tol, 200000, 42);
  REQUIRE(exact.exact);
  REQUIRE_FALSE(sampled.exact);
  const double error = std::sqrt(exact.p * (1 - exact.p) / 200000.0);
  CHECK(std::fabs(exact.p - sampled.p) < 4 * error + 1e-5);
  // The same seed, the same draws: the same p.
  CHECK(cmp::randomization(d, tol, 5000, 9).p == cmp::randomization(d, tol, 5000, 9).p);
  CHECK(cmp::randomization(d, tol, 5000, 9).p != cmp::randomization(d, tol, 5000, 10).p);
}

TEST_CASE("compare: the bootstrap draws each resample as one resample alone, over many blocks") {
  // 2,501 queries (odd, so a resample's last draw gives one index; more than two blocks of
  // indices), 1,003 resamples (not a multiple of four): resample s takes the draws from s times
  // a resample's draws on, two indices a draw, and adds them in their order.
  const std::size_t n = 2501;
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = std::sin(static_cast<double>(i) * 0.7) * 0.3 + 0.01;
  const double tol = cmp::tolerance(d);
  const std::uint64_t resamples = 1003;
  const std::uint64_t seed = 77;
  const double alpha = 0.1;
  double mean = 0;
  for (double x : d) mean += x;
  mean /= static_cast<double>(n);
  std::vector<double> means;
  std::uint64_t extreme = 0;
  for (std::uint64_t s = 0; s < resamples; ++s) {
    cmp::SplitMix64 random(seed);
    random.skip(s * ((n + 1) / 2));
    double sum = 0;
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (i % 2 == 0) bits = random.next();
      const std::uint64_t h = i % 2 == 0 ? bits & 0xffffffffu : bits >> 32;
      sum += d[static_cast<std::size_t>((h * n) >> 32)];
    }
    means.push_back(sum / static_cast<double>(n));
    if (std::fabs(means.back() - mean) >= std::fabs(mean) - tol) ++extreme;
  }
  std::sort(means.begin(), means.end());
  const auto quantile = [&](double q) {
    const double h = q * static_cast<double>(resamples - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    return means[lo] + (h - static_cast<double>(lo)) * (means[lo + 1] - means[lo]);
  };
  double low = 0;
  double high = 0;
  const cmp::TestResult r = cmp::bootstrap(d, tol, resamples, seed, alpha, low, high);
  CHECK(r.samples == resamples);
  CHECK(r.p == static_cast<double>(extreme + 1) / static_cast<double>(resamples + 1));
  CHECK(low == quantile(alpha / 2));
  CHECK(high == quantile(1 - alpha / 2));
}

TEST_CASE("compare: each pair and measure's bootstrap is its differences' bootstrap alone") {
  // compare() draws the resamples once for every pair and measure; each must come out as if it
  // had been drawn for that pair and measure only.
  const trec::Evaluation full = evaluate(kQrels, kRun, true);
  const trec::Evaluation trunc = evaluate(kQrels, kTrunc, true);
  // A third run: the first one's values, each changed by its own amount.
  trec::Evaluation mixed = full;
  for (std::size_t q = 0; q < mixed.per_query.size(); ++q) {
    for (double& v : mixed.per_query[q].values) v = v * 0.9 + 0.01 * static_cast<double>(q % 7);
  }
  for (const std::uint64_t resamples : {1ull, 7ull, 1003ull}) {
    cmp::Options options;
    options.pairs = cmp::Pairs::all;
    options.tests = {cmp::Test::t, cmp::Test::bootstrap};
    options.permutations = resamples;
    options.seed = 5;
    const cmp::Comparison c =
        cmp::compare({"full", "trunc", "mixed"}, {&full, &trunc, &mixed}, options);
    REQUIRE(c.ok);
    REQUIRE(c.pairs.size() == 3 * c.measures.size());
    for (const cmp::PairComparison& pc : c.pairs) {
      CAPTURE(resamples);
      CAPTURE(c.measures[pc.measure]);
      std::vector<double> d;
      std::vector<double> both;
      for (std::size_t q = 0; q < c.queries.size(); ++q) {
        d.push_back(c.value(pc.b, pc.measure, q) - c.value(pc.a, pc.measure, q));
        both.push_back(c.value(pc.a, pc.measure, q));
        both.push_back(c.value(pc.b, pc.measure, q));
      }
      double low = 0;
      double high = 0;
      const cmp::TestResult alone = cmp::bootstrap(d, cmp::tolerance(both), resamples, options.seed,
                                                   options.alpha, low, high);
      REQUIRE(pc.tests.size() == 2);
      CHECK(pc.tests[1].test == cmp::Test::bootstrap);
      CHECK(pc.tests[1].p == alone.p);
      CHECK(pc.tests[1].statistic == alone.statistic);
      CHECK(pc.low == low);
      CHECK(pc.high == high);
    }
  }
}

TEST_CASE("compare: Holm and Benjamini–Hochberg as defined") {
  const std::vector<double> p = {0.04, 0.01, 0.05, 0.03, 0.02};
  const std::vector<double> h = cmp::holm(p);
  // Sorted: 5 × 0.01, 4 × 0.02, 3 × 0.03, then never below the one before (0.09).
  CHECK(h[1] == doctest::Approx(0.05));
  CHECK(h[4] == doctest::Approx(0.08));
  CHECK(h[3] == doctest::Approx(0.09));
  CHECK(h[0] == doctest::Approx(0.09));
  CHECK(h[2] == doctest::Approx(0.09));
  // m / k × p(k) is 0.05 for every k here.
  for (double b : cmp::benjamini_hochberg(p)) CHECK(b == doctest::Approx(0.05));
  const std::vector<double> with_nan = {0.01, NAN, 0.04};
  const std::vector<double> hn = cmp::holm(with_nan);
  CHECK(hn[0] == doctest::Approx(0.02));
  CHECK(std::isnan(hn[1]));
  CHECK(hn[2] == doctest::Approx(0.04));
}

TEST_CASE("compare: a run against itself differs by 0 with p = 1 in every test") {
  const trec::Evaluation e = evaluate(kQrels, kRun, true);
  const cmp::Comparison c = cmp::compare({"a", "b"}, {&e, &e}, cmp::Options{});
  REQUIRE(c.ok);
  CHECK(c.measures == std::vector<std::string>{"map", "P_5", "P_10", "ndcg_cut_10"});
  CHECK(c.queries.size() == 3);
  REQUIRE(c.pairs.size() == 4);
  for (const cmp::PairComparison& pc : c.pairs) {
    CHECK(pc.difference == 0);
    CHECK(pc.ties == 3);
    REQUIRE(pc.tests.size() == 4);
    for (const cmp::TestResult& r : pc.tests) {
      CAPTURE(cmp::test_name(r.test));
      CHECK(r.p == 1);
      CHECK(r.p_adjusted == 1);
      CHECK_FALSE(r.significant);
    }
  }
  // num_ret is a count summed over queries: said, not compared.
  REQUIRE(c.warnings.size() == 1);
  CHECK(c.warnings[0].message.find("num_ret") != std::string::npos);
}

TEST_CASE("compare: a query missing from a run counts 0 (-c) or is left out") {
  // results.trunc has no results for query 302.
  const trec::Evaluation full_c = evaluate(kQrels, kRun, true);
  const trec::Evaluation trunc_c = evaluate(kQrels, kTrunc, true);
  cmp::Comparison c = cmp::compare({"full", "trunc"}, {&full_c, &trunc_c}, cmp::Options{});
  REQUIRE(c.ok);
  CHECK(c.queries == std::vector<std::string>{"301", "302", "303"});
  CHECK(c.value(1, 0, 1) == 0);  // trunc's map for 302
  // The means are trec_eval -c's.
  std::size_t map = 0;
  while (full_c.columns[map].name != "map") ++map;
  CHECK(c.mean(0, 0) == doctest::Approx(full_c.mean[map]).epsilon(1e-15));
  CHECK(c.mean(1, 0) == doctest::Approx(trunc_c.mean[map]).epsilon(1e-15));

  const trec::Evaluation full = evaluate(kQrels, kRun, false);
  const trec::Evaluation trunc = evaluate(kQrels, kTrunc, false);
  cmp::Options drop;
  drop.missing = cmp::Missing::drop;
  c = cmp::compare({"full", "trunc"}, {&full, &trunc}, drop);
  REQUIRE(c.ok);
  CHECK(c.queries == std::vector<std::string>{"301", "303"});
  bool said = false;
  for (const Diagnostic& w : c.warnings) said = said || w.message.find("1 query is left out") == 0;
  CHECK(said);
  // Three queries: 2^3 assignments are counted, never sampled.
  for (const cmp::PairComparison& pc : c.pairs) {
    CHECK(pc.tests[0].exact);
    CHECK(pc.queries == 2);
  }
}

TEST_CASE("compare: options are read from text, with an error naming a bad one") {
  cmp::Options o;
  CHECK_FALSE(cmp::set_option(o, "tests", "t,wilcoxon"));
  CHECK(o.tests == std::vector<cmp::Test>{cmp::Test::t, cmp::Test::wilcoxon});
  CHECK_FALSE(cmp::set_option(o, "permutations", "5000"));
  CHECK(o.permutations == 5000);
  CHECK_FALSE(cmp::set_option(o, "seed", "18446744073709551615"));
  CHECK(o.seed == UINT64_MAX);
  CHECK_FALSE(cmp::set_option(o, "correction", "bh"));
  CHECK(o.correction == cmp::Correction::bh);
  for (const auto& option :
       std::vector<std::pair<std::string, std::string>>{{"tests", "z"},
                                                        {"permutations", "0"},
                                                        {"permutations", "1e4"},
                                                        {"seed", "-1"},
                                                        {"alpha", "1"},
                                                        {"alpha", "x"},
                                                        {"correction", "bonferroni"},
                                                        {"missing", "skip"},
                                                        {"pairs", "some"},
                                                        {"colour", "red"}}) {
    const std::string& name = option.first;
    const std::string& value = option.second;
    CAPTURE(name);
    CAPTURE(value);
    const auto e = cmp::set_option(o, name, value);
    REQUIRE(e);
    CHECK(e->message.find(name == "colour" ? "colour" : value) != std::string::npos);
  }
  CHECK(o.permutations == 5000);  // unchanged by the bad values
}

TEST_CASE("compare: fewer than two runs, or nothing comparable, is an error") {
  const trec::Evaluation e = evaluate(kQrels, kRun, true);
  CHECK_FALSE(cmp::compare({"a"}, {&e}, cmp::Options{}).ok);
  trec::EvalOptions options;
  REQUIRE(trec::configure_evaluation(options, {"num_ret", "num_rel"}, {}).empty());
  const trec::Evaluation counts = trec::evaluate(read(kQrels), read(kRun), options);
  const cmp::Comparison c = cmp::compare({"a", "b"}, {&counts, &counts}, cmp::Options{});
  CHECK_FALSE(c.ok);
  REQUIRE_FALSE(c.errors.empty());
  CHECK(c.errors[0].message.find("nDCG@10") != std::string::npos);
}

TEST_CASE("compare: a run packed, carried and unpacked compares as the run itself") {
  const trec::Evaluation full = evaluate(kQrels, kRun, false);
  const trec::Evaluation trunc = evaluate(kQrels, kTrunc, false);
  cmp::Options options;
  options.missing = cmp::Missing::drop;
  const std::string bytes = cmp::pack(trunc);
  ndcg::DiagnosticList errors;
  const std::optional<trec::Evaluation> carried = cmp::unpack(bytes, errors);
  REQUIRE(carried);
  CHECK(errors.empty());
  CHECK(carried->per_query.size() == trunc.per_query.size());
  const cmp::Comparison here = cmp::compare({"full", "trunc"}, {&full, &trunc}, options);
  const cmp::Comparison there = cmp::compare({"full", "trunc"}, {&full, &*carried}, options);
  REQUIRE(here.ok);
  REQUIRE(there.ok);
  CHECK(there.queries == here.queries);
  CHECK(there.values == here.values);
  REQUIRE(there.pairs.size() == here.pairs.size());
  for (std::size_t i = 0; i < here.pairs.size(); ++i) {
    for (std::size_t t = 0; t < here.pairs[i].tests.size(); ++t) {
      CHECK(there.pairs[i].tests[t].p == here.pairs[i].tests[t].p);
      CHECK(there.pairs[i].tests[t].p_adjusted == here.pairs[i].tests[t].p_adjusted);
    }
  }
  CHECK(cmp::pack(*carried) == bytes);

  // Whatever the bytes, an error and no evaluation: every length cut short, every byte changed
  // in turn (where the change makes it unreadable), and bytes that are not a packed evaluation.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    ndcg::DiagnosticList cut;
    CHECK_FALSE(cmp::unpack(std::string_view(bytes).substr(0, n), cut));
    CHECK_FALSE(cut.empty());
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string changed = bytes;
    changed[i] = static_cast<char>(changed[i] ^ 0xff);
    ndcg::DiagnosticList ignored;
    const std::optional<trec::Evaluation> e = cmp::unpack(changed, ignored);
    CHECK((e.has_value() == ignored.empty()));
    if (i < 9) CHECK_FALSE(e);  // the magic "ndcg-cmp1"
  }
  ndcg::DiagnosticList wrong;
  CHECK_FALSE(cmp::unpack("301 Q0 doc 1 0.5 run\n", wrong));
  REQUIRE(wrong.finish().size() == 1);

  // An evaluation made with other measures is not compared with one made with these.
  trec::EvalOptions other;
  REQUIRE(
      trec::configure_evaluation(other, {"map", "P.5,10", "ndcg_cut.20", "num_ret"}, {}).empty());
  const trec::Evaluation twenty = trec::evaluate(read(kQrels), read(kTrunc), other);
  const cmp::Comparison mixed = cmp::compare({"full", "twenty"}, {&full, &twenty}, options);
  CHECK_FALSE(mixed.ok);
}
