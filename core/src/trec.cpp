// TREC measures with the semantics of trec_eval 10.0 (C. Buckley, NIST), re-implemented from
// their definitions: Buckley & Voorhees, "Retrieval System Evaluation" (TREC: Experiment and
// Evaluation in Information Retrieval, MIT Press 2005) for map, Rprec, P, recall and bpref;
// Järvelin & Kekäläinen (ACM TOIS 2002) with the log2(rank + 1) discount for ndcg.
#include "ndcg/trec.hpp"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>

#include "ndcg/options.hpp"

namespace ndcg::trec {
namespace {

constexpr std::int64_t kNotInPool = -1;       // ranked but absent from the qrels
constexpr std::int64_t kJudgedNegative = -2;  // in the qrels with a negative grade

// Estimated bytes held per kept item beyond its text: hash node, string and vector slack.
constexpr std::size_t kJudgmentOverhead = 96;
constexpr std::size_t kRunDocOverhead = 32;
constexpr std::size_t kQueryOverhead = 96;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

// Splits on runs of spaces and tabs; returns the number of fields found (up to `max`), and
// whether there were more.
std::size_t split_blank(std::string_view line, Field* out, std::size_t max, bool* more) {
  std::size_t count = 0;
  std::size_t i = 0;
  *more = false;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i >= line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (count == max) {
      *more = true;
      break;
    }
    out[count++] = Field{line.substr(start, i - start), static_cast<std::uint32_t>(start)};
  }
  return count;
}

std::string megabytes(std::size_t bytes) {
  return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + " MB"
                                         : std::to_string(bytes >> 10) + " KB";
}

bool report_long_docno(const Field& docno, std::string_view text, std::uint32_t number,
                       Source source, DiagnosticList& errors) {
  if (docno.text.size() <= kMaxDocIdBytes) return false;
  errors.add(source, number, column_of(text, docno.offset),
             "the docno is " + std::to_string(docno.text.size()) +
                 " bytes long; docnos are limited to " + std::to_string(kMaxDocIdBytes) + " bytes");
  return true;
}

// A whole number >= `minimum` for a cut-off or a grade in a measure's parameters.
std::optional<std::int64_t> parse_parameter(std::string_view text, std::int64_t minimum) {
  const auto value = parse_integer(text);
  if (!value || *value < minimum) return std::nullopt;
  return value;
}

bool is_ascii_blank_line(std::string_view text) {
  return trim_ascii(text).empty();
}

// Splits `text` into exactly N fields, or reports how many it found against `layout`.
template <std::size_t N>
bool split_exactly(std::string_view text, std::uint32_t number, Source source,
                   std::string_view layout, Field (&out)[N], DiagnosticList& errors) {
  bool more = false;
  const std::size_t count = split_blank(text, out, N, &more);
  if (count == N && !more) return true;
  errors.add(source, number, 1,
             "expected " + std::string(layout) + ", found " + (more ? "more than " : "") +
                 std::to_string(count) + " field" + (count == 1 && !more ? "" : "s"));
  return false;
}

// The first line of a qrels file that has a run's shape (6 fields, numeric rank and score), or
// the first line of a run with a qrels' shape (4 fields, numeric iteration and grade): the two
// files were most likely given the other way round. Said once, instead of an error a line.
bool has_shape_of_other_file(std::string_view text, Source reading) {
  Field f[6];
  bool more = false;
  const std::size_t count = split_blank(text, f, 6, &more);
  if (more) return false;
  if (reading == Source::qrels) {
    return count == 6 && parse_integer(f[3].text) && parse_decimal(f[4].text) &&
           !parse_integer(f[1].text);
  }
  return count == 4 && parse_integer(f[1].text) && parse_integer(f[3].text);
}

void report_swapped(Source reading, std::uint32_t number, DiagnosticList& errors) {
  errors.add(Diagnostic{
      reading, number, 1,
      reading == Source::qrels
          ? "this looks like a run line 'query Q0 docno rank score tag', not a qrels line "
            "'query iteration docno grade': were the qrels and run files swapped?"
          : "this looks like a qrels line 'query iteration docno grade', not a run line "
            "'query Q0 docno rank score tag': were the qrels and run files swapped?",
      "files-swapped"});
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// QrelsReader

void QrelsReader::feed(std::string_view chunk) {
  lines_.feed(chunk, [this](std::string_view text, std::uint32_t n) { line(text, n); });
}

void QrelsReader::finish() {
  lines_.finish([this](std::string_view text, std::uint32_t n) { line(text, n); });
  if (judgments_ == 0 && errors_.empty()) {
    errors_.add(Source::qrels, 0, 0,
                "the qrels file has no judgments; expected lines 'query iteration docno grade'");
  }
  for (auto& [qid, query] : queries_) {
    std::vector<std::int64_t> grades;
    grades.reserve(query.by_doc.size());
    for (const auto& [doc, j] : query.by_doc) {
      if (j.grade >= 0) grades.push_back(j.grade);
    }
    std::sort(grades.begin(), grades.end(), std::greater<>());
    query.grade_counts.clear();
    for (std::int64_t g : grades) {
      if (query.grade_counts.empty() || query.grade_counts.back().first != g) {
        query.grade_counts.emplace_back(g, 0);
      }
      ++query.grade_counts.back().second;
    }
  }
}

void QrelsReader::line(std::string_view text, std::uint32_t number) {
  if (stopped_ || is_ascii_blank_line(text)) return;
  if (report_control_character(text, Source::qrels, number, errors_)) return;
  if (judgments_ == 0 && errors_.empty() && has_shape_of_other_file(text, Source::qrels)) {
    report_swapped(Source::qrels, number, errors_);
    stopped_ = true;
    return;
  }
  Field f[4];
  if (!split_exactly(text, number, Source::qrels, "4 fields 'query iteration docno grade'", f,
                     errors_)) {
    return;
  }
  bool out_of_range = false;
  const auto grade = parse_integer(f[3].text, &out_of_range);
  if (!grade) {
    errors_.add(Source::qrels, number, column_of(text, f[3].offset),
                "grade " + quote(f[3].text) +
                    (out_of_range ? " does not fit a 64-bit integer; grades are small whole "
                                    "numbers such as 0, 1, 2"
                                  : " is not a whole number written in digits; trec_eval reads "
                                    "qrels grades as integers"));
    return;
  }
  if (report_long_docno(f[2], text, number, Source::qrels, errors_)) return;
  auto [query_it, new_query] = queries_.try_emplace(std::string(f[0].text));
  QueryQrels& query = query_it->second;
  auto [it, inserted] =
      query.by_doc.emplace(std::string(f[2].text), QueryQrels::Judged{*grade, number});
  if (!inserted) {
    errors_.add(Source::qrels, number, column_of(text, f[2].offset),
                "document " + quote(f[2].text) + " is judged again for query " + quote(f[0].text) +
                    " (first on line " + std::to_string(it->second.line) +
                    "); trec_eval rejects this, keep one line");
    return;
  }
  ++judgments_;
  kept_ +=
      f[2].text.size() + kJudgmentOverhead + (new_query ? f[0].text.size() + kQueryOverhead : 0);
  if (kept_ > memory_limit_) {
    errors_.add(Source::qrels, number, 0,
                "the qrels need more than " + megabytes(memory_limit_) +
                    " of memory by this line (" + std::to_string(judgments_) +
                    " judgments); the evaluator holds at most that much of them. Split the "
                    "qrels by query and evaluate the parts");
    stopped_ = true;
  }
}

// ---------------------------------------------------------------------------------------------
// RunReader

void RunReader::feed(std::string_view chunk) {
  lines_.feed(chunk, [this](std::string_view text, std::uint32_t n) { line(text, n); });
}

void RunReader::finish() {
  lines_.finish([this](std::string_view text, std::uint32_t n) { line(text, n); });
  close_current();
  if (buffer_all_) {
    for (auto& [qid, run] : buffered_) on_query_(std::move(run));
    buffered_.clear();
  }
  if (!any_line_ && errors_.empty()) {
    errors_.add(Source::run, 0, 0,
                "the run file has no results; expected lines 'query Q0 docno rank score tag'");
  }
}

void RunReader::close_current() {
  if (current_.qid.empty() && current_.docs.empty()) return;
  if (buffer_all_) {
    QueryRun& into = buffered_[current_.qid];
    if (into.qid.empty()) {
      into = std::move(current_);
    } else {
      for (QueryRun::Doc d : current_.docs) {
        const std::string_view docno = current_.docno(d);
        d.offset = static_cast<std::uint32_t>(into.docnos.size());
        into.docnos.append(docno);
        into.docs.push_back(d);
      }
    }
  } else {
    // The open query's documents leave with it; its id stays, to notice a query seen twice.
    kept_ -= std::min(kept_, current_.docs.size() * kRunDocOverhead + current_.docnos.size());
    kept_ += current_.qid.size() + kQueryOverhead;
    closed_.insert(current_.qid);
    if (errors_.empty()) on_query_(std::move(current_));
  }
  current_ = QueryRun{};
}

void RunReader::line(std::string_view text, std::uint32_t number) {
  if (stopped_ || is_ascii_blank_line(text)) return;
  const bool first = !any_line_;
  any_line_ = true;
  if (report_control_character(text, Source::run, number, errors_)) return;
  if (first && has_shape_of_other_file(text, Source::run)) {
    report_swapped(Source::run, number, errors_);
    stopped_ = true;
    return;
  }
  Field f[6];
  if (!split_exactly(text, number, Source::run, "6 fields 'query Q0 docno rank score tag'", f,
                     errors_)) {
    return;
  }
  bool out_of_range = false;
  const auto score = parse_decimal(f[4].text, &out_of_range);
  if (!score) {
    errors_.add(Source::run, number, column_of(text, f[4].offset),
                "score " + quote(f[4].text) +
                    (out_of_range ? " is too large for a double" : " is not a number"));
    return;
  }
  if (report_long_docno(f[2], text, number, Source::run, errors_)) return;
  if (run_tag_.empty()) run_tag_.assign(f[5].text);
  if (f[0].text != current_.qid) {
    close_current();
    current_.qid.assign(f[0].text);
    if (!buffer_all_ && closed_.count(current_.qid) > 0) regroup_needed_ = true;
  }
  current_.docs.push_back(QueryRun::Doc{*score, number, column_of(text, f[2].offset),
                                        static_cast<std::uint32_t>(current_.docnos.size()),
                                        static_cast<std::uint32_t>(f[2].text.size())});
  current_.docnos.append(f[2].text);
  kept_ += kRunDocOverhead + f[2].text.size();
  if (kept_ > memory_limit_) {
    errors_.add(Source::run, number, 0,
                buffer_all_
                    ? "this run is not grouped by query, and holding all of it needs more than " +
                          megabytes(memory_limit_) +
                          " of memory by this line; sort the run by query (sort -s -k1,1) and "
                          "evaluate it again"
                    : "query " + quote(current_.qid) + " has more documents than fit in " +
                          megabytes(memory_limit_) + " of memory by this line (" +
                          std::to_string(current_.docs.size()) + " documents)");
    stopped_ = true;
  }
}

// ---------------------------------------------------------------------------------------------
// Measures

namespace {

struct MeasureName {
  std::string_view name;
  MeasureKind kind;
  bool cutoffs;
};

constexpr MeasureName kTrecNames[] = {
    {"num_ret", MeasureKind::num_ret, false},
    {"num_rel", MeasureKind::num_rel, false},
    {"num_rel_ret", MeasureKind::num_rel_ret, false},
    {"map", MeasureKind::map, false},
    {"Rprec", MeasureKind::rprec, false},
    {"bpref", MeasureKind::bpref, false},
    {"recip_rank", MeasureKind::recip_rank, false},
    {"P", MeasureKind::p, true},
    {"recall", MeasureKind::recall, true},
    {"ndcg", MeasureKind::ndcg, false},
    {"ndcg_cut", MeasureKind::ndcg_cut, true},
    {"map_cut", MeasureKind::map_cut, true},
};

const std::vector<std::int64_t> kDefaultCutoffs = {5, 10, 15, 20, 30, 100, 200, 500, 1000};

Diagnostic measure_error(std::string_view name, std::string message) {
  return Diagnostic{Source::options, 0, 0, "measure " + quote(name) + ": " + message};
}

std::string trec_name(MeasureKind kind) {
  for (const MeasureName& m : kTrecNames) {
    if (m.kind == kind) return std::string(m.name);
  }
  return "?";
}

// Merges `measure` into the request, as repeated -m options do in trec_eval.
void merge(EvalOptions& options, Measure measure) {
  for (Measure& m : options.measures) {
    if (m.kind != measure.kind) continue;
    for (std::int64_t c : measure.cutoffs) {
      if (std::find(m.cutoffs.begin(), m.cutoffs.end(), c) == m.cutoffs.end())
        m.cutoffs.push_back(c);
    }
    std::sort(m.cutoffs.begin(), m.cutoffs.end());
    for (const auto& g : measure.gains) m.gains.push_back(g);
    std::stable_sort(m.gains.begin(), m.gains.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (!measure.parameters.empty()) m.parameters = measure.parameters;
    return;
  }
  // A new measure's gains come sorted from add_measure, which sorts them to find duplicates.
  std::sort(measure.cutoffs.begin(), measure.cutoffs.end());
  measure.position = options.measures.size();
  options.measures.push_back(std::move(measure));
}

}  // namespace

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
  if (name == "explainQuery") {
    options.explain_query.assign(value);
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
      "unknown option; the options are relevanceLevel, averageComplete, explainQuery, "
      "explainCutoff, and the conventions preset, gain, discount, base, ideal, ties, "
      "negativeGains, unjudgedGrade, relevantFrom and ndcgWhenIdcgZero");
}

DiagnosticList set_eval_options(EvalOptions& options, const std::vector<OptionValue>& values) {
  return set_in_preset_order(values, [&](std::string_view name, std::string_view value) {
    return set_eval_option(options, name, value);
  });
}

std::optional<Diagnostic> add_measure(EvalOptions& options, std::string_view raw) {
  const std::string_view name = trim(raw);
  if (name.empty()) {
    return Diagnostic{Source::options, 0, 0,
                      "a measure name is empty; name one such as ndcg_cut.10, map or P.10"};
  }
  // ir_measures names: nDCG@10, AP@100, P@10, R@100, RR, Rprec, Bpref, nDCG, AP.
  if (const std::size_t at = name.find('@'); at != std::string_view::npos) {
    const std::string_view base = name.substr(0, at);
    const auto k = parse_parameter(name.substr(at + 1), 1);
    if (!k) return measure_error(name, "the cut-off after '@' must be a whole number ≥ 1");
    MeasureKind kind;
    if (base == "nDCG")
      kind = MeasureKind::ndcg_cut;
    else if (base == "AP")
      kind = MeasureKind::map_cut;
    else if (base == "P")
      kind = MeasureKind::p;
    else if (base == "R")
      kind = MeasureKind::recall;
    else
      return measure_error(name, "unknown measure; with '@' use nDCG, AP, P or R");
    merge(options, Measure{kind, {*k}, {}, {}});
    return std::nullopt;
  }
  if (name == "nDCG") return merge(options, Measure{MeasureKind::ndcg, {}, {}, {}}), std::nullopt;
  if (name == "AP") return merge(options, Measure{MeasureKind::map, {}, {}, {}}), std::nullopt;
  if (name == "RR")
    return merge(options, Measure{MeasureKind::recip_rank, {}, {}, {}}), std::nullopt;
  if (name == "Bpref") return merge(options, Measure{MeasureKind::bpref, {}, {}, {}}), std::nullopt;

  const std::size_t dot = name.find('.');
  const std::string_view base = name.substr(0, dot);
  const std::string_view params =
      dot == std::string_view::npos ? std::string_view() : name.substr(dot + 1);
  for (const MeasureName& m : kTrecNames) {
    if (m.name != base) continue;
    Measure measure{m.kind, {}, {}, {}};
    if (m.cutoffs) {
      if (params.empty()) {
        measure.cutoffs = kDefaultCutoffs;
      } else {
        std::size_t i = 0;
        while (i <= params.size()) {
          std::size_t end = params.find(',', i);
          if (end == std::string_view::npos) end = params.size();
          const auto k = parse_parameter(params.substr(i, end - i), 1);
          if (!k) {
            return measure_error(
                name, "cut-offs must be whole numbers ≥ 1, e.g. " + std::string(base) + ".5,10");
          }
          measure.cutoffs.push_back(*k);
          i = end + 1;
        }
      }
    } else if (m.kind == MeasureKind::ndcg && !params.empty()) {
      std::size_t i = 0;
      while (i <= params.size()) {
        std::size_t end = params.find(',', i);
        if (end == std::string_view::npos) end = params.size();
        const std::string_view pair = params.substr(i, end - i);
        const std::size_t eq = pair.find('=');
        const auto level =
            eq == std::string_view::npos ? std::nullopt : parse_parameter(pair.substr(0, eq), 0);
        const auto gain =
            eq == std::string_view::npos ? std::nullopt : parse_decimal(pair.substr(eq + 1));
        if (!level || !gain) {
          return measure_error(name,
                               "gains are written grade=gain with a whole grade ≥ 0, e.g. "
                               "ndcg.1=0.5,2=3");
        }
        if (*gain < 0) {
          return measure_error(name, "the gain of grade " + std::to_string(*level) +
                                         " is negative; gains must be 0 or more");
        }

        measure.gains.emplace_back(*level, *gain);
        i = end + 1;
      }
      std::stable_sort(measure.gains.begin(), measure.gains.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (std::size_t g = 1; g < measure.gains.size(); ++g) {
        if (measure.gains[g].first == measure.gains[g - 1].first) {
          return measure_error(
              name, "grade " + std::to_string(measure.gains[g].first) + " is given two gains");
        }
      }
      measure.parameters.assign(params);
    } else if (!params.empty()) {
      return measure_error(name, std::string(base) + " takes no parameters");
    }
    merge(options, std::move(measure));
    return std::nullopt;
  }
  return measure_error(name,
                       "unknown measure; use num_ret, num_rel, num_rel_ret, map, map_cut.k, Rprec, "
                       "bpref, recip_rank, P.k, recall.k, ndcg, ndcg_cut.k or the ir_measures "
                       "names nDCG@k, AP, AP@k, P@k, R@k, RR, Rprec, Bpref");
}

Evaluator::Evaluator(const QrelsReader& qrels, EvalOptions options)
    : qrels_(qrels), options_(std::move(options)) {
  if (options_.measures.empty()) {
    for (const char* m : {"map", "P.5,10", "ndcg", "ndcg_cut.10", "recip_rank", "bpref"}) {
      add_measure(options_, m);
    }
  }
  // trec_eval prints measures in the order of its own table, whatever the command line says.
  std::stable_sort(options_.measures.begin(), options_.measures.end(),
                   [](const Measure& a, const Measure& b) { return a.kind < b.kind; });
  for (const Measure& m : options_.measures) {
    const std::string base = trec_name(m.kind);
    const bool whole = m.kind == MeasureKind::num_ret || m.kind == MeasureKind::num_rel ||
                       m.kind == MeasureKind::num_rel_ret;
    if (m.cutoffs.empty()) {
      columns_.push_back(
          Column{m.parameters.empty() ? base : base + "_" + m.parameters, whole, m.position, 0});
    } else {
      for (std::int64_t k : m.cutoffs)
        columns_.push_back(Column{base + "_" + std::to_string(k), false, m.position, k});
    }
  }
}

void Evaluator::add(QueryRun&& run) {
  const std::uint32_t first_line = run.docs.empty() ? 0 : run.docs.front().line;
  const auto it = qrels_.queries().find(run.qid);
  if (it == qrels_.queries().end()) {
    if (runs_without_qrels_.insert(run.qid).second) kept_ += run.qid.size() + kQueryOverhead;
  } else {
    std::vector<double> values = evaluate(run, it->second);
    if (!values.empty()) {
      for (double v : values) {
        if (std::isfinite(v) || overflow_reported_) continue;
        overflow_reported_ = true;
        errors_.add(Source::options, 0, 0,
                    "the gains of ndcg are too large: query " + quote(run.qid) +
                        " adds up to more than a double holds; use gains below 1e300");
      }
      kept_ += run.qid.size() + kQueryOverhead + values.size() * sizeof(double);
      results_[run.qid] = std::move(values);
    }
  }
  if (kept_ > options_.results_memory_limit && !errors_.full()) {
    errors_.add(Source::run, first_line, 0,
                "the per-query results need more than " + megabytes(options_.results_memory_limit) +
                    " of memory by this query (" +
                    std::to_string(results_.size() + runs_without_qrels_.size()) +
                    " queries); evaluate fewer queries or measures at a time");
    options_.results_memory_limit = SIZE_MAX;  // reported once
  }
}

namespace {

// Ranks [0, k) of n: a 64-bit cut-off is compared before it is narrowed to a size_t (32 bits
// in wasm), so that a cut-off of 2^32 + 1 means "all of them", not 1.
std::size_t depth_of(std::int64_t k, std::size_t n) {
  if (k <= 0) return 0;
  return static_cast<std::uint64_t>(k) < n ? static_cast<std::size_t>(k) : n;
}

}  // namespace

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
  for (const auto& [doc, j] : qrels.by_doc) {
    judged.items.push_back(Judgment{doc, static_cast<double>(j.grade), j.line, 0});
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
                                           const Measure* gain_map, std::int64_t cutoff) const {
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
  return explain(ranked, judged.items.empty() ? nullptr : &judged, conventions);
}

void Evaluator::explain_one(const QueryRun& run, const std::vector<std::uint32_t>& order,
                            const QueryQrels& qrels) {
  if (options_.conventions) {
    const Measure* gain_map = nullptr;
    for (const Measure& m : options_.measures) {
      if (m.kind == MeasureKind::ndcg && !m.gains.empty()) gain_map = &m;
    }
    explanation_ = explain_conventions(run, qrels, gain_map, options_.explain_cutoff);
    return;
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
    if (m.kind != MeasureKind::ndcg || m.gains.empty()) continue;
    conventions.gain = GainKind::custom;
    conventions.custom_gains = custom_gains(m, qrels);
  }
  explanation_ = explain(ranked, judged.items.empty() ? nullptr : &judged, conventions);
}

std::vector<double> Evaluator::evaluate(const QueryRun& run, const QueryQrels& qrels) {
  const std::size_t n = run.docs.size();
  // Rank by score descending, then docno descending (trec_eval's tie-break).
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto& da = run.docs[a];
    const auto& db = run.docs[b];
    if (da.score != db.score) return da.score > db.score;
    return run.docno(da) > run.docno(db);
  });
  // Grades by rank; a docno retrieved twice is an error, as in trec_eval.
  std::vector<std::int64_t> grade(n);
  {
    std::unordered_map<std::string_view, std::uint32_t> seen;  // docno -> index in run.docs
    seen.reserve(n);
    std::string key;
    for (std::size_t r = 0; r < n; ++r) {
      const auto& d = run.docs[order[r]];
      const std::string_view docno = run.docno(d);
      auto [prev, inserted] = seen.emplace(docno, order[r]);
      if (!inserted) {
        const auto& first = run.docs[prev->second];
        const auto& later = first.line < d.line ? d : first;
        const auto& earlier = first.line < d.line ? first : d;
        errors_.add(Source::run, later.line, later.column,
                    "document " + quote(docno) + " is retrieved twice for query " + quote(run.qid) +
                        " (lines " + std::to_string(earlier.line) + " and " +
                        std::to_string(later.line) + "); trec_eval rejects this, keep one line");
        return {};
      }
      key.assign(docno);
      const auto j = qrels.by_doc.find(key);
      if (j == qrels.by_doc.end())
        grade[r] = kNotInPool;
      else
        grade[r] = j->second.grade < 0 ? kJudgedNegative : j->second.grade;
    }
  }
  if (!options_.explain_query.empty() && run.qid == options_.explain_query) {
    explain_one(run, order, qrels);
  }
  // Judged documents at or above the relevance level, and below it (grades >= 0).
  const std::int64_t level = options_.relevance_level;
  std::int64_t num_rel = 0;
  std::int64_t num_nonrel = 0;
  for (const auto& [g, count] : qrels.grade_counts) (g >= level ? num_rel : num_nonrel) += count;
  const auto relevant = [&](std::int64_t g) { return g >= 0 && g >= level; };
  const auto discount = [](std::size_t r) { return std::log2(static_cast<double>(r) + 2.0); };
  const auto as_double = [](auto v) { return static_cast<double>(v); };

  std::vector<double> values;
  values.reserve(columns_.size());
  for (const Measure& m : options_.measures) {
    switch (m.kind) {
      case MeasureKind::num_ret:
        values.push_back(as_double(n));
        break;
      case MeasureKind::num_rel:
        values.push_back(as_double(num_rel));
        break;
      case MeasureKind::num_rel_ret: {
        std::int64_t count = 0;
        for (std::int64_t g : grade) count += relevant(g) ? 1 : 0;
        values.push_back(as_double(count));
        break;
      }
      case MeasureKind::map: {
        std::int64_t so_far = 0;
        double sum = 0;
        for (std::size_t r = 0; r < n; ++r) {
          if (relevant(grade[r])) sum += as_double(++so_far) / as_double(r + 1);
        }
        values.push_back(so_far > 0 ? sum / as_double(num_rel) : 0.0);
        break;
      }
      case MeasureKind::rprec: {
        const std::size_t look = depth_of(num_rel, n);
        std::int64_t so_far = 0;
        for (std::size_t r = 0; r < look; ++r) so_far += relevant(grade[r]) ? 1 : 0;
        values.push_back(look == 0 ? 0.0 : as_double(so_far) / as_double(num_rel));
        break;
      }
      case MeasureKind::bpref: {
        std::int64_t nonrel_so_far = 0;
        double bpref = 0;
        for (std::size_t r = 0; r < n; ++r) {
          const std::int64_t g = grade[r];
          if (g < 0) continue;  // not in the pool, or judged negative: no preference either way
          if (!relevant(g)) {
            ++nonrel_so_far;
          } else if (nonrel_so_far > 0) {
            bpref += 1.0 - as_double(std::min(nonrel_so_far, num_rel)) /
                               as_double(std::min(num_nonrel, num_rel));
          } else {
            bpref += 1.0;
          }
        }
        values.push_back(num_rel > 0 ? bpref / as_double(num_rel) : bpref);
        break;
      }
      case MeasureKind::recip_rank: {
        double rr = 0;
        for (std::size_t r = 0; r < n; ++r) {
          if (relevant(grade[r])) {
            rr = 1.0 / as_double(r + 1);
            break;
          }
        }
        values.push_back(rr);
        break;
      }
      case MeasureKind::p:
      case MeasureKind::recall:
      case MeasureKind::map_cut: {
        std::int64_t so_far = 0;
        double sum = 0;
        std::size_t r = 0;
        for (std::int64_t k : m.cutoffs) {
          for (const std::size_t depth = depth_of(k, n); r < depth; ++r) {
            if (relevant(grade[r])) sum += as_double(++so_far) / as_double(r + 1);
          }
          if (m.kind == MeasureKind::p) {
            values.push_back(as_double(so_far) / as_double(k));
          } else if (num_rel == 0) {
            values.push_back(0.0);
          } else {
            values.push_back((m.kind == MeasureKind::recall ? as_double(so_far) : sum) /
                             as_double(num_rel));
          }
        }
        break;
      }
      case MeasureKind::ndcg: {
        if (options_.conventions) {
          const Explanation e = explain_conventions(run, qrels, &m, 0);
          values.push_back(e.ok ? e.summary.ndcg_at_k : std::numeric_limits<double>::quiet_NaN());
          break;
        }
        // Gain per grade: the grade itself unless overridden; ideal: every judged document of a
        // positive gain, best gain first (compared exactly, unlike trec_eval's integer compare).
        const auto gain_of_grade = [&](std::int64_t g) {
          const auto it = std::lower_bound(
              m.gains.begin(), m.gains.end(), g,
              [](const auto& entry, std::int64_t wanted) { return entry.first < wanted; });
          if (it != m.gains.end() && it->first == g) return it->second;
          return g >= 0 ? as_double(g) : 0.0;
        };
        std::vector<std::pair<double, std::int64_t>> levels;  // (gain, documents at that grade)
        levels.reserve(qrels.grade_counts.size());
        for (const auto& [g, count] : qrels.grade_counts)
          levels.emplace_back(gain_of_grade(g), count);
        std::stable_sort(levels.begin(), levels.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        double dcg = 0;
        for (std::size_t r = 0; r < n; ++r) {
          const double gain = grade[r] < 0 ? 0.0 : gain_of_grade(grade[r]);
          if (gain != 0) dcg += gain / discount(r);
        }
        double ideal = 0;
        std::size_t r = 0;
        for (const auto& [gain, count] : levels) {
          if (gain <= 0) break;
          for (std::int64_t c = 0; c < count; ++c, ++r) ideal += gain / discount(r);
        }
        // A sum that overflowed would divide into a plausible-looking 0 or NaN: reported instead
        // (Evaluator::add turns a non-finite value into an error naming the gains).
        if (!std::isfinite(dcg) || !std::isfinite(ideal)) {
          values.push_back(std::numeric_limits<double>::quiet_NaN());
        } else {
          values.push_back(ideal > 0 ? dcg / ideal : 0.0);
        }
        break;
      }
      case MeasureKind::ndcg_cut: {
        if (options_.conventions) {
          const Explanation e = explain_conventions(run, qrels, nullptr, 0);
          for (std::int64_t k : m.cutoffs) {
            values.push_back(e.ok ? ndcg_at(e, k, *options_.conventions)
                                  : std::numeric_limits<double>::quiet_NaN());
          }
          break;
        }
        // trec_eval's ndcg_cut uses the grades themselves as gains (its gain options apply to
        // ndcg only). grade_counts is best grade first: the ideal ranking, run-length encoded.
        std::size_t r = 0;
        double dcg = 0;
        std::size_t ir = 0;
        double idcg = 0;
        std::size_t level_index = 0;
        std::int64_t used_of_level = 0;
        for (std::int64_t k : m.cutoffs) {
          for (const std::size_t depth = depth_of(k, n); r < depth; ++r) {
            if (grade[r] > 0) dcg += as_double(grade[r]) / discount(r);
          }
          const std::size_t ideal_depth = depth_of(k, SIZE_MAX);
          while (ir < ideal_depth && level_index < qrels.grade_counts.size()) {
            const auto& [g, count] = qrels.grade_counts[level_index];
            if (g <= 0) break;
            if (used_of_level == count) {
              ++level_index;
              used_of_level = 0;
              continue;
            }
            idcg += as_double(g) / discount(ir);
            ++ir;
            ++used_of_level;
          }
          values.push_back(idcg > 0 ? dcg / idcg : dcg);
        }
        break;
      }
    }
  }
  return values;
}

Evaluation Evaluator::finish(const RunReader& reader) {
  Evaluation out;
  out.columns = columns_;
  out.run_tag = reader.run_tag();
  DiagnosticList errors;
  errors.append(qrels_.errors());
  errors.append(reader.errors());
  errors.append(errors_);
  if (!errors.empty()) {
    out.errors = errors.finish();
    return out;
  }
  std::vector<std::string> missing;
  for (const auto& [qid, qrels] : qrels_.queries()) {
    auto it = results_.find(qid);
    if (it == results_.end()) {
      if (!options_.average_complete) {
        missing.push_back(qid);
        continue;
      }
      QueryRun empty;
      empty.qid = qid;
      std::vector<double> values = evaluate(empty, qrels);
      out.per_query.push_back(QueryValues{qid, std::move(values)});
      continue;
    }
    out.per_query.push_back(QueryValues{qid, std::move(it->second)});
  }
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
             "no query has both results and judgments: check that the query ids of the two "
             "files match");
    out.errors = none.finish();
    out.warnings = warnings_.finish();
    return out;
  }
  out.queries_averaged = options_.average_complete ? qrels_.queries().size() : out.per_query.size();
  out.mean.assign(columns_.size(), 0.0);
  for (const QueryValues& q : out.per_query) {
    for (std::size_t c = 0; c < columns_.size(); ++c) out.mean[c] += q.values[c];
  }
  const double count = static_cast<double>(out.queries_averaged);
  const double absent = count - static_cast<double>(out.per_query.size());  // -c: valued 0
  out.stdev.assign(columns_.size(), 0.0);
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const double average = out.mean[c] / count;
    double squares = absent * average * average;
    for (const QueryValues& q : out.per_query) {
      squares += (q.values[c] - average) * (q.values[c] - average);
    }
    out.stdev[c] = count > 1 ? std::sqrt(squares / (count - 1)) : 0.0;
    if (!columns_[c].whole_number) out.mean[c] = average;
  }
  if (!options_.explain_query.empty()) {
    if (explanation_) {
      out.explanation = std::move(explanation_);
    } else {
      warnings_.add(Source::run, 0, 0,
                    "query " + quote(options_.explain_query) +
                        " cannot be explained: it is not in both files");
    }
  }
  out.warnings = warnings_.finish();
  out.ok = true;
  return out;
}

Evaluation evaluate(std::string_view qrels_text, std::string_view run_text,
                    const EvalOptions& options) {
  QrelsReader qrels;
  qrels.feed(qrels_text);
  qrels.finish();
  for (bool buffer_all : {false, true}) {
    Evaluator evaluator(qrels, options);
    RunReader run([&](QueryRun&& q) { evaluator.add(std::move(q)); }, buffer_all);
    run.feed(run_text);
    run.finish();
    if (!run.regroup_needed()) return evaluator.finish(run);
  }
  return Evaluation{};  // not reached: a buffered read never needs regrouping
}

std::string format_trec(const Evaluation& e, bool per_query) {
  std::string out;
  std::vector<char> line;
  const auto emit = [&](const Column& c, const std::string& qid, double value) {
    line.resize(c.name.size() + qid.size() + 64);
    const int written =
        c.whole_number
            ? std::snprintf(line.data(), line.size(), "%-22s\t%s\t%" PRId64 "\n", c.name.c_str(),
                            qid.c_str(), static_cast<std::int64_t>(value))
            : std::snprintf(line.data(), line.size(), "%-22s\t%s\t%6.4f\n", c.name.c_str(),
                            qid.c_str(), value);
    out.append(line.data(), static_cast<std::size_t>(written));
  };
  if (per_query) {
    for (const QueryValues& q : e.per_query) {
      for (std::size_t c = 0; c < e.columns.size(); ++c) emit(e.columns[c], q.qid, q.values[c]);
    }
  }
  for (std::size_t c = 0; c < e.columns.size(); ++c) emit(e.columns[c], "all", e.mean[c]);
  return out;
}

}  // namespace ndcg::trec
