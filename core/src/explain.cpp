// Cumulated gain, discounted cumulated gain and their normalisation, after Järvelin &
// Kekäläinen, "Cumulated gain-based evaluation of IR techniques", ACM TOIS 20(4), 2002.
#include "ndcg/explain.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>
#include <utility>

#include "ndcg/text.hpp"

namespace ndcg {
namespace {

constexpr std::size_t kListedDocs = 8;  // documents named in one aggregated warning

std::string format_number(double value) {
  std::string s = std::to_string(value);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

// Collects documents for one warning that names the first few and counts the rest.
struct DocTally {
  std::size_t count = 0;
  std::uint32_t first_line = 0;
  std::string names;

  void add(const std::string& doc, std::uint32_t line) {
    if (count == 0) first_line = line;
    if (count < kListedDocs) names += (count == 0 ? "" : ", ") + doc;
    if (count == kListedDocs) names += ", …";
    ++count;
  }
};

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace

Explanation explain(std::string_view ranking_text, std::string_view judgments_text,
                    const Options& options) {
  auto ranking = parse_ranking(ranking_text);
  auto judgments = parse_judgments(judgments_text);
  DiagnosticList errors;
  errors.append(ranking.errors);
  errors.append(judgments.errors);
  DiagnosticList warnings;
  warnings.append(ranking.warnings);
  warnings.append(judgments.warnings);
  if (!errors.empty()) {
    Explanation out;
    out.errors = errors.finish();
    out.warnings = warnings.finish();
    return out;
  }
  const Judgments* given = judgments.value.items.empty() ? nullptr : &judgments.value;
  Explanation out = explain(ranking.value, given, options);
  std::vector<Diagnostic> all = warnings.finish();
  all.insert(all.end(), out.warnings.begin(), out.warnings.end());
  out.warnings = std::move(all);
  return out;
}

Explanation explain(std::string_view ranking_text, std::string_view judgments_text,
                    const std::vector<OptionValue>& option_values) {
  Options options;
  DiagnosticList errors;
  for (const OptionValue& option : option_values) {
    if (auto error = set_option(options, option.name, option.value)) errors.add(std::move(*error));
  }
  if (errors.empty()) return explain(ranking_text, judgments_text, options);
  errors.append(parse_ranking(ranking_text).errors);
  errors.append(parse_judgments(judgments_text).errors);
  Explanation out;
  out.errors = errors.finish();
  return out;
}

Explanation explain(const RankedList& ranking, const Judgments* judgments, const Options& options) {
  Explanation out;
  DiagnosticList errors;
  DiagnosticList warnings;
  const std::size_t n = ranking.entries.size();
  out.rows.resize(n);

  // A grade whose gain is undefined is reported once, where its grade is written, however many
  // times the ranking and the ideal ranking meet it.
  std::set<std::pair<Source, std::uint32_t>> reported_gains;
  const auto report_undefined_gain = [&](Source source, std::uint32_t line, std::uint32_t column,
                                         double grade) {
    if (!reported_gains.emplace(source, line).second) return;
    errors.add(source, line, column,
               options.gain == GainKind::custom
                   ? "grade " + format_number(grade) + " has no gain in the custom gain map; add " +
                         format_number(grade) + "=<gain> to it"
                   : "grade " + format_number(grade) +
                         " is too large for exponential gain (2^grade − 1 overflows)");
  };

  // Grades and gains of the ranked documents.
  std::unordered_map<std::string, std::uint32_t> first_rank;
  first_rank.reserve(n);
  std::vector<IdealEntry> graded_by_ranking_only;  // recall-base additions (see explain.hpp)
  DocTally unjudged;
  DocTally graded_outside_judgments;
  DocTally negative;
  bool any_grade = false;
  std::size_t with_id = 0;  // ranked entries that name a document
  std::size_t matched = 0;  // of them, found in the judgments
  for (std::size_t i = 0; i < n; ++i) {
    const RankedEntry& entry = ranking.entries[i];
    StepRow& row = out.rows[i];
    row.rank = static_cast<std::uint32_t>(i + 1);
    row.doc = entry.doc;
    std::uint32_t grade_line = entry.line;
    std::uint32_t grade_column = entry.grade_column;
    Source grade_source = Source::ranking;
    with_id += entry.doc ? 1 : 0;
    if (judgments != nullptr && entry.doc) {
      if (const Judgment* j = judgments->find(*entry.doc)) {
        ++matched;
        row.grade = j->grade;
        row.judged = true;
        grade_line = j->line;
        grade_column = j->column;
        grade_source = Source::judgments;
        if (entry.grade && *entry.grade != j->grade) {
          warnings.add(Source::ranking, entry.line, entry.grade_column,
                       "the ranking gives " + *entry.doc + " grade " + format_number(*entry.grade) +
                           " but the judgments say " + format_number(j->grade) + " (line " +
                           std::to_string(j->line) + "); the judgment is used");
        }
      }
    }
    if (!row.judged && entry.grade) {
      row.grade = *entry.grade;
      row.judged = true;
    }
    any_grade = any_grade || entry.grade.has_value();
    if (!row.judged) unjudged.add(entry.doc.value_or("#" + std::to_string(i + 1)), entry.line);

    bool repeat = false;
    if (entry.doc) {
      auto [it, inserted] = first_rank.emplace(*entry.doc, row.rank);
      if (!inserted) {
        repeat = true;
        warnings.add(Source::ranking, entry.line, entry.doc_column,
                     *entry.doc + " is ranked again here (first at rank " +
                         std::to_string(it->second) +
                         "); a document can be found only once, so this repeat gains 0");
      } else if (judgments != nullptr && grade_source == Source::ranking && row.grade > 0) {
        // Relevant by the ranking's own word: without it in the recall base NDCG could pass 1.
        graded_by_ranking_only.push_back(IdealEntry{entry.doc, row.grade, 0});
        graded_outside_judgments.add(*entry.doc, entry.line);
      }
    }
    row.repeated = repeat;
    if (repeat) {
      row.gain = 0;
    } else if (row.grade < 0) {
      negative.add(entry.doc.value_or("#" + std::to_string(row.rank)), grade_line);
      row.gain = 0;
    } else if (auto gain = gain_of(row.grade, options)) {
      row.gain = *gain;
    } else {
      report_undefined_gain(grade_source, grade_line, grade_column, row.grade);
    }
  }

  // The ideal ranking.
  std::vector<IdealEntry>& ideal = out.ideal;
  if (options.ideal == IdealFrom::judgments && judgments != nullptr) {
    ideal.reserve(judgments->items.size() + graded_by_ranking_only.size());
    for (const Judgment& j : judgments->items) {
      double gain = 0;
      if (j.grade >= 0) {
        if (auto g = gain_of(j.grade, options)) {
          gain = *g;
        } else {
          report_undefined_gain(Source::judgments, j.line, j.column, j.grade);
        }
      }
      ideal.push_back(IdealEntry{j.doc, j.grade, gain});
    }
    for (IdealEntry& extra : graded_by_ranking_only) {
      extra.gain = out.rows[first_rank[*extra.doc] - 1].gain;
      ideal.push_back(std::move(extra));
    }
  } else {
    if (options.ideal == IdealFrom::judgments && n > 0) {
      warnings.add(Source::judgments, 0, 0,
                   "no judgments were given, so the ideal ranking is built from the grades in "
                   "the ranking");
    }
    ideal.reserve(n);
    for (const StepRow& row : out.rows) {
      if (!row.repeated) ideal.push_back(IdealEntry{row.doc, row.grade, row.gain});
    }
  }
  std::stable_sort(ideal.begin(), ideal.end(),
                   [](const IdealEntry& a, const IdealEntry& b) { return a.gain > b.gain; });

  // Judgments that cannot belong to this ranking: most often left over from another example.
  const bool judged_some = judgments != nullptr && !judgments->items.empty();
  const bool no_match = judged_some && with_id > 0 && matched == 0;
  if (judged_some && with_id == 0 && n > 0) {
    warnings.add(Diagnostic{
        Source::judgments, 0, 0,
        options.ideal == IdealFrom::judgments
            ? "the ranking is a list of grades without document ids, so no judgment can "
              "be matched to it: its own grades are used, and the ideal ranking is "
              "built from the " +
                  plural(judgments->items.size(), "judged document", "judged documents") +
                  ". If these judgments belong to another example, clear them or take "
                  "the ideal from the ranked list"
            : "the ranking is a list of grades without document ids and the ideal comes "
              "from the ranked list, so the judgments are not used",
        "judgments-unmatched"});
  } else if (no_match) {
    warnings.add(
        Diagnostic{Source::judgments, 0, 0,
                   "none of the " + plural(with_id, "ranked document", "ranked documents") +
                       " appears in the judgments (" +
                       plural(judgments->items.size(), "judged document", "judged documents") +
                       ", first " + judgments->items.front().doc +
                       (any_grade ? "), so only the grades written in the ranking count. "
                                  : "), so every ranked document counts as not relevant. ") +
                       "Are these judgments for another ranking? Replace or clear them",
                   "judgments-unmatched"});
  }

  // Warnings that summarise many documents at once.
  if (unjudged.count > 0 && !no_match) {
    if (judgments != nullptr) {
      warnings.add(Source::ranking, unjudged.first_line, 0,
                   plural(unjudged.count, "ranked document has", "ranked documents have") +
                       " no judgment and count as not relevant (gain 0): " + unjudged.names);
    } else if (!any_grade) {
      warnings.add(Source::ranking, 0, 0,
                   "the ranking has no grades and no judgments were given, so every gain is 0; "
                   "write 'doc grade' lines, one line of grades such as 3 2 3 0 1 2, or paste "
                   "judgments");
    } else {
      warnings.add(Source::ranking, unjudged.first_line, 0,
                   plural(unjudged.count, "document has", "documents have") +
                       " no grade and count as not relevant (gain 0): " + unjudged.names);
    }
  }
  if (graded_outside_judgments.count > 0 && options.ideal == IdealFrom::judgments) {
    warnings.add(Source::ranking, graded_outside_judgments.first_line, 0,
                 plural(graded_outside_judgments.count, "document is", "documents are") +
                     " graded in the ranking but not in the judgments and join the ideal "
                     "ranking: " +
                     graded_outside_judgments.names);
  }
  if (negative.count > 0) {
    warnings.add(Source::ranking, negative.first_line, 0,
                 plural(negative.count, "document has", "documents have") +
                     " a negative grade and count as not relevant (gain 0), as in trec_eval: " +
                     negative.names);
  }
  if (n == 0) {
    warnings.add(Source::ranking, 0, 0,
                 "the ranking is empty: paste one document a line (optionally with its grade), "
                 "or one line of grades");
  }

  // Step by step, rank by rank.
  const auto discount_of = [&](std::size_t rank) {
    return discount_at(static_cast<std::uint32_t>(rank), options);
  };
  double cg = 0;
  double dcg = 0;
  double idcg = 0;
  for (std::size_t i = 0; i < n && errors.empty(); ++i) {
    StepRow& row = out.rows[i];
    row.discount = discount_of(i + 1);
    cg += row.gain;
    row.term = row.gain / row.discount;
    dcg += row.term;
    if (i < ideal.size()) {
      row.ideal_doc = ideal[i].doc;
      row.ideal_grade = ideal[i].grade;
      row.ideal_gain = ideal[i].gain;
      row.ideal_term = row.ideal_gain / row.discount;
      idcg += row.ideal_term;
    }
    row.cg = cg;
    row.dcg = dcg;
    row.idcg = idcg;
    if (!std::isfinite(cg) || !std::isfinite(idcg)) {
      errors.add(Source::ranking, ranking.entries[i].line, 0,
                 "the cumulated gain overflows at rank " + std::to_string(i + 1) +
                     "; grades this large cannot be added up");
      break;
    }
    row.ndcg = idcg > 0 ? dcg / idcg : options.ndcg_when_idcg_zero;
    if (options.round_before_dividing) {
      const int d = *options.round_before_dividing;
      row.rounded_dcg = round_to(dcg, d);
      row.rounded_idcg = round_to(idcg, d);
      row.rounded_ndcg =
          row.rounded_idcg > 0 ? row.rounded_dcg / row.rounded_idcg : options.ndcg_when_idcg_zero;
    }
  }

  // The summary at the cut-off.
  Summary& s = out.summary;
  s.k = options.k == 0 ? static_cast<std::uint32_t>(n) : options.k;
  const std::size_t depth = std::min<std::size_t>(s.k, n);
  s.dcg_at_k = depth == 0 ? 0 : out.rows[depth - 1].dcg;
  const std::size_t ideal_depth = options.ideal_depth == IdealDepth::whole
                                      ? ideal.size()
                                      : std::min<std::size_t>(s.k, ideal.size());
  for (std::size_t i = 0; i < ideal_depth; ++i) s.idcg_at_k += ideal[i].gain / discount_of(i + 1);
  for (const IdealEntry& e : ideal) s.judged_relevant += e.gain > 0 ? 1 : 0;
  if (!std::isfinite(s.idcg_at_k) && errors.empty()) {
    errors.add(Source::judgments, 0, 0,
               "the ideal cumulated gain overflows; grades this large cannot be added up");
  }
  s.ndcg_at_k = s.idcg_at_k > 0 ? s.dcg_at_k / s.idcg_at_k : options.ndcg_when_idcg_zero;
  s.rounded_decimals = options.round_before_dividing;
  if (options.round_before_dividing) {
    const int d = *options.round_before_dividing;
    s.rounded_dcg_at_k = round_to(s.dcg_at_k, d);
    s.rounded_idcg_at_k = round_to(s.idcg_at_k, d);
    s.rounded_ndcg_at_k = s.rounded_idcg_at_k > 0 ? s.rounded_dcg_at_k / s.rounded_idcg_at_k
                                                  : options.ndcg_when_idcg_zero;
  }
  if (options.k > n && n > 0) {
    warnings.add(Source::options, 0, 0,
                 "k = " + std::to_string(options.k) + " is larger than the ranking (" +
                     plural(n, "document", "documents") + "), so DCG@" + std::to_string(options.k) +
                     " = DCG@" + std::to_string(n));
  }
  if (s.idcg_at_k == 0 && n > 0) {
    warnings.add(Source::judgments, 0, 0,
                 "no document has a positive gain, so IDCG is 0 and NDCG is reported as " +
                     format_number(options.ndcg_when_idcg_zero) + " (option ndcgWhenIdcgZero)");
  }

  out.warnings = warnings.finish();
  if (!errors.empty()) {
    out.ok = false;
    out.rows.clear();
    out.ideal.clear();
    out.summary = Summary{};
    out.errors = errors.finish();
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace ndcg
