// The core's API for JavaScript. Results are copied out as plain objects, numeric columns as
// typed arrays and document ids as one joined string, so that JS never holds a handle into wasm
// memory and a million-row table costs a few copies, not millions of calls across the boundary.
// wasm/api.mjs shapes this into the documented API; nothing else should call it directly.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ndcg/check.hpp"
#include "ndcg/cli.hpp"
#include "ndcg/compare.hpp"
#include "ndcg/conventions.hpp"
#include "ndcg/explain.hpp"
#include "ndcg/trec.hpp"

namespace {

using emscripten::val;

val diagnostics_to_js(const std::vector<ndcg::Diagnostic>& list) {
  val out = val::array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const ndcg::Diagnostic& d = list[i];
    val item = val::object();
    item.set("source", std::string(ndcg::source_name(d.source)));
    item.set("line", d.line);
    item.set("column", d.column);
    item.set("message", d.message);
    if (!d.code.empty()) item.set("code", std::string(d.code));
    out.set(i, item);
  }
  return out;
}

// A vector as a typed array of its type; a string as its bytes (an Int8Array).
template <class Values>
val copy_to_js(const Values& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

// Text read from a file (a query id, a docno, a run's tag) as a JS string: as UTF-8 made well
// formed first, as TextDecoder reads it (each invalid subpart U+FFFD). Embind's decoder takes the
// bytes after a lead byte as its continuation whatever they are, reading past the text's end for
// a Latin-1 "d\xe9" (a character made of what lies beyond it).
val text_to_js(std::string_view text) {
  return val(ndcg::well_formed_utf8(text));
}

// A list of ids as one text, each id ended by '\n' (which no id contains). It goes to JS as bytes
// (copy_to_js), which api.mjs decodes with TextDecoder (idsOf). Not as embind's std::string: that
// decodes a text of at most 16 bytes with a loop that takes the bytes after a lead byte as its
// continuation, whatever they are, so that an id that is not UTF-8 (a Latin-1 "d\xe9") took the
// '\n' and the next id with it.
void add_id(std::string& ids, std::string_view id) {
  ids += id;
  ids += '\n';
}

// Document ids, in the list add_id writes ("" for none), and a presence flag for each.
struct DocColumn {
  std::string joined;
  std::vector<std::uint8_t> present;

  void add(const std::optional<std::string>& doc) {
    if (doc) joined += *doc;
    joined += '\n';
    present.push_back(doc ? 1 : 0);
  }
  val to_js() const {
    val out = val::object();
    out.set("joined", copy_to_js(joined));
    out.set("present", copy_to_js(present));
    return out;
  }
};

val explanation_to_js(const ndcg::Explanation& e) {
  val out = val::object();
  out.set("ok", e.ok);
  out.set("errors", diagnostics_to_js(e.errors));
  out.set("warnings", diagnostics_to_js(e.warnings));
  if (!e.ok) return out;

  // Each numeric field of the rows becomes one typed array, named as in the JS API.
  static constexpr std::pair<const char*, double ndcg::StepRow::*> kNumbers[] = {
      {"grade", &ndcg::StepRow::grade},
      {"gain", &ndcg::StepRow::gain},
      {"ownGain", &ndcg::StepRow::own_gain},
      {"discount", &ndcg::StepRow::discount},
      {"term", &ndcg::StepRow::term},
      {"cg", &ndcg::StepRow::cg},
      {"dcg", &ndcg::StepRow::dcg},
      {"idealGrade", &ndcg::StepRow::ideal_grade},
      {"idealGain", &ndcg::StepRow::ideal_gain},
      {"idealTerm", &ndcg::StepRow::ideal_term},
      {"idcg", &ndcg::StepRow::idcg},
      {"ndcg", &ndcg::StepRow::ndcg},
      {"roundedDcg", &ndcg::StepRow::rounded_dcg},
      {"roundedIdcg", &ndcg::StepRow::rounded_idcg},
      {"roundedNdcg", &ndcg::StepRow::rounded_ndcg},
  };
  static constexpr std::pair<const char*, bool ndcg::StepRow::*> kFlags[] = {
      {"judged", &ndcg::StepRow::judged}, {"repeated", &ndcg::StepRow::repeated}};
  const std::size_t n = e.rows.size();
  val columns = val::object();
  std::vector<double> numbers(n);
  for (const auto& [name, field] : kNumbers) {
    for (std::size_t i = 0; i < n; ++i) numbers[i] = e.rows[i].*field;
    columns.set(name, copy_to_js(numbers));
  }
  std::vector<std::uint8_t> flags(n);
  for (const auto& [name, field] : kFlags) {
    for (std::size_t i = 0; i < n; ++i) flags[i] = e.rows[i].*field ? 1 : 0;
    columns.set(name, copy_to_js(flags));
  }
  DocColumn docs;
  DocColumn ideal_docs;
  for (const ndcg::StepRow& r : e.rows) {
    docs.add(r.doc);
    ideal_docs.add(r.ideal_doc);
  }
  columns.set("doc", docs.to_js());
  columns.set("idealDoc", ideal_docs.to_js());
  if (e.scored) {
    for (std::size_t i = 0; i < n; ++i) numbers[i] = e.rows[i].score.value_or(0);
    columns.set("score", copy_to_js(numbers));
    std::vector<std::uint32_t> first(n);
    std::vector<std::uint32_t> last(n);
    for (std::size_t i = 0; i < n; ++i) {
      first[i] = e.rows[i].tie_first;
      last[i] = e.rows[i].tie_last;
    }
    columns.set("tieFirst", copy_to_js(first));
    columns.set("tieLast", copy_to_js(last));
  }
  out.set("columns", columns);
  out.set("scored", e.scored);
  out.set("numbersFrom", std::string(ndcg::numbers_from_name(e.numbers_from)));

  DocColumn ideal_list;
  std::vector<double> ideal_list_grade;
  std::vector<double> ideal_list_gain;
  for (const ndcg::IdealEntry& entry : e.ideal) {
    ideal_list.add(entry.doc);
    ideal_list_grade.push_back(entry.grade);
    ideal_list_gain.push_back(entry.gain);
  }
  val ideal = val::object();
  ideal.set("doc", ideal_list.to_js());
  ideal.set("grade", copy_to_js(ideal_list_grade));
  ideal.set("gain", copy_to_js(ideal_list_gain));
  out.set("ideal", ideal);

  val summary = val::object();
  summary.set("k", e.summary.k);
  summary.set("dcgAtK", e.summary.dcg_at_k);
  summary.set("idcgAtK", e.summary.idcg_at_k);
  summary.set("ndcgAtK", e.summary.ndcg_at_k);
  summary.set("roundedDcgAtK", e.summary.rounded_dcg_at_k);
  summary.set("roundedIdcgAtK", e.summary.rounded_idcg_at_k);
  summary.set("roundedNdcgAtK", e.summary.rounded_ndcg_at_k);
  summary.set("judgedRelevant", e.summary.judged_relevant);
  summary.set("roundedDecimals",
              e.summary.rounded_decimals ? val(*e.summary.rounded_decimals) : val::null());
  out.set("summary", summary);
  return out;
}

// An object of text values, as wasm/api.mjs passes options, in the order of its keys.
std::vector<ndcg::OptionValue> option_values(const val& options) {
  std::vector<ndcg::OptionValue> values;
  const val keys = val::global("Object").call<val>("keys", options);
  const auto count = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < count; ++i) {
    const auto name = keys[i].as<std::string>();
    values.push_back({name, options[name].as<std::string>()});
  }
  return values;
}

// A JS array of strings.
std::vector<std::string> strings(const val& array) {
  std::vector<std::string> out;
  const auto count = array["length"].as<unsigned>();
  for (unsigned i = 0; i < count; ++i) out.push_back(array[i].as<std::string>());
  return out;
}

// A JS array of strings.
val string_array(const std::vector<std::string>& list) {
  val out = val::array();
  for (std::size_t i = 0; i < list.size(); ++i) out.set(i, list[i]);
  return out;
}

#ifdef NDCG_COMMAND_LINE

// The ndcg-calc command line (ndcg/cli.hpp), for wasm/cli.mjs: what argv asks for. On a usage
// error, `error` is the whole text to print on stderr.
val parse_command_line(const val& argv) {
  const ndcg::cli::Parsed parsed = ndcg::cli::parse_arguments(strings(argv));
  val out = val::object();
  out.set("ok", parsed.arguments.has_value());
  if (!parsed.arguments) {
    out.set("error", ndcg::cli::usage_error(parsed.error));
    return out;
  }
  const ndcg::cli::Arguments& a = *parsed.arguments;
  out.set("help", a.help);
  out.set("version", a.version);
  out.set("progress", a.progress);
  out.set("files", string_array(a.files));
  out.set("measures", string_array(a.measures));
  val options = val::array();
  for (std::size_t i = 0; i < a.options.size(); ++i) {
    options.set(i, string_array({a.options[i].name, a.options[i].value}));
  }
  out.set("options", options);
  out.set("zscoresFile", a.zscores_file ? val(*a.zscores_file) : val::null());
  out.set("compare", a.command == ndcg::cli::Command::compare);
  if (a.command == ndcg::cli::Command::compare && a.files.size() > 1) {
    out.set("runNames", string_array(ndcg::cli::run_names(
                            std::vector<std::string>(a.files.begin() + 1, a.files.end()))));
  }
  val compare_options = val::array();
  for (std::size_t i = 0; i < a.compare_options.size(); ++i) {
    compare_options.set(i, string_array({a.compare_options[i].name, a.compare_options[i].value}));
  }
  out.set("compareOptions", compare_options);
  if (a.command == ndcg::cli::Command::compare && a.help) {
    out.set("helpText", std::string(ndcg::cli::compare_usage()) + "\n");
  }
  return out;
}

// What ndcg-calc prints for arguments it cannot read (exit status 2).
ndcg::cli::Report usage_report(const std::string& error) {
  ndcg::cli::Report r;
  r.err = ndcg::cli::usage_error(error);
  r.status = 2;
  return r;
}

// What a program prints: { out, err, status }; with `bytes`, out is a Uint8Array of its UTF-8 (a
// copy), for a caller that writes it to stdout: a report of thousands of queries is megabytes,
// and a string of it is decoded here and encoded again to be written.
val report_to_js(const ndcg::cli::Report& r, bool bytes = false) {
  val out = val::object();
  if (bytes) {
    const auto* data = reinterpret_cast<const unsigned char*>(r.out.data());
    out.set("out",
            val::global("Uint8Array").new_(emscripten::typed_memory_view(r.out.size(), data)));
  } else {
    out.set("out", r.out);
  }
  out.set("err", r.err);
  out.set("status", r.status);
  return out;
}

// -h's text, with the definitions of the measures named (-h -m NAME).
std::string command_line_help(const val& measures) {
  return ndcg::cli::help(strings(measures));
}
#endif

val explain(const std::string& ranking, const std::string& judgments, const val& options) {
  return explanation_to_js(ndcg::explain(ranking, judgments, option_values(options)));
}

val summary_to_js(const ndcg::PresetResult& r) {
  val out = val::object();
  out.set("preset", r.preset);
  out.set("ok", r.ok);
  out.set("k", r.summary.k);
  out.set("ndcgAtK", r.summary.ndcg_at_k);
  out.set("dcgAtK", r.summary.dcg_at_k);
  out.set("idcgAtK", r.summary.idcg_at_k);
  return out;
}

val compare_conventions(const std::string& ranking, const std::string& judgments,
                        const val& options, const std::string& first, const std::string& second) {
  const ndcg::ConventionsComparison c =
      ndcg::compare_conventions(ranking, judgments, option_values(options), first, second);
  val out = val::object();
  out.set("ok", c.ok);
  out.set("errors", diagnostics_to_js(c.errors));
  out.set("warnings", diagnostics_to_js(c.warnings));
  if (!c.ok) return out;
  out.set("asGiven", summary_to_js(c.as_given));
  val presets = val::array();
  for (std::size_t i = 0; i < c.presets.size(); ++i) presets.set(i, summary_to_js(c.presets[i]));
  out.set("presets", presets);
  out.set("first", c.first);
  out.set("second", c.second);
  val effects = val::array();
  for (std::size_t i = 0; i < c.effects.size(); ++i) {
    const ndcg::OptionEffect& e = c.effects[i];
    val item = val::object();
    item.set("option", e.option);
    item.set("from", e.first_value);
    item.set("to", e.second_value);
    item.set("ok", e.ok);
    item.set("ndcgAtK", e.ndcg);
    item.set("change", e.change);
    effects.set(i, item);
  }
  out.set("effects", effects);
  return out;
}

val check_working(const std::string& ranking, const std::string& judgments, const val& options,
                  const std::string& working, const std::string& quantity) {
  const ndcg::WorkingCheck c =
      ndcg::check_working(ranking, judgments, option_values(options), working, quantity);
  val out = val::object();
  out.set("ok", c.ok);
  out.set("errors", diagnostics_to_js(c.errors));
  out.set("warnings", diagnostics_to_js(c.warnings));
  if (!c.ok) return out;
  val columns = val::array();
  for (std::size_t i = 0; i < c.columns.size(); ++i) {
    const ndcg::CheckedColumn& column = c.columns[i];
    val item = val::object();
    item.set("quantity", std::string(ndcg::quantity_name(column.quantity)));
    val values = val::array();
    for (std::size_t v = 0; v < column.values.size(); ++v) {
      const ndcg::CheckedValue& cell = column.values[v];
      val value = val::object();
      value.set("rank", cell.rank);
      value.set("theirs", cell.theirs);
      value.set("decimals", cell.decimals);
      value.set("ours", cell.ours ? val(*cell.ours) : val::null());
      value.set("matches", cell.matches);
      values.set(v, value);
    }
    item.set("values", values);
    val findings = val::array();
    for (std::size_t f = 0; f < column.findings.size(); ++f) {
      val finding = val::object();
      finding.set("cause", std::string(column.findings[f].cause));
      finding.set("rank", column.findings[f].rank);
      finding.set("message", column.findings[f].message);
      findings.set(f, finding);
    }
    item.set("findings", findings);
    if (column.total) {
      item.set("total", column.total->value);
      item.set("ourTotal", column.our_total);
    }
    columns.set(i, item);
  }
  out.set("columns", columns);
  return out;
}

// The presets: name, label, the options they stand for (as "name=value" pairs) and citation.
val presets() {
  val out = val::array();
  const auto& list = ndcg::presets();
  for (std::size_t i = 0; i < list.size(); ++i) {
    val item = val::object();
    item.set("name", std::string(list[i].name));
    item.set("label", std::string(list[i].label));
    val options = val::object();
    for (const ndcg::OptionValue& v : ndcg::preset_values(list[i])) options.set(v.name, v.value);
    item.set("options", options);
    item.set("citation", std::string(list[i].citation));
    out.set(i, item);
  }
  return out;
}

val working_to_js(const ndcg::trec::Working& w) {
  val out = val::object();
  out.set("column", w.column);
  val columns = val::array();
  for (std::size_t i = 0; i < w.columns.size(); ++i) columns.set(i, w.columns[i]);
  out.set("columns", columns);
  val rows = val::array();
  for (std::size_t i = 0; i < w.rows.size(); ++i) {
    const ndcg::trec::WorkingRow& r = w.rows[i];
    val row = val::object();
    row.set("rank", static_cast<double>(r.rank));
    row.set("doc", text_to_js(r.docno));
    // -1: not in the qrels; -2: judged with a negative grade (as trec_eval marks them)
    row.set("grade", static_cast<double>(r.grade));
    row.set("counted", r.counted);
    val values = val::array();
    for (std::size_t v = 0; v < r.values.size(); ++v) {
      values.set(v, std::isnan(r.values[v]) ? val::null() : val(r.values[v]));
    }
    row.set("values", values);
    rows.set(i, row);
  }
  out.set("rows", rows);
  out.set("result", w.result);
  out.set("value", w.value);
  return out;
}

// The catalogue of TREC measures, in trec_eval's order.
val measure_catalogue() {
  static constexpr const char* kParams[] = {"none", "cutoffs", "numberCutoffs", "numbers", "pairs"};
  static constexpr const char* kValues[] = {"real", "whole", "text"};
  val out = val::array();
  const auto& catalogue = ndcg::trec::measure_catalogue();
  for (std::size_t i = 0; i < catalogue.size(); ++i) {
    const ndcg::trec::MeasureDef& d = catalogue[i];
    val item = val::object();
    item.set("name", std::string(d.name));
    item.set("params", kParams[static_cast<int>(d.params)]);
    item.set("defaults", std::string(d.defaults));
    item.set("value", kValues[static_cast<int>(d.value)]);
    item.set("summary", std::string(ndcg::trec::summary_name(d.summary)));
    item.set("perQuery", d.per_query);
    item.set("irMeasures", std::string(d.ir_measures));
    item.set("definition", std::string(d.definition));
    item.set("trecEval", d.trec_eval);
    out.set(i, item);
  }
  return out;
}

val measure_nicknames() {
  val out = val::array();
  const auto& nicknames = ndcg::trec::measure_nicknames();
  for (std::size_t i = 0; i < nicknames.size(); ++i) {
    val item = val::object();
    item.set("name", std::string(nicknames[i].name));
    val members = val::array();
    for (std::size_t m = 0; m < nicknames[i].measures.size(); ++m) {
      members.set(m, std::string(nicknames[i].measures[m]));
    }
    item.set("measures", members);
    out.set(i, item);
  }
  return out;
}

// An ndcg::trec::Session fed in chunks through chunkBuffer(): qrels first, then the run, fed
// again from its start for as long as finishRun() returns true. The sessions below build on it.
class FedSession {
 public:
  void finishQrels() { session_->finish_qrels(); }
  bool finishRun() { return session_->finish_run(); }

  // A chunk's way in without a conversion at the binding: the caller asks for room for `size`
  // bytes, writes the chunk into wasm memory there (one copy), then feeds the bytes written.
  std::uintptr_t chunkBuffer(std::size_t size) {
    if (size > buffer_.size()) buffer_.resize(size);
    return reinterpret_cast<std::uintptr_t>(buffer_.data());
  }
  void feedQrelsBuffer(std::size_t size) { session_->feed_qrels(buffered(size)); }
  void feedRunBuffer(std::size_t size) { session_->feed_run(buffered(size)); }

 protected:
  explicit FedSession(ndcg::trec::EvalOptions options)
      : session_(std::make_unique<ndcg::trec::Session>(std::move(options))) {}

  std::string_view buffered(std::size_t size) const {
    return std::string_view(buffer_).substr(0, size);
  }

  std::unique_ptr<ndcg::trec::Session> session_;

 private:
  std::string buffer_;
};

// The options of an evaluation, and the errors in them.
struct Configured {
  ndcg::trec::EvalOptions options;
  ndcg::DiagnosticList errors;
};

Configured evaluation_configured(const val& measures, const val& options) {
  Configured c;
  c.errors = ndcg::trec::configure_evaluation(c.options, strings(measures), option_values(options));
  return c;
}

// Where each query's lines are (trec.hpp's QuerySpan): { queries (add_id's list), starts, ends
// (byte offsets, Float64Array) }, or null.
val spans_to_js(const std::optional<std::vector<ndcg::trec::QuerySpan>>& spans) {
  if (!spans) return val::null();
  std::string ids;
  std::vector<double> starts;
  std::vector<double> ends;
  for (const ndcg::trec::QuerySpan& s : *spans) {
    add_id(ids, s.qid);
    starts.push_back(static_cast<double>(s.start));
    ends.push_back(static_cast<double>(s.end));
  }
  val out = val::object();
  out.set("queries", copy_to_js(ids));
  out.set("starts", copy_to_js(starts));
  out.set("ends", copy_to_js(ends));
  return out;
}

// One TREC evaluation.
class TrecSession : public FedSession {
 public:
  // `measures`: an array of measure names ("ndcg_cut.10", "P@5", "all_trec"); `options`:
  // evaluation options as text values (relevanceLevel, averageComplete, judgedOnly, ...),
  // checked by the core.
  TrecSession(const val& measures, const val& options)
      : TrecSession(evaluation_configured(measures, options)) {}

#ifdef NDCG_COMMAND_LINE
  // A run split between two instances (trec.hpp's Session::absorb): whether these options
  // allow it; this session reads a later part from line `first_line`, which starts at byte
  // `first_byte` of the whole run (query spans are the whole run's); its part as bytes; and the
  // later part's bytes (written into chunkBuffer(size)) absorbed by the first part's session.
  bool canSplit() const {
    return option_errors_.empty() && session_->can_split();
  }
  void continueRun(double first_line, double first_byte) {
    session_->continue_run(static_cast<std::uint32_t>(first_line),
                           static_cast<std::uint64_t>(first_byte));
  }
  // The same when the number of that line is not known (Session::continue_run_at_byte).
  void continueRunAtByte(double first_byte) {
    session_->continue_run_at_byte(static_cast<std::uint64_t>(first_byte));
  }
  val packPart() {
    const std::string bytes = session_->pack_part();
    return val(emscripten::typed_memory_view(bytes.size(),
                                             reinterpret_cast<const std::uint8_t*>(bytes.data())))
        .call<val>("slice");
  }
  bool absorbPart(std::size_t size) {
    return session_->absorb_packed(buffered(size));
  }
  // Lines sampled from the run's two parts (Uint8Arrays, trec.hpp's PartQueries): this session,
  // reading the later part or the first, keeps the judgments of that part's queries only.
  void keepPartQueries(const std::string& first, const std::string& later, bool later_part) {
    session_->keep_part_queries(first, later, later_part);
  }
#endif

  // The evaluation, kept for formatTrec and commandLineReport, without building its values in
  // JS: for a caller that only prints them (result() builds an object a query). Whether it is ok.
  bool conclude() {
#ifdef NDCG_COMMAND_LINE
    rest_ = nullptr;  // it refers to the evaluation replaced here
#endif
    if (!option_errors_.empty()) {
      evaluation_ = ndcg::trec::Evaluation{};
      evaluation_.errors = option_errors_.finish();
      return false;
    }
    evaluation_ = session_->result();
    return evaluation_.ok;
  }

  val result() {
    val out = val::object();
    conclude();
    if (!option_errors_.empty()) {
      out.set("ok", false);
      out.set("errors", diagnostics_to_js(evaluation_.errors));
      out.set("warnings", val::array());
      return out;
    }
    const ndcg::trec::Evaluation& e = evaluation_;
    out.set("ok", e.ok);
    out.set("errors", diagnostics_to_js(e.errors));
    out.set("warnings", diagnostics_to_js(e.warnings));
    if (!e.ok) return out;
    val columns = val::array();
    bool any_text = false;
    for (std::size_t c = 0; c < e.columns.size(); ++c) {
      const ndcg::trec::Column& column_of = e.columns[c];
      val column = val::object();
      column.set("name", column_of.name);
      column.set("wholeNumber", column_of.whole_number);
      column.set("text", column_of.value == ndcg::trec::ValueKind::text);
      column.set("perQuery", column_of.per_query);
      column.set("summary", std::string(ndcg::trec::summary_name(column_of.summary)));
      column.set("measure", static_cast<double>(column_of.measure));
      column.set("cutoff", static_cast<double>(column_of.cutoff));
      columns.set(c, column);
      // runid is a text column, but not a query's: its text is the result's runTag.
      any_text =
          any_text || (column_of.value == ndcg::trec::ValueKind::text && column_of.per_query);
    }
    out.set("columns", columns);
    // Every query's values in one array, a column's queries after another's, and the ids as
    // add_id's list: an object and an array a query, made through embind, took 0.4-0.6 s for
    // 100,000 queries. api.mjs makes them into its objects, or gives each column as a view of
    // this array (perQueryColumns).
    const std::size_t width = e.columns.size();
    const std::size_t count = e.per_query.size();
    std::string ids;
    std::vector<double> values(count * width);
    for (std::size_t q = 0; q < count; ++q) {
      add_id(ids, e.per_query[q].qid);
      // One value a column (QueryValues), as the evaluator's summary reads them too.
      for (std::size_t c = 0; c < width; ++c) values[c * count + q] = e.per_query[q].values[c];
    }
    out.set("perQueryIds", copy_to_js(ids));
    out.set("perQueryValues", copy_to_js(values));
    if (any_text) {
      val per_query_texts = val::array();
      for (std::size_t q = 0; q < e.per_query.size(); ++q) {
        val texts = val::array();
        for (std::size_t c = 0; c < e.per_query[q].texts.size(); ++c) {
          texts.set(c, e.per_query[q].texts[c]);
        }
        per_query_texts.set(q, texts);
      }
      out.set("perQueryTexts", per_query_texts);
    }
    out.set("mean", copy_to_js(e.mean));
    out.set("stdev", copy_to_js(e.stdev));
    out.set("queriesAveraged", static_cast<double>(e.queries_averaged));
    out.set("runTag", text_to_js(e.run_tag));
    out.set("zscores", e.zscores);
    out.set("explanation", e.explanation ? explanation_to_js(*e.explanation) : val::null());
    val explanations = val::array();
    for (std::size_t i = 0; i < e.explanations.size(); ++i) {
      val item = val::object();
      item.set("query", text_to_js(e.explanations[i].first));
      item.set("explanation", explanation_to_js(e.explanations[i].second));
      explanations.set(i, item);
    }
    out.set("explanations", explanations);
    out.set("qrelsSpans", spans_to_js(e.qrels_spans));
    out.set("runSpans", spans_to_js(e.run_spans));
    out.set("working", e.working ? working_to_js(*e.working) : val::null());
    return out;
  }

  // trec_eval's lines for the last result(), formatted by C's printf as trec_eval's are.
  std::string formatTrec(bool per_query, bool summary) const {
    return ndcg::trec::format_trec(evaluation_, per_query, summary);
  }

#ifdef NDCG_COMMAND_LINE
  // What ndcg-calc prints for the last result() under `argv` (already checked by
  // parse_command_line): { out, err, status }, the files named as on the command line; out as
  // bytes when `bytes` (report_to_js).
  val commandLineReport(const val& argv, const std::string& qrels_name, const std::string& run_name,
                        bool bytes) const {
    return report_to_js(command_line_report(argv, qrels_name, run_name, false), bytes);
  }

  // The same, but for the results, which commandLineReportNext gives a piece at a time:
  // 100,000 queries' -q lines are 100 MB, held twice (here and in JS) when made at once.
  val commandLineReportInPieces(const val& argv, const std::string& qrels_name,
                                const std::string& run_name, bool bytes) {
    ndcg::cli::Report r = command_line_report(argv, qrels_name, run_name, true);
    rest_ = std::move(r.rest);
    return report_to_js(r, bytes);
  }

  // The next piece of stdout after commandLineReportInPieces's (about a megabyte), as bytes when
  // `bytes`, or null when there is no more.
  val commandLineReportNext(bool bytes) {
    piece_.clear();
    if (!rest_ || !rest_(piece_, ndcg::cli::kPieceBytes)) {
      rest_ = nullptr;
      std::string().swap(piece_);
      return val::null();
    }
    if (!bytes) return val(piece_);
    const auto* data = reinterpret_cast<const unsigned char*>(piece_.data());
    return val::global("Uint8Array").new_(emscripten::typed_memory_view(piece_.size(), data));
  }
#endif

 private:
  explicit TrecSession(Configured c)
      : FedSession(std::move(c.options)), option_errors_(std::move(c.errors)) {}

#ifdef NDCG_COMMAND_LINE
  // ndcg-calc's report of the last result under `argv`, its results left to Report::rest when
  // `in_pieces`; the usage error when the arguments cannot be read.
  ndcg::cli::Report command_line_report(const val& argv, const std::string& qrels_name,
                                        const std::string& run_name, bool in_pieces) const {
    const ndcg::cli::Parsed parsed = ndcg::cli::parse_arguments(strings(argv));
    if (!parsed.arguments) return usage_report(parsed.error);
    return ndcg::cli::report(*parsed.arguments, evaluation_, qrels_name, run_name, in_pieces);
  }
#endif

  ndcg::DiagnosticList option_errors_;
  ndcg::trec::Evaluation evaluation_;
#ifdef NDCG_COMMAND_LINE
  std::function<bool(std::string&, std::size_t)> rest_;  // of evaluation_'s report (InPieces)
  std::string piece_;                                    // the last piece of it given
#endif
};

// Several runs evaluated against one qrels (read once), then compared (compare.hpp). Fed as a
// TrecSession is, one run after another: feedRunBuffer ... finishRun, then endRun(name).
class CompareSession : public FedSession {
 public:
  CompareSession(const val& measures, const val& options, const val& compare_options)
      : CompareSession(compare_configured(measures, options, compare_options)) {}

  val optionErrors() const { return diagnostics_to_js(option_errors_.finish()); }

  // The run just fed is done: kept as `name`; { ok, errors, warnings, runTag }.
  val endRun(const std::string& name) {
    evaluations_.push_back(session_->result());
    names_.push_back(name);
    session_->next_run();
    const ndcg::trec::Evaluation& e = evaluations_.back();
    val out = val::object();
    out.set("ok", e.ok);
    out.set("errors", diagnostics_to_js(e.errors));
    out.set("warnings", diagnostics_to_js(e.warnings));
    out.set("runTag", text_to_js(e.run_tag));
    out.set("qrelsSpans", spans_to_js(e.qrels_spans));
    out.set("runSpans", spans_to_js(e.run_spans));
    return out;
  }

  // The run ended last, packed (compare.hpp's pack) for a comparison made in another instance.
  val packLastRun() const {
    if (evaluations_.empty()) return val::null();
    const std::string bytes = ndcg::compare::pack(evaluations_.back());
    return val(emscripten::typed_memory_view(bytes.size(),
                                             reinterpret_cast<const std::uint8_t*>(bytes.data())))
        .call<val>("slice");
  }

  // A run evaluated in another instance and packed there, written into chunkBuffer(size): kept
  // as `name`, as endRun keeps a run read here; { ok, errors, warnings, runTag } as endRun's, or
  // the error of bytes that cannot be read.
  val addPackedRun(const std::string& name, std::size_t size) {
    ndcg::DiagnosticList errors;
    std::optional<ndcg::trec::Evaluation> e = ndcg::compare::unpack(buffered(size), errors);
    val out = val::object();
    if (!e) {
      out.set("ok", false);
      out.set("errors", diagnostics_to_js(errors.finish()));
      out.set("warnings", val::array());
      out.set("runTag", std::string());
      return out;
    }
    out.set("ok", e->ok);
    out.set("errors", diagnostics_to_js(e->errors));
    out.set("warnings", diagnostics_to_js(e->warnings));
    out.set("runTag", text_to_js(e->run_tag));
    evaluations_.push_back(std::move(*e));
    names_.push_back(name);
    return out;
  }

  val result() const {
    std::vector<const ndcg::trec::Evaluation*> pointers;
    for (const ndcg::trec::Evaluation& e : evaluations_) pointers.push_back(&e);
    const ndcg::compare::Comparison c = ndcg::compare::compare(names_, pointers, options_);
    val out = val::object();
    out.set("ok", c.ok);
    out.set("errors", diagnostics_to_js(c.errors));
    out.set("warnings", diagnostics_to_js(c.warnings));
    if (!c.ok) return out;
    val options = val::object();
    val tests = val::array();
    for (std::size_t i = 0; i < options_.tests.size(); ++i) {
      tests.set(i, std::string(ndcg::compare::test_name(options_.tests[i])));
    }
    options.set("tests", tests);
    options.set("permutations", static_cast<double>(options_.permutations));
    options.set("seed", std::to_string(options_.seed));
    options.set("alpha", options_.alpha);
    options.set("correction", std::string(ndcg::compare::correction_name(options_.correction)));
    options.set("missing", std::string(ndcg::compare::missing_name(options_.missing)));
    options.set("pairs", std::string(ndcg::compare::pairs_name(options_.pairs)));
    out.set("options", options);
    out.set("measures", string_array(c.measures));
    std::string queries;
    for (const std::string& q : c.queries) add_id(queries, q);
    out.set("queries", copy_to_js(queries));  // api.mjs's idsOf reads them
    out.set("values", copy_to_js(c.values));  // [run][measure][query], flat
    out.set("means", copy_to_js(c.means));    // [run][measure], flat
    out.set("family", static_cast<double>(c.family));
    val pairs = val::array();
    for (std::size_t i = 0; i < c.pairs.size(); ++i) {
      const ndcg::compare::PairComparison& pc = c.pairs[i];
      val p = val::object();
      p.set("measure", c.measures[pc.measure]);
      p.set("a", c.systems[pc.a]);
      p.set("b", c.systems[pc.b]);
      p.set("queries", static_cast<double>(pc.queries));
      p.set("meanA", pc.mean_a);
      p.set("meanB", pc.mean_b);
      p.set("difference", pc.difference);
      p.set("stdev", pc.stdev);
      p.set("effectSize", pc.effect_size);
      p.set("low", pc.low);
      p.set("high", pc.high);
      p.set("better", static_cast<double>(pc.wins));
      p.set("worse", static_cast<double>(pc.losses));
      p.set("tied", static_cast<double>(pc.ties));
      val list = val::array();
      for (std::size_t t = 0; t < pc.tests.size(); ++t) {
        const ndcg::compare::TestResult& r = pc.tests[t];
        val item = val::object();
        item.set("test", std::string(ndcg::compare::test_name(r.test)));
        item.set("statistic", r.statistic);
        item.set("p", r.p);
        item.set("pAdjusted", r.p_adjusted);
        item.set("significant", r.significant);
        if (r.test == ndcg::compare::Test::t) item.set("df", r.df);
        if (r.test == ndcg::compare::Test::wilcoxon && !r.exact) item.set("z", r.z);
        item.set("exact", r.exact);
        item.set("samples", static_cast<double>(r.samples));
        item.set("method", r.method);
        list.set(t, item);
      }
      p.set("tests", list);
      pairs.set(i, p);
    }
    out.set("pairs", pairs);
    return out;
  }

#ifdef NDCG_COMMAND_LINE
  // What ndcg-calc compare prints: { out, err, status }, the files named as on the command line.
  val commandLineReport(const val& argv, const std::string& qrels_name) const {
    const ndcg::cli::Parsed parsed = ndcg::cli::parse_arguments(strings(argv));
    if (!parsed.arguments) {
      return report_to_js(usage_report(parsed.error));
    }
    if (option_errors_.empty()) {
      return report_to_js(
          ndcg::cli::compare_report(*parsed.arguments, evaluations_, qrels_name, names_));
    }
    // Bad options: no run was read; the report gives their errors alone.
    std::vector<ndcg::trec::Evaluation> failed(1);
    failed[0].errors = option_errors_.finish();
    return report_to_js(ndcg::cli::compare_report(*parsed.arguments, failed, qrels_name, names_));
  }
#endif

 private:
  struct Setup {
    Configured evaluation;
    ndcg::compare::Options options;
  };
  static Setup compare_configured(const val& measures, const val& options,
                                  const val& compare_options) {
    Setup s;
    s.evaluation.errors =
        ndcg::compare::configure(s.evaluation.options, s.options, strings(measures),
                                 option_values(options), option_values(compare_options));
    return s;
  }
  explicit CompareSession(Setup s)
      : FedSession(std::move(s.evaluation.options)),
        option_errors_(std::move(s.evaluation.errors)),
        options_(std::move(s.options)) {}

  ndcg::DiagnosticList option_errors_;
  ndcg::compare::Options options_;
  std::vector<ndcg::trec::Evaluation> evaluations_;
  std::vector<std::string> names_;
};

#ifdef NDCG_COMMAND_LINE
// Splitting a run between threads is the command line's (the page does not yet: its module
// stays within its size budget without it).

// trec.hpp's query_boundary over bytes (a Uint8Array): the offset, or -1 for none.
double query_boundary(const std::string& window) {
  const std::optional<std::size_t> at = ndcg::trec::query_boundary(window);
  return at ? static_cast<double>(*at) : -1;
}
#endif

}  // namespace

EMSCRIPTEN_BINDINGS(ndcg_core) {
  emscripten::function("explain", &explain);
  emscripten::function("presets", &presets);
  emscripten::function("measureCatalogue", &measure_catalogue);
  emscripten::function("measureNicknames", &measure_nicknames);
  emscripten::function("compareConventions", &compare_conventions);
  emscripten::function("checkWorking", &check_working);
#ifdef NDCG_COMMAND_LINE
  emscripten::function("queryBoundary", &query_boundary);
#endif
  emscripten::class_<FedSession>("FedSession")
      .function("finishQrels", &FedSession::finishQrels)
      .function("chunkBuffer", &FedSession::chunkBuffer)
      .function("feedQrelsBuffer", &FedSession::feedQrelsBuffer)
      .function("feedRunBuffer", &FedSession::feedRunBuffer)
      .function("finishRun", &FedSession::finishRun);
  emscripten::class_<TrecSession, emscripten::base<FedSession>>("TrecSession")
      .constructor<const val&, const val&>()
#ifdef NDCG_COMMAND_LINE
      .function("canSplit", &TrecSession::canSplit)
      .function("continueRun", &TrecSession::continueRun)
      .function("continueRunAtByte", &TrecSession::continueRunAtByte)
      .function("packPart", &TrecSession::packPart)
      .function("absorbPart", &TrecSession::absorbPart)
      .function("keepPartQueries", &TrecSession::keepPartQueries)
#endif
      .function("conclude", &TrecSession::conclude)
      .function("result", &TrecSession::result)
      .function("formatTrec", &TrecSession::formatTrec)
#ifdef NDCG_COMMAND_LINE
      .function("commandLineReport", &TrecSession::commandLineReport)
      .function("commandLineReportInPieces", &TrecSession::commandLineReportInPieces)
      .function("commandLineReportNext", &TrecSession::commandLineReportNext)
#endif
      ;
  emscripten::class_<CompareSession, emscripten::base<FedSession>>("CompareSession")
      .constructor<const val&, const val&, const val&>()
      .function("optionErrors", &CompareSession::optionErrors)
      .function("endRun", &CompareSession::endRun)
      .function("packLastRun", &CompareSession::packLastRun)
      .function("addPackedRun", &CompareSession::addPackedRun)
      .function("result", &CompareSession::result)
#ifdef NDCG_COMMAND_LINE
      .function("commandLineReport", &CompareSession::commandLineReport)
#endif
      ;
#ifdef NDCG_COMMAND_LINE
  emscripten::function("parseCommandLine", &parse_command_line);
  emscripten::function("commandLineHelp", &command_line_help);
#endif
}
