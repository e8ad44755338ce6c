// Is system B really better than system A? Paired per-query comparison of two or more runs
// evaluated against one qrels, for any real-valued measure of the catalogue whose "all" value is
// a mean: the mean difference with a bootstrap interval and an effect size, four tests (Student's
// paired t, Fisher's randomization, Wilcoxon's signed rank, the bootstrap), and a correction of
// the p-values for the many comparisons made (Holm, or Benjamini–Hochberg).
//
// It works on the per-query values that trec::Evaluation holds, so it knows no measure: B − A is
// computed query by query, over the queries both runs are scored on (see Missing).
//
// Conventions, each stated in the output:
//   * every test is two-sided; a difference is significant when its corrected p < alpha;
//   * differences within 1e-12 × max(1, the largest |value|) of each other are equal, and within
//     that of 0 are 0, so that 0.3 − 0.2 and 0.2 − 0.1 tie (Wilcoxon's ranks and zeros, the t
//     test's zero spread, the randomization test's "at least as extreme");
//   * the random tests draw from SplitMix64 (Steele, Lea and Flood 2014) started at the seed,
//     the same sequence for every pair and measure, so that a result is reproduced anywhere from
//     (seed, number of samples): a sign assignment takes one 64-bit draw per 64 queries (bit i of
//     draw k flips query 64k + i); a bootstrap resample takes one draw per two queries, the
//     index of the 2k-th query drawn from the low 32 bits h of draw k and the next from its high
//     32 bits, each floor(h · n / 2^32) (for odd n, the last draw's high half is not used).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ndcg/diagnostic.hpp"
#include "ndcg/options.hpp"
#include "ndcg/trec.hpp"

namespace ndcg::compare {

enum class Test : std::uint8_t {
  t,  // Student's paired t test: t = mean(d) / (sd(d) / √n), n − 1 degrees of freedom
  randomization,  // Fisher's: how often flipping the signs of the differences at random gives a
                  // mean at least as far from 0; every one of the 2^n assignments when
                  // 2^n <= permutations (exact), else `permutations` random ones
  wilcoxon,       // signed rank: zeros dropped, ties given their mean rank; the exact
                  // distribution of W+ given those ranks up to 50 queries, else the normal
                  // approximation with the tie correction and a continuity correction
  bootstrap,      // resampling the queries with replacement: the percentile interval of the
                  // mean difference, and p from the resampled means shifted to a mean of 0
};
enum class Correction : std::uint8_t { holm, bh, none };
// A query that some run has no results for: with `zero`, trec_eval's -c rule (every qrels query
// counts, evaluated as a ranking of one unjudged document, 0 for every measure compared); with
// `drop`, only the queries every run has results for are compared.
enum class Missing : std::uint8_t { zero, drop };
// Which pairs: every run against the first (the baseline), or every pair of runs.
enum class Pairs : std::uint8_t { baseline, all };

std::string_view test_name(Test test);  // "t", "randomization", "wilcoxon", "bootstrap"
std::string_view correction_name(Correction correction);  // "holm", "bh", "none"
std::string_view missing_name(Missing missing);           // "zero", "drop"
std::string_view pairs_name(Pairs pairs);                 // "baseline", "all"

struct Options {
  // The tests run, in this order; the first decides the markers of a comparison table.
  std::vector<Test> tests = {Test::randomization, Test::t, Test::wilcoxon, Test::bootstrap};
  std::uint64_t permutations = 10000;  // random sign assignments, and bootstrap resamples
  std::uint64_t seed = 42;
  double alpha = 0.05;  // significance level, and the bootstrap interval's 1 − alpha
  Correction correction = Correction::holm;
  Missing missing = Missing::zero;
  Pairs pairs = Pairs::baseline;
};

// Sets one option from its text, as the JS API and the command line give it:
//   tests         a comma-separated list of test names, the first marking the table
//                 ("randomization,t"); "all" for the four
//   permutations  a whole number from 1 to 10^7
//   seed          a whole number from 0 to 2^64 − 1
//   alpha         a number in (0, 1)
//   correction    "holm" | "bh" | "none"
//   missing       "zero" | "drop"
//   pairs         "baseline" | "all"
// Returns an error (source options) naming the option for an unknown name or a bad value;
// `options` is then unchanged.
std::optional<Diagnostic> set_option(Options& options, std::string_view name,
                                     std::string_view value);
DiagnosticList set_options(Options& options, const std::vector<OptionValue>& values);

// ---------------------------------------------------------------------------------------------
// The statistics alone, over differences d (B − A per query)

// SplitMix64: 64 bits a draw, the whole state one 64-bit number.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Moves on by `draws` draws at once: the state moves by a constant a draw.
  void skip(std::uint64_t draws) { state_ += draws * 0x9e3779b97f4a7c15ULL; }

 private:
  std::uint64_t state_;
};

// The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1, by its continued
// fraction (DLMF 8.17.22), to about 1e-14.
double incomplete_beta(double a, double b, double x);
// P(|T| >= |t|) for Student's t with df > 0 degrees of freedom: I_{df/(df+t²)}(df/2, 1/2).
double student_t_two_sided(double t, double df);
// P(|Z| >= |z|) for a standard normal Z: erfc(|z| / √2).
double normal_two_sided(double z);

struct TestResult {
  Test test = Test::t;
  // t; W+ (the sum of the ranks of the positive differences); the mean difference
  // (randomization, bootstrap)
  double statistic = 0;
  double p = 1;               // two-sided; NaN when the test cannot be made (t with one query)
  double p_adjusted = 1;      // after the correction across the family (same test, every pair and
                              // measure compared)
  bool significant = false;   // p_adjusted < alpha
  double df = 0;              // t: degrees of freedom
  double z = 0;               // wilcoxon, normal approximation: the z score
  bool exact = false;         // randomization, wilcoxon: every assignment counted
  std::uint64_t samples = 0;  // randomization: assignments counted; bootstrap: resamples
  std::string method;         // in words: "exact, 2^12 sign assignments", "normal approximation"
};

// The tolerance below which differences are equal, for values `values` (see the top).
double tolerance(std::span<const double> values);

TestResult paired_t(std::span<const double> d, double tol);
TestResult randomization(std::span<const double> d, double tol, std::uint64_t permutations,
                         std::uint64_t seed);
TestResult wilcoxon(std::span<const double> d, double tol);
// Also gives the percentile interval at level 1 − alpha (quantiles interpolated linearly between
// the sorted resampled means, as numpy's default).
TestResult bootstrap(std::span<const double> d, double tol, std::uint64_t resamples,
                     std::uint64_t seed, double alpha, double& low, double& high);

// Corrected p-values, in the order given; NaN entries are left out of the family and kept NaN.
std::vector<double> holm(std::span<const double> p);
std::vector<double> benjamini_hochberg(std::span<const double> p);

// ---------------------------------------------------------------------------------------------
// Runs compared

struct PairComparison {
  std::size_t a = 0;        // the run compared against (index into Comparison::systems)
  std::size_t b = 0;        // the run compared
  std::size_t measure = 0;  // index into Comparison::measures
  std::size_t queries = 0;
  double mean_a = 0;
  double mean_b = 0;
  double difference = 0;  // mean of b − a
  double stdev = 0;       // sample standard deviation (n − 1) of b − a
  // Cohen's d for paired samples (d_z): difference / stdev; 0 when both are 0, NaN when only
  // the spread is
  double effect_size = 0;
  // The bootstrap's percentile interval of the difference at 1 − alpha (NaN without bootstrap)
  double low = 0;
  double high = 0;
  std::size_t wins = 0;    // queries where b scores more than a
  std::size_t losses = 0;  // less
  std::size_t ties = 0;
  std::vector<TestResult> tests;  // in Options::tests' order
};

struct Comparison {
  bool ok = false;
  Options options;
  std::vector<std::string> systems;   // as named by the caller; the first is the baseline
  std::vector<std::string> measures;  // the columns compared ("ndcg_cut_10", "map"), in the
                                      // order their measures were asked for
  std::vector<std::string> queries;   // the queries compared, in trec_eval's order
  // values[(s * measures.size() + m) * queries.size() + q]: system s, measure m, query q
  std::vector<double> values;
  std::vector<double> means;          // means[s * measures.size() + m]
  std::vector<PairComparison> pairs;  // by measure, then by pair
  std::size_t family = 0;             // comparisons each test's correction is over
  std::vector<Diagnostic> errors;
  std::vector<Diagnostic> warnings;  // what was left out, and why

  double value(std::size_t s, std::size_t m, std::size_t q) const {
    return values[(s * measures.size() + m) * queries.size() + q];
  }
  double mean(std::size_t s, std::size_t m) const { return means[s * measures.size() + m]; }
};

// Sets up a comparison's evaluation and options: the compare options first, then the measures
// and evaluation options as trec::configure_evaluation reads them (no measures: map, P.10 and
// ndcg_cut.10), with average_complete (-c) when missing is zero. Returns the errors of both.
DiagnosticList configure(trec::EvalOptions& evaluation, Options& options,
                         const std::vector<std::string>& measures,
                         const std::vector<OptionValue>& evaluation_values,
                         const std::vector<OptionValue>& compare_values);

// A run's evaluation as bytes, to be compared where it was not made: another worker or
// process evaluates the run with the same measures and options, packs it, and the comparison
// unpacks it beside its own. What compare() and its reports read travels (whether it is ok, the
// run's tag, the columns, each query's id and values, the errors and warnings; no texts or
// explanations), in a little-endian
// layout that starts with "ndcg-cmp1". unpack() checks everything it reads: bytes cut short,
// from another version or not from pack() give nullopt and an error in `errors` (source
// run), never a crash.
std::string pack(const trec::Evaluation& evaluation);
std::optional<trec::Evaluation> unpack(std::string_view bytes, DiagnosticList& errors);

// Compares the evaluations of runs named `systems` (each made with the same measures and
// options; with Missing::zero, with average_complete set). Columns whose "all" value is not a
// mean (counts, num_q, the run's tag, relstring, geometric means) are left out with a warning;
// none left, or fewer than two runs, or no query scored by every run is an error.
Comparison compare(const std::vector<std::string>& systems,
                   const std::vector<const trec::Evaluation*>& evaluations, const Options& options);

}  // namespace ndcg::compare
