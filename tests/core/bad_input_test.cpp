// tests/bad-input/cases.json through the native core: every hostile input gives its expected
// located error or documented reading. tests/wasm/bad-input.test.mjs runs the same cases through
// the wasm API, and bad-input-cli.test.mjs through both command lines, so native and wasm accept
// and reject the same inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ndcg/explain.hpp"
#include "ndcg/trec.hpp"

using namespace ndcg;
using nlohmann::json;

namespace {

std::string hex_bytes(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// An input of the corpus: a string, or {"parts": [...]} (see the corpus's description).
std::string build(const json& input) {
  if (input.is_string()) return input.get<std::string>();
  std::string out;
  for (const json& part : input.at("parts")) {
    if (part.is_string()) {
      out += part.get<std::string>();
    } else if (part.contains("hex")) {
      out += hex_bytes(part["hex"].get<std::string>());
    } else if (part.contains("repeat")) {
      // By doubling what is already written: a few appends, not one a repeat (52 million for the
      // corpus's 50 MB line, seconds of the suite in the unoptimised, sanitized build).
      const std::string text = part["repeat"].get<std::string>();
      const std::size_t times = part["times"].get<std::size_t>();
      const std::size_t start = out.size();
      out.reserve(start + text.size() * times);
      if (times > 0) out += text;
      for (std::size_t have = 1; have < times;) {
        const std::size_t more = std::min(have, times - have);
        out.append(out, start, more * text.size());
        have += more;
      }
    } else if (part.contains("lines")) {
      // The pattern's pieces between its "{i}"s, found once; each line is its pieces and i.
      const std::string pattern = part["lines"].get<std::string>();
      const std::size_t count = part["count"].get<std::size_t>();
      std::vector<std::string> pieces;
      for (std::size_t from = 0;;) {
        const std::size_t at = pattern.find("{i}", from);
        pieces.push_back(pattern.substr(from, at - from));
        if (at == std::string::npos) break;
        from = at + 3;
      }
      for (std::size_t i = 0; i < count; ++i) {
        const std::string number = std::to_string(i);
        out += pieces[0];
        for (std::size_t k = 1; k < pieces.size(); ++k) {
          out += number;
          out += pieces[k];
        }
      }
    } else if (part.contains("surrogate")) {
      out += "\xEF\xBF\xBD";  // what the binding hands the core for a lone surrogate (U+FFFD)
    } else {
      FAIL("unknown part " << part.dump());
    }
  }
  return out;
}

const json& corpus() {
  static const json data = [] {
    std::ifstream in(std::string(NDCG_BAD_INPUT_DIR) + "/cases.json");
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
  }();
  return data;
}

bool runs_in_core(const json& c) {
  if (!c.contains("layers")) return true;
  for (const json& layer : c["layers"]) {
    if (layer == "core") return true;
  }
  return false;
}

void check_diagnostic(const Diagnostic& got, const json& want) {
  CAPTURE(got.message);
  CHECK(source_name(got.source) == want["source"].get<std::string>());
  CHECK(got.line == want["line"].get<std::uint32_t>());
  if (want.contains("column")) CHECK(got.column == want["column"].get<std::uint32_t>());
  CHECK(got.message.find(want["contains"].get<std::string>()) != std::string::npos);
}

void check_errors(const std::vector<Diagnostic>& errors, const json& expect) {
  std::string listed;
  for (const Diagnostic& d : errors) {
    listed += std::string(source_name(d.source)) + ":" + std::to_string(d.line) + ":" +
              std::to_string(d.column) + ": " + d.message.substr(0, 200) + "\n";
  }
  CAPTURE(listed);
  const json& want = expect["errors"];
  REQUIRE(errors.size() >= want.size());
  for (std::size_t i = 0; i < want.size(); ++i) check_diagnostic(errors[i], want[i]);
  if (expect.contains("errorCount"))
    CHECK(errors.size() == expect["errorCount"].get<std::size_t>());
  if (expect.contains("lastError")) check_diagnostic(errors.back(), expect["lastError"]);
}

void check_warnings(const std::vector<Diagnostic>& warnings, const json& expect) {
  const json wanted = expect.value("warnings", json::array());
  for (const json& w : wanted) {
    bool found = false;
    for (const Diagnostic& d : warnings)
      found = found || d.message.find(w.get<std::string>()) != std::string::npos;
    CHECK_MESSAGE(found, "no warning contains " << w);
  }
}

void run_explain(const json& request, const json& expect) {
  std::vector<OptionValue> options;
  for (const auto& [name, value] : request["options"].items())
    options.push_back({name, build(value)});
  const Explanation r = explain(build(request["ranking"]), build(request["judgments"]), options);
  REQUIRE(r.ok == expect["ok"].get<bool>());
  if (!r.ok) {
    check_errors(r.errors, expect);
    return;
  }
  if (expect.contains("rows")) CHECK(r.rows.size() == expect["rows"].get<std::size_t>());
  if (expect.contains("docs")) {
    const json& docs = expect["docs"];
    REQUIRE(r.rows.size() >= docs.size());
    for (std::size_t i = 0; i < docs.size(); ++i)
      CHECK(r.rows[i].doc.value_or("") == docs[i].get<std::string>());
  }
  if (expect.contains("grades")) {
    const json& grades = expect["grades"];
    REQUIRE(r.rows.size() >= grades.size());
    for (std::size_t i = 0; i < grades.size(); ++i)
      CHECK(r.rows[i].grade == grades[i].get<double>());
  }
  if (expect.contains("ndcgAtK")) {
    CHECK(r.summary.ndcg_at_k == doctest::Approx(expect["ndcgAtK"].get<double>()).epsilon(1e-9));
  }
  check_warnings(r.warnings, expect);
}

void run_evaluate(const json& request, const json& expect) {
  trec::EvalOptions options;
  DiagnosticList option_errors;
  for (const json& m : request["measures"]) {
    if (auto e = trec::add_measure(options, m.get<std::string>())) option_errors.add(*e);
  }
  for (const auto& [name, value] : request["options"].items()) {
    if (auto e = trec::set_eval_option(options, name, value.get<std::string>()))
      option_errors.add(*e);
  }
  if (!option_errors.empty()) {
    REQUIRE_FALSE(expect["ok"].get<bool>());
    check_errors(option_errors.finish(), expect);
    return;
  }
  const trec::Evaluation e =
      trec::evaluate(build(request["qrels"]), build(request["run"]), options);
  REQUIRE(e.ok == expect["ok"].get<bool>());
  if (!e.ok) {
    check_errors(e.errors, expect);
    return;
  }
  const json mean = expect.value("mean", json::object());  // items() must not outlive it
  for (const auto& item : mean.items()) {
    const std::string& name = item.key();
    const json& value = item.value();
    CAPTURE(name);
    std::size_t column = e.columns.size();
    for (std::size_t c = 0; c < e.columns.size(); ++c) {
      if (e.columns[c].name == name) column = c;
    }
    REQUIRE(column < e.columns.size());
    CHECK(e.mean[column] == doctest::Approx(value.get<double>()).epsilon(1e-9));
  }
  if (expect.contains("queries")) CHECK(e.per_query.size() == expect["queries"].get<std::size_t>());
  check_warnings(e.warnings, expect);
}

}  // namespace

namespace {

// The corpus's cases of one kind ("explain" or "evaluate"): two test cases, which CTest runs side
// by side (tests/CMakeLists.txt).
void run_cases(const char* kind) {
  const json& cases = corpus()["cases"];
  CHECK(cases.size() >= 80);
  for (const json& c : cases) {
    if (!runs_in_core(c) || !c.contains(kind)) continue;
#ifdef NDCG_SANITIZED
    // Sized for time, not memory: the plain build runs these (see the corpus's description).
    if (c.value("scale", false)) continue;
#endif
    const std::string name = c["name"];
    CAPTURE(name);
    if (c.contains("explain")) {
      run_explain(c["explain"], c["expect"]);
    } else {
      run_evaluate(c["evaluate"], c["expect"]);
    }
  }
}

}  // namespace

TEST_CASE("bad input: every explain case of the corpus gives its expected outcome in the core") {
  run_cases("explain");
}

TEST_CASE("bad input: every evaluate case of the corpus gives its expected outcome in the core") {
  run_cases("evaluate");
}
