// The core's API for JavaScript. Results are copied out as plain objects, numeric columns as
// typed arrays and document ids as one joined string, so that JS never holds a handle into wasm
// memory and a million-row table costs a few copies, not millions of calls across the boundary.
// wasm/api.mjs shapes this into the documented API; nothing else should call it directly.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "ndcg/explain.hpp"

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
    out.set(i, item);
  }
  return out;
}

template <class T>
val copy_to_js(const std::vector<T>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

// Document ids joined by '\n' (no id can contain one) and a presence flag for each.
struct DocColumn {
  std::string joined;
  std::vector<std::uint8_t> present;

  void add(const std::optional<std::string>& doc) {
    if (!present.empty()) joined.push_back('\n');
    if (doc) joined += *doc;
    present.push_back(doc ? 1 : 0);
  }
  val to_js() const {
    val out = val::object();
    out.set("joined", joined);
    out.set("present", copy_to_js(present));
    return out;
  }
};

val explain(const std::string& ranking, const std::string& judgments, const val& options) {
  std::vector<ndcg::OptionValue> option_values;
  const val keys = val::global("Object").call<val>("keys", options);
  const auto count = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < count; ++i) {
    const auto name = keys[i].as<std::string>();
    option_values.push_back({name, options[name].as<std::string>()});
  }
  const ndcg::Explanation e = ndcg::explain(ranking, judgments, option_values);

  val out = val::object();
  out.set("ok", e.ok);
  out.set("errors", diagnostics_to_js(e.errors));
  out.set("warnings", diagnostics_to_js(e.warnings));
  if (!e.ok) return out;

  const std::size_t n = e.rows.size();
  std::vector<double> grade(n), gain(n), discount(n), cg(n), dcg(n), ideal_grade(n),
      ideal_gain(n), idcg(n), ndcg_(n), rounded_dcg(n), rounded_idcg(n), rounded_ndcg(n);
  std::vector<std::uint8_t> judged(n), repeated(n);
  DocColumn docs;
  DocColumn ideal_docs;
  for (std::size_t i = 0; i < n; ++i) {
    const ndcg::StepRow& r = e.rows[i];
    grade[i] = r.grade;
    gain[i] = r.gain;
    discount[i] = r.discount;
    cg[i] = r.cg;
    dcg[i] = r.dcg;
    ideal_grade[i] = r.ideal_grade;
    ideal_gain[i] = r.ideal_gain;
    idcg[i] = r.idcg;
    ndcg_[i] = r.ndcg;
    rounded_dcg[i] = r.rounded_dcg;
    rounded_idcg[i] = r.rounded_idcg;
    rounded_ndcg[i] = r.rounded_ndcg;
    judged[i] = r.judged ? 1 : 0;
    repeated[i] = r.repeated ? 1 : 0;
    docs.add(r.doc);
    ideal_docs.add(r.ideal_doc);
  }
  val columns = val::object();
  columns.set("grade", copy_to_js(grade));
  columns.set("gain", copy_to_js(gain));
  columns.set("discount", copy_to_js(discount));
  columns.set("cg", copy_to_js(cg));
  columns.set("dcg", copy_to_js(dcg));
  columns.set("idealGrade", copy_to_js(ideal_grade));
  columns.set("idealGain", copy_to_js(ideal_gain));
  columns.set("idcg", copy_to_js(idcg));
  columns.set("ndcg", copy_to_js(ndcg_));
  columns.set("roundedDcg", copy_to_js(rounded_dcg));
  columns.set("roundedIdcg", copy_to_js(rounded_idcg));
  columns.set("roundedNdcg", copy_to_js(rounded_ndcg));
  columns.set("judged", copy_to_js(judged));
  columns.set("repeated", copy_to_js(repeated));
  columns.set("doc", docs.to_js());
  columns.set("idealDoc", ideal_docs.to_js());
  out.set("columns", columns);

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

}  // namespace

EMSCRIPTEN_BINDINGS(ndcg_core) {
  emscripten::function("explain", &explain);
}
