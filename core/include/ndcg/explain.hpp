// NDCG of one ranked list, explained rank by rank.
//
// Follows Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS
// 20(4), 2002, for CG, DCG and their normalisation, and Burges et al., "Learning to rank using
// gradient descent", ICML 2005, for the log2(rank + 1) discount. Which of the two (and every
// other convention) applies is an Options value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ndcg/diagnostic.hpp"
#include "ndcg/input.hpp"
#include "ndcg/options.hpp"

namespace ndcg {

// One rank of the step-by-step table. Everything is full precision; rounding is for display.
struct StepRow {
  std::uint32_t rank = 0;
  std::optional<std::string> doc;  // absent for a bare list of grades
  double grade = 0;                // the grade used (0 for an unjudged document)
  bool judged = false;             // the grade came from the judgments or the ranking itself
  bool repeated = false;           // the document was already ranked higher up (gain 0)
  double gain = 0;                 // G[r]; 0 for a repeat of a document already ranked
  double own_gain = 0;          // the document's own gain: G[r] differs only under TieRule::average
  std::optional<double> score;  // when the ranking carries scores (it is then ranked by them)
  std::uint32_t tie_first = 0;  // ranks tie_first..tie_last share this score; 0 when not tied
  std::uint32_t tie_last = 0;
  double discount = 1;                   // G[r] is divided by this
  double term = 0;                       // G[r] / discount: what rank r adds to DCG
  double cg = 0;                         // sum of G[1..r]
  double dcg = 0;                        // sum of G[i] / discount(i), i = 1..r
  std::optional<std::string> ideal_doc;  // the document at rank r of the ideal ranking
  double ideal_grade = 0;                // 0 past the last judged document (padding)
  double ideal_gain = 0;
  double ideal_term = 0;  // ideal_gain / discount: what rank r adds to IDCG
  double idcg = 0;        // DCG of the ideal ranking at r
  double ndcg = 0;        // dcg / idcg, or Options::ndcg_when_idcg_zero when idcg == 0
  // Set when Options::round_before_dividing is: DCG and IDCG rounded, and their quotient.
  double rounded_dcg = 0;
  double rounded_idcg = 0;
  double rounded_ndcg = 0;
};

struct IdealEntry {
  std::optional<std::string> doc;
  double grade = 0;
  double gain = 0;
};

struct Summary {
  std::uint32_t k = 0;  // the cut-off used (the ranking's length when Options::k is 0)
  double dcg_at_k = 0;
  double idcg_at_k = 0;  // top k of the ideal, or all of it with IdealDepth::whole
  double ndcg_at_k = 0;
  double rounded_dcg_at_k = 0;  // as StepRow, when Options::round_before_dividing is set
  double rounded_idcg_at_k = 0;
  double rounded_ndcg_at_k = 0;
  std::uint32_t judged_relevant = 0;    // documents with a positive gain in the ideal ranking
  std::optional<int> rounded_decimals;  // Options::round_before_dividing, when set
};

struct Explanation {
  bool ok = false;
  std::vector<StepRow> rows;      // one per rank of the ranked list
  std::vector<IdealEntry> ideal;  // the whole ideal ranking (may be longer than rows)
  Summary summary;
  std::vector<Diagnostic> errors;  // non-empty exactly when !ok; rows are then empty
  std::vector<Diagnostic> warnings;
  // How the numbers beside the ranked documents were read (grades or scores), and why.
  NumbersFrom numbers_from = NumbersFrom::none;
  bool scored = false;  // ranked by score, ties by Options::ties
};

// How much of an explanation to build. Detail::summary gives what Detail::whole gives of ok,
// errors, summary, numbers_from and scored, and nothing else (no rows, ideal ranking or
// warnings): the comparison of conventions asks for some twenty summaries of one input, and
// the rest was most of the work of each.
enum class Detail { whole, summary };

// Parses both texts and explains the ranking under `options`.
//
// Order: the order given, or, when the ranking carries scores, by score descending with ties
// by Options::ties (one warning, code "scores-tied", names the tied documents and the rule).
//
// Grade of each rank: the judgment of its document if there is one (a different grade written
// in the ranking is a warning), else the grade written in the ranking, else
// Options::unjudged_grade, 0 by default (unjudged, one warning listing them). A document ranked
// again gains 0 the second time (warning). A negative grade is not relevant: gain 0 (warning), as
// in trec_eval, unless Options::keep_negative_gains. Under TieRule::average every rank of a tie
// shares the mean gain of the tied documents.
//
// Ideal ranking: the judged documents (plus ranked documents that carry a positive grade but no
// judgment) or the ranked documents (repeats left out), stably sorted by gain, best first. Without
// judgments the ideal comes from the ranking (warning when IdealFrom::judgments was asked for).
//
// ok == false, with located errors, when either text has errors or a gain is undefined (a
// grade missing from a custom map, an overflowing exponential gain) or a sum overflows.
Explanation explain(std::string_view ranking_text, std::string_view judgments_text,
                    const Options& options);

// Applies `option_values` on top of the defaults (set_option): a preset first, then the others
// in order, so an option given beside a preset overrides it. Then explains. Invalid
// options make the result ok == false; the texts are still parsed so that every error of the
// request is reported at once.
Explanation explain(std::string_view ranking_text, std::string_view judgments_text,
                    const std::vector<OptionValue>& option_values);

// The same, from already parsed inputs (the TREC evaluator calls this per query).
Explanation explain(const RankedList& ranking, const Judgments* judgments, const Options& options,
                    Detail detail = Detail::whole);

// Two texts read once and explained under as many sets of options as asked: the comparison of
// conventions and the check of a working explain one input a dozen times or more, and reading
// the texts was half of each explanation of a long ranking. explain(values) gives what
// explain(ranking_text, judgments_text, values) gives. The ranking is read once for each way of
// reading its numbers that is asked for (Options::ranking_numbers), and each ranked document's
// judgment looked up once. The texts must outlive it.
class ExplainedTexts {
 public:
  ExplainedTexts(std::string_view ranking_text, std::string_view judgments_text);
  Explanation explain(const std::vector<OptionValue>& option_values, Detail detail = Detail::whole);

  // One reading of the ranking, and the judgment of each of its entries (null: none), in the
  // entries' order.
  struct Reading {
    RankingNumbers numbers;
    Parsed<RankedList> ranking;
    std::vector<const Judgment*> judged;
  };

 private:
  const Reading& reading(RankingNumbers numbers);

  std::string_view ranking_text_;
  Parsed<Judgments> judgments_;
  std::vector<Reading> readings_;
};

}  // namespace ndcg
