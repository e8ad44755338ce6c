// Paired comparison of runs: the statistics (incomplete beta, the four tests, the corrections)
// and their application to the per-query values of several evaluations.
#include "ndcg/compare.hpp"

#include <fast_float.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>

#include "pack.hpp"

namespace ndcg::compare {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kWilcoxonExactUpTo = 50;
constexpr std::uint64_t kMaxPermutations = 10'000'000;

std::string quote(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::optional<std::uint64_t> read_whole(std::string_view text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

std::optional<double> read_real(std::string_view text) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = fast_float::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<Test> test_from(std::string_view name) {
  for (Test t : {Test::t, Test::randomization, Test::wilcoxon, Test::bootstrap}) {
    if (name == test_name(t)) return t;
  }
  if (name == "student" || name == "ttest" || name == "t-test") return Test::t;
  if (name == "permutation" || name == "fisher") return Test::randomization;
  return std::nullopt;
}

double mean_of(std::span<const double> d) {
  double sum = 0;
  for (double x : d) sum += x;
  return d.empty() ? 0 : sum / static_cast<double>(d.size());
}

double stdev_of(std::span<const double> d, double mean) {
  if (d.size() < 2) return 0;
  double ss = 0;
  for (double x : d) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / static_cast<double>(d.size() - 1));
}

// The indexes of the p-values that are not NaN, smallest p first (ties in their order).
std::vector<std::size_t> ascending(std::span<const double> p) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!std::isnan(p[i])) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  return order;
}

std::string dropped(std::size_t zeros) {
  if (zeros == 0) return {};
  return ", " + std::to_string(zeros) + " zero difference" + (zeros == 1 ? "" : "s") + " dropped";
}

std::string power_of_two(std::size_t n) {
  return "2^" + std::to_string(n);
}

}  // namespace

std::string_view test_name(Test test) {
  switch (test) {
    case Test::t:
      return "t";
    case Test::randomization:
      return "randomization";
    case Test::wilcoxon:
      return "wilcoxon";
    case Test::bootstrap:
      return "bootstrap";
  }
  return "t";
}

std::string_view correction_name(Correction correction) {
  switch (correction) {
    case Correction::holm:
      return "holm";
    case Correction::bh:
      return "bh";
    case Correction::none:
      return "none";
  }
  return "none";
}

std::string_view missing_name(Missing missing) {
  return missing == Missing::zero ? "zero" : "drop";
}

std::string_view pairs_name(Pairs pairs) {
  return pairs == Pairs::baseline ? "baseline" : "all";
}

std::optional<Diagnostic> set_option(Options& options, std::string_view name,
                                     std::string_view value) {
  const auto error = [&](std::string message) {
    return Diagnostic{Source::options, 0, 0, std::move(message)};
  };
  if (name == "tests" || name == "test") {
    std::vector<Test> tests;
    if (value == "all") {
      tests = Options{}.tests;
    } else {
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        const std::string_view one = value.substr(start, comma - start);
        const std::optional<Test> t = test_from(one);
        if (!t) {
          return error("test " + quote(one) +
                       " is not one of t, randomization, wilcoxon, bootstrap (or all)");
        }
        if (std::find(tests.begin(), tests.end(), *t) == tests.end()) tests.push_back(*t);
        start = comma + 1;
      }
    }
    options.tests = std::move(tests);
    return std::nullopt;
  }
  if (name == "permutations") {
    const auto v = read_whole(value);
    if (!v || *v < 1 || *v > kMaxPermutations) {
      return error("permutations " + quote(value) + " is not a whole number from 1 to 10000000");
    }
    options.permutations = *v;
    return std::nullopt;
  }
  if (name == "seed") {
    const auto v = read_whole(value);
    if (!v) return error("seed " + quote(value) + " is not a whole number from 0 to 2^64 - 1");
    options.seed = *v;
    return std::nullopt;
  }
  if (name == "alpha") {
    const auto v = read_real(value);
    if (!v || *v <= 0 || *v >= 1) {
      return error("alpha " + quote(value) + " is not a number between 0 and 1 (such as 0.05)");
    }
    options.alpha = *v;
    return std::nullopt;
  }
  if (name == "correction") {
    for (Correction c : {Correction::holm, Correction::bh, Correction::none}) {
      if (value == correction_name(c)) {
        options.correction = c;
        return std::nullopt;
      }
    }
    return error("correction " + quote(value) + " is not one of holm, bh, none");
  }
  if (name == "missing") {
    if (value == "zero" || value == "drop") {
      options.missing = value == "zero" ? Missing::zero : Missing::drop;
      return std::nullopt;
    }
    return error("missing " + quote(value) +
                 " is not zero (a query without results counts 0, as trec_eval -c) or drop "
                 "(only queries every run has results for)");
  }
  if (name == "pairs") {
    if (value == "baseline" || value == "all") {
      options.pairs = value == "baseline" ? Pairs::baseline : Pairs::all;
      return std::nullopt;
    }
    return error("pairs " + quote(value) +
                 " is not baseline (each run against the first) or all (every pair)");
  }
  return error("unknown comparison option " + quote(name) +
               "; the options are tests, permutations, seed, alpha, correction, missing, pairs");
}

DiagnosticList set_options(Options& options, const std::vector<OptionValue>& values) {
  DiagnosticList errors;
  for (const OptionValue& v : values) {
    if (auto e = set_option(options, v.name, v.value)) errors.add(std::move(*e));
  }
  return errors;
}

DiagnosticList configure(trec::EvalOptions& evaluation, Options& options,
                         const std::vector<std::string>& measures,
                         const std::vector<OptionValue>& evaluation_values,
                         const std::vector<OptionValue>& compare_values) {
  DiagnosticList errors = set_options(options, compare_values);
  std::vector<OptionValue> values = evaluation_values;
  if (options.missing == Missing::zero) values.push_back({"averageComplete", "true"});
  static const std::vector<std::string> kDefault = {"map", "P.10", "ndcg_cut.10"};
  errors.append(
      trec::configure_evaluation(evaluation, measures.empty() ? kDefault : measures, values));
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Distributions

double incomplete_beta(double a, double b, double x) {
  if (!(x > 0)) return 0;
  if (!(x < 1)) return 1;
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); else I_x(a, b) =
  // 1 − I_{1−x}(b, a).
  if (x > (a + 1) / (a + b + 2)) return 1 - incomplete_beta(b, a, 1 - x);
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x)) /
                       a;
  // Lentz's method for 1 / (1 + d1 / (1 + d2 / (1 + ...))), d_{2m+1} = −(a+m)(a+b+m)x /
  // ((a+2m)(a+2m+1)), d_{2m} = m(b−m)x / ((a+2m−1)(a+2m)).
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double f = 1;
  double c = 1;
  double d = 0;
  for (int i = 0; i <= 400; ++i) {
    const int m = i / 2;
    double numerator;
    if (i == 0) {
      numerator = 1;
    } else if (i % 2 == 0) {
      numerator = (m * (b - m) * x) / ((a + 2.0 * m - 1) * (a + 2.0 * m));
    } else {
      numerator = -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1));
    }
    d = 1 + numerator * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    d = 1 / d;
    c = 1 + numerator / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    const double cd = c * d;
    f *= cd;
    if (std::fabs(1 - cd) < kEpsilon) break;
  }
  return front * (f - 1);
}

double student_t_two_sided(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return kNaN;
  if (std::isinf(t)) return 0;
  return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double normal_two_sided(double z) {
  return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

// ---------------------------------------------------------------------------------------------
// Tests

double tolerance(std::span<const double> values) {
  double largest = 1;
  for (double v : values) {
    if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
  }
  return 1e-12 * largest;
}

TestResult paired_t(std::span<const double> d, double tol) {
  TestResult r;
  r.test = Test::t;
  const std::size_t n = d.size();
  if (n < 2) {
    r.p = r.p_adjusted = kNaN;
    r.method = "needs two queries or more";
    return r;
  }
  const double mean = mean_of(d);
  const double sd = stdev_of(d, mean);
  r.df = static_cast<double>(n - 1);
  if (sd <= tol) {
    // Every difference the same: no spread to weigh the mean against.
    if (std::fabs(mean) <= tol) {
      r.statistic = 0;
      r.p = 1;
      r.method = "every difference is 0";
    } else {
      r.statistic = mean > 0 ? std::numeric_limits<double>::infinity()
                             : -std::numeric_limits<double>::infinity();
      r.p = 0;
      r.method = "every difference is the same, not 0";
    }
    r.p_adjusted = r.p;
    return r;
  }
  r.statistic = mean / (sd / std::sqrt(static_cast<double>(n)));
  r.p = r.p_adjusted = student_t_two_sided(r.statistic, r.df);
  r.method = "Student's t, " + std::to_string(n - 1) + " degrees of freedom";
  return r;
}

namespace {

// The work of one sample, in a function of its own for each test: a wasm engine optimises a
// function once it has run for a while, and these run 10,000 times a pair of runs, where the
// test that calls them runs once and would stay unoptimised to its end.

// One random sign assignment's sum, from the tables of randomization().
NDCG_OUT_OF_LINE double signed_sum(const double* row, std::size_t words, SplitMix64& random) {
  double sum = 0;
  for (std::size_t w = 0; w < words; ++w) {
    const std::uint64_t bits = random.next();
    for (unsigned m = 0; m < 8; ++m, row += 256) sum += row[(bits >> (8 * m)) & 0xff];
  }
  return sum;
}

// The bootstrap draws its resamples four at a time, in blocks of queries: each resample's
// indices into the queries are drawn once (draw_block) and summed for every difference vector
// compared on those queries (add_block), so that the draws are shared by every pair and measure.
// A resample's sum: n indices, two from each 64-bit draw, each floor(h · n / 2^32) for 32 random
// bits h (a multiplication where a remainder would divide), the low half first, added in that
// order whatever the vectors. Resample j starts j resamples' draws after the first
// (SplitMix64::skip); a sum waits for its last addition, and four side by side do not wait for
// each other.
constexpr std::size_t kSideBySide = 4;
constexpr std::size_t kBlock = 1024;  // indices a resample draws at a time (even)

// The indices of the next `count` queries of each of the four resamples, into
// indices[j * kBlock + i]; `lanes` move on by the draws made.
void draw_block(SplitMix64 (&lanes)[kSideBySide], std::uint64_t n, std::size_t count,
                std::uint32_t* indices) {
  const auto index = [n](std::uint64_t half) {
    return static_cast<std::uint32_t>((half * n) >> 32);
  };
  for (std::size_t j = 0; j < kSideBySide; ++j) {
    std::uint32_t* out = indices + j * kBlock;
    std::size_t i = 0;
    for (; i + 1 < count; i += 2) {
      const std::uint64_t bits = lanes[j].next();
      out[i] = index(bits & 0xffffffffu);
      out[i + 1] = index(bits >> 32);
    }
    if (i < count) out[i] = index(lanes[j].next() & 0xffffffffu);
  }
}

// Adds d at a block's indices to the four resamples' sums of one vector.
void add_block(const double* d, const std::uint32_t* indices, std::size_t count, double* sums) {
  double sum[kSideBySide] = {sums[0], sums[1], sums[2], sums[3]};
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t j = 0; j < kSideBySide; ++j) sum[j] += d[indices[j * kBlock + i]];
  }
  for (std::size_t j = 0; j < kSideBySide; ++j) sums[j] = sum[j];
}

// What bootstrap() finds, for each of several difference vectors of one length n > 0, from the
// same resamples of the queries: each vector's resampled means are as bootstrap() alone draws and
// adds them, bit for bit.
struct BootstrapOf {
  std::span<const double> d;
  double tol = 0;
  TestResult result;
  double low = 0;
  double high = 0;
  std::uint64_t extreme = 0;  // resampled means as far from d's mean as 0 is, or farther
};

// The next four resamples' sums of every vector of `all` (of n > 0 queries), into
// sums[v * kSideBySide + j]; `random` moves on past them. A function called once for four
// resamples, for a wasm engine to optimise: it has no other way into a long loop.
NDCG_OUT_OF_LINE void resample_four(std::span<const BootstrapOf> all, SplitMix64& random,
                                    std::uint32_t* indices, double* sums) {
  const std::size_t n = all.front().d.size();
  const std::uint64_t draws = (n + 1) / 2;  // a resample's
  SplitMix64 lanes[kSideBySide] = {random, random, random, random};
  for (std::size_t j = 1; j < kSideBySide; ++j) lanes[j].skip(j * draws);
  std::fill(sums, sums + all.size() * kSideBySide, 0.0);
  for (std::size_t from = 0; from < n; from += kBlock) {
    const std::size_t count = std::min(kBlock, n - from);
    draw_block(lanes, n, count, indices);
    for (std::size_t v = 0; v < all.size(); ++v) {
      add_block(all[v].d.data(), indices, count, sums + v * kSideBySide);
    }
  }
  random.skip(kSideBySide * draws);
}

void bootstrap_all(std::span<BootstrapOf> all, std::uint64_t resamples, std::uint64_t seed,
                   double alpha) {
  if (all.empty()) return;
  const std::size_t n = all.front().d.size();
  const std::size_t k = all.size();
  std::vector<double> means(k * resamples);
  std::vector<std::uint32_t> indices(kSideBySide * kBlock);
  std::vector<double> sums(k * kSideBySide);
  for (BootstrapOf& b : all) b.result.statistic = mean_of(b.d);
  SplitMix64 random(seed);
  // Four at a time; of the last four, those past `resamples` are not kept.
  for (std::uint64_t s = 0; s < resamples; s += kSideBySide) {
    resample_four(all, random, indices.data(), sums.data());
    for (std::size_t v = 0; v < k; ++v) {
      BootstrapOf& b = all[v];
      const double centre = b.result.statistic;
      for (std::size_t j = 0; j < kSideBySide && s + j < resamples; ++j) {
        const double mean = sums[v * kSideBySide + j] / static_cast<double>(n);
        means[v * resamples + s + j] = mean;
        // Under the null the differences are shifted to a mean of 0, which shifts every
        // resampled mean by the same amount.
        if (std::fabs(mean - centre) >= std::fabs(centre) - b.tol) ++b.extreme;
      }
    }
  }
  for (std::size_t v = 0; v < k; ++v) {
    BootstrapOf& b = all[v];
    const auto first = means.begin() + static_cast<std::ptrdiff_t>(v * resamples);
    std::sort(first, first + static_cast<std::ptrdiff_t>(resamples));
    const auto quantile = [&](double q) {
      const double h = q * static_cast<double>(resamples - 1);
      const auto lo = static_cast<std::size_t>(std::floor(h));
      const std::size_t hi = std::min<std::size_t>(lo + 1, resamples - 1);
      return first[lo] + (h - static_cast<double>(lo)) * (first[hi] - first[lo]);
    };
    b.low = quantile(alpha / 2);
    b.high = quantile(1 - alpha / 2);
    b.result.test = Test::bootstrap;
    b.result.samples = resamples;
    b.result.p = b.result.p_adjusted =
        static_cast<double>(b.extreme + 1) / static_cast<double>(resamples + 1);
    b.result.method =
        std::to_string(resamples) + " resamples of the queries, seed " + std::to_string(seed);
  }
}

}  // namespace

TestResult randomization(std::span<const double> d, double tol, std::uint64_t permutations,
                         std::uint64_t seed) {
  TestResult r;
  r.test = Test::randomization;
  const std::size_t n = d.size();
  double observed = 0;
  double spread = 0;
  for (double x : d) {
    observed += x;
    spread += std::fabs(x);
  }
  r.statistic = n == 0 ? 0 : observed / static_cast<double>(n);
  // Sums of the same terms in another order differ by rounding: this much counts as equal.
  const double slack = tol + 1e-10 * spread;
  const double threshold = std::fabs(observed) - slack;
  if (n == 0) {
    r.p = r.p_adjusted = 1;
    r.exact = true;
    r.method = "no queries";
    return r;
  }
  if (n <= 62 && (std::uint64_t{1} << n) <= permutations) {
    // Exact: the 2^(n−1) assignments with the first query's sign kept (the others are their
    // mirror images, with the same |sum|), visited in Gray-code order: one term changes a step.
    const std::uint64_t count_all = std::uint64_t{1} << (n - 1);
    std::vector<double> twice(d.begin(), d.end());
    for (double& x : twice) x *= 2;
    double sum = observed;
    std::uint64_t extreme = std::fabs(sum) >= threshold ? 1 : 0;
    std::vector<char> flipped(n, 0);
    for (std::uint64_t k = 1; k < count_all; ++k) {
      const std::size_t j = 1 + static_cast<std::size_t>(std::countr_zero(k));  // never query 0
      sum += flipped[j] ? twice[j] : -twice[j];
      flipped[j] ^= 1;
      if (std::fabs(sum) >= threshold) ++extreme;
    }
    r.exact = true;
    r.samples = count_all * 2;
    r.p = r.p_adjusted = static_cast<double>(extreme) / static_cast<double>(count_all);
    r.method = "exact: every one of the " + power_of_two(n) + " sign assignments";
    return r;
  }
  // Each byte of a draw signs 8 queries: the signed sums of every block of 8 for each of the 256
  // bytes are tabulated once, so that an assignment costs n/8 lookups instead of n additions.
  // (The sums come out in another order than term by term; `slack` absorbs the rounding.)
  const std::size_t words = (n + 63) / 64;
  const std::size_t blocks = words * 8;
  std::vector<double> table(blocks * 256);
  for (std::size_t b = 0; b < blocks; ++b) {
    double* row = &table[b * 256];
    row[0] = 0;
    for (std::size_t j = 0; j < 8; ++j) {
      const std::size_t i = b * 8 + j;
      row[0] += i < n ? d[i] : 0;
    }
    // Flipping bit j subtracts twice query 8b + j from the sum with that bit clear.
    for (unsigned v = 1; v < 256; ++v) {
      const unsigned j = static_cast<unsigned>(std::countr_zero(v));
      const std::size_t i = b * 8 + j;
      row[v] = row[v & (v - 1)] - (i < n ? 2 * d[i] : 0);
    }
  }
  SplitMix64 random(seed);
  std::uint64_t extreme = 0;
  for (std::uint64_t s = 0; s < permutations; ++s) {
    if (std::fabs(signed_sum(table.data(), words, random)) >= threshold) ++extreme;
  }
  r.samples = permutations;
  // The observed assignment counts as one of the samples (Phipson and Smyth 2010): never 0.
  r.p = r.p_adjusted = static_cast<double>(extreme + 1) / static_cast<double>(permutations + 1);
  r.method =
      std::to_string(permutations) + " random sign assignments, seed " + std::to_string(seed);
  return r;
}

TestResult wilcoxon(std::span<const double> d, double tol) {
  TestResult r;
  r.test = Test::wilcoxon;
  // Zeros dropped (Wilcoxon's rule); the others ranked by |d|, ties sharing their mean rank.
  std::vector<double> nonzero;
  for (double x : d) {
    if (std::fabs(x) > tol) nonzero.push_back(x);
  }
  const std::size_t n = nonzero.size();
  if (n == 0) {
    r.p = r.p_adjusted = 1;
    r.exact = true;
    r.method = "every difference is 0";
    return r;
  }
  std::sort(nonzero.begin(), nonzero.end(),
            [](double a, double b) { return std::fabs(a) < std::fabs(b); });
  // Ranks doubled, so that a mean rank of a tie is a whole number.
  std::vector<std::uint64_t> twice_rank(n);
  double tie_term = 0;  // sum of t^3 − t over groups of t ties
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && std::fabs(nonzero[j]) - std::fabs(nonzero[j - 1]) <= tol) ++j;
    // ranks i+1 .. j share (i + 1 + j) / 2; doubled: i + 1 + j
    for (std::size_t k = i; k < j; ++k) twice_rank[k] = i + 1 + j;
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  std::uint64_t twice_w = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (nonzero[i] > 0) twice_w += twice_rank[i];
  }
  r.statistic = static_cast<double>(twice_w) / 2;
  const double nn = static_cast<double>(n);
  if (n <= kWilcoxonExactUpTo) {
    // The distribution of 2·W+ over the 2^n sign assignments, given these ranks.
    const std::uint64_t total = n * (n + 1);
    std::vector<double> ways(total + 1, 0);
    ways[0] = 1;
    std::uint64_t reach = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t r2 = twice_rank[i];
      for (std::uint64_t s = reach + 1; s-- > 0;) {
        if (ways[s] != 0) ways[s + r2] += ways[s];
      }
      reach += r2;
    }
    double below = 0;  // P(2W+ <= observed)
    double above = 0;  // P(2W+ >= observed)
    for (std::uint64_t s = 0; s <= total; ++s) {
      if (s <= twice_w) below += ways[s];
      if (s >= twice_w) above += ways[s];
    }
    const double all = std::ldexp(1.0, static_cast<int>(n));
    r.p = std::min(1.0, 2 * std::min(below, above) / all);
    r.exact = true;
    r.samples = 0;
    r.method = "exact distribution of W+ over the " + power_of_two(n) + " sign assignments" +
               (tie_term > 0 ? ", given the tied ranks" : "") + dropped(d.size() - n);
  } else {
    const double expected = nn * (nn + 1) / 4;
    const double variance = nn * (nn + 1) * (2 * nn + 1) / 24 - tie_term / 48;
    const double w = r.statistic;
    const double gap = w - expected;
    const double corrected = gap > 0 ? gap - 0.5 : (gap < 0 ? gap + 0.5 : 0);
    r.z = variance > 0 ? corrected / std::sqrt(variance) : 0;
    r.p = normal_two_sided(r.z);
    r.method = "normal approximation with tie and continuity corrections" + dropped(d.size() - n);
  }
  r.p_adjusted = r.p;
  return r;
}

TestResult bootstrap(std::span<const double> d, double tol, std::uint64_t resamples,
                     std::uint64_t seed, double alpha, double& low, double& high) {
  if (d.empty()) {
    TestResult r;
    r.test = Test::bootstrap;
    r.samples = resamples;
    low = high = 0;
    r.p = r.p_adjusted = 1;
    r.method = "no queries";
    return r;
  }
  BootstrapOf one{d, tol, {}, 0, 0, 0};
  bootstrap_all(std::span<BootstrapOf>(&one, 1), resamples, seed, alpha);
  low = one.low;
  high = one.high;
  return one.result;
}

std::vector<double> holm(std::span<const double> p) {
  const std::vector<std::size_t> order = ascending(p);
  std::vector<double> out(p.begin(), p.end());
  const std::size_t m = order.size();
  double running = 0;
  for (std::size_t k = 0; k < m; ++k) {
    running = std::max(running, std::min(1.0, static_cast<double>(m - k) * p[order[k]]));
    out[order[k]] = running;
  }
  return out;
}

std::vector<double> benjamini_hochberg(std::span<const double> p) {
  const std::vector<std::size_t> order = ascending(p);
  std::vector<double> out(p.begin(), p.end());
  const std::size_t m = order.size();
  double running = 1;
  for (std::size_t k = m; k-- > 0;) {
    running = std::min(
        running, std::min(1.0, static_cast<double>(m) / static_cast<double>(k + 1) * p[order[k]]));
    out[order[k]] = running;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Runs compared

namespace {

constexpr std::string_view kPackMagic = "ndcg-cmp1";

}  // namespace

std::string pack(const trec::Evaluation& evaluation) {
  detail::Packer p;
  p.bytes(kPackMagic.data(), kPackMagic.size());
  p.flag(evaluation.ok);
  p.flag(evaluation.zscores);
  p.text(evaluation.run_tag);
  p.number(static_cast<std::uint32_t>(evaluation.columns.size()));
  for (const trec::Column& c : evaluation.columns) {
    p.text(c.name);
    p.number(static_cast<std::uint8_t>(c.value));
    p.number(static_cast<std::uint8_t>(c.summary));
    p.flag(c.per_query);
    p.flag(c.whole_number);
    p.number(static_cast<std::uint64_t>(c.measure));
    p.number(static_cast<std::int64_t>(c.cutoff));
  }
  p.number(static_cast<std::uint64_t>(evaluation.per_query.size()));
  for (const trec::QueryValues& q : evaluation.per_query) {
    p.text(q.qid);
    for (std::size_t c = 0; c < evaluation.columns.size(); ++c) {
      p.number(c < q.values.size() ? q.values[c] : 0.0);
    }
  }
  p.diagnostics(evaluation.errors);
  p.diagnostics(evaluation.warnings);
  return p.take();
}

std::optional<trec::Evaluation> unpack(std::string_view bytes, DiagnosticList& errors) {
  const auto fail = [&](std::string_view why) -> std::optional<trec::Evaluation> {
    errors.add(Source::run, 0, 0,
               "a run evaluated elsewhere could not be read (" + std::string(why) +
                   "): evaluate it again with this version");
    return std::nullopt;
  };
  detail::Unpacker u(bytes);
  if (u.bytes(kPackMagic.size()) != kPackMagic) return fail("it is not a packed evaluation");
  trec::Evaluation e;
  e.ok = u.flag();
  e.zscores = u.flag();
  e.run_tag = u.text();
  const auto columns = u.number<std::uint32_t>();
  // Each column takes at least 24 bytes, each query 4: a count larger than the bytes left can
  // hold is a damaged header, not a reason to allocate.
  if (!u.ok() || columns > u.left() / 24) return fail("its columns are cut short");
  for (std::uint32_t i = 0; i < columns; ++i) {
    trec::Column c;
    c.name = u.text();
    c.value = u.choice(trec::ValueKind::text);
    c.summary = u.choice(trec::Summary::run_tag);
    c.per_query = u.flag();
    c.whole_number = u.flag();
    c.measure = static_cast<std::size_t>(u.number<std::uint64_t>());
    c.cutoff = u.number<std::int64_t>();
    e.columns.push_back(std::move(c));
  }
  const auto queries = u.number<std::uint64_t>();
  const std::size_t per_query = 4 + 8 * static_cast<std::size_t>(columns);
  if (!u.ok() || queries > u.left() / per_query) return fail("its queries are cut short");
  e.per_query.reserve(static_cast<std::size_t>(queries));
  for (std::uint64_t q = 0; q < queries && u.ok(); ++q) {
    trec::QueryValues v;
    v.qid = u.text();
    u.numbers(columns, v.values);
    e.per_query.push_back(std::move(v));
  }
  // Its diagnostics, said where the comparison is reported.
  e.errors = u.diagnostics();
  e.warnings = u.diagnostics();
  if (!u.ok() || !u.at_end()) return fail("its length does not match its contents");
  for (std::size_t q = 1; q < e.per_query.size(); ++q) {
    if (!(e.per_query[q - 1].qid < e.per_query[q].qid)) {
      return fail("its queries are not in trec_eval's order");
    }
  }
  return e;
}

Comparison compare(const std::vector<std::string>& systems,
                   const std::vector<const trec::Evaluation*>& evaluations,
                   const Options& options) {
  Comparison out;
  out.options = options;
  out.systems = systems;
  DiagnosticList errors;
  DiagnosticList warnings;
  if (systems.size() < 2 || evaluations.size() != systems.size()) {
    errors.add(Source::options, 0, 0,
               "a comparison needs two runs or more; " + std::to_string(systems.size()) + " given");
  }
  if (options.tests.empty()) errors.add(Source::options, 0, 0, "no test is asked for");
  for (const trec::Evaluation* e : evaluations) {
    if (e == nullptr || !e->ok) {
      errors.add(Source::options, 0, 0, "a run could not be evaluated; see its errors");
      break;
    }
  }
  if (!errors.empty()) {
    out.errors = errors.finish();
    return out;
  }
  // The columns compared: those every run has, whose "all" value is a mean of real values.
  const std::vector<trec::Column>& columns = evaluations.front()->columns;
  std::vector<std::size_t> compared;
  std::vector<std::string> left_out;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const trec::Column& col = columns[c];
    if (col.summary == trec::Summary::mean && col.value == trec::ValueKind::real && col.per_query &&
        !evaluations.front()->zscores) {
      compared.push_back(c);
    } else {
      left_out.push_back(col.name);
    }
  }
  // In the order the measures were asked for (the evaluation's is trec_eval's).
  std::stable_sort(compared.begin(), compared.end(), [&](std::size_t x, std::size_t y) {
    return columns[x].measure < columns[y].measure;
  });
  for (std::size_t c : compared) out.measures.push_back(columns[c].name);
  for (const trec::Evaluation* e : evaluations) {
    const bool same =
        e->columns.size() == columns.size() &&
        std::equal(columns.begin(), columns.end(), e->columns.begin(),
                   [](const trec::Column& x, const trec::Column& y) {
                     return x.name == y.name && x.summary == y.summary && x.value == y.value;
                   });
    if (!same) {
      errors.add(Source::options, 0, 0, "the runs were evaluated with different measures");
      out.errors = errors.finish();
      return out;
    }
  }
  if (!left_out.empty()) {
    std::string names;
    for (const std::string& n : left_out) names += (names.empty() ? "" : ", ") + n;
    warnings.add(Source::options, 0, 0,
                 "not compared, since their value over the queries is not a mean of per-query "
                 "values: " +
                     names);
  }
  if (compared.empty()) {
    errors.add(Source::options, 0, 0,
               "none of the measures asked for can be compared query by query; ask for "
               "measures averaged over queries, such as nDCG@10, AP or P@10");
    out.errors = errors.finish();
    out.warnings = warnings.finish();
    return out;
  }
  // The queries: with Missing::zero each evaluation holds every qrels query already (-c); with
  // drop, those every run was scored on. Both lists are in trec_eval's order.
  std::vector<std::string> queries;
  for (const trec::QueryValues& q : evaluations.front()->per_query) queries.push_back(q.qid);
  for (std::size_t s = 1; s < evaluations.size(); ++s) {
    std::vector<std::string> common;
    const auto& pq = evaluations[s]->per_query;
    std::size_t j = 0;
    for (const std::string& qid : queries) {
      while (j < pq.size() && pq[j].qid < qid) ++j;
      if (j < pq.size() && pq[j].qid == qid) common.push_back(qid);
    }
    queries = std::move(common);
  }
  std::size_t most = 0;
  for (const trec::Evaluation* e : evaluations) most = std::max(most, e->per_query.size());
  if (queries.size() < most) {
    warnings.add(Source::options, 0, 0,
                 std::to_string(most - queries.size()) + " quer" +
                     (most - queries.size() == 1 ? "y is" : "ies are") +
                     " left out: not every run has results for " +
                     (most - queries.size() == 1 ? "it" : "them") +
                     " (missing drop; with missing zero they count 0, as trec_eval -c)");
  }
  if (queries.empty()) {
    errors.add(Source::options, 0, 0,
               "no query has results in every run, so there is nothing to compare");
    out.errors = errors.finish();
    out.warnings = warnings.finish();
    return out;
  }
  const std::size_t nm = compared.size();
  const std::size_t nq = queries.size();
  out.values.assign(systems.size() * nm * nq, 0);
  out.means.assign(systems.size() * nm, 0);
  for (std::size_t s = 0; s < evaluations.size(); ++s) {
    const auto& pq = evaluations[s]->per_query;
    std::size_t j = 0;
    for (std::size_t q = 0; q < nq; ++q) {
      while (pq[j].qid != queries[q]) ++j;
      for (std::size_t m = 0; m < nm; ++m) {
        out.values[(s * nm + m) * nq + q] = pq[j].values[compared[m]];
      }
    }
    for (std::size_t m = 0; m < nm; ++m) {
      out.means[s * nm + m] =
          mean_of(std::span<const double>(out.values.data() + (s * nm + m) * nq, nq));
    }
  }
  out.queries = std::move(queries);

  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t b = 1; b < systems.size(); ++b) {
    if (options.pairs == Pairs::baseline) {
      pairs.emplace_back(0, b);
    } else {
      for (std::size_t a = 0; a < b; ++a) pairs.emplace_back(a, b);
    }
  }
  // Each pair and measure's differences, b − a per query, kept for the tests.
  std::vector<double> differences(nm * pairs.size() * nq);
  std::vector<double> tolerances;
  for (std::size_t m = 0; m < nm; ++m) {
    for (const auto& [a, b] : pairs) {
      PairComparison pc;
      pc.a = a;
      pc.b = b;
      pc.measure = m;
      pc.queries = nq;
      const double* va = out.values.data() + (a * nm + m) * nq;
      const double* vb = out.values.data() + (b * nm + m) * nq;
      double* d = differences.data() + out.pairs.size() * nq;
      double largest = 1;
      for (std::size_t q = 0; q < nq; ++q) {
        d[q] = vb[q] - va[q];
        largest = std::max({largest, std::fabs(va[q]), std::fabs(vb[q])});
      }
      const double tol = 1e-12 * largest;
      for (std::size_t q = 0; q < nq; ++q) {
        if (d[q] > tol) {
          ++pc.wins;
        } else if (d[q] < -tol) {
          ++pc.losses;
        } else {
          ++pc.ties;
        }
      }
      const std::span<const double> ds(d, nq);
      pc.mean_a = out.mean(a, m);
      pc.mean_b = out.mean(b, m);
      pc.difference = mean_of(ds);
      pc.stdev = stdev_of(ds, pc.difference);
      pc.effect_size =
          pc.stdev > tol ? pc.difference / pc.stdev : (std::fabs(pc.difference) <= tol ? 0 : kNaN);
      pc.low = pc.high = kNaN;
      tolerances.push_back(tol);
      out.pairs.push_back(std::move(pc));
    }
  }
  // The bootstraps of every pair and measure share their resamples (the same queries, the same
  // seed): drawn once for all.
  std::vector<BootstrapOf> bootstraps;
  if (std::find(options.tests.begin(), options.tests.end(), Test::bootstrap) !=
      options.tests.end()) {
    for (std::size_t i = 0; i < out.pairs.size(); ++i) {
      bootstraps.push_back(BootstrapOf{
          std::span<const double>(differences.data() + i * nq, nq), tolerances[i], {}, 0, 0, 0});
    }
    bootstrap_all(bootstraps, options.permutations, options.seed, options.alpha);
  }
  for (std::size_t i = 0; i < out.pairs.size(); ++i) {
    PairComparison& pc = out.pairs[i];
    const std::span<const double> d(differences.data() + i * nq, nq);
    for (Test t : options.tests) {
      switch (t) {
        case Test::t:
          pc.tests.push_back(paired_t(d, tolerances[i]));
          break;
        case Test::randomization:
          pc.tests.push_back(randomization(d, tolerances[i], options.permutations, options.seed));
          break;
        case Test::wilcoxon:
          pc.tests.push_back(wilcoxon(d, tolerances[i]));
          break;
        case Test::bootstrap:
          pc.tests.push_back(bootstraps[i].result);
          pc.low = bootstraps[i].low;
          pc.high = bootstraps[i].high;
          break;
      }
    }
  }
  // Each test's family: every pair and measure compared.
  out.family = out.pairs.size();
  for (std::size_t t = 0; t < options.tests.size(); ++t) {
    std::vector<double> p;
    for (const PairComparison& pc : out.pairs) p.push_back(pc.tests[t].p);
    const std::vector<double> adjusted = options.correction == Correction::holm ? holm(p)
                                         : options.correction == Correction::bh
                                             ? benjamini_hochberg(p)
                                             : p;
    for (std::size_t i = 0; i < out.pairs.size(); ++i) {
      TestResult& r = out.pairs[i].tests[t];
      r.p_adjusted = adjusted[i];
      r.significant = !std::isnan(r.p_adjusted) && r.p_adjusted < options.alpha;
    }
  }
  out.ok = true;
  out.warnings = warnings.finish();
  return out;
}

}  // namespace ndcg::compare
