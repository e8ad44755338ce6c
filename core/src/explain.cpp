// Cumulated gain, discounted cumulated gain and their normalisation, after Järvelin &
// Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4), 2002.
#include "ndcg/explain.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "ndcg/text.hpp"

namespace ndcg {
namespace {

constexpr std::size_t kListedDocs = 8;  // documents named in one aggregated warning

std::string format_number(double value) {
  return printf_fixed_short(value, 6);  // std::to_string's "%f", shortened
}

// Collects documents for one warning that names the first few and counts the rest. A document
// without an id is named by its rank ("#3"); a name is made only for the few listed.
struct DocTally {
  std::size_t count = 0;
  std::uint32_t first_line = 0;
  std::string names;

  void add(const std::optional<std::string>& doc, std::size_t rank, std::uint32_t line) {
    if (count == 0) first_line = line;
    if (count < kListedDocs) {
      if (count > 0) names += ", ";
      if (doc) {
        names += *doc;
      } else {
        names += "#" + std::to_string(rank);
      }
    }
    if (count == kListedDocs) names += ", …";
    ++count;
  }
};

// The rank at which each document is first ranked, to find repeats: an open-addressed table of
// 8-byte slots (the rank and 32 bits of the id's hash), the ids themselves left in the ranking.
// A std::unordered_map of std::string keys copied every id into a node of its own, and was a
// third of explaining 200,000 ranks.
class FirstRanks {
 public:
  // Rank r holds entries[order[r - 1]]; both outlive the table.
  FirstRanks(const std::vector<RankedEntry>& entries, const std::vector<std::uint32_t>& order)
      : entries_(entries), order_(order) {}

  void reserve(std::size_t ids) {
    slots_.assign(std::bit_ceil(std::max<std::size_t>(16, 2 * ids)), Slot{});
  }

  // The first rank of `doc` when it was ranked before (and false), else `rank`, now its first
  // (and true). Call reserve() with the number of ids first.
  std::pair<std::uint32_t, bool> emplace(std::string_view doc, std::uint32_t rank) {
    std::uint32_t tag = 0;
    Slot& slot = slots_[slot_of(doc, tag)];
    if (slot.rank != 0) return {slot.rank, false};
    slot = Slot{rank, tag};
    return {rank, true};
  }

  // The first rank of `doc`, or 0 when it was not ranked.
  std::uint32_t at(std::string_view doc) const {
    std::uint32_t tag = 0;
    return slots_[slot_of(doc, tag)].rank;
  }

 private:
  struct Slot {
    std::uint32_t rank = 0;  // 0: empty
    std::uint32_t tag = 0;
  };

  // The slot that holds `doc`, or the empty one where it would go; `tag` is set to its tag.
  std::size_t slot_of(std::string_view doc, std::uint32_t& tag) const {
    const std::uint64_t hash = std::hash<std::string_view>{}(doc);  // 32 bits in wasm
    tag = static_cast<std::uint32_t>(hash >> 32) ^ static_cast<std::uint32_t>(hash);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.rank == 0 || (slot.tag == tag && doc_of(slot.rank) == doc)) return i;
    }
  }

  std::string_view doc_of(std::uint32_t rank) const { return *entries_[order_[rank - 1]].doc; }

  const std::vector<RankedEntry>& entries_;
  const std::vector<std::uint32_t>& order_;
  std::vector<Slot> slots_;
};

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

Explanation explain_parsed(const RankedList& ranking, const Judgments* judgments,
                           const std::vector<const Judgment*>* judged, const Options& options,
                           Detail detail);

// Both texts' diagnostics, then the explanation of what they hold. `judged`, when given, is the
// judgment of each ranked entry, looked up before.
Explanation explain_read(const Parsed<RankedList>& ranking, const Parsed<Judgments>& judgments,
                         const std::vector<const Judgment*>* judged, const Options& options,
                         Detail detail) {
  DiagnosticList errors;
  errors.append(ranking.errors);
  errors.append(judgments.errors);
  DiagnosticList warnings;
  warnings.append(ranking.warnings);
  warnings.append(judgments.warnings);
  if (!errors.empty()) {
    Explanation out;
    out.errors = errors.finish();
    if (detail == Detail::whole) out.warnings = warnings.finish();
    return out;
  }
  const Judgments* given = judgments.value.items.empty() ? nullptr : &judgments.value;
  Explanation out = explain_parsed(ranking.value, given, judged, options, detail);
  if (detail == Detail::summary) return out;
  std::vector<Diagnostic> all = warnings.finish();
  all.insert(all.end(), out.warnings.begin(), out.warnings.end());
  out.warnings = std::move(all);
  return out;
}

}  // namespace

Explanation explain(std::string_view ranking_text, std::string_view judgments_text,
                    const Options& options) {
  return explain_read(parse_ranking(ranking_text, options.ranking_numbers),
                      parse_judgments(judgments_text), nullptr, options, Detail::whole);
}

Explanation explain(std::string_view ranking_text, std::string_view judgments_text,
                    const std::vector<OptionValue>& option_values) {
  return ExplainedTexts(ranking_text, judgments_text).explain(option_values);
}

ExplainedTexts::ExplainedTexts(std::string_view ranking_text, std::string_view judgments_text)
    : ranking_text_(ranking_text), judgments_(parse_judgments(judgments_text)) {}

const ExplainedTexts::Reading& ExplainedTexts::reading(RankingNumbers numbers) {
  for (const Reading& r : readings_) {
    if (r.numbers == numbers) return r;
  }
  Reading r{numbers, parse_ranking(ranking_text_, numbers), {}};
  r.judged.reserve(r.ranking.value.entries.size());
  for (const RankedEntry& entry : r.ranking.value.entries) {
    r.judged.push_back(entry.doc ? judgments_.value.find(*entry.doc) : nullptr);
  }
  readings_.push_back(std::move(r));
  return readings_.back();
}

Explanation ExplainedTexts::explain(const std::vector<OptionValue>& option_values, Detail detail) {
  Options options;
  DiagnosticList errors = set_options(options, option_values);
  if (errors.empty()) {
    const Reading& r = reading(options.ranking_numbers);
    return explain_read(r.ranking, judgments_, &r.judged, options, detail);
  }
  // Options that do not apply: their errors, and the texts' (read the default way), at once.
  errors.append(reading(RankingNumbers::automatic).ranking.errors);
  errors.append(judgments_.errors);
  Explanation out;
  out.errors = errors.finish();
  return out;
}

namespace {

// explain() in its five steps: grade the rows, build the ideal, warn, accumulate, summarise.
// Each step reads what the ones before it left in the members. For Detail::summary no step
// row is made, the ideal ranking carries no document ids, and nothing is said but errors.
class Explainer {
 public:
  Explainer(const RankedList& ranking, const Judgments* judgments,
            const std::vector<const Judgment*>* judged, const Options& options, Detail detail)
      : ranking_(ranking),
        judgments_(judgments),
        judged_(judged),
        options_(options),
        whole_(detail == Detail::whole),
        n_(ranking.entries.size()),
        first_rank_(ranking.entries, order_) {}

  Explanation run() {
    rank_by_score();
    grade_rows();
    build_ideal();
    share_tied_gains();
    warn();
    accumulate();
    summarise();
    return finish();
  }

 private:
  void rank_by_score();
  void grade_rows();
  void build_ideal();
  void share_tied_gains();
  void warn();
  void accumulate();
  void summarise();
  Explanation finish();

  double discount_of(std::size_t rank) const {
    return discount_at(static_cast<std::uint32_t>(rank), options_);
  }

  // The ranks DCG@k adds up: k, or every rank when k is 0, and at most the ranking's length.
  std::size_t cut_off_depth() const {
    return options_.k == 0 ? n_ : std::min<std::size_t>(options_.k, n_);
  }

  // A grade whose gain is undefined is reported once, where its grade is written, however many
  // times the ranking and the ideal ranking meet it.
  void report_undefined_gain(Source source, std::uint32_t line, std::uint32_t column,
                             double grade) {
    if (!reported_gains_.emplace(source, line).second) return;
    errors_.add(source, line, column,
                options_.gain == GainKind::custom
                    ? "grade " + format_number(grade) +
                          " has no gain in the custom gain map; add " + format_number(grade) +
                          "=<gain> to it"
                    : "grade " + format_number(grade) +
                          " is too large for exponential gain (2^grade − 1 overflows)");
  }

  const RankedList& ranking_;
  const Judgments* judgments_;
  const std::vector<const Judgment*>* judged_;  // each entry's judgment, when looked up before
  const Options& options_;
  const bool whole_;  // Detail::whole
  const std::size_t n_;
  Explanation out_;
  DiagnosticList errors_;
  DiagnosticList warnings_;
  // Notes about one line each (a repeated document, a grade the judgments contradict), listed
  // after warnings_, which are about the whole input: past the list's limit, those that are cut
  // are notes like the ones shown, and a note that sums up many documents is never one of them.
  DiagnosticList line_notes_;
  std::set<std::pair<Source, std::uint32_t>> reported_gains_;

  // What each rank carries from one step to the next. The step table's rows are made from it
  // at the end, for Detail::whole only: a StepRow is five to six times its size, and making rows
  // was a third of a summary.
  struct Rank {
    double grade = 0;     // StepRow's
    double gain = 0;      // G[r]
    double own_gain = 0;  // the document's own gain (TieRule::average may share G[r] out)
    std::uint32_t tie_first = 0;
    std::uint32_t tie_last = 0;
    bool judged = false;
    bool repeated = false;
  };
  std::vector<Rank> ranks_;
  double dcg_at_depth_ = 0;  // left by accumulate: DCG at min(k, n)

  // Left by rank_by_score: entry of each rank.
  std::vector<std::uint32_t> order_;
  // Left by grade_rows.
  FirstRanks first_rank_;
  std::vector<IdealEntry> graded_by_ranking_only_;  // recall-base additions (see explain.hpp)
  DocTally unjudged_;
  DocTally graded_outside_judgments_;
  DocTally negative_;
  DocTally below_level_;  // ranked documents graded below relevantFrom, grade 0 aside
  // Below the grade from which documents are relevant: gain 0 (ranx's rel_lvl).
  bool below_level(double grade) const {
    return options_.relevant_from && grade < *options_.relevant_from;
  }
  bool any_grade_ = false;
  std::size_t with_id_ = 0;  // ranked entries that name a document
  std::size_t matched_ = 0;  // of them, found in the judgments
  bool no_match_ = false;    // left by warn: judgments given, none about a ranked document
};

// Step 0: the order of the ranks: as given, or by score with the tie rule.
void Explainer::rank_by_score() {
  ranks_.resize(n_);
  out_.numbers_from = ranking_.numbers_from;
  out_.scored = ranking_.scored;
  order_.resize(n_);
  for (std::size_t i = 0; i < n_; ++i) order_[i] = static_cast<std::uint32_t>(i);
  if (!ranking_.scored) return;
  const auto& e = ranking_.entries;
  std::stable_sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (*e[a].score != *e[b].score) return *e[a].score > *e[b].score;
    if (options_.ties == TieRule::docno_desc) return e[a].doc.value_or("") > e[b].doc.value_or("");
    return false;
  });
  std::size_t groups = 0;
  std::size_t tied = 0;
  std::string first_group;
  for (std::size_t i = 0; i < n_;) {
    std::size_t j = i + 1;
    while (j < n_ && *e[order_[j]].score == *e[order_[i]].score) ++j;
    if (j - i > 1) {
      for (std::size_t r = i; r < j; ++r) {
        ranks_[r].tie_first = static_cast<std::uint32_t>(i + 1);
        ranks_[r].tie_last = static_cast<std::uint32_t>(j);
      }
      if (groups == 0 && whole_) {
        for (std::size_t r = i; r < j && r < i + kListedDocs; ++r) {
          first_group += (r == i ? "" : ", ") + e[order_[r]].doc.value_or("?");
        }
        if (j - i > kListedDocs) first_group += ", …";
        first_group += " share score " + format_number(*e[order_[i]].score) + " (ranks " +
                       std::to_string(i + 1) + "–" + std::to_string(j) + ")";
      }
      ++groups;
      tied += j - i;
    }
    i = j;
  }
  if (groups == 0 || !whole_) return;
  std::string rule;
  switch (options_.ties) {
    case TieRule::input:
      rule = "tied documents keep the order given (ties: input, as ranx and LightGBM)";
      break;
    case TieRule::docno_desc:
      rule =
          "tied documents are ranked by document id, descending (ties: docno-desc, as "
          "trec_eval)";
      break;
    case TieRule::average:
      rule =
          "tied ranks share the mean gain of their documents (ties: average, as "
          "scikit-learn and torchmetrics)";
      break;
  }
  warnings_.add(
      Diagnostic{Source::ranking, 0, 0,
                 first_group +
                     (groups > 1 ? "; " + plural(groups - 1, "more group", "more groups") +
                                       " of ties, " + std::to_string(tied) + " documents in all"
                                 : "") +
                     ": " + rule + ". Tools that break ties differently give a different NDCG",
                 "scores-tied"});
}

// Step 1: the grade and gain of each ranked document.
void Explainer::grade_rows() {
  first_rank_.reserve(n_);
  for (std::size_t i = 0; i < n_; ++i) {
    const RankedEntry& entry = ranking_.entries[order_[i]];
    Rank& row = ranks_[i];
    const auto rank = static_cast<std::uint32_t>(i + 1);
    std::uint32_t grade_line = entry.line;
    std::uint32_t grade_column = entry.grade_column;
    Source grade_source = Source::ranking;
    with_id_ += entry.doc ? 1 : 0;
    if (judgments_ != nullptr && entry.doc) {
      const Judgment* j = judged_ != nullptr ? (*judged_)[order_[i]] : judgments_->find(*entry.doc);
      if (j != nullptr) {
        ++matched_;
        row.grade = j->grade;
        row.judged = true;
        grade_line = j->line;
        grade_column = j->column;
        grade_source = Source::judgments;
        if (entry.grade && *entry.grade != j->grade) {
          line_notes_.add_made(Source::ranking, entry.line, entry.grade_column, [&] {
            return "the ranking gives " + *entry.doc + " grade " + format_number(*entry.grade) +
                   " but the judgments say " + format_number(j->grade) + " (line " +
                   std::to_string(j->line) + "); the judgment is used";
          });
        }
      }
    }
    if (!row.judged && entry.grade) {
      row.grade = *entry.grade;
      row.judged = true;
    }
    any_grade_ = any_grade_ || entry.grade.has_value();
    if (!row.judged) {
      unjudged_.add(entry.doc, i + 1, entry.line);
      row.grade = options_.unjudged_grade;
    }

    bool repeat = false;
    if (entry.doc) {
      const auto [first, inserted] = first_rank_.emplace(*entry.doc, rank);
      if (!inserted) {
        repeat = true;
        line_notes_.add_made(Source::ranking, entry.line, entry.doc_column, [&entry, rank = first] {
          return *entry.doc + " is ranked again here (first at rank " + std::to_string(rank) +
                 "); a document can be found only once, so this repeat gains 0";
        });
      } else if (judgments_ != nullptr && grade_source == Source::ranking && row.grade > 0) {
        // Relevant by the ranking's own word: without it in the recall base NDCG could pass 1.
        graded_by_ranking_only_.push_back(IdealEntry{entry.doc, row.grade, 0});
        graded_outside_judgments_.add(entry.doc, rank, entry.line);
      }
    }
    row.repeated = repeat;
    if (repeat || (!row.judged && options_.unjudged_grade == 0)) {
      // An unjudged document gains 0 whatever a custom map gives grade 0, as in trec_eval.
      row.gain = 0;
    } else if (below_level(row.grade)) {
      // Said for the grades it changes: a grade 0 is not relevant either way.
      if (row.grade != 0) {
        below_level_.add(entry.doc, rank, entry.line);
      }
      row.gain = 0;
    } else if (row.grade < 0 && !options_.keep_negative_gains) {
      negative_.add(entry.doc, rank, entry.line);
      row.gain = 0;
    } else if (auto gain = gain_of(row.grade, options_)) {
      row.gain = *gain;
    } else {
      report_undefined_gain(grade_source, grade_line, grade_column, row.grade);
    }
    row.own_gain = row.gain;
  }
}

// Step 2: the ideal ranking, best gain first.
void Explainer::build_ideal() {
  std::vector<IdealEntry>& ideal = out_.ideal;
  if (options_.ideal == IdealFrom::judgments && judgments_ != nullptr) {
    ideal.reserve(judgments_->items.size() + graded_by_ranking_only_.size());
    for (const Judgment& j : judgments_->items) {
      double gain = 0;
      if (!below_level(j.grade) && (j.grade >= 0 || options_.keep_negative_gains)) {
        if (auto g = gain_of(j.grade, options_)) {
          gain = *g;
        } else {
          report_undefined_gain(Source::judgments, j.line, j.column, j.grade);
        }
      }
      ideal.push_back(IdealEntry{j.doc, j.grade, gain});
    }
    for (IdealEntry& extra : graded_by_ranking_only_) {
      extra.gain = ranks_[first_rank_.at(*extra.doc) - 1].gain;
      ideal.push_back(std::move(extra));
    }
  } else {
    if (options_.ideal == IdealFrom::judgments && n_ > 0) {
      warnings_.add(Source::judgments, 0, 0,
                    "no judgments were given, so the ideal ranking is built from the grades in "
                    "the ranking");
    }
    ideal.reserve(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      const Rank& rank = ranks_[i];
      if (rank.repeated) continue;
      ideal.push_back(IdealEntry{whole_ ? ranking_.entries[order_[i]].doc : std::nullopt,
                                 rank.grade, rank.gain});
    }
  }
  std::stable_sort(ideal.begin(), ideal.end(),
                   [](const IdealEntry& a, const IdealEntry& b) { return a.gain > b.gain; });
}

// Under TieRule::average, every rank of a tie gains the mean of its documents' gains: the
// expected DCG over every order of the tied documents (McSherry & Najork, ECIR 2008).
void Explainer::share_tied_gains() {
  if (options_.ties != TieRule::average) return;
  for (std::size_t i = 0; i < n_;) {
    const Rank& first = ranks_[i];
    if (first.tie_first == 0) {
      ++i;
      continue;
    }
    const std::size_t end = first.tie_last;
    double sum = 0;
    for (std::size_t r = i; r < end; ++r) sum += ranks_[r].own_gain;
    const double mean = sum / static_cast<double>(end - i);
    for (std::size_t r = i; r < end; ++r) ranks_[r].gain = mean;
    i = end;
  }
}

// Step 3: what the reader should know about the inputs as a whole.
void Explainer::warn() {
  if (!whole_) return;
  // Judgments that cannot belong to this ranking: most often left over from another example.
  const bool judged_some = judgments_ != nullptr && !judgments_->items.empty();
  no_match_ = judged_some && with_id_ > 0 && matched_ == 0;
  if (judged_some && with_id_ == 0 && n_ > 0) {
    warnings_.add(Diagnostic{
        Source::judgments, 0, 0,
        options_.ideal == IdealFrom::judgments
            ? "the ranking is a list of grades without document ids, so no judgment can "
              "be matched to it: its own grades are used, and the ideal ranking is "
              "built from the " +
                  plural(judgments_->items.size(), "judged document", "judged documents") +
                  ". If these judgments belong to another example, clear them or take "
                  "the ideal from the ranked list"
            : "the ranking is a list of grades without document ids and the ideal comes "
              "from the ranked list, so the judgments are not used",
        "judgments-unmatched"});
  } else if (no_match_) {
    warnings_.add(
        Diagnostic{Source::judgments, 0, 0,
                   "none of the " + plural(with_id_, "ranked document", "ranked documents") +
                       " appears in the judgments (" +
                       plural(judgments_->items.size(), "judged document", "judged documents") +
                       ", first " + judgments_->items.front().doc +
                       (any_grade_ ? "), so only the grades written in the ranking count. "
                                   : "), so every ranked document counts as not relevant. ") +
                       "Are these judgments for another ranking? Replace or clear them",
                   "judgments-unmatched"});
  }

  // Warnings that summarise many documents at once.
  const std::string counted =
      std::string(unjudged_.count == 1 ? "counts" : "count") +
      (options_.unjudged_grade == 0
           ? " as not relevant (gain 0)"
           : " as grade " + format_number(options_.unjudged_grade) + " (option unjudgedGrade)");
  if (unjudged_.count > 0 && !no_match_) {
    if (judgments_ != nullptr) {
      warnings_.add(Source::ranking, unjudged_.first_line, 0,
                    plural(unjudged_.count, "ranked document has", "ranked documents have") +
                        " no judgment and " + counted + ": " + unjudged_.names);
    } else if (!any_grade_) {
      warnings_.add(Source::ranking, 0, 0,
                    "the ranking has no grades and no judgments were given, so every gain is "
                    "0; write 'doc grade' lines, one line of grades such as 3 2 3 0 1 2, or "
                    "paste judgments");
    } else {
      warnings_.add(Source::ranking, unjudged_.first_line, 0,
                    plural(unjudged_.count, "document has", "documents have") + " no grade and " +
                        counted + ": " + unjudged_.names);
    }
  }
  if (graded_outside_judgments_.count > 0 && options_.ideal == IdealFrom::judgments) {
    warnings_.add(Source::ranking, graded_outside_judgments_.first_line, 0,
                  plural(graded_outside_judgments_.count, "document is", "documents are") +
                      " graded in the ranking but not in the judgments and join the ideal "
                      "ranking: " +
                      graded_outside_judgments_.names);
  }
  if (below_level_.count > 0) {
    warnings_.add(
        Source::ranking, below_level_.first_line, 0,
        plural(below_level_.count, "document has", "documents have") + " a grade below " +
            format_number(*options_.relevant_from) +
            ", the grade from which documents are relevant (option relevantFrom), and count as "
            "not relevant (gain 0): " +
            below_level_.names);
  }
  if (negative_.count > 0) {
    warnings_.add(Source::ranking, negative_.first_line, 0,
                  plural(negative_.count, "document has", "documents have") +
                      " a negative grade and count as not relevant (gain 0), as in trec_eval: " +
                      negative_.names);
  }
  if (n_ == 0) {
    warnings_.add(Source::ranking, 0, 0,
                  "the ranking is empty: paste one document a line (optionally with its grade), "
                  "or one line of grades");
  }
}

// Step 4: rank by rank, the running sums and their quotient.
void Explainer::accumulate() {
  const std::vector<IdealEntry>& ideal = out_.ideal;
  if (whole_) out_.rows.resize(n_);
  const std::size_t depth = cut_off_depth();
  double cg = 0;
  double dcg = 0;
  double idcg = 0;
  for (std::size_t i = 0; i < n_ && errors_.empty(); ++i) {
    const Rank& rank = ranks_[i];
    const double discount = discount_of(i + 1);
    cg += rank.gain;
    const double term = rank.gain / discount;
    dcg += term;
    const bool in_ideal = i < ideal.size();
    const double ideal_term = in_ideal ? ideal[i].gain / discount : 0;
    if (in_ideal) idcg += ideal_term;
    if (!std::isfinite(cg) || !std::isfinite(idcg)) {
      errors_.add(Source::ranking, ranking_.entries[order_[i]].line, 0,
                  "the cumulated gain overflows at rank " + std::to_string(i + 1) +
                      "; grades this large cannot be added up");
      break;
    }
    if (i + 1 == depth) dcg_at_depth_ = dcg;
    if (!whole_) continue;
    const RankedEntry& entry = ranking_.entries[order_[i]];
    StepRow& row = out_.rows[i];
    row.rank = static_cast<std::uint32_t>(i + 1);
    row.doc = entry.doc;
    row.grade = rank.grade;
    row.judged = rank.judged;
    row.repeated = rank.repeated;
    row.gain = rank.gain;
    row.own_gain = rank.own_gain;
    if (ranking_.scored) row.score = entry.score;
    row.tie_first = rank.tie_first;
    row.tie_last = rank.tie_last;
    row.discount = discount;
    row.term = term;
    if (in_ideal) {
      row.ideal_doc = ideal[i].doc;
      row.ideal_grade = ideal[i].grade;
      row.ideal_gain = ideal[i].gain;
      row.ideal_term = ideal_term;
    }
    row.cg = cg;
    row.dcg = dcg;
    row.idcg = idcg;
    row.ndcg = idcg > 0 ? dcg / idcg : options_.ndcg_when_idcg_zero;
    if (options_.round_before_dividing) {
      const int d = *options_.round_before_dividing;
      row.rounded_dcg = round_to(dcg, d);
      row.rounded_idcg = round_to(idcg, d);
      row.rounded_ndcg =
          row.rounded_idcg > 0 ? row.rounded_dcg / row.rounded_idcg : options_.ndcg_when_idcg_zero;
    }
  }
}

// Step 5: the values at the cut-off.
void Explainer::summarise() {
  const std::vector<IdealEntry>& ideal = out_.ideal;
  Summary& s = out_.summary;
  s.k = options_.k == 0 ? static_cast<std::uint32_t>(n_) : options_.k;
  s.dcg_at_k = dcg_at_depth_;
  const std::size_t ideal_depth = options_.ideal_depth == IdealDepth::whole
                                      ? ideal.size()
                                      : std::min<std::size_t>(s.k, ideal.size());
  for (std::size_t i = 0; i < ideal_depth; ++i) s.idcg_at_k += ideal[i].gain / discount_of(i + 1);
  for (const IdealEntry& e : ideal) s.judged_relevant += e.gain > 0 ? 1 : 0;
  if (!std::isfinite(s.idcg_at_k) && errors_.empty()) {
    errors_.add(Source::judgments, 0, 0,
                "the ideal cumulated gain overflows; grades this large cannot be added up");
  }
  s.ndcg_at_k = s.idcg_at_k > 0 ? s.dcg_at_k / s.idcg_at_k : options_.ndcg_when_idcg_zero;
  s.rounded_decimals = options_.round_before_dividing;
  if (options_.round_before_dividing) {
    const int d = *options_.round_before_dividing;
    s.rounded_dcg_at_k = round_to(s.dcg_at_k, d);
    s.rounded_idcg_at_k = round_to(s.idcg_at_k, d);
    s.rounded_ndcg_at_k = s.rounded_idcg_at_k > 0 ? s.rounded_dcg_at_k / s.rounded_idcg_at_k
                                                  : options_.ndcg_when_idcg_zero;
  }
  if (options_.k > n_ && n_ > 0) {
    warnings_.add(Source::options, 0, 0,
                  "k = " + std::to_string(options_.k) + " is larger than the ranking (" +
                      plural(n_, "document", "documents") + "), so DCG@" +
                      std::to_string(options_.k) + " = DCG@" + std::to_string(n_));
  }
  if (s.idcg_at_k == 0 && n_ > 0) {
    warnings_.add(Source::judgments, 0, 0,
                  "no document has a positive gain, so IDCG is 0 and NDCG is reported as " +
                      format_number(options_.ndcg_when_idcg_zero) + " (option ndcgWhenIdcgZero)");
  }
}

Explanation Explainer::finish() {
  if (whole_) {
    warnings_.append(line_notes_);
    out_.warnings = warnings_.finish();
  } else {
    out_.ideal.clear();
  }
  if (!errors_.empty()) {
    out_.ok = false;
    out_.rows.clear();
    out_.ideal.clear();
    out_.summary = Summary{};
    out_.errors = errors_.finish();
    return std::move(out_);
  }
  out_.ok = true;
  return std::move(out_);
}

Explanation explain_parsed(const RankedList& ranking, const Judgments* judgments,
                           const std::vector<const Judgment*>* judged, const Options& options,
                           Detail detail) {
  return Explainer(ranking, judgments, judged, options, detail).run();
}

}  // namespace

Explanation explain(const RankedList& ranking, const Judgments* judgments, const Options& options,
                    Detail detail) {
  return explain_parsed(ranking, judgments, nullptr, options, detail);
}

}  // namespace ndcg
