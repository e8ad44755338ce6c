// The catalogue of TREC measures and one function per measure, with the semantics of
// trec_eval 10.0 (C. Buckley, NIST), re-implemented from their definitions and checked against
// its output, quirks included (each is named where it is kept): Buckley & Voorhees, "Retrieval
// System Evaluation" (TREC: Experiment and Evaluation in Information Retrieval, MIT Press 2005)
// for map, Rprec, P, recall, iprec_at_recall and bpref; Järvelin & Kekäläinen (ACM TOIS 2002)
// for ndcg with the log2(rank + 1) discount; Yilmaz & Aslam (CIKM 2006) for infAP; Moffat &
// Zobel (ACM TOIS 2008) for rbp.
#include "trec_measures.hpp"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <limits>

namespace ndcg::trec {

namespace {

constexpr double kMinGeoMean = 0.00001;    // trec_eval's floor before the log of gm_map
constexpr double kInfApEpsilon = 0.00001;  // infAP's smoothing
constexpr std::string_view kLongCutoffs = "5,10,15,20,30,100,200,500,1000";

// The value of a division by zero where trec_eval divides 0 by 0 (-J can leave a query with no
// documents): x86-64's default NaN, which C prints as "-nan".
double zero_by_zero() {
  return -std::numeric_limits<double>::quiet_NaN();
}

double as_double(std::int64_t v) {
  return static_cast<double>(v);
}

double log2_of_rank(std::int64_t i) {  // the discount of 0-based rank i: log2(i + 2)
  return std::log2(static_cast<double>(i + 2));
}

}  // namespace

const std::vector<MeasureDef>& measure_catalogue() {
  static const std::vector<MeasureDef> catalogue = {
      {"runid", ParamKind::none, "", ValueKind::text, Summary::run_tag, false, "",
       "the run's tag, from its last line"},
      {"num_q", ParamKind::none, "", ValueKind::whole, Summary::num_q, false, "NumQ",
       "the number of queries averaged over"},
      {"num_ret", ParamKind::none, "", ValueKind::whole, Summary::sum, true, "NumRet",
       "documents retrieved (after -M and -J)"},
      {"num_rel", ParamKind::none, "", ValueKind::whole, Summary::num_rel, true, "NumRel",
       "documents judged relevant (grade >= -l)"},
      {"num_rel_ret", ParamKind::none, "", ValueKind::whole, Summary::sum, true, "NumRelRet",
       "relevant documents retrieved"},
      {"map", ParamKind::none, "", ValueKind::real, Summary::mean, true, "AP",
       "average precision: the mean of the precision at each relevant document's rank, over "
       "num_rel"},
      {"gm_map", ParamKind::none, "", ValueKind::real, Summary::geometric, false, "",
       "geometric mean of average precision (each at least 0.00001)"},
      {"Rprec", ParamKind::none, "", ValueKind::real, Summary::mean, true, "Rprec",
       "precision at rank R = num_rel"},
      {"bpref", ParamKind::none, "", ValueKind::real, Summary::mean, true, "Bpref",
       "binary preference: for each relevant document, 1 - (judged non-relevant above it, at "
       "most R) / min(R, judged non-relevant), over R"},
      {"recip_rank", ParamKind::none, "", ValueKind::real, Summary::mean, true, "RR",
       "1 / the rank of the first relevant document"},
      {"iprec_at_recall", ParamKind::double_cutoffs, "0,.1,.2,.3,.4,.5,.6,.7,.8,.9,1",
       ValueKind::real, Summary::mean, true, "IPrec@r",
       "interpolated precision at recall r: the highest precision at any recall >= r"},
      {"P", ParamKind::long_cutoffs, kLongCutoffs, ValueKind::real, Summary::mean, true, "P@k",
       "precision at k: relevant documents in the top k, over k"},
      {"relstring", ParamKind::doubles, "10", ValueKind::text, Summary::none, true, "",
       "the grades of the top n documents as a string ('-' not judged, '.' judged negative)"},
      {"recall", ParamKind::long_cutoffs, kLongCutoffs, ValueKind::real, Summary::mean, true, "R@k",
       "recall at k: relevant documents in the top k, over num_rel"},
      {"infAP", ParamKind::none, "", ValueKind::real, Summary::mean, true, "infAP",
       "inferred average precision for a sampled pool (documents judged negative are the "
       "unjudged part of the pool)"},
      {"gm_bpref", ParamKind::none, "", ValueKind::real, Summary::geometric, false, "",
       "geometric mean of bpref (each at least 0.00001)"},
      {"Rprec_mult", ParamKind::double_cutoffs, "0.2,0.4,0.6,0.8,1.0,1.2,1.4,1.6,1.8,2.0",
       ValueKind::real, Summary::mean, true, "", "precision at rank x·R for each multiple x"},
      {"utility", ParamKind::doubles, "1,-1,0,0", ValueKind::real, Summary::mean, true, "",
       "a·rel_ret + b·nonrel_ret + c·rel_not_ret + d·nonrel_not_ret (d needs -N)"},
      {"11pt_avg", ParamKind::doubles, "0.0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0",
       ValueKind::real, Summary::mean, true, "",
       "interpolated precision averaged over the recall points given"},
      {"binG", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "binary G: the mean over relevant documents of 1 / log2(2 + non-relevant above it)"},
      {"G", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "",
       "normalised gain: gain / log2(2 + ideal gain so far - gain so far), over the ideal total"},
      {"dcg", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "",
       "discounted cumulative gain: the sum of gain / log2(rank + 1), gain = grade unless given"},
      {"ideal_dcg", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "",
       "the DCG of the ideal ranking of every judged document"},
      {"ndcg", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "nDCG",
       "DCG over the ideal DCG of every judged document, the whole ranking"},
      {"ndcg_rel", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "",
       "nDCG averaged over the ranks of the relevant documents"},
      {"Rndcg", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "",
       "nDCG averaged over the ranks where the ideal gain changes"},
      {"ndcg_cut", ParamKind::long_cutoffs, kLongCutoffs, ValueKind::real, Summary::mean, true,
       "nDCG@k", "nDCG at k: DCG of the top k over the ideal DCG of the top k, gain = grade"},
      {"map_cut", ParamKind::long_cutoffs, kLongCutoffs, ValueKind::real, Summary::mean, true,
       "AP@k", "average precision over the top k (still divided by num_rel)"},
      {"relative_P", ParamKind::long_cutoffs, kLongCutoffs, ValueKind::real, Summary::mean, true,
       "", "precision at k over the best possible: relevant in the top k / min(k, num_rel)"},
      {"success", ParamKind::long_cutoffs, "1,5,10", ValueKind::real, Summary::mean, true,
       "Success@k", "1 if a relevant document is in the top k, else 0"},
      {"set_P", ParamKind::none, "", ValueKind::real, Summary::mean, true, "SetP",
       "precision of the whole retrieved set"},
      {"set_relative_P", ParamKind::none, "", ValueKind::real, Summary::mean, true, "SetRelP",
       "set precision over the best possible: num_rel_ret / min(num_ret, num_rel)"},
      {"set_recall", ParamKind::none, "", ValueKind::real, Summary::mean, true, "SetR",
       "recall of the whole retrieved set"},
      {"set_map", ParamKind::none, "", ValueKind::real, Summary::mean, true, "SetAP",
       "set precision times set recall"},
      {"set_F", ParamKind::doubles, "1", ValueKind::real, Summary::mean, true, "SetF",
       "F measure of set precision and recall, (β + 1)·P·R / (β·P + R) with β as given"},
      {"num_nonrel_judged_ret", ParamKind::none, "", ValueKind::whole, Summary::sum, true, "",
       "judged non-relevant documents retrieved"},
      // Preferences (-R prefs, -R qrels_prefs): a preference A > B is fulfilled when A is
      // ranked above B, or retrieved and B not.
      {"prefs_num_prefs_poss", ParamKind::none, "", ValueKind::whole, Summary::sum, true, "",
       "preferences possible, whether their documents are retrieved or not (summed over "
       "queries)"},
      {"prefs_num_prefs_ful", ParamKind::none, "", ValueKind::whole, Summary::sum, true, "",
       "preferences fulfilled (summed over queries)"},
      {"prefs_num_prefs_ful_ret", ParamKind::none, "", ValueKind::whole, Summary::sum, true, "",
       "preferences fulfilled with both documents retrieved (summed over queries)"},
      {"prefs_simp", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "preferences fulfilled over preferences possible (one with neither document retrieved "
       "fails)"},
      {"prefs_pair", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "the mean over document pairs of the share of their preferences fulfilled"},
      {"prefs_avgjg", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_simp within each judgment group, averaged over the groups"},
      {"prefs_avgjg_Rnonrel", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_avgjg with as many non-relevant documents (level 0) per group as relevant ones"},
      {"prefs_simp_ret", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_simp over the preferences whose two documents are retrieved"},
      {"prefs_pair_ret", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_pair over the pairs whose two documents are retrieved"},
      {"prefs_avgjg_ret", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_avgjg over the preferences whose two documents are retrieved"},
      {"prefs_avgjg_Rnonrel_ret", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_avgjg_Rnonrel over the retrieved documents"},
      {"prefs_simp_imp", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_simp over the preferences with at least one document retrieved"},
      {"prefs_pair_imp", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_pair over the pairs with at least one document retrieved"},
      {"prefs_avgjg_imp", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "prefs_avgjg over the preferences with at least one document retrieved"},
      {"map_avgjg", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "map averaged over the query's judgment groups (-R qrels_jg: one group per assessor)"},
      {"P_avgjg", ParamKind::long_cutoffs, kLongCutoffs, ValueKind::real, Summary::mean, true, "",
       "P at k averaged over the query's judgment groups (-R qrels_jg)"},
      {"Rprec_mult_avgjg", ParamKind::double_cutoffs, "0.2,0.4,0.6,0.8,1.0,1.2,1.4,1.6,1.8,2.0",
       ValueKind::real, Summary::mean, true, "",
       "Rprec_mult averaged over the query's judgment groups (-R qrels_jg)"},
      {"yaap", ParamKind::none, "", ValueKind::real, Summary::mean, true, "",
       "yet another AP: log((1 + sum of precisions) / (1 + num_rel - sum of precisions))"},
      {"rbp", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "RBP",
       "rank-biased precision (1 - p)·Σ gain·p^(rank - 1), p = 0.9 unless p= is given"},
      {"rbp_resid", ParamKind::pairs, "", ValueKind::real, Summary::mean, true, "",
       "the most rbp could grow if every unjudged document had gain 1"},
      {"unj", ParamKind::long_cutoffs, "5,10,20", ValueKind::real, Summary::mean, true, "",
       "the share of unjudged documents in the top k"},
      // Not trec_eval's: named by ir_measures only, printed under that name.
      {"judged", ParamKind::long_cutoffs, "10", ValueKind::real, Summary::mean, true, "Judged@k",
       "the share of the top k documents that are in the qrels (any grade), over k", false},
      {"err", ParamKind::long_cutoffs, "20", ValueKind::real, Summary::mean, true, "ERR@k",
       "expected reciprocal rank as gdeval computes it: the sum over the top k of R/rank times "
       "the chance that no document above satisfied, R = (2^grade - 1) / 16 (grades up to 4)",
       false},
      {"ndcg_exp", ParamKind::long_cutoffs, "20", ValueKind::real, Summary::mean, true,
       "nDCG(dcg='exp-log2')@k",
       "nDCG at k as gdeval computes it: gain 2^grade - 1, log2(rank + 1), the ideal of the "
       "judged grades cut at k",
       false},
  };
  return catalogue;
}

const std::vector<Nickname>& measure_nicknames() {
  static const std::vector<Nickname> nicknames = {
      {"official",
       {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
        "recip_rank", "iprec_at_recall", "P"}},
      {"set",
       {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F"}},
      {"qrels_jg", {"runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"}},
      {"prefs",
       {"runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
        "prefs_simp", "prefs_pair", "prefs_avgjg"}},
      {"all_prefs",
       {"runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
        "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret",
        "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
        "prefs_pair_imp", "prefs_avgjg_imp"}},
      {"all_trec",
       {"runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall",
        "P",
        "relstring",
        "recall",
        "unj",
        "rbp",
        "rbp_resid",
        "infAP",
        "gm_bpref",
        "utility",
        "11pt_avg",
        "ndcg",
        "relative_P",
        "Rprec_mult",
        "success",
        "map_cut",
        "ndcg_cut",
        "ndcg_rel",
        "Rndcg",
        "binG",
        "G",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
        "num_nonrel_judged_ret"}},
  };
  return nicknames;
}

std::int64_t Ranked::judged_at_or_above(std::int64_t level) const {
  std::int64_t n = 0;
  for (const auto& [grade, count] : levels) n += grade >= level ? count : 0;
  return n;
}

std::int64_t Ranked::judged_below(std::int64_t level) const {
  std::int64_t n = 0;
  for (const auto& [grade, count] : levels) n += grade < level ? count : 0;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Column names

namespace {

std::string with_long(std::string_view name, std::int64_t k) {
  return std::string(name) + "_" + std::to_string(k);
}

// trec_eval's "%3.2f": never shorter than its three characters.
std::string with_double(std::string_view name, double x) {
  return std::string(name) + "_" + printf_fixed(x, 2);
}

}  // namespace

std::vector<std::string> column_names(const Measure& m) {
  const MeasureDef& d = m.definition();
  if (!m.name.empty()) {
    // An ir_measures name of its own: one column, or one per cut-off.
    if (d.params == ParamKind::long_cutoffs && m.cutoffs.size() > 1) {
      std::vector<std::string> names;
      for (std::int64_t k : m.cutoffs) names.push_back(m.name + "@" + std::to_string(k));
      return names;
    }
    return {m.name};
  }
  switch (d.params) {
    case ParamKind::long_cutoffs: {
      std::vector<std::string> names;
      const std::string_view ir = d.ir_measures.substr(0, d.ir_measures.find('@'));
      for (std::int64_t k : m.cutoffs) {
        names.push_back(d.trec_eval ? with_long(d.name, k)
                                    : std::string(ir) + "@" + std::to_string(k));
      }
      return names;
    }
    case ParamKind::double_cutoffs: {
      std::vector<std::string> names;
      for (double x : m.values) names.push_back(with_double(d.name, x));
      return names;
    }
    case ParamKind::doubles:
    case ParamKind::pairs:
      return {m.parameters.empty() ? std::string(d.name)
                                   : std::string(d.name) + "_" + m.parameters};
    case ParamKind::none:
      break;
  }
  return {std::string(d.name)};
}

// ---------------------------------------------------------------------------------------------
// Gains (ndcg, dcg, ideal_dcg, ndcg_rel, Rndcg, G, rbp)

namespace {

// trec_eval sorts gains with a comparator that returns the difference of two gains as an int:
// truncated toward zero, and INT_MIN where it does not fit (x86-64's conversion).
int truncated_compare(double a, double b) {
  const double difference = a - b;
  if (!(difference > -2147483649.0 && difference < 2147483648.0)) return INT_MIN;
  return static_cast<int>(difference);
}

// The C library's qsort on this platform (glibc) is a top-down merge sort that takes from the
// left run while compare(left, right) <= 0. With a comparator that is not a strict weak order
// only the same algorithm gives the same order.
void merge_sort(std::vector<GainLevel>& v, std::size_t begin, std::size_t end,
                std::vector<GainLevel>& scratch) {
  const std::size_t n = end - begin;
  if (n <= 1) return;
  const std::size_t middle = begin + n / 2;
  merge_sort(v, begin, middle, scratch);
  merge_sort(v, middle, end, scratch);
  scratch.clear();
  std::size_t a = begin;
  std::size_t b = middle;
  while (a < middle && b < end) {
    if (truncated_compare(v[a].gain, v[b].gain) <= 0)
      scratch.push_back(v[a++]);
    else
      scratch.push_back(v[b++]);
  }
  while (a < middle) scratch.push_back(v[a++]);
  while (b < end) scratch.push_back(v[b++]);
  std::copy(scratch.begin(), scratch.end(), v.begin() + static_cast<std::ptrdiff_t>(begin));
}

// Grades below this many are listed one by one, as trec_eval lists every grade from 0 to the
// highest judged (those without documents count 0): their place in its sort can matter. Above
// it only the grades judged are listed, so that a grade of 10^9 does not cost 10^9 entries.
constexpr std::int64_t kDenseGrades = 1024;

}  // namespace

double Gains::gain_of(std::int64_t grade) const {
  for (const GainLevel& level : levels) {
    if (level.grade == grade) return level.gain;
  }
  return 0.0;
}

Gains gains_of(const Measure& m, const Ranked& r) {
  Gains g;
  // The measure's own gains first, in the order written (m.gains is sorted by grade; trec_eval
  // keeps them in the order of the command line, which the merge sort below can see).
  for (const auto& [name, value] : m.pairs) {
    if (name == "p") continue;
    bool out_of_range = false;
    const auto grade = parse_integer(name, &out_of_range);
    if (grade) g.levels.push_back(GainLevel{*grade, value, 0});
  }
  const std::size_t given = g.levels.size();
  const auto add_grade = [&](std::int64_t grade, std::int64_t count) {
    for (std::size_t i = 0; i < given; ++i) {
      if (g.levels[i].grade == grade) {
        g.levels[i].count = count;
        return;
      }
    }
    g.levels.push_back(GainLevel{grade, as_double(grade), count});
  };
  const std::int64_t top = r.num_rel_levels();
  if (top <= kDenseGrades) {
    std::size_t next = 0;
    for (std::int64_t grade = 0; grade < top; ++grade) {
      std::int64_t count = 0;
      if (next < r.levels.size() && r.levels[next].first == grade) count = r.levels[next++].second;
      add_grade(grade, count);
    }
  } else {
    for (const auto& [grade, count] : r.levels) add_grade(grade, count);
  }
  std::vector<GainLevel> scratch;
  scratch.reserve(g.levels.size());
  merge_sort(g.levels, 0, g.levels.size(), scratch);
  for (std::size_t i = 1; i < g.levels.size(); ++i) {
    if (g.levels[i - 1].gain > g.levels[i].gain && g.levels[i - 1].count > 0 &&
        g.levels[i].count > 0) {
      g.exact = false;
    }
  }
  return g;
}

namespace {

// The ideal ranking as trec_eval walks it: from the last level of the sorted gains down, each
// level's documents in turn, until a level whose gain is not positive.
class IdealWalk {
 public:
  explicit IdealWalk(const Gains& g)
      : g_(g), level_(static_cast<std::ptrdiff_t>(g.levels.size()) - 1) {
    gain_ = level_ >= 0 ? g_.levels[static_cast<std::size_t>(level_)].gain : 0.0;
  }
  double gain() const { return gain_; }
  // Moves to the next ideal document; gain() is then its gain (0 or less: the end).
  void advance() {
    ++used_;
    while (level_ >= 0 && used_ > g_.levels[static_cast<std::size_t>(level_)].count) {
      used_ = 1;
      --level_;
      gain_ = level_ >= 0 ? g_.levels[static_cast<std::size_t>(level_)].gain : 0.0;
    }
  }

 private:
  const Gains& g_;
  std::ptrdiff_t level_;
  std::int64_t used_ = 0;
  double gain_;
};

// ---------------------------------------------------------------------------------------------
// The measures

// The measures read at cut-offs, counting documents of the top k.
enum class AtCutoff {
  precision,
  recall,
  relative_precision,
  success,
  unjudged,
  average_precision,
  judged
};

void precision_like(const Measure& m, const Ranked& r, const MeasureContext& c, double* out,
                    AtCutoff what) {
  const std::size_t n = m.cutoffs.size();
  std::size_t index = 0;
  std::int64_t so_far = 0;
  double sum = 0;
  const auto value_at = [&](std::int64_t k) {
    switch (what) {
      case AtCutoff::precision:
      case AtCutoff::unjudged:
      case AtCutoff::judged:
        return as_double(so_far) / as_double(k);
      case AtCutoff::recall:
        return as_double(so_far) / as_double(c.num_rel);
      case AtCutoff::relative_precision:
        return as_double(so_far) / as_double(std::min(k, c.num_rel));
      case AtCutoff::success:
        return so_far > 0 ? 1.0 : 0.0;
      case AtCutoff::average_precision:
        break;
    }
    return sum / as_double(c.num_rel);
  };
  // Divided by num_rel: all 0 when nothing is relevant, as trec_eval leaves them.
  if ((what == AtCutoff::recall || what == AtCutoff::relative_precision ||
       what == AtCutoff::average_precision) &&
      c.num_rel == 0)
    return;
  const std::int64_t num_ret = r.num_ret();
  for (std::int64_t i = 0; i < num_ret && index < n; ++i) {
    if (i == m.cutoffs[index]) {
      out[index] = value_at(i);
      ++index;
      if (index == n) break;
    }
    const std::int64_t rel = r.rel[static_cast<std::size_t>(i)];
    const bool counts = what == AtCutoff::unjudged ? rel < 0
                        : what == AtCutoff::judged ? rel != kNotInPool
                                                   : rel >= c.relevance_level;
    if (counts) {
      ++so_far;
      if (what == AtCutoff::average_precision) sum += as_double(so_far) / as_double(i + 1);
    }
  }
  for (; index < n; ++index) out[index] = value_at(m.cutoffs[index]);
}

double average_precision_sum(const Ranked& r, const MeasureContext& c) {
  std::int64_t so_far = 0;
  double sum = 0;
  for (std::int64_t i = 0; i < r.num_ret(); ++i) {
    if (r.rel[static_cast<std::size_t>(i)] >= c.relevance_level) {
      sum += as_double(++so_far) / as_double(i + 1);
    }
  }
  return sum;
}

double average_precision(const Ranked& r, const MeasureContext& c) {
  const double sum = average_precision_sum(r, c);
  return c.num_rel_ret > 0 ? sum / as_double(c.num_rel) : 0.0;
}

double bpref(const Ranked& r, const MeasureContext& c) {
  const std::int64_t num_nonrel = r.judged_below(c.relevance_level);
  std::int64_t nonrel_so_far = 0;
  double value = 0;
  for (std::int64_t rel : r.rel) {
    if (rel < 0) continue;  // not in the pool, or judged negative: no preference either way
    if (rel < c.relevance_level) {
      ++nonrel_so_far;
    } else if (nonrel_so_far > 0) {
      value += 1.0 - as_double(std::min(nonrel_so_far, c.num_rel)) /
                         as_double(std::min(num_nonrel, c.num_rel));
    } else {
      value += 1.0;
    }
  }
  return c.num_rel > 0 ? value / as_double(c.num_rel) : value;
}

// Interpolated precision, walking up from the bottom of the ranking: the recall points are
// numbers of relevant documents (lround(x · num_rel)); `at` receives each point's value.
template <class At>
void interpolated(const Ranked& r, const MeasureContext& c, const std::vector<double>& points,
                  At&& at) {
  std::vector<std::int64_t> needed(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    needed[i] = std::lround(points[i] * as_double(c.num_rel));
  }
  std::ptrdiff_t current = static_cast<std::ptrdiff_t>(points.size()) - 1;
  while (current >= 0 && needed[static_cast<std::size_t>(current)] > c.num_rel_ret) --current;
  const std::int64_t num_ret = r.num_ret();
  double best = num_ret > 0 ? as_double(c.num_rel_ret) / as_double(num_ret) : zero_by_zero();
  std::int64_t so_far = c.num_rel_ret;
  for (std::int64_t i = num_ret; i > 0 && so_far > 0; --i) {
    const double precision = as_double(so_far) / as_double(i);
    if (best < precision) best = precision;
    if (r.rel[static_cast<std::size_t>(i - 1)] >= c.relevance_level) {
      while (current >= 0 && so_far == needed[static_cast<std::size_t>(current)]) {
        at(static_cast<std::size_t>(current--), best);
      }
      --so_far;
    }
  }
  while (current >= 0) at(static_cast<std::size_t>(current--), best);
}

void rprec_mult(const Measure& m, const Ranked& r, const MeasureContext& c, double* out) {
  const std::size_t n = m.values.size();
  std::vector<std::int64_t> depth(n);
  for (std::size_t i = 0; i < n; ++i) {
    depth[i] = static_cast<std::int64_t>(m.values[i] * as_double(c.num_rel) + 0.9);
  }
  const std::int64_t num_ret = r.num_ret();
  std::ptrdiff_t current = static_cast<std::ptrdiff_t>(n) - 1;
  while (current >= 0 && depth[static_cast<std::size_t>(current)] > num_ret) {
    out[current] = as_double(c.num_rel_ret) / as_double(depth[static_cast<std::size_t>(current)]);
    --current;
  }
  std::int64_t so_far = c.num_rel_ret;
  for (std::int64_t i = num_ret; i > 0 && so_far > 0; --i) {
    const double precision = as_double(so_far) / as_double(i);
    while (current >= 0 && i == depth[static_cast<std::size_t>(current)]) {
      out[current--] = precision;
    }
    if (r.rel[static_cast<std::size_t>(i - 1)] >= c.relevance_level) --so_far;
  }
}

// ndcg, dcg and ideal_dcg: DCG of the whole ranking, ideal DCG of every judged document.
void dcg_pair(const Gains& g, const Ranked& r, double* dcg, double* ideal) {
  *dcg = 0;
  for (std::int64_t i = 0; i < r.num_ret(); ++i) {
    const double gain = g.gain_of(r.rel[static_cast<std::size_t>(i)]);
    if (gain != 0) *dcg += gain / log2_of_rank(i);
  }
  *ideal = 0;
  IdealWalk walk(g);
  for (std::int64_t i = 0; walk.gain() > 0.0; ++i) {
    walk.advance();
    if (walk.gain() > 0.0) *ideal += walk.gain() / log2_of_rank(i);
  }
}

double ndcg_rel(const Gains& g, const Ranked& r) {
  double dcg = 0;
  double ideal = 0;
  double sum = 0;
  std::int64_t num_rel = 0;
  std::int64_t num_rel_ret = 0;
  IdealWalk walk(g);
  std::int64_t i = 0;
  const std::int64_t num_ret = r.num_ret();
  const auto result_at = [&](std::int64_t rank) {
    const double gain = g.gain_of(r.rel[static_cast<std::size_t>(rank)]);
    if (gain != 0) dcg += gain / log2_of_rank(rank);
    return gain;
  };
  for (; i < num_ret && walk.gain() > 0.0; ++i) {
    const double gain = result_at(i);
    walk.advance();
    if (walk.gain() > 0.0) {
      ++num_rel;
      ideal += walk.gain() / log2_of_rank(i);
    }
    if (gain > 0) {
      sum += dcg / ideal;
      ++num_rel_ret;
    }
  }
  for (; i < num_ret; ++i) {
    if (result_at(i) > 0) {
      sum += dcg / ideal;
      ++num_rel_ret;
    }
  }
  for (; walk.gain() > 0.0; ++i) {
    walk.advance();
    if (walk.gain() > 0.0) {
      ++num_rel;
      ideal += walk.gain() / log2_of_rank(i);
    }
  }
  sum += as_double(num_rel - num_rel_ret) * dcg / ideal;
  return sum > 0.0 ? sum / as_double(num_rel) : 0.0;
}

double rndcg(const Gains& g, const Ranked& r, const MeasureContext& c) {
  if (c.num_rel == 0) return 0.0;
  double dcg = 0;
  double ideal = 0;
  double sum = 0;
  std::int64_t changes = 0;
  IdealWalk walk(g);
  double previous = walk.gain();
  const auto note_change = [&] {
    if (previous != walk.gain()) {
      if (ideal > 0.0) {
        sum += dcg / ideal;
        ++changes;
      }
      previous = walk.gain();
    }
  };
  std::int64_t i = 0;
  const std::int64_t num_ret = r.num_ret();
  for (; i < num_ret && walk.gain() > 0.0; ++i) {
    const double gain = g.gain_of(r.rel[static_cast<std::size_t>(i)]);
    walk.advance();
    note_change();
    if (gain != 0) dcg += gain / log2_of_rank(i);
    if (walk.gain() > 0.0) ideal += walk.gain() / log2_of_rank(i);
  }
  if (i < num_ret) {
    for (; i < num_ret; ++i) {
      const double gain = g.gain_of(r.rel[static_cast<std::size_t>(i)]);
      if (gain != 0) dcg += gain / log2_of_rank(i);
    }
    if (ideal > 0.0) {
      sum += dcg / ideal;
      ++changes;
    }
  }
  for (; walk.gain() > 0.0; ++i) {
    walk.advance();
    note_change();
    if (walk.gain() > 0.0) ideal += walk.gain() / log2_of_rank(i);
  }
  return sum / as_double(changes);  // 0 / 0 when no level was ever reached, as in trec_eval
}

double normalised_gain(const Gains& g, const Ranked& r) {
  double result = 0;
  double sum_results = 0;
  double sum_ideal = 0;
  double sum_cost = 0;
  constexpr double kMinCost = 1.0;
  IdealWalk walk(g);
  std::int64_t i = 0;
  const std::int64_t num_ret = r.num_ret();
  for (; i < num_ret && walk.gain() > 0.0; ++i) {
    const double gain = g.gain_of(r.rel[static_cast<std::size_t>(i)]);
    sum_results += gain;
    walk.advance();
    if (walk.gain() > 0.0) sum_ideal += walk.gain();
    sum_cost += walk.gain() >= kMinCost ? walk.gain() : kMinCost;
    if (gain != 0) result += gain / std::log2(2 + sum_cost - sum_results);
  }
  for (; i < num_ret; ++i) {
    const double gain = g.gain_of(r.rel[static_cast<std::size_t>(i)]);
    sum_results += gain;
    sum_cost += kMinCost;
    if (gain != 0) result += gain / std::log2(2 + sum_cost - sum_results);
  }
  while (walk.gain() > 0.0) {
    walk.advance();
    if (walk.gain() > 0.0) sum_ideal += walk.gain();
  }
  return sum_ideal > 0.0 ? result / sum_ideal : 0.0;
}

double persistence(const Measure& m) {
  double p = 0.9;
  for (const auto& [name, value] : m.pairs) {
    if (name == "p") p = value;
  }
  return p;
}

double rank_biased_precision(const Measure& m, const Gains& given, const Ranked& r) {
  Gains g = given;
  // Gains outside [0, 1] are rescaled to it by the smallest and largest gain listed.
  // (trec_eval 10.0 starts that search from uninitialised variables; here from 0, which gives
  // its output when rbp is computed alone or with all_trec. With yaap computed before it, its
  // value changes: the evaluator warns of that.)
  double low = 0.0;
  double high = 0.0;
  for (const GainLevel& level : g.levels) {
    low = std::min(low, level.gain);
    high = std::max(high, level.gain);
  }
  if (low < 0 || high > 1) {
    for (GainLevel& level : g.levels) level.gain = (level.gain - low) / (high - low);
  }
  const double p = persistence(m);
  double sum = 0;
  double weight = 1.0;
  for (std::int64_t rel : r.rel) {
    const double gain = g.gain_of(rel);
    if (gain != 0) sum += gain * weight;
    weight *= p;
  }
  return (1.0 - p) * sum;
}

double rbp_residual(const Measure& m, const Ranked& r) {
  const double p = persistence(m);
  std::int64_t unjudged = 0;
  double sum = 0;
  double weight = 1.0;
  for (std::int64_t rel : r.rel) {
    if (rel < 0) {
      ++unjudged;
      sum += weight;
    }
    weight *= p;
  }
  return unjudged > 0 ? weight + (1 - p) * sum : 0.0;
}

void ndcg_cut(const Measure& m, const Ranked& r, double* out) {
  // DCG with the grades themselves as gains; the ideal from every judged document, best first.
  const std::size_t n = m.cutoffs.size();
  std::size_t index = 0;
  double dcg = 0;
  const std::int64_t num_ret = r.num_ret();
  for (std::int64_t i = 0; i < num_ret && index < n; ++i) {
    if (i == m.cutoffs[index]) {
      out[index] = dcg;
      if (++index == n) break;
    }
    const std::int64_t grade = r.rel[static_cast<std::size_t>(i)];
    if (grade > 0) dcg += as_double(grade) / log2_of_rank(i);
  }
  for (; index < n; ++index) out[index] = dcg;
  index = 0;
  double ideal = 0;
  std::int64_t i = 0;
  for (auto level = r.levels.rbegin(); level != r.levels.rend() && index < n; ++level) {
    if (level->first <= 0) break;
    for (std::int64_t used = 0; used < level->second; ++used, ++i) {
      if (i == m.cutoffs[index]) {
        if (ideal > 0.0) out[index] /= ideal;
        if (++index == n) break;
      }
      ideal += as_double(level->first) / log2_of_rank(i);
    }
  }
  for (; index < n; ++index) {
    if (ideal > 0.0) out[index] /= ideal;
  }
}

// gdeval's gain of a grade: 2^grade - 1 for a positive grade, else 0.
double exponential_gain(std::int64_t grade) {
  return grade > 0 ? std::exp2(as_double(grade)) - 1.0 : 0.0;
}

// ERR (Chapelle et al., CIKM 2009) as gdeval computes it, for each cut-off.
void expected_reciprocal_rank(const Measure& m, const Ranked& r, double* out) {
  constexpr double kMaxGain = 16.0;  // 2^4: gdeval's grades go up to 4
  double value = 0;
  double still_looking = 1.0;
  std::size_t index = 0;
  const std::int64_t num_ret = r.num_ret();
  for (std::int64_t i = 0; i < num_ret && index < m.cutoffs.size(); ++i) {
    while (index < m.cutoffs.size() && i == m.cutoffs[index]) out[index++] = value;
    if (index == m.cutoffs.size()) break;
    const double stop = exponential_gain(r.rel[static_cast<std::size_t>(i)]) / kMaxGain;
    value += stop * still_looking / as_double(i + 1);
    still_looking *= 1.0 - stop;
  }
  for (; index < m.cutoffs.size(); ++index) out[index] = value;
}

// nDCG at k with gdeval's exponential gain: the run's top k over the ideal top k.
void exponential_ndcg(const Measure& m, const Ranked& r, double* out) {
  for (std::size_t index = 0; index < m.cutoffs.size(); ++index) {
    const std::int64_t k = m.cutoffs[index];
    double dcg = 0;
    for (std::int64_t i = 0; i < std::min(k, r.num_ret()); ++i) {
      dcg += exponential_gain(r.rel[static_cast<std::size_t>(i)]) / log2_of_rank(i);
    }
    double ideal = 0;
    std::int64_t i = 0;
    for (auto level = r.levels.rbegin(); level != r.levels.rend() && i < k; ++level) {
      if (level->first <= 0) break;
      for (std::int64_t used = 0; used < level->second && i < k; ++used, ++i) {
        ideal += exponential_gain(level->first) / log2_of_rank(i);
      }
    }
    out[index] = ideal > 0 ? dcg / ideal : 0.0;
  }
}

std::string relevance_string(const Measure& m, const Ranked& r) {
  const double wanted = m.values.empty() ? 10.0 : m.values[0];
  std::int64_t length = wanted >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(wanted);
  length = std::max<std::int64_t>(0, std::min(length, r.num_ret()));
  std::string text;
  text.reserve(static_cast<std::size_t>(length));
  for (std::int64_t i = 0; i < length; ++i) {
    const std::int64_t rel = r.rel[static_cast<std::size_t>(i)];
    if (rel > 9)
      text += '>';
    else if (rel >= 0)
      text += static_cast<char>('0' + rel);
    else if (rel == kNotInPool)
      text += '-';
    else
      text += '.';
  }
  return text;
}

}  // namespace

bool needs_judgment_groups(const MeasureDef& d) {
  return d.name == "map_avgjg" || d.name == "P_avgjg" || d.name == "Rprec_mult_avgjg";
}

bool reads_format(const MeasureDef& d, RelFormat format) {
  if (d.name == "runid" || d.name == "num_q") return true;
  if (d.name.substr(0, 6) == "prefs_") {
    return format == RelFormat::prefs || format == RelFormat::qrels_prefs;
  }
  return needs_judgment_groups(d) ? format == RelFormat::qrels_jg : format == RelFormat::qrels;
}

namespace {

// One measure's value for one query: what compute_measure was given.
struct MeasureCall {
  const Measure& m;
  const Ranked& r;
  const MeasureContext& c;
  double* v;                          // its columns, zeroed
  std::string* text;                  // for a text measure, when asked for
  const std::vector<Ranked>* groups;  // the judgment groups' rankings, for the *_avgjg measures
};

// Each group's value, added in the groups' order, then divided by their number (when more than
// one), as trec_eval does.
template <class OfGroup>
void over_groups(const MeasureCall& x, std::size_t width, OfGroup of_group) {
  if (x.groups == nullptr || x.groups->empty()) return;
  std::vector<double> one(width);
  for (const Ranked& g : *x.groups) {
    std::fill(one.begin(), one.end(), 0.0);
    const MeasureContext gc{x.c.relevance_level, g.num_rel, g.num_rel_ret, x.c.docs_in_collection};
    of_group(g, gc, one.data());
    for (std::size_t i = 0; i < width; ++i) x.v[i] += one[i];
  }
  if (x.groups->size() > 1) {
    for (std::size_t i = 0; i < width; ++i) x.v[i] /= static_cast<double>(x.groups->size());
  }
}

void compute_map_avgjg(const MeasureCall& x) {
  over_groups(x, 1, [](const Ranked& g, const MeasureContext& gc, double* v) {
    v[0] = average_precision(g, gc);
  });
}
void compute_P_avgjg(const MeasureCall& x) {
  over_groups(x, x.m.cutoffs.size() + x.m.values.size(),
              [&x](const Ranked& g, const MeasureContext& gc, double* v) {
                precision_like(x.m, g, gc, v, AtCutoff::precision);
              });
}
void compute_Rprec_mult_avgjg(const MeasureCall& x) {
  over_groups(
      x, x.m.cutoffs.size() + x.m.values.size(),
      [&x](const Ranked& g, const MeasureContext& gc, double* v) { rprec_mult(x.m, g, gc, v); });
}

void compute_num_q(const MeasureCall& x) {
  x.v[0] = 1;
}
void compute_num_ret(const MeasureCall& x) {
  x.v[0] = as_double(x.r.num_ret());
}
void compute_num_rel(const MeasureCall& x) {
  x.v[0] = as_double(x.c.num_rel);
}
void compute_num_rel_ret(const MeasureCall& x) {
  x.v[0] = as_double(x.c.num_rel_ret);
}
void compute_map(const MeasureCall& x) {
  x.v[0] = average_precision(x.r, x.c);
}
void compute_gm_map(const MeasureCall& x) {
  x.v[0] = std::log(std::max(average_precision(x.r, x.c), kMinGeoMean));
}
void compute_Rprec(const MeasureCall& x) {
  const std::int64_t look = std::min(x.r.num_ret(), x.c.num_rel);
  std::int64_t so_far = 0;
  for (std::int64_t i = 0; i < look; ++i) {
    so_far += x.r.rel[static_cast<std::size_t>(i)] >= x.c.relevance_level ? 1 : 0;
  }
  if (look > 0) x.v[0] = as_double(so_far) / as_double(x.c.num_rel);
}
void compute_bpref(const MeasureCall& x) {
  x.v[0] = bpref(x.r, x.c);
}
void compute_gm_bpref(const MeasureCall& x) {
  x.v[0] = std::log(std::max(bpref(x.r, x.c), kMinGeoMean));
}
void compute_recip_rank(const MeasureCall& x) {
  for (std::int64_t i = 0; i < x.r.num_ret(); ++i) {
    if (x.r.rel[static_cast<std::size_t>(i)] >= x.c.relevance_level) {
      x.v[0] = 1.0 / as_double(i + 1);
      return;
    }
  }
}
void compute_iprec_at_recall(const MeasureCall& x) {
  interpolated(x.r, x.c, x.m.values, [&x](std::size_t i, double value) { x.v[i] = value; });
}
void compute_11pt_avg(const MeasureCall& x) {
  double sum = 0;
  interpolated(x.r, x.c, x.m.values, [&sum](std::size_t, double value) { sum += value; });
  x.v[0] = sum / as_double(static_cast<std::int64_t>(x.m.values.size()));
}
template <AtCutoff kind>
void compute_at_cutoffs(const MeasureCall& x) {
  precision_like(x.m, x.r, x.c, x.v, kind);
}
void compute_err(const MeasureCall& x) {
  expected_reciprocal_rank(x.m, x.r, x.v);
}
void compute_ndcg_exp(const MeasureCall& x) {
  exponential_ndcg(x.m, x.r, x.v);
}
void compute_relstring(const MeasureCall& x) {
  if (x.text != nullptr) *x.text = relevance_string(x.m, x.r);
}
void compute_infAP(const MeasureCall& x) {
  std::int64_t nonrel = 0;
  std::int64_t rel_so_far = 0;
  std::int64_t unjudged = 0;
  double sum = 0;
  for (std::int64_t j = 0; j < x.r.num_ret(); ++j) {
    const std::int64_t rel = x.r.rel[static_cast<std::size_t>(j)];
    if (rel == kNotInPool) continue;
    if (rel == kJudgedNegative) {
      ++unjudged;
      continue;
    }
    if (rel < x.c.relevance_level) {
      ++nonrel;
      continue;
    }
    ++rel_so_far;
    if (j == 0) {
      sum += 1.0;
    } else {
      const double fj = as_double(j);
      const double above = as_double(rel_so_far - 1);
      sum += 1.0 / (fj + 1.0) +
             (fj / (fj + 1.0)) * ((above + as_double(nonrel) + as_double(unjudged)) / fj) *
                 ((above + kInfApEpsilon) / (above + as_double(nonrel) + 2 * kInfApEpsilon));
    }
  }
  x.v[0] = x.c.num_rel > 0 ? sum / as_double(x.c.num_rel) : sum;
}
void compute_Rprec_mult(const MeasureCall& x) {
  rprec_mult(x.m, x.r, x.c, x.v);
}
void compute_utility(const MeasureCall& x) {
  const double* a = x.m.values.data();
  const std::int64_t num_ret = x.r.num_ret();
  x.v[0] = a[0] * as_double(x.c.num_rel_ret) + a[1] * as_double(num_ret - x.c.num_rel_ret) +
           a[2] * as_double(x.c.num_rel - x.c.num_rel_ret) +
           a[3] * as_double(x.c.docs_in_collection + x.c.num_rel_ret - num_ret - x.c.num_rel);
}
void compute_binG(const MeasureCall& x) {
  std::int64_t so_far = 0;
  double sum = 0;
  for (std::int64_t i = 0; i < x.r.num_ret(); ++i) {
    if (x.r.rel[static_cast<std::size_t>(i)] >= x.c.relevance_level) {
      ++so_far;
      sum += 1.0 / std::log2(as_double(3 + i - so_far));
    }
  }
  if (so_far > 0) x.v[0] = sum / as_double(x.c.num_rel);
}
void compute_G(const MeasureCall& x) {
  x.v[0] = normalised_gain(gains_of(x.m, x.r), x.r);
}
// dcg, ideal_dcg or ndcg: one pass gives both sums.
enum class DcgValue { dcg, ideal, ndcg };
template <DcgValue kValue>
void compute_dcg_kind(const MeasureCall& x) {
  double dcg = 0;
  double ideal = 0;
  dcg_pair(gains_of(x.m, x.r), x.r, &dcg, &ideal);
  if constexpr (kValue == DcgValue::dcg) {
    x.v[0] = dcg;
  } else if constexpr (kValue == DcgValue::ideal) {
    x.v[0] = ideal;
  } else {
    if (ideal > 0.0) x.v[0] = dcg / ideal;
  }
}
void compute_ndcg_rel(const MeasureCall& x) {
  x.v[0] = ndcg_rel(gains_of(x.m, x.r), x.r);
}
void compute_Rndcg(const MeasureCall& x) {
  x.v[0] = rndcg(gains_of(x.m, x.r), x.r, x.c);
}
void compute_ndcg_cut(const MeasureCall& x) {
  ndcg_cut(x.m, x.r, x.v);
}
void compute_set_P(const MeasureCall& x) {
  if (x.r.num_ret() > 0) x.v[0] = as_double(x.c.num_rel_ret) / as_double(x.r.num_ret());
}
void compute_set_relative_P(const MeasureCall& x) {
  if (x.r.num_ret() > 0 && x.c.num_rel > 0)
    x.v[0] = as_double(x.c.num_rel_ret) / as_double(std::min(x.r.num_ret(), x.c.num_rel));
}
void compute_set_recall(const MeasureCall& x) {
  if (x.c.num_rel > 0) x.v[0] = as_double(x.c.num_rel_ret) / as_double(x.c.num_rel);
}
void compute_set_map(const MeasureCall& x) {
  if (x.r.num_ret() > 0 && x.c.num_rel > 0)
    x.v[0] = (as_double(x.c.num_rel_ret) * as_double(x.c.num_rel_ret)) /
             (as_double(x.r.num_ret()) * as_double(x.c.num_rel));
}
void compute_set_F(const MeasureCall& x) {
  if (x.c.num_rel_ret > 0) {
    const double precision = as_double(x.c.num_rel_ret) / as_double(x.r.num_ret());
    const double recall = as_double(x.c.num_rel_ret) / as_double(x.c.num_rel);
    const double beta = x.m.values[0];
    x.v[0] = (beta + 1.0) * precision * recall / (beta * precision + recall);
  }
}
void compute_num_nonrel_judged_ret(const MeasureCall& x) {
  x.v[0] = as_double(x.r.num_ret() - x.r.num_nonpool - x.r.num_unjudged_in_pool - x.c.num_rel_ret);
}
void compute_yaap(const MeasureCall& x) {
  const double sum = average_precision_sum(x.r, x.c);
  x.v[0] = std::log((1.0 + sum) / (1.0 + as_double(x.c.num_rel) - sum));
}
void compute_rbp(const MeasureCall& x) {
  x.v[0] = rank_biased_precision(x.m, gains_of(x.m, x.r), x.r);
}
void compute_rbp_resid(const MeasureCall& x) {
  x.v[0] = rbp_residual(x.m, x.r);
}

using MeasureFunction = void (*)(const MeasureCall&);

// The function of each measure compute_measure computes, by name. runid (the run's tag) and the
// preference measures (trec_prefs.cpp) have none.
struct NamedFunction {
  std::string_view name;
  MeasureFunction function;
};
constexpr NamedFunction kMeasureFunctions[] = {
    {"num_q", compute_num_q},
    {"num_ret", compute_num_ret},
    {"num_rel", compute_num_rel},
    {"num_rel_ret", compute_num_rel_ret},
    {"map", compute_map},
    {"gm_map", compute_gm_map},
    {"Rprec", compute_Rprec},
    {"bpref", compute_bpref},
    {"gm_bpref", compute_gm_bpref},
    {"recip_rank", compute_recip_rank},
    {"iprec_at_recall", compute_iprec_at_recall},
    {"11pt_avg", compute_11pt_avg},
    {"P", compute_at_cutoffs<AtCutoff::precision>},
    {"recall", compute_at_cutoffs<AtCutoff::recall>},
    {"relative_P", compute_at_cutoffs<AtCutoff::relative_precision>},
    {"success", compute_at_cutoffs<AtCutoff::success>},
    {"unj", compute_at_cutoffs<AtCutoff::unjudged>},
    {"map_cut", compute_at_cutoffs<AtCutoff::average_precision>},
    {"judged", compute_at_cutoffs<AtCutoff::judged>},
    {"err", compute_err},
    {"ndcg_exp", compute_ndcg_exp},
    {"relstring", compute_relstring},
    {"infAP", compute_infAP},
    {"Rprec_mult", compute_Rprec_mult},
    {"utility", compute_utility},
    {"binG", compute_binG},
    {"G", compute_G},
    {"dcg", compute_dcg_kind<DcgValue::dcg>},
    {"ideal_dcg", compute_dcg_kind<DcgValue::ideal>},
    {"ndcg", compute_dcg_kind<DcgValue::ndcg>},
    {"ndcg_rel", compute_ndcg_rel},
    {"Rndcg", compute_Rndcg},
    {"ndcg_cut", compute_ndcg_cut},
    {"set_P", compute_set_P},
    {"set_relative_P", compute_set_relative_P},
    {"set_recall", compute_set_recall},
    {"set_map", compute_set_map},
    {"set_F", compute_set_F},
    {"num_nonrel_judged_ret", compute_num_nonrel_judged_ret},
    {"yaap", compute_yaap},
    {"rbp", compute_rbp},
    {"rbp_resid", compute_rbp_resid},
    {"map_avgjg", compute_map_avgjg},
    {"P_avgjg", compute_P_avgjg},
    {"Rprec_mult_avgjg", compute_Rprec_mult_avgjg},
};

// The functions by position in the catalogue (null for a measure computed elsewhere), found by
// name once: compute_measure runs for every query and measure, and comparing its name with each
// measure's in turn made it one function of every measure's code, which the engine optimised
// whole (6 KB of wasm) whichever measures were asked for.
const std::vector<MeasureFunction>& functions_by_definition() {
  static const std::vector<MeasureFunction> table = [] {
    const std::vector<MeasureDef>& catalogue = measure_catalogue();
    std::vector<MeasureFunction> functions(catalogue.size(), nullptr);
    for (std::size_t i = 0; i < catalogue.size(); ++i) {
      for (const NamedFunction& f : kMeasureFunctions) {
        if (f.name == catalogue[i].name) functions[i] = f.function;
      }
    }
    return functions;
  }();
  return table;
}

}  // namespace

void compute_measure(const Measure& m, const Ranked& r, const MeasureContext& c, MeasureOutput out,
                     const std::vector<Ranked>* groups) {
  const MeasureFunction function = functions_by_definition()[m.def];
  if (function != nullptr) function(MeasureCall{m, r, c, out.values, out.text, groups});
}

}  // namespace ndcg::trec

// ---------------------------------------------------------------------------------------------
// The working behind a value

namespace ndcg::trec {

namespace {

std::string fixed4(double x) {
  return printf_fixed(x, 4);
}

// "a + b + c" over at most `shown` terms, then "… (n terms)".
std::string sum_of(const std::vector<std::string>& terms, std::size_t shown = 8) {
  if (terms.empty()) return "0";
  std::string text;
  for (std::size_t i = 0; i < terms.size() && i < shown; ++i) text += (i ? " + " : "") + terms[i];
  if (terms.size() > shown) text += " + … (" + std::to_string(terms.size()) + " terms)";
  return text;
}

}  // namespace

Working measure_working(const Measure& m, std::size_t index, const Ranked& r,
                        const MeasureContext& c, const std::vector<std::string_view>& docnos,
                        double value) {
  const MeasureDef& d = m.definition();
  const std::string_view name = d.name;
  Working w;
  w.column = column_names(m)[index];
  w.value = value;
  const std::int64_t k = d.params == ParamKind::long_cutoffs && index < m.cutoffs.size()
                             ? m.cutoffs[index]
                             : INT64_MAX;
  const std::int64_t depth =
      name == "Rprec" ? std::min(r.num_ret(), c.num_rel) : std::min(r.num_ret(), k);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto row_at = [&](std::int64_t i) {
    WorkingRow row;
    row.rank = i + 1;
    row.docno = std::string(docnos[static_cast<std::size_t>(i)]);
    row.grade = r.rel[static_cast<std::size_t>(i)];
    row.counted = row.grade >= c.relevance_level;
    return row;
  };
  const std::string R = std::to_string(c.num_rel);
  std::int64_t so_far = 0;
  if (name == "map" || name == "map_cut") {
    w.columns = {"relevant so far", "precision at this rank"};
    std::vector<std::string> terms;
    double sum = 0;
    for (std::int64_t i = 0; i < depth; ++i) {
      WorkingRow row = row_at(i);
      double precision = nan;
      if (row.counted) {
        precision = as_double(++so_far) / as_double(i + 1);
        sum += precision;
        terms.push_back(std::to_string(so_far) + "/" + std::to_string(i + 1));
      }
      row.values = {as_double(so_far), precision};
      w.rows.push_back(std::move(row));
    }
    w.result = std::string(name == "map" ? "AP" : "AP@" + std::to_string(k)) + " = (" +
               sum_of(terms) + ") / num_rel = " + fixed4(sum) + " / " + R + " = " + fixed4(value) +
               " (each relevant document ranked adds the precision at its rank; those not "
               "retrieved add 0)";
  } else if (name == "bpref") {
    const std::int64_t nonrel = r.judged_below(c.relevance_level);
    w.columns = {"judged non-relevant above", "1 - min(above, R) / min(R, N)"};
    std::vector<std::string> terms;
    std::int64_t above = 0;
    double sum = 0;
    for (std::int64_t i = 0; i < depth; ++i) {
      WorkingRow row = row_at(i);
      double part = nan;
      if (row.grade >= 0 && !row.counted) {
        ++above;
      } else if (row.counted) {
        part = above > 0 ? 1.0 - as_double(std::min(above, c.num_rel)) /
                                     as_double(std::min(nonrel, c.num_rel))
                         : 1.0;
        sum += part;
        terms.push_back(fixed4(part));
      }
      row.values = {as_double(above), part};
      w.rows.push_back(std::move(row));
    }
    w.result = "bpref = (" + sum_of(terms) + ") / R = " + fixed4(sum) + " / " + R + " = " +
               fixed4(value) + " (R = " + R + " relevant, N = " + std::to_string(nonrel) +
               " judged non-relevant; unjudged documents are skipped)";
  } else if (name == "err") {
    w.columns = {"stopping probability (2^g - 1)/16", "chance of reaching this rank",
                 "adds R / rank × reach"};
    std::vector<std::string> terms;
    double reach = 1.0;
    for (std::int64_t i = 0; i < depth; ++i) {
      WorkingRow row = row_at(i);
      const double g = row.grade > 0 ? std::exp2(as_double(row.grade)) - 1.0 : 0.0;
      const double stop = g / 16.0;
      const double part = stop * reach / as_double(i + 1);
      row.counted = row.grade > 0;
      row.values = {stop, reach, part};
      if (part > 0) terms.push_back(fixed4(part));
      reach *= 1.0 - stop;
      w.rows.push_back(std::move(row));
    }
    w.result = w.column + " = " + sum_of(terms) + " = " + fixed4(value);
  } else {
    // Counting measures, and any other: relevant documents so far, and the value.
    w.columns = {"relevant so far"};
    std::int64_t first = 0;
    for (std::int64_t i = 0; i < depth; ++i) {
      WorkingRow row = row_at(i);
      if (row.counted && ++so_far == 1) first = i + 1;
      row.values = {as_double(so_far)};
      w.rows.push_back(std::move(row));
      if (name == "recip_rank" && first > 0) break;
    }
    const std::string hits = std::to_string(so_far);
    if (name == "P") {
      w.result = "P@" + std::to_string(k) + " = relevant in the top " + std::to_string(k) + " / " +
                 std::to_string(k) + " = " + hits + " / " + std::to_string(k) + " = " +
                 fixed4(value);
    } else if (name == "recall") {
      w.result = "recall@" + std::to_string(k) + " = relevant in the top " + std::to_string(k) +
                 " / num_rel = " + hits + " / " + R + " = " + fixed4(value);
    } else if (name == "Rprec") {
      w.result = "Rprec = relevant in the top R / R = " + hits + " / " + R + " = " + fixed4(value);
    } else if (name == "recip_rank") {
      w.result = first > 0 ? "RR = 1 / " + std::to_string(first) + " = " + fixed4(value)
                           : "RR = 0: no relevant document is ranked";
    } else if (name == "success") {
      w.result = "success@" + std::to_string(k) + " = " + (so_far > 0 ? "1" : "0") + ": " + hits +
                 " relevant in the top " + std::to_string(k);
    } else {
      w.result = w.column + " = " + fixed4(value) + ": " + std::string(d.definition);
    }
  }
  return w;
}

}  // namespace ndcg::trec
