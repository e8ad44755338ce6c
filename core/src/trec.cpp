// TREC evaluation: the evaluator, which ranks each query once as trec_eval 10.0 does (score
// descending, docno descending, cut at -M, unjudged documents removed under -J) and runs every
// requested measure of the catalogue over it (trec_measures.cpp), then averages over queries and
// prints trec_eval's lines. Readers are in trec_read.cpp, measure names in trec_names.cpp.
#include "ndcg/trec.hpp"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>

#include "ndcg/options.hpp"
#include "pack.hpp"
#include "score_sort.hpp"
#include "trec_measures.hpp"
#include "trec_memory.hpp"
#include "trec_prefs.hpp"

namespace ndcg::trec {

namespace {

constexpr double kMissingZscore = -1000000;        // trec_eval's value where -Z has no mean
constexpr std::size_t kExplanationRowBytes = 160;  // estimated bytes per row of a kept table

double as_count(std::int64_t n) {
  return static_cast<double>(n);
}

// Ranks [0, k) of n: a 64-bit cut-off is compared before it is narrowed to a size_t (32 bits
// in wasm), so that a cut-off of 2^32 + 1 means "all of them", not 1.
std::size_t depth_of(std::int64_t k, std::size_t n) {
  if (k <= 0) return 0;
  return static_cast<std::uint64_t>(k) < n ? static_cast<std::size_t>(k) : n;
}

}  // namespace

std::string megabytes(std::size_t bytes) {
  return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + " MB"
                                         : std::to_string(bytes >> 10) + " KB";
}

std::optional<Diagnostic> set_eval_option(EvalOptions& options, std::string_view name,
                                          std::string_view raw_value) {
  const std::string_view value = trim(raw_value);
  const auto error = [&](std::string message) {
    return Diagnostic{Source::options, 0, 0, "option " + std::string(name) + ": " + message};
  };
  if (name == "relevanceLevel") {
    bool out_of_range = false;
    const auto level = parse_integer(value, &out_of_range);
    if (!level || *level < 0) {
      return error("the relevance level must be a whole number 0 or more, such as 1 or 2, got " +
                   quote(value) +
                   (out_of_range ? " (too large for a 64-bit integer)"
                    : level      ? " (documents missing from the qrels are never relevant)"
                                 : ""));
    }
    options.relevance_level = *level;
    return std::nullopt;
  }
  if (name == "averageComplete") {
    if (value != "true" && value != "false")
      return error("expected true or false, got " + quote(value));
    options.average_complete = value == "true";
    return std::nullopt;
  }
  if (name == "judgedOnly") {
    if (value != "true" && value != "false")
      return error("expected true or false, got " + quote(value));
    options.judged_only = value == "true";
    return std::nullopt;
  }
  if (name == "maxPerQuery" || name == "docsInCollection") {
    bool out_of_range = false;
    const auto number = parse_integer(value, &out_of_range);
    if (!number || *number < 0) {
      return error("expected a whole number 0 or more, got " + quote(value));
    }
    (name == "maxPerQuery" ? options.max_per_query : options.docs_in_collection) = *number;
    return std::nullopt;
  }
  if (name == "relInfoFormat") {
    static const std::pair<std::string_view, RelFormat> formats[] = {
        {"qrels", RelFormat::qrels},
        {"qrels_jg", RelFormat::qrels_jg},
        {"prefs", RelFormat::prefs},
        {"qrels_prefs", RelFormat::qrels_prefs}};
    for (const auto& [text, format] : formats) {
      if (value != text) continue;
      options.rel_format = format;
      return std::nullopt;
    }
    return error(
        "the relevance file formats read are qrels, qrels_jg (judgment groups), prefs "
        "(preferences) and qrels_prefs (a qrels file read as preferences), not " +
        quote(value));
  }
  if (name == "onlyQuery") {
    options.only_query.assign(value);
    return std::nullopt;
  }
  if (name == "zscores") {
    if (value.empty()) {
      options.zscores.reset();
      return std::nullopt;
    }
    DiagnosticList errors;
    auto table = read_zscores(raw_value, errors);
    if (!table) {
      const Diagnostic& first = errors.items().front();
      return Diagnostic{
          Source::options, first.line, first.column,
          "option zscores, line " + std::to_string(first.line) + ": " + first.message};
    }
    options.zscores = std::move(table);
    return std::nullopt;
  }
  if (name == "explainQuery") {
    options.explain_query.assign(value);
    return std::nullopt;
  }
  if (name == "explainAll") {
    if (value != "true" && value != "false")
      return error("expected true or false, got " + quote(value));
    options.explain_all = value == "true";
    return std::nullopt;
  }
  if (name == "querySpans") {
    if (value != "true" && value != "false")
      return error("expected true or false, got " + quote(value));
    options.query_spans = value == "true";
    return std::nullopt;
  }
  if (name == "explainMeasure") {
    options.explain_measure.assign(value);
    return std::nullopt;
  }
  if (name == "explainCutoff") {
    const auto k = parse_integer(value);
    if (!k || *k < 0) {
      return error("the cut-off must be a whole number 0 or more (0: the whole ranking), got " +
                   quote(value));
    }
    options.explain_cutoff = *k;
    return std::nullopt;
  }
  static constexpr std::string_view kConventions[] = {
      "preset", "gain",          "discount",      "base",         "ideal",
      "ties",   "negativeGains", "unjudgedGrade", "relevantFrom", "ndcgWhenIdcgZero"};
  if (std::find(std::begin(kConventions), std::end(kConventions), name) != std::end(kConventions)) {
    Options conventions;
    if (name == "preset" || !options.conventions) {
      apply_preset(conventions, "trec_eval");
    } else {
      conventions = *options.conventions;
    }
    if (auto e = set_option(conventions, name, value)) return e;
    options.conventions = std::move(conventions);
    return std::nullopt;
  }
  if (name == "k" || name == "idealDepth") {
    return error(
        "in a TREC evaluation the measure sets the depth: ndcg is the whole ranking over the "
        "whole ideal, ndcg_cut.10 (nDCG@10) both cut at 10");
  }
  if (name == "rankingNumbers" || name == "roundBeforeDividing") {
    return error("applies to a pasted ranking, not to a TREC evaluation");
  }
  return error(
      "unknown option; the options are relevanceLevel, averageComplete, judgedOnly, "
      "maxPerQuery, docsInCollection, onlyQuery, zscores, explainQuery, explainAll, explainCutoff, "
      "explainMeasure, querySpans, relInfoFormat, and the "
      "conventions preset, gain, discount, base, ideal, ties, "
      "negativeGains, unjudgedGrade, relevantFrom and ndcgWhenIdcgZero");
}

DiagnosticList set_eval_options(EvalOptions& options, const std::vector<OptionValue>& values) {
  return set_in_preset_order(values, [&](std::string_view name, std::string_view value) {
    return set_eval_option(options, name, value);
  });
}

DiagnosticList configure_evaluation(EvalOptions& options, const std::vector<std::string>& measures,
                                    const std::vector<OptionValue>& values) {
  DiagnosticList errors;
  for (const std::string& name : measures) {
    if (auto error = add_measure(options, name)) errors.add(std::move(*error));
  }
  errors.append(set_eval_options(options, values));
  return errors;
}

namespace {

// ndcg's gain map as Options::custom_gains: every judged grade maps to its override, or to itself.
// One entry per distinct grade, ascending.
std::vector<std::pair<double, double>> custom_gains(const Measure& m, const QueryQrels& qrels) {
  std::vector<std::pair<double, double>> gains;
  for (auto g = qrels.grade_counts.rbegin(); g != qrels.grade_counts.rend(); ++g) {
    const auto override_of = std::lower_bound(
        m.gains.begin(), m.gains.end(), g->first,
        [](const auto& entry, std::int64_t wanted) { return entry.first < wanted; });
    const double gain = override_of != m.gains.end() && override_of->first == g->first
                            ? override_of->second
                            : static_cast<double>(g->first);
    gains.emplace_back(static_cast<double>(g->first), gain);
  }
  return gains;
}

Judgments judgments_of(const QueryQrels& qrels) {
  Judgments judged;
  judged.items.reserve(qrels.by_doc.size());
  for (const JudgedDocs::Entry& j : qrels.by_doc.entries()) {
    judged.items.push_back(
        Judgment{std::string(qrels.by_doc.docno(j)), static_cast<double>(j.grade), j.line, 0});
  }
  // The qrels are unordered; the ideal ranking breaks ties by document id.
  std::sort(judged.items.begin(), judged.items.end(),
            [](const Judgment& a, const Judgment& b) { return a.doc < b.doc; });
  for (std::size_t i = 0; i < judged.items.size(); ++i) judged.index_of[judged.items[i].doc] = i;
  return judged;
}

// NDCG at cut-off k from an explanation of the whole ranking: DCG of the top k ranks over the
// top k of the ideal.
double ndcg_at(const Explanation& e, std::int64_t k, const Options& conventions) {
  const std::size_t depth = depth_of(k, e.rows.size());
  const double dcg = depth == 0 ? 0.0 : e.rows[depth - 1].dcg;
  const std::size_t ideal_depth = depth_of(k, e.ideal.size());
  double idcg = 0;
  for (std::size_t i = 0; i < ideal_depth; ++i) {
    idcg += e.ideal[i].gain / discount_at(static_cast<std::uint32_t>(i + 1), conventions);
  }
  return idcg > 0 ? dcg / idcg : conventions.ndcg_when_idcg_zero;
}

}  // namespace

Explanation Evaluator::explain_conventions(const QueryRun& run, const QueryQrels& qrels,
                                           const Measure* gain_map, std::int64_t cutoff,
                                           Detail detail) const {
  RankedList ranked;
  ranked.entries.reserve(run.docs.size());
  for (const auto& d : run.docs) {
    ranked.entries.push_back(
        RankedEntry{std::string(run.docno(d)), std::nullopt, d.line, d.column, 0, d.score, 0});
  }
  ranked.scored = true;
  ranked.numbers_from = NumbersFrom::run;
  const Judgments judged = judgments_of(qrels);
  Options conventions = *options_.conventions;
  if (gain_map != nullptr && !gain_map->gains.empty()) {
    conventions.gain = GainKind::custom;
    conventions.custom_gains = custom_gains(*gain_map, qrels);
  }
  if (cutoff > 0) {
    conventions.k = static_cast<std::uint32_t>(
        std::min<std::int64_t>(cutoff, std::numeric_limits<std::uint32_t>::max()));
    conventions.ideal_depth = IdealDepth::cut;
  } else {
    conventions.k = 0;
    conventions.ideal_depth = IdealDepth::whole;
  }
  return explain(ranked, judged.items.empty() ? nullptr : &judged, conventions, detail);
}

Explanation Evaluator::explain_one(const QueryRun& run, const std::vector<std::uint32_t>& order,
                                   const QueryQrels& qrels) {
  if (options_.conventions) {
    const Measure* gain_map = nullptr;
    for (const Measure& m : options_.measures) {
      if (m.definition().name == "ndcg" && !m.gains.empty()) gain_map = &m;
    }
    return explain_conventions(run, qrels, gain_map, options_.explain_cutoff);
  }
  const std::size_t n = run.docs.size();
  RankedList ranked;
  ranked.entries.reserve(n);
  for (std::size_t r = 0; r < n; ++r) {
    const auto& d = run.docs[order[r]];
    ranked.entries.push_back(
        RankedEntry{std::string(run.docno(d)), std::nullopt, d.line, 0, 0, std::nullopt, 0});
  }
  const Judgments judged = judgments_of(qrels);
  Options conventions;
  // ndcg: the whole ranking, IDCG over the whole ideal; ndcg_cut.k: both cut at k.
  if (options_.explain_cutoff > 0) {
    conventions.k = static_cast<std::uint32_t>(
        std::min<std::int64_t>(options_.explain_cutoff, std::numeric_limits<std::uint32_t>::max()));
    conventions.ideal_depth = IdealDepth::cut;
  } else {
    conventions.ideal_depth = IdealDepth::whole;
  }
  for (const Measure& m : options_.measures) {
    if (m.definition().name != "ndcg" || m.gains.empty()) continue;
    conventions.gain = GainKind::custom;
    conventions.custom_gains = custom_gains(m, qrels);
  }
  return explain(ranked, judged.items.empty() ? nullptr : &judged, conventions);
}

Evaluator::Evaluator(const QrelsReader& qrels, EvalOptions options)
    : qrels_(qrels), next_qrels_(qrels.queries().begin()), options_(std::move(options)) {
  if (options_.measures.empty()) {
    switch (options_.rel_format) {
      case RelFormat::qrels:
        add_measure(options_, "official");
        break;
      case RelFormat::qrels_jg:
        add_measure(options_, "qrels_jg");
        break;
      case RelFormat::prefs:
      case RelFormat::qrels_prefs:
        add_measure(options_, "prefs");
        break;
    }
  }
  // trec_eval prints measures in the order of its own table, whatever the command line says.
  std::stable_sort(options_.measures.begin(), options_.measures.end(),
                   [](const Measure& a, const Measure& b) { return a.def < b.def; });
  for (const Measure& m : options_.measures) {
    const MeasureDef& d = m.definition();
    const std::vector<std::string> names = column_names(m);
    for (std::size_t i = 0; i < names.size(); ++i) {
      Column c;
      c.name = names[i];
      c.value = d.value;
      c.summary = d.summary;
      c.per_query = d.per_query;
      c.whole_number = d.value == ValueKind::whole;
      c.measure = m.position;
      c.cutoff = d.params == ParamKind::long_cutoffs && i < m.cutoffs.size() ? m.cutoffs[i] : 0;
      columns_.push_back(std::move(c));
    }
    widths_.push_back(names.size());
    // runid is text too, but the run's: no query holds one.
    any_text_ = any_text_ || (d.value == ValueKind::text && d.per_query);
  }
  for (const Diagnostic& note : options_.notes) warnings_.add(note);
  for (const Measure& m : options_.measures) {
    const MeasureDef& d = m.definition();
    if (reads_format(d, options_.rel_format)) continue;
    std::string why;
    if (is_preference_measure(d)) {
      why = " reads preferences: give them as -R prefs, or a qrels file as -R qrels_prefs";
    } else if (needs_judgment_groups(d)) {
      why = " averages over judgment groups: give the qrels as -R qrels_jg";
    } else if (options_.rel_format == RelFormat::qrels_jg) {
      why =
          " reads plain qrels; with judgment groups (-R qrels_jg) the measures are "
          "map_avgjg, P_avgjg, Rprec_mult_avgjg (the set qrels_jg)";
    } else {
      why =
          " reads graded judgments (qrels); with preferences (-R prefs, -R qrels_prefs) the "
          "measures are the prefs_* ones (the sets prefs and all_prefs)";
    }
    errors_.add(Source::options, 0, 0, "measure " + std::string(d.name) + why);
  }
  // trec_eval 10.0 keeps one gain map for dcg, ideal_dcg and ndcg: the last of them given
  // parameters (in its order) sets the gains of all three, and names them.
  std::vector<const Measure*> shared;
  for (const Measure& m : options_.measures) {
    const std::string_view name = m.definition().name;
    if ((name == "dcg" || name == "ideal_dcg" || name == "ndcg") && m.name.empty()) {
      shared.push_back(&m);
    }
  }
  const auto requested = [&](std::string_view name) {
    return std::any_of(options_.measures.begin(), options_.measures.end(),
                       [&](const Measure& m) { return m.definition().name == name; });
  };
  if (requested("rbp") && requested("yaap")) {
    warnings_.add(Diagnostic{
        Source::options, 0, 0,
        "rbp with yaap: trec_eval 10.0 rescales rbp's gains starting from uninitialised "
        "variables, which yaap, computed just before it, leaves set; its rbp then differs from "
        "the one printed here (which is its rbp computed alone or with all_trec)",
        "rbp-uninitialised"});
  }
  for (const Measure* m : shared) {
    if (m->parameters == shared.front()->parameters) continue;
    warnings_.add(Diagnostic{
        Source::options, 0, 0,
        "dcg, ideal_dcg and ndcg are given different gains; each uses its own here, while "
        "trec_eval 10.0 shares one gain map between them (the last given, in the order dcg, "
        "ideal_dcg, ndcg), so that its values and column names differ",
        "shared-gains"});
    break;
  }
  // Said by every evaluator at its start: absorb takes a later part's diagnostics after these.
  initial_errors_ = errors_.items().size();
  initial_warnings_ = warnings_.items().size();
}

Evaluator::~Evaluator() = default;

// Called for every query of the run: what it seldom does (errors, a query the qrels do not
// have) is out of line, so that it stays small for a wasm engine to optimise.
void Evaluator::add(const QueryRun& run) {
  const auto& queries = qrels_.queries();
  auto it = next_qrels_;
  if (it == queries.end() || it->first != run.qid) it = queries.find(run.qid);
  if (it != queries.end()) next_qrels_ = std::next(it);
  if (it == queries.end()) {
    note_run_without_qrels(run.qid);
  } else if (it->second.dropped) {
    missed_judgments_ = true;  // its part is not joined (Session::absorb)
  } else if (options_.only_query.empty() || names_id(run.qid, options_.only_query)) {
    gains_overflowed_ = false;
    QueryValues values = evaluate(run, it->second);
    if (!values.values.empty()) {
      // A gain map whose sums may overflow (trec_eval then prints 0 or -nan): an error. A NaN
      // alone is not one: trec_eval's Rndcg is 0 / 0 when no ideal gain level is ever reached.
      if (gains_overflowed_ && !overflow_reported_) report_overflow(run.qid);
      kept_ += run.qid.size() + kQueryOverhead + values.values.size() * sizeof(double);
      for (const std::string& t : values.texts) kept_ += t.size();
      results_sorted_ = results_sorted_ && (results_.empty() || results_.back().qid < run.qid);
      results_.push_back(std::move(values));
    }
  }
  if (kept_ > options_.results_memory_limit && !errors_.full()) report_results_memory(run);
}

void Evaluator::note_run_without_qrels(const std::string& qid) {
  if (runs_without_qrels_.insert(qid).second) kept_ += qid.size() + kQueryOverhead;
}

void Evaluator::report_overflow(const std::string& qid) {
  overflow_reported_ = true;
  overflow_at_ = errors_.items().size();
  errors_.add(Source::options, 0, 0,
              "the gains are too large: query " + quote(qid) +
                  " adds up to more than a double holds; use gains below 1e300");
}

void Evaluator::report_results_memory(const QueryRun& run) {
  const std::uint32_t first_line = run.docs.empty() ? 0 : run.docs.front().line;
  errors_.add(Source::run, first_line, 0,
              "the per-query results need more than " + megabytes(options_.results_memory_limit) +
                  " of memory by this query (" +
                  std::to_string(results_.size() + runs_without_qrels_.size()) +
                  " queries); evaluate fewer queries or measures at a time" +
                  (options_.explain_all ? ", or explain one query (-D N.QID)" : ""));
  options_.results_memory_limit = SIZE_MAX;  // reported once
}

void Evaluator::part(RunPart& out) {
  out.results = std::move(results_);
  results_.clear();
  out.results_sorted = results_sorted_;
  out.runs_without_qrels.assign(runs_without_qrels_.begin(), runs_without_qrels_.end());
  out.negative_only = negative_only_;
  out.negative_only_count = negative_only_count_;
  out.overflow_reported = overflow_reported_;
  out.gain_order_reported = gain_order_reported_;
  out.err_grade_reported = err_grade_reported_;
  // Positions after what every evaluator says at its start, which the part leaves out.
  const auto after = [](std::size_t at, std::size_t initial) {
    return at == SIZE_MAX ? SIZE_MAX : at - initial;
  };
  out.overflow_at = after(overflow_at_, initial_errors_);
  out.err_grade_at = after(err_grade_at_, initial_errors_);
  out.gain_order_at = after(gain_order_at_, initial_warnings_);
  out.errors.assign(errors_.items().begin() + static_cast<std::ptrdiff_t>(initial_errors_),
                    errors_.items().end());
  out.warnings.assign(warnings_.items().begin() + static_cast<std::ptrdiff_t>(initial_warnings_),
                      warnings_.items().end());
  out.lists_whole =
      errors_.size() == errors_.items().size() && warnings_.size() == warnings_.items().size();
  out.kept = kept_;
  out.missed_judgments = missed_judgments_;
}

bool Evaluator::absorb(RunPart& later) {
  const auto whole = [](const DiagnosticList& list) { return list.size() == list.items().size(); };
  const std::size_t kept = kept_ + later.kept;
  if (!whole(errors_) || !whole(warnings_) || !later.lists_whole ||
      errors_.items().size() + later.errors.size() >= DiagnosticList::kDefaultLimit ||
      warnings_.items().size() + later.warnings.size() >= DiagnosticList::kDefaultLimit ||
      kept > options_.results_memory_limit || kept < kept_) {
    return false;
  }
  if (!later.results.empty()) {
    results_sorted_ = results_sorted_ && later.results_sorted &&
                      (results_.empty() || results_.back().qid < later.results.front().qid);
    results_.insert(results_.end(), std::make_move_iterator(later.results.begin()),
                    std::make_move_iterator(later.results.end()));
    later.results.clear();
  }
  runs_without_qrels_.insert(later.runs_without_qrels.begin(), later.runs_without_qrels.end());
  for (const std::string& qid : later.negative_only) {
    if (negative_only_.size() < 8) negative_only_.push_back(qid);
  }
  negative_only_count_ += later.negative_only_count;
  // What is said once is said by the part that met it first.
  const auto take = [](DiagnosticList& into, const std::vector<Diagnostic>& from,
                       std::initializer_list<std::pair<std::size_t, bool>> skipped) {
    for (std::size_t i = 0; i < from.size(); ++i) {
      bool skip = false;
      for (const auto& [at, said] : skipped) skip = skip || (i == at && said);
      if (!skip) into.add(from[i]);
    }
  };
  take(errors_, later.errors,
       {{later.overflow_at, overflow_reported_}, {later.err_grade_at, err_grade_reported_}});
  take(warnings_, later.warnings, {{later.gain_order_at, gain_order_reported_}});
  overflow_reported_ = overflow_reported_ || later.overflow_reported;
  err_grade_reported_ = err_grade_reported_ || later.err_grade_reported;
  gain_order_reported_ = gain_order_reported_ || later.gain_order_reported;
  kept_ = kept;
  return true;
}

// Whether a docno is retrieved twice within the documents kept: one pass over an open-addressed
// table of 31 bits of their docno hashes (cleared for every query: 8 KB for 1,000 documents),
// which says no at once for the common ranking; when two match (for 1,000 docnos, at most about
// once in 4,000 rankings), a table of ranks compares the docnos themselves.
namespace {

// The size of an open-addressed table for `count` documents: a power of two, at most a quarter
// full. Filled to half, the slot first tried was taken for about one document in four, a branch
// the processor could not predict; filled to a quarter, for about one in eight.
std::size_t repeat_table_size(std::size_t count) {
  std::size_t size = 16;
  while (size < count * 4) size *= 2;
  return size;
}

}  // namespace

bool Evaluator::has_repeat(const QueryRun& run, const std::vector<std::uint32_t>& order) {
  const std::size_t size = repeat_table_size(order.size());
  // Cleared with memset, and grown only when a larger query needs it: vector::assign, called
  // for every query, was a function V8 optimised of its own (1.5 KB of wasm).
  if (seen_.size() < size) seen_.resize(size);
  std::memset(seen_.data(), 0, size * sizeof(seen_[0]));
  const std::size_t mask = size - 1;
  for (const std::uint32_t index : order) {
    const std::uint64_t hash = run.docs[index].hash;
    const auto high = static_cast<std::uint32_t>(hash >> 32) | 1;  // never 0, the empty slot
    for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
      if (seen_[i] == 0) {
        seen_[i] = high;
        break;
      }
      if (seen_[i] == high) return has_repeated_docno(run, order);
    }
  }
  return false;
}

bool Evaluator::has_repeated_docno(const QueryRun& run, const std::vector<std::uint32_t>& order) {
  const std::size_t size = repeat_table_size(order.size());
  std::vector<std::uint32_t> seen(size, UINT32_MAX);
  const std::size_t mask = size - 1;
  for (const std::uint32_t index : order) {
    const QueryRun::Doc& doc = run.docs[index];
    for (std::size_t i = static_cast<std::size_t>(doc.hash) & mask;; i = (i + 1) & mask) {
      if (seen[i] == UINT32_MAX) {
        seen[i] = index;
        break;
      }
      const QueryRun::Doc& other = run.docs[seen[i]];
      if (other.hash == doc.hash && run.docno(other) == run.docno(doc)) return true;
    }
  }
  return false;
}

// A docno retrieved twice is an error, as in trec_eval. The kept documents sorted by docno, then
// rank, put repeats side by side; the one reported is the repeat met first going down the
// ranking.
void Evaluator::report_repeat(const QueryRun& run, const std::vector<std::uint32_t>& order) {
  std::vector<std::pair<std::string_view, std::uint32_t>> by_docno;
  by_docno.reserve(order.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    by_docno.emplace_back(run.docno(run.docs[order[r]]), static_cast<std::uint32_t>(r));
  }
  std::sort(by_docno.begin(), by_docno.end());
  std::size_t repeat = by_docno.size();  // index of the earliest-ranked repeat
  for (std::size_t i = 1; i < by_docno.size(); ++i) {
    if (by_docno[i].first != by_docno[i - 1].first) continue;
    if (repeat == by_docno.size() || by_docno[i].second < by_docno[repeat].second) repeat = i;
  }
  if (repeat == by_docno.size()) return;
  // The first ranked copy of that docno, and the repeat.
  std::size_t first = repeat;
  while (first > 0 && by_docno[first - 1].first == by_docno[repeat].first) --first;
  const auto& a = run.docs[order[by_docno[first].second]];
  const auto& b = run.docs[order[by_docno[repeat].second]];
  const auto& later = a.line < b.line ? b : a;
  const auto& earlier = a.line < b.line ? a : b;
  errors_.add(Source::run, later.line, later.column,
              "document " + quote(by_docno[repeat].first) + " is retrieved twice for query " +
                  quote(run.qid) + " (lines " + std::to_string(earlier.line) + " and " +
                  std::to_string(later.line) + "); trec_eval rejects this, keep one line");
}

// In wasm, evaluate() is compiled again, optimised, once it has run for a few queries, in a time
// that grows with its size: the ranking's order, the ranking against a set of judgments and
// the rare paths are functions of their own (7.3 KB of wasm took 33-37 ms to optimise whole).
QueryValues Evaluator::evaluate(const QueryRun& run, const QueryQrels& qrels) {
  const bool preferences =
      options_.rel_format == RelFormat::prefs || options_.rel_format == RelFormat::qrels_prefs;
  if (!rank_order(run, preferences)) return {};
  const std::vector<std::uint32_t>& order = order_;
  if (preferences) return evaluate_preferences(run, order, qrels);
  // Whether this is the query explainQuery names: asked once, for its table and its working.
  const bool named = !options_.explain_query.empty() && names_id(run.qid, options_.explain_query);
  if (options_.explain_all || named) keep_explanations(run, order, qrels, named);
  const bool judgment_groups = options_.rel_format == RelFormat::qrels_jg;
  const bool show_working = !options_.explain_measure.empty() && named && !judgment_groups;
  std::vector<std::string_view> ranked_docnos;
  std::vector<Ranked> groups;
  Ranked ranked;
  if (judgment_groups) {
    rank_against_groups(run, qrels, groups, ranked);
  } else {
    rank_against(run, qrels, show_working ? &ranked_docnos : nullptr, ranked);
    if (ranked.levels.empty()) note_negative_only(run.qid);
  }
  const MeasureContext base{options_.relevance_level, ranked.num_rel, ranked.num_rel_ret,
                            options_.docs_in_collection};

  QueryValues out = zeroed(run.qid);
  std::size_t column = 0;
  for (std::size_t measure = 0; measure < options_.measures.size(); ++measure) {
    const Measure& m = options_.measures[measure];
    const std::string_view name = m.definition().name;
    const std::size_t width = widths_[measure];
    double* values = out.values.data() + column;
    std::string* text = any_text_ ? &out.texts[column] : nullptr;
    column += width;
    if (options_.conventions && (name == "ndcg" || name == "ndcg_cut")) {
      conventions_values(m, run, qrels, values);
      continue;
    }
    if (name == "err" && !ranked.levels.empty() && ranked.levels.back().first > 4 &&
        !err_grade_reported_) {
      report_err_grade(run.qid, ranked.levels.back().first);
    }
    // The ranking the measure reads (cut at its own depth, RR@10) and its relevance level (its
    // own, AP(rel=2), or -l): one basis for its value and its working.
    const bool own_level = m.relevance_level >= 0 && m.relevance_level != options_.relevance_level;
    const bool own_depth = m.depth > 0 && static_cast<std::uint64_t>(m.depth) < ranked.rel.size();
    Ranked cut;
    if (own_depth) cut_ranking(ranked, static_cast<std::size_t>(m.depth), cut);
    const Ranked& basis = own_depth ? cut : ranked;
    const MeasureContext c =
        own_depth || own_level
            ? context_for(basis, own_level ? m.relevance_level : options_.relevance_level)
            : base;
    compute_measure(m, basis, c, MeasureOutput{values, text}, own_depth ? nullptr : &groups);
    if (show_working) keep_working(m, basis, c, ranked_docnos, values);
    if (!m.gains.empty()) check_gains(m, ranked, run.qid, values, width);
  }
  return out;
}

// The ranking into order_: by score descending, then docno descending (trec_eval's tie-break;
// ascending when it reads preferences, as its form_prefs_counts.c sorts), the first -M
// documents kept. False, the repeat reported, when a docno is retrieved twice among them.
bool Evaluator::rank_order(const QueryRun& run, bool preferences) {
  const std::size_t all = run.docs.size();
  std::vector<std::uint32_t>& order = order_;  // reused from query to query
  order.resize(all);
  std::iota(order.begin(), order.end(), 0u);
  // Runs are mostly written in rank order already: a check in one pass over the documents, as
  // they came, spares the sort (the test std::is_sorted would make over the identity `order`,
  // without reading through its indices).
  const std::vector<QueryRun::Doc>& docs = run.docs;
  for (std::size_t i = 1; i < all; ++i) {
    const double before = docs[i - 1].score;
    const double score = docs[i].score;
    if (score != before ? score > before : tie_before(run, preferences, i, i - 1)) {
      sort_ranking(run, preferences);
      break;
    }
  }
  order.resize(depth_of(options_.max_per_query, all));
  if (!has_repeat(run, order)) return true;
  report_repeat(run, order);
  return false;
}

// Whether document a of the run comes before document b of an equal score: trec_eval's order
// (docnos from the last in byte order), or for preferences the first.
bool Evaluator::tie_before(const QueryRun& run, bool preferences, std::size_t a, std::size_t b) {
  const std::string_view da = run.docno(run.docs[a]);
  const std::string_view db = run.docno(run.docs[b]);
  return preferences ? da < db : da > db;
}

// order_ sorted by score, from the highest, and ties by tie_before: out of rank_order, which
// runs for every query, where this runs for a run not written in rank order (in wasm, a
// function is optimised whole once it has run for a while).
void Evaluator::sort_ranking(const QueryRun& run, bool preferences) {
  detail::sort_by_score(
      order_, [&](std::uint32_t i) { return run.docs[i].score; },
      [&](std::uint32_t a, std::uint32_t b) { return tie_before(run, preferences, a, b); },
      score_keys_, score_keys_spare_);
}

// The measures' context at relevance level `level`: the judged documents at or above it, and
// the ranked ones.
MeasureContext Evaluator::context_for(const Ranked& r, std::int64_t level) const {
  MeasureContext c{level, r.judged_at_or_above(level), 0, options_.docs_in_collection};
  for (std::int64_t rel : r.rel) c.num_rel_ret += rel >= level ? 1 : 0;
  return c;
}

// The ranking (order_) against one set of judgments, the query's or one group's, into `r`:
// the relevance of each document; `docnos`, when given, receives the documents `rel` stands
// for (without the unjudged ones under -J), for a working shown rank by rank.
void Evaluator::rank_against(const QueryRun& run, const QueryQrels& judged,
                             std::vector<std::string_view>* docnos, Ranked& r) const {
  const std::vector<std::uint32_t>& order = order_;
  const std::size_t n = order.size();
  r.rel.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const QueryRun::Doc& doc = run.docs[order[i]];
    const std::string_view docno = run.docno(doc);
    const JudgedDocs::Entry* j = judged.by_doc.find(docno, doc.hash);
    const std::int64_t rel = j == nullptr ? kNotInPool : j->grade < 0 ? kJudgedNegative : j->grade;
    if (options_.judged_only && rel < 0) continue;
    r.rel.push_back(rel);
    if (docnos != nullptr) docnos->push_back(docno);
    r.num_nonpool += rel == kNotInPool ? 1 : 0;
    r.num_unjudged_in_pool += rel == kJudgedNegative ? 1 : 0;
  }
  r.levels.assign(judged.grade_counts.rbegin(), judged.grade_counts.rend());
  const MeasureContext c = context_for(r, options_.relevance_level);
  r.num_rel = c.num_rel;
  r.num_rel_ret = c.num_rel_ret;
}

// Judgment groups (-R qrels_jg): the ranking against each group's judgments; `ranked`, which
// the measures read for their length, is that many documents not in the pool.
void Evaluator::rank_against_groups(const QueryRun& run, const QueryQrels& qrels,
                                    std::vector<Ranked>& groups, Ranked& ranked) const {
  for (const JudgmentGroup& group : qrels.groups) {
    rank_against(run, group.judged, nullptr, groups.emplace_back());
  }
  ranked.rel.assign(groups.empty() ? 0 : groups.front().rel.size(), kNotInPool);
}

// A query whose judgments are all negative: named in a warning at the end (the first 8).
void Evaluator::note_negative_only(const std::string& qid) {
  if (negative_only_.size() < 8) negative_only_.push_back(qid);
  ++negative_only_count_;
}

// `ranked` cut at `depth` documents, into `cut`.
void Evaluator::cut_ranking(const Ranked& ranked, std::size_t depth, Ranked& cut) {
  cut = ranked;
  cut.rel.resize(depth);
}

// The explanations asked for (-explain one query, or all of them), kept as the query is read.
void Evaluator::keep_explanations(const QueryRun& run, const std::vector<std::uint32_t>& order,
                                  const QueryQrels& qrels, bool named) {
  if (named) explanation_ = explain_one(run, order, qrels);
  if (options_.explain_all) {
    Explanation e = explain_one(run, order, qrels);
    kept_ += kExplanationRowBytes * e.rows.size();
    explanations_.insert_or_assign(run.qid, std::move(e));
  }
}

// An ndcg or ndcg_cut value under EvalOptions::conventions, from the query explained so.
void Evaluator::conventions_values(const Measure& m, const QueryRun& run, const QueryQrels& qrels,
                                   double* values) const {
  const bool whole = m.definition().name == "ndcg";
  // ndcg is the summary alone; ndcg_cut reads each cut-off's rows.
  const Explanation e = explain_conventions(run, qrels, whole ? &m : nullptr, 0,
                                            whole ? Detail::summary : Detail::whole);
  if (whole) {
    values[0] = e.ok ? e.summary.ndcg_at_k : std::numeric_limits<double>::quiet_NaN();
    return;
  }
  for (std::size_t i = 0; i < m.cutoffs.size(); ++i) {
    values[i] = e.ok ? ndcg_at(e, m.cutoffs[i], *options_.conventions)
                     : std::numeric_limits<double>::quiet_NaN();
  }
}

// gdeval refuses qrels with grades above 4; a stopping probability above 1 would mean nothing.
void Evaluator::report_err_grade(const std::string& qid, std::int64_t grade) {
  err_grade_reported_ = true;
  err_grade_at_ = errors_.items().size();
  errors_.add(Source::qrels, 0, 0,
              "ERR follows gdeval, whose grades go from 0 to 4; query " + quote(qid) +
                  " has grade " + std::to_string(grade) + ". Map the grades to 0-4 first");
}

// The working of the column asked for (-explain with a measure), when it is one of `m`'s.
void Evaluator::keep_working(const Measure& m, const Ranked& basis, const MeasureContext& c,
                             const std::vector<std::string_view>& docnos, const double* values) {
  const std::vector<std::string> names = column_names(m);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == options_.explain_measure) {
      working_ = measure_working(m, i, basis, c, docnos, values[i]);
    }
  }
}

// A measure with a gain map: its values are NaN past a double's range, and trec_eval's order of
// gains less than 1 apart is reported once.
void Evaluator::check_gains(const Measure& m, const Ranked& ranked, const std::string& qid,
                            double* values, std::size_t width) {
  const Gains g = gains_of(m, ranked);
  // The largest sum a gain map can reach here; past a double's range the value means nothing.
  double bound = 0;
  for (const GainLevel& level : g.levels) bound += std::fabs(level.gain) * as_count(level.count);
  for (const auto& [grade, gain] : m.gains) {
    if (grade < 0) bound += std::fabs(gain) * as_count(ranked.num_ret());
  }
  if (!std::isfinite(bound)) {
    gains_overflowed_ = true;
    for (std::size_t i = 0; i < width; ++i) values[i] = std::numeric_limits<double>::quiet_NaN();
  }
  if (!gain_order_reported_ && !g.exact) {
    gain_order_reported_ = true;
    gain_order_at_ = warnings_.items().size();
    warnings_.add(
        Diagnostic{Source::options, 0, 0,
                   "measure " + std::string(m.definition().name) + "." + m.parameters +
                       ": trec_eval 10.0 sorts gains by their whole-number difference, which "
                       "puts gains less than 1 apart in the wrong order; its ideal ranking, and "
                       "so this value, is then not the ideal one (query " +
                       quote(qid) + " first). The value printed is trec_eval's",
                   "gain-order"});
  }
}

QueryValues Evaluator::zeroed(const std::string& qid) const {
  QueryValues out;
  out.qid = qid;
  out.values = std::vector<double>(columns_.size());  // zeros; assign() is a function of its own
  if (any_text_) out.texts.resize(columns_.size());
  return out;
}

// The preference measures of one query, ranked (`order`, cut at -M) with trec_eval's tie rule
// for preferences: its preferences are counted once, and every measure reads the counts.
QueryValues Evaluator::evaluate_preferences(const QueryRun& run,
                                            const std::vector<std::uint32_t>& order,
                                            const QueryQrels& qrels) {
  std::vector<std::string_view> ranked;
  ranked.reserve(order.size());
  for (const std::uint32_t i : order) ranked.push_back(run.docno(run.docs[i]));
  Diagnostic error;
  const std::optional<PreferenceCounts> counts =
      count_preferences(ranked, qrels.preferences, run.qid, kResultsMemoryLimit, &error);
  if (!counts) {
    errors_.add(std::move(error));
    return {};
  }
  QueryValues out = zeroed(run.qid);
  std::size_t column = 0;
  for (std::size_t measure = 0; measure < options_.measures.size(); ++measure) {
    const Measure& m = options_.measures[measure];
    if (is_preference_measure(m.definition())) {
      compute_preference_measure(m, *counts, &out.values[column]);
    }
    column += widths_[measure];
  }
  return out;
}

namespace {

// What trec_eval prints for a qrels query without results under -c: the query evaluated as a
// ranking of one unjudged document, then a few values reset by name (num_ret, utility,
// relstring, unj*, rbp_resid; the names as trec_eval compares them, without parameters).
QueryRun stand_in_ranking(const std::string& qid) {
  QueryRun run;
  run.qid = qid;
  const std::string docno = "ceci_nest_pas_un_docno";
  run.add_docno(docno);
  run.docs.push_back(
      QueryRun::Doc{1.0, 0, 0, 0, static_cast<std::uint32_t>(docno.size()), docno_hash(docno)});
  return run;
}

void reset_stand_in(const std::vector<Column>& columns, QueryValues& q) {
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string& name = columns[c].name;
    if (name == "num_ret" || name == "utility" || name == "rbp_resid" ||
        name.compare(0, 3, "unj") == 0) {
      q.values[c] = 0.0;
    } else if (name == "relstring" && !q.texts.empty()) {
      q.texts[c].clear();
    }
  }
}

void to_zscores(const Zscores& z, const std::vector<Column>& columns, QueryValues& q) {
  const auto first = z.table.lower_bound({q.qid, std::string()});
  const bool query_listed = first != z.table.end() && first->first.first == q.qid;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    double& v = q.values[c];
    const auto it = query_listed ? z.table.find({q.qid, columns[c].name}) : z.table.end();
    if (it == z.table.end()) {
      v = kMissingZscore;
      continue;
    }
    const auto [mean, stddev] = it->second;
    if (stddev != 0)
      v = (v - mean) / stddev;
    else
      v = v == mean ? 0.0 : kMissingZscore;
  }
}

}  // namespace

namespace {

// The order of queries' ids, out of line: inlined into the sort, it made the sort a function
// that took 12 ms to compile optimised in wasm (see Evaluator::pair_with_qrels).
NDCG_OUT_OF_LINE bool qid_before(const QueryValues* a, const QueryValues* b) {
  return a->qid < b->qid;
}

}  // namespace

void Evaluator::pair_with_qrels(Evaluation& out, std::vector<std::string>& missing) {
  // The run's queries in trec_eval's order (byte order of the id), as the qrels' are, so that
  // one walk along both pairs them. A query handed over twice keeps its last values.
  // Sorted by address: moving each query's values (an id and a vector) cost more than sorting.
  std::vector<QueryValues*> sorted;
  sorted.reserve(results_.size());
  for (QueryValues& r : results_) sorted.push_back(&r);
  if (!results_sorted_) std::stable_sort(sorted.begin(), sorted.end(), qid_before);
  out.per_query.reserve(options_.average_complete ? qrels_.queries().size() : results_.size());
  QueryValues* const* next = sorted.data();
  QueryValues* const* const end = next + sorted.size();
  for (const auto& [qid, qrels] : qrels_.queries()) {
    if (!options_.only_query.empty() && !names_id(qid, options_.only_query)) continue;
    next = pair_query(qid, qrels, next, end, out, missing);
  }
  if (options_.zscores) {
    for (QueryValues& q : out.per_query) to_zscores(*options_.zscores, columns_, q);
  }
}

// The qrels' query `qid` paired with its values, the first of [next, end) not before it (a
// query handed over twice keeps its last values); returns where the next query's search
// starts. A function of its own, called for each query: see unpack_values.
QueryValues* const* Evaluator::pair_query(const std::string& qid, const QueryQrels& qrels,
                                          QueryValues* const* next, QueryValues* const* end,
                                          Evaluation& out, std::vector<std::string>& missing) {
  while (next != end && (*next)->qid < qid) ++next;
  while (next != end && next + 1 != end && next[1]->qid == qid) ++next;
  if (next != end && (*next)->qid == qid) {
    out.per_query.push_back(std::move(**next));
    return next + 1;
  }
  if (options_.average_complete) {
    out.per_query.push_back(stand_in(qid, qrels));
  } else {
    missing.push_back(qid);
  }
  return next;
}

QueryValues Evaluator::stand_in(const std::string& qid, const QueryQrels& qrels) {
  QueryValues values = evaluate(stand_in_ranking(qid), qrels);
  reset_stand_in(columns_, values);
  return values;
}

void Evaluator::summarize(Evaluation& out) const {
  const std::size_t evaluated = out.per_query.size();
  out.queries_averaged = options_.average_complete ? qrels_.queries().size() : evaluated;
  const double count = static_cast<double>(out.queries_averaged);
  out.mean.assign(columns_.size(), 0.0);
  out.stdev.assign(columns_.size(), 0.0);
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    double sum = 0;
    for (const QueryValues& q : out.per_query) sum += q.values[c];
    double& summary = out.mean[c];
    switch (columns_[c].summary) {
      case Summary::mean:
        summary = count > 0 ? sum / count : sum;
        break;
      case Summary::sum:
        summary = sum;
        break;
      case Summary::geometric: {
        if (options_.average_complete)
          sum += (count - static_cast<double>(evaluated)) * std::log(0.00001);
        summary = count > 0 ? std::exp(sum / count) : sum;
        break;
      }
      case Summary::num_q:
        summary = count;
        break;
      case Summary::num_rel: {
        if (!options_.average_complete) {
          summary = sum;
          break;
        }
        // With -c, trec_eval counts every judgment of grade > 0 in the qrels, whatever -l says.
        std::int64_t judged = 0;
        const auto add_judged = [&](const QueryQrels& q) {
          for (const auto& [grade, n] : q.grade_counts) judged += grade > 0 ? n : 0;
        };
        for (const auto& [qid, qrels] : qrels_.queries()) {
          add_judged(qrels);
          for (const JudgmentGroup& group : qrels.groups) add_judged(group.judged);
        }
        summary = static_cast<double>(judged);
        break;
      }
      case Summary::none:
      case Summary::run_tag:
        summary = 0;
        break;
    }
    const double average = sum / static_cast<double>(evaluated);
    double squares = 0;
    for (const QueryValues& q : out.per_query) {
      squares += (q.values[c] - average) * (q.values[c] - average);
    }
    out.stdev[c] = evaluated > 1 ? std::sqrt(squares / static_cast<double>(evaluated - 1)) : 0.0;
  }
}

Evaluation Evaluator::finish(const RunReader& reader) {
  Evaluation out;
  out.columns = columns_;
  out.run_tag = reader.run_tag();
  out.zscores = options_.zscores.has_value();
  DiagnosticList errors;
  errors.append(qrels_.errors());
  errors.append(reader.errors());
  errors.append(errors_);
  if (!errors.empty()) {
    out.errors = errors.finish();
    out.warnings = warnings_.finish();
    return out;
  }
  std::vector<std::string> missing;
  pair_with_qrels(out, missing);
  auto list = [](const auto& ids) {
    std::string text;
    std::size_t shown = 0;
    for (const auto& id : ids) {
      if (shown == 8) {
        text += ", …";
        break;
      }
      text += (shown++ == 0 ? "" : ", ") + std::string(id);
    }
    return text;
  };
  if (!missing.empty()) {
    warnings_.add(Source::qrels, 0, 0,
                  std::to_string(missing.size()) + " qrels quer" +
                      (missing.size() == 1 ? "y has" : "ies have") + " no results and " +
                      (missing.size() == 1 ? "is" : "are") +
                      " left out of the mean (-c counts them as 0; trec_eval 10.0 stops with an "
                      "error instead): " +
                      list(missing));
  }
  if (qrels_.blank_lines() > 0) {
    warnings_.add(Source::qrels, qrels_.first_blank_line(), 0,
                  std::to_string(qrels_.blank_lines()) + " blank line" +
                      (qrels_.blank_lines() == 1 ? " is" : "s are") +
                      " skipped, from this one; trec_eval 10.0 stops at a blank qrels line "
                      "(\"Malformed line\")");
  }
  if (negative_only_count_ > 0) {
    warnings_.add(Source::qrels, 0, 0,
                  std::to_string(negative_only_count_) + " quer" +
                      (negative_only_count_ == 1 ? "y is" : "ies are") +
                      " judged only with negative grades, so no document of " +
                      (negative_only_count_ == 1 ? "it" : "them") +
                      " is relevant; trec_eval 10.0 stops with \"Can't calculate measure\" "
                      "when such a query is the first it evaluates, here it is always evaluated: " +
                      list(negative_only_) +
                      (negative_only_count_ > negative_only_.size() ? ", …" : ""));
  }
  if (!runs_without_qrels_.empty()) {
    std::vector<std::string> ids(runs_without_qrels_.begin(), runs_without_qrels_.end());
    std::sort(ids.begin(), ids.end());
    warnings_.add(Source::run, 0, 0,
                  std::to_string(ids.size()) + " run quer" +
                      (ids.size() == 1 ? "y has" : "ies have") + " no judgments and " +
                      (ids.size() == 1 ? "is" : "are") +
                      " not evaluated, as in trec_eval: " + list(ids));
  }
  if (out.per_query.empty()) {
    DiagnosticList none;
    none.add(Source::run, 0, 0,
             options_.only_query.empty()
                 ? "no query has both results and judgments: check that the query ids of the two "
                   "files match"
                 : "query " + quote(options_.only_query) + " (given with -D) is not in both files");
    out.errors = none.finish();
    out.warnings = warnings_.finish();
    return out;
  }
  summarize(out);
  if (!options_.explain_measure.empty()) {
    if (working_) {
      out.working = std::move(working_);
    } else {
      warnings_.add(Source::options, 0, 0,
                    "the working of " + quote(options_.explain_measure) + " for query " +
                        quote(options_.explain_query) + " cannot be shown: " +
                        (options_.rel_format != RelFormat::qrels
                             ? "the working is shown for measures of plain qrels (-R qrels)"
                             : "the query is not in both files, or no column has that name"));
    }
  }
  if (!options_.explain_query.empty()) {
    if (explanation_) {
      out.explanation = std::move(explanation_);
    } else {
      const bool preferences =
          options_.rel_format == RelFormat::prefs || options_.rel_format == RelFormat::qrels_prefs;
      warnings_.add(Source::run, 0, 0,
                    "query " + quote(options_.explain_query) + " cannot be explained: " +
                        (preferences ? "the step table reads graded judgments, not preferences"
                                     : "it is not in both files"));
    }
  }
  if (options_.explain_all) {
    const bool preferences =
        options_.rel_format == RelFormat::prefs || options_.rel_format == RelFormat::qrels_prefs;
    if (preferences) {
      warnings_.add(Source::options, 0, 0,
                    "no query is explained: the step tables read graded judgments, not "
                    "preferences");
    }
    for (auto& [qid, e] : explanations_) out.explanations.emplace_back(qid, std::move(e));
    explanations_.clear();
  }
  out.warnings = warnings_.finish();
  out.ok = true;
  return out;
}

Session::Session(EvalOptions options) : options_(std::move(options)) {
  qrels_.set_format(options_.rel_format);
  if (options_.query_spans) qrels_.record_spans();
}

Session::~Session() = default;

void Session::feed_qrels(std::string_view chunk) {
  qrels_.feed(chunk);
}

void Session::finish_qrels() {
  qrels_.finish();
  start_run(false);
}

void Session::share_qrels(const Session& first) {
  shared_qrels_ = &first.qrels();
  if (run_ == nullptr || evaluator_ != nullptr) {
    start_run(false);
    return;
  }
  // Read before the qrels (read_run_before_qrels): the queries kept are evaluated now, in the
  // order they came, and the reader goes on as it was.
  evaluator_ = std::make_unique<Evaluator>(qrels(), options_);
  for (const QueryRun& q : waiting_) evaluator_->add(q);
  waiting_.clear();
  waiting_.shrink_to_fit();
  waiting_bytes_ = 0;
}

void Session::read_run_before_qrels() {
  evaluator_.reset();
  start_reader(false);
}

void Session::start_run(bool buffer_all) {
  evaluator_ = std::make_unique<Evaluator>(qrels(), options_);
  start_reader(buffer_all);
}

void Session::start_reader(bool buffer_all) {
  run_ = std::make_unique<RunReader>(
      [this](const QueryRun& q) {
        if (evaluator_ != nullptr) {
          evaluator_->add(q);
        } else {
          keep_waiting(q);
        }
      },
      buffer_all);
  if (options_.query_spans) run_->record_spans();
  if (first_line_ > 0) run_->continue_from_line(first_line_, first_byte_);
}

// A query read before the qrels (read_run_before_qrels), kept until they are read.
void Session::keep_waiting(const QueryRun& q) {
  waiting_.push_back(q.copy());
  // Counted as the run reader counts the query it holds.
  waiting_bytes_ +=
      q.docs.size() * kRunDocOverhead + q.docnos.size() + q.qid.size() + kQueryOverhead;
}

void Session::feed_run(std::string_view chunk) {
  run_->feed(chunk);
}

bool Session::finish_run() {
  run_->finish();
  if (!run_->regroup_needed()) return false;
  start_run(true);  // a buffered reading never needs regrouping
  return true;
}

Evaluation Session::result() {
  Evaluation e = evaluator_->finish(*run_);
  if (options_.query_spans) {
    if (const std::vector<QuerySpan>* spans = qrels().spans()) e.qrels_spans = *spans;
    if (const std::vector<QuerySpan>* spans = run_->spans()) e.run_spans = *spans;
  }
  return e;
}

void Session::next_run() {
  start_run(false);
}

void Session::keep_part_queries(std::string_view first, std::string_view later, bool later_part) {
  if (options_.average_complete || options_.rel_format != RelFormat::qrels || !can_split()) return;
  auto part = std::make_unique<PartQueries>(first, later, later_part);
  if (!part->all()) qrels_.keep_only(std::move(part));
}

bool Session::can_split() const {
  return options_.explain_query.empty() && !options_.explain_all &&
         options_.explain_measure.empty() && options_.only_query.empty();
}

void Session::continue_run(std::uint32_t first_line, std::uint64_t first_byte) {
  first_line_ = first_line;
  first_byte_ = first_byte;
  lines_unknown_ = false;
  if (run_) run_->continue_from_line(first_line, first_byte);
}

void Session::continue_run_at_byte(std::uint64_t first_byte) {
  continue_run(1, first_byte);
  lines_unknown_ = true;
}

namespace {

constexpr std::string_view kPartMagic = "ndcg-part3";

// Whether anything a part says names a line: a located diagnostic, or one dropped past a list's
// limit (which may have been).
bool names_a_line(const RunPart& part) {
  const auto located = [](const std::vector<Diagnostic>& list) {
    return std::any_of(list.begin(), list.end(), [](const Diagnostic& d) { return d.line != 0; });
  };
  return !part.reader_errors.empty() || !part.reader_errors_whole || !part.lists_whole ||
         located(part.errors) || located(part.warnings);
}

// absorb_packed's loops, each a function of its own: see Evaluator::pair_with_qrels (in wasm,
// absorb_packed whole, inlined into the binding that calls it, took 23 ms to compile optimised,
// after the report was printed).
NDCG_OUT_OF_LINE void unpack_hashes(detail::Unpacker& u, std::vector<std::uint64_t>& out) {
  u.numbers(u.count(8), out);
}

NDCG_OUT_OF_LINE void unpack_spans(detail::Unpacker& u, std::vector<QuerySpan>& out) {
  const std::size_t count = u.count(20);
  for (std::size_t i = 0; i < count && u.ok(); ++i) {
    QuerySpan s;
    s.qid = u.text();
    s.start = u.number<std::uint64_t>();
    s.end = u.number<std::uint64_t>();
    out.push_back(std::move(s));
  }
}

// One query's values (pack_values); false when they are not `columns` values. Called for each
// query, and small: a wasm engine optimises a function once it has run long enough, and one
// called once, for all the queries, was optimised only to be left at its end.
NDCG_OUT_OF_LINE bool unpack_values(detail::Unpacker& u, std::size_t columns, QueryValues& q) {
  q.qid = u.text();
  const auto values = u.number<std::uint32_t>();
  if (!u.ok() || values != columns) return false;
  u.numbers(values, q.values);
  q.texts = u.texts();
  return u.ok();
}

// False when the bytes are not results of `columns` values each.
NDCG_OUT_OF_LINE bool unpack_results(detail::Unpacker& u, std::size_t columns,
                                     std::vector<QueryValues>& out) {
  const std::size_t count = u.count(12);
  out.reserve(out.size() + count);
  for (std::size_t i = 0; i < count && u.ok(); ++i) {
    if (!unpack_values(u, columns, out.emplace_back())) return false;
  }
  return true;
}

}  // namespace

void Session::part(RunPart& out) {
  run_->part(out);
  evaluator_->part(out);
  out.lines_unknown = lines_unknown_;
  out.missed_judgments = out.missed_judgments || qrels().dropped_met_again();
}

bool Session::absorb(Session& later) {
  RunPart part;
  later.part(part);
  return absorb_part(part);
}

bool Session::absorb_part(RunPart& later) {
  RunReader& reader = *run_;
  if (!can_split() || reader.regroup_needed() || later.regroup_needed || reader.stopped() ||
      later.stopped || later.missed_judgments || evaluator_->missed_judgments() ||
      qrels().dropped_met_again() || !later.reader_errors_whole ||
      reader.shares_query_with(later) || (later.lines_unknown && names_a_line(later))) {
    return false;
  }
  // One reader hands over no query once it has met an error: the later part's evaluations count
  // only when this part read without one.
  if (reader.errors().empty() && !evaluator_->absorb(later)) return false;
  reader.absorb(later);
  return true;
}

namespace {

// One query's values, packed (pack_part; unpack_values reads them): see unpack_values.
NDCG_OUT_OF_LINE void pack_values(detail::Packer& p, const QueryValues& q) {
  p.text(q.qid);
  p.number(static_cast<std::uint32_t>(q.values.size()));
  p.numbers(q.values);
  p.texts(q.texts);
}

// Out of line, for its loop: see unpack_values.
NDCG_OUT_OF_LINE void pack_results(detail::Packer& p, const std::vector<QueryValues>& results) {
  for (const QueryValues& q : results) pack_values(p, q);
}

}  // namespace

std::string Session::pack_part() {
  RunPart part;
  this->part(part);
  detail::Packer p;
  p.bytes(kPartMagic.data(), kPartMagic.size());
  const auto index = [&](std::size_t at) {
    p.number<std::uint64_t>(at == SIZE_MAX ? UINT64_MAX : static_cast<std::uint64_t>(at));
  };
  p.flag(part.regroup_needed);
  p.flag(part.stopped);
  p.text(part.run_tag);
  p.number(static_cast<std::uint64_t>(part.queries.size()));
  p.numbers(part.queries);
  p.flag(part.spans_given_up);
  p.number(static_cast<std::uint64_t>(part.spans.size()));
  for (const QuerySpan& s : part.spans) {
    p.text(s.qid);
    p.number(s.start);
    p.number(s.end);
  }
  p.diagnostics(part.reader_errors);
  p.flag(part.reader_errors_whole);
  p.number(static_cast<std::uint64_t>(part.results.size()));
  pack_results(p, part.results);
  p.flag(part.results_sorted);
  p.texts(part.runs_without_qrels);
  p.texts(part.negative_only);
  p.number(static_cast<std::uint64_t>(part.negative_only_count));
  p.flag(part.overflow_reported);
  p.flag(part.gain_order_reported);
  p.flag(part.err_grade_reported);
  index(part.overflow_at);
  index(part.gain_order_at);
  index(part.err_grade_at);
  p.diagnostics(part.errors);
  p.diagnostics(part.warnings);
  p.flag(part.lists_whole);
  p.number(static_cast<std::uint64_t>(part.kept));
  p.flag(part.lines_unknown);
  p.flag(part.missed_judgments);
  return p.take();
}

bool Session::absorb_packed(std::string_view bytes) {
  detail::Unpacker u(bytes);
  if (u.bytes(kPartMagic.size()) != kPartMagic) return false;
  RunPart part;
  const auto index = [&]() -> std::size_t {
    const auto v = u.number<std::uint64_t>();
    return v == UINT64_MAX || v > SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(v);
  };
  part.regroup_needed = u.flag();
  part.stopped = u.flag();
  part.run_tag = u.text();
  unpack_hashes(u, part.queries);
  part.spans_given_up = u.flag();
  unpack_spans(u, part.spans);
  part.reader_errors = u.diagnostics();
  part.reader_errors_whole = u.flag();
  // Each query's values are one per column, as here.
  if (!unpack_results(u, evaluator_->columns().size(), part.results)) return false;
  part.results_sorted = u.flag();
  part.runs_without_qrels = u.texts();
  part.negative_only = u.texts();
  part.negative_only_count = static_cast<std::size_t>(u.number<std::uint64_t>());
  part.overflow_reported = u.flag();
  part.gain_order_reported = u.flag();
  part.err_grade_reported = u.flag();
  part.overflow_at = index();
  part.gain_order_at = index();
  part.err_grade_at = index();
  part.errors = u.diagnostics();
  part.warnings = u.diagnostics();
  part.lists_whole = u.flag();
  part.kept = static_cast<std::size_t>(u.number<std::uint64_t>());
  part.lines_unknown = u.flag();
  part.missed_judgments = u.flag();
  if (!u.ok() || !u.at_end()) return false;
  return absorb_part(part);
}

Evaluation evaluate(std::string_view qrels_text, std::string_view run_text,
                    const EvalOptions& options) {
  Session session(options);
  session.feed_qrels(qrels_text);
  session.finish_qrels();
  do {
    session.feed_run(run_text);
  } while (session.finish_run());
  return session.result();
}

namespace {

// A measure's name as trec_eval prints it before each value: "%-22s", after a "Z" with -Z.
std::string padded_name(const std::string& name, bool zscores) {
  std::string out = zscores ? "Z" : "";
  out += name;
  if (name.size() < 22) out.append(22 - name.size(), ' ');
  return out;
}

// A value as trec_eval prints it ("%6.4f", a whole number as "%ld", NaN as "  -nan"), into
// `out` (room for 400 characters, printf's longest "%6.4f"); its length.
std::size_t write_value(char* out, double value, bool as_integer) {
  if (as_integer) {
    const std::int64_t whole = std::isfinite(value) && std::fabs(value) < 9.2e18
                                   ? static_cast<std::int64_t>(value)
                                   : std::int64_t{INT64_MIN};
    return static_cast<std::size_t>(std::to_chars(out, out + 32, whole).ptr - out);
  }
  if (std::isnan(value)) {
    std::memcpy(out, "  -nan", 6);
    return 6;
  }
  // "%6.4f": at least "0.0000", six characters, so never padded.
  if (const char* end = write_fixed(out, value, 4)) return static_cast<std::size_t>(end - out);
  // Infinite, or too large for write_fixed: printf's, up to hundreds of digits, padded to six.
  const std::string text = printf_fixed(value, 4);
  const std::size_t pad = text.size() < 6 ? 6 - text.size() : 0;
  std::memset(out, ' ', pad);
  std::memcpy(out + pad, text.data(), text.size());
  return pad + text.size();
}

// One line: the padded name, the query, and the value. Built in a buffer and appended once: in
// wasm each append is a call into the standard library, and a report of 5,000 queries' values
// made 200,000 of them.
void append_value(std::string& out, const std::string& name, const std::string& qid, double value,
                  bool as_integer) {
  char text[400];
  const std::size_t length = write_value(text, value, as_integer);
  char line[256];
  if (name.size() + qid.size() + length + 3 > sizeof line) {  // a long query id or value: in parts
    out += name;
    out += '\t';
    out += qid;
    out += '\t';
    out.append(text, length);
    out += '\n';
    return;
  }
  char* p = line;
  std::memcpy(p, name.data(), name.size());
  p += name.size();
  *p++ = '\t';
  std::memcpy(p, qid.data(), qid.size());
  p += qid.size();
  *p++ = '\t';
  std::memcpy(p, text, length);
  p += length;
  *p++ = '\n';
  out.append(line, static_cast<std::size_t>(p - line));
}

}  // namespace

TrecLines::TrecLines(const Evaluation& e, bool per_query, bool summary)
    : e_(&e), summary_(summary) {
  // Each column's name padded once, not once a value.
  names_.reserve(e.columns.size());
  for (const Column& column : e.columns) {
    names_.push_back(padded_name(column.name, e.zscores && column.value != ValueKind::text));
    if (column.per_query) {
      query_bytes_ += names_.back().size() + 10;
      ++lines_;
    }
  }
  if (!per_query) query_ = e.per_query.size();  // the summary alone
}

std::size_t TrecLines::size() const {
  std::size_t bytes = 1024;
  for (std::size_t q = query_; q < e_->per_query.size(); ++q) {
    bytes += query_bytes_ + lines_ * e_->per_query[q].qid.size();
  }
  return bytes;
}

bool TrecLines::next(std::string& out, std::size_t bytes) {
  if (done_) return false;
  const std::size_t start = out.size();
  // Room at once: grown by doubling, a string's copies reached twice its size.
  if (bytes == kAll) {
    out.reserve(start + size());
  } else {
    out.reserve(start + bytes + query_bytes_ + 1024);
  }
  for (; query_ < e_->per_query.size() && out.size() - start < bytes; ++query_) {
    const QueryValues& q = e_->per_query[query_];
    for (std::size_t c = 0; c < e_->columns.size(); ++c) {
      const Column& column = e_->columns[c];
      if (!column.per_query) continue;
      if (column.value == ValueKind::text) {
        out += names_[c];
        out += '\t' + q.qid + "\t'" + (q.texts.empty() ? std::string() : q.texts[c]) + "'\n";
        continue;
      }
      append_value(out, names_[c], q.qid, q.values[c], column.whole_number && !e_->zscores);
    }
  }
  if (query_ < e_->per_query.size()) return true;
  done_ = true;
  if (summary_) {
    for (std::size_t c = 0; c < e_->columns.size(); ++c) {
      const Column& column = e_->columns[c];
      if (column.summary == Summary::none) continue;
      if (column.summary == Summary::run_tag) {
        out += padded_name("runid", false);
        out += "\tall\t" + e_->run_tag + "\n";
        continue;
      }
      append_value(out, names_[c], "all", e_->mean[c], column.whole_number && !e_->zscores);
    }
  }
  return out.size() > start;
}

std::string format_trec(const Evaluation& e, bool per_query, bool summary) {
  std::string out;
  TrecLines(e, per_query, summary).next(out, TrecLines::kAll);
  return out;
}

}  // namespace ndcg::trec
