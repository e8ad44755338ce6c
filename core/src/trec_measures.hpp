// The TREC measures over one query's ranked relevance values: the per-query structure every
// measure reads (built once per query by the evaluator), and one function per measure.
// Internal to the core; trec.hpp is the contract.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ndcg/trec.hpp"

namespace ndcg::trec {

// A ranked document that is not in the qrels, and one judged with a negative grade (trec_eval's
// "in the pool but unjudged"). Judged documents carry their grade (>= 0).
inline constexpr std::int64_t kNotInPool = -1;
inline constexpr std::int64_t kJudgedNegative = -2;

// One query, ranked as trec_eval ranks it (score descending, docno descending), cut at -M, and
// without unjudged documents under -J.
struct Ranked {
  std::vector<std::int64_t> rel;  // by rank: a grade >= 0, kNotInPool or kJudgedNegative
  std::int64_t num_nonpool = 0;
  std::int64_t num_unjudged_in_pool = 0;
  // Judged documents per grade >= 0 in the qrels, ascending grade, counts > 0: sparse, so a
  // grade of 10^18 costs one entry.
  std::vector<std::pair<std::int64_t, std::int64_t>> levels;
  std::int64_t num_rel = 0;      // judged documents with grade >= the evaluation's -l
  std::int64_t num_rel_ret = 0;  // ranked ones

  std::int64_t num_ret() const { return static_cast<std::int64_t>(rel.size()); }
  // One past the highest grade judged (0 when none): trec_eval's number of relevance levels.
  std::int64_t num_rel_levels() const { return levels.empty() ? 0 : levels.back().first + 1; }
  std::int64_t judged_at_or_above(std::int64_t level) const;
  std::int64_t judged_below(std::int64_t level) const;  // grades in [0, level)
};

// What a measure function writes: one value per output column of the measure, zeroed before
// the call, and the text of a text measure.
struct MeasureOutput {
  double* values;
  std::string* text;
};

struct MeasureContext {
  std::int64_t relevance_level;  // the measure's own (rel=2) or the evaluation's
  std::int64_t num_rel;          // judged at or above it
  std::int64_t num_rel_ret;      // ranked at or above it
  std::int64_t docs_in_collection;
};

// Computes measure `m` of the catalogue for one query.
// `groups`: the query ranked against each judgment group (-R qrels_jg), for the *_avgjg
// measures, which average over them.
NDCG_OUT_OF_LINE void compute_measure(const Measure& m, const Ranked& r, const MeasureContext& c,
                                      MeasureOutput out,
                                      const std::vector<Ranked>* groups = nullptr);

// Whether a measure reads judgment groups (-R qrels_jg), and whether it can be computed from a
// relevance file of the given format (runid and num_q from any).
bool needs_judgment_groups(const MeasureDef& d);
bool reads_format(const MeasureDef& d, RelFormat format);

// The working of column `index` of measure `m` for one query: `docnos` are the ranked
// documents as `r` ranks them; `value` is the value computed for it.
NDCG_OUT_OF_LINE Working measure_working(const Measure& m, std::size_t index, const Ranked& r,
                                         const MeasureContext& c,
                                         const std::vector<std::string_view>& docnos, double value);

// The number of output columns of a measure, and their names.
std::vector<std::string> column_names(const Measure& m);

// The gains of ndcg, dcg, G and their kin for one query, in the order trec_eval's sort leaves
// them: ascending gain as its comparator sees it, which truncates each difference to an integer
// (so 2.2 and 3 compare equal). `exact` says whether that order is also ascending in the real
// gains; where it is not, trec_eval's ideal ranking is not the ideal one.
struct GainLevel {
  std::int64_t grade;
  double gain;
  std::int64_t count;
};
struct Gains {
  std::vector<GainLevel> levels;
  bool exact = true;
  double gain_of(std::int64_t grade) const;
};
NDCG_OUT_OF_LINE Gains gains_of(const Measure& m, const Ranked& r);

}  // namespace ndcg::trec
