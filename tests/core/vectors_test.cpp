// Every case of tests/vectors/*.json, checked against the core directly.
#include "vectors.hpp"

#include <doctest/doctest.h>

#include <cmath>

namespace ndcg::test {
namespace {

double field_of(const StepRow& row, const std::string& field) {
  if (field == "rank") return row.rank;
  if (field == "grade") return row.grade;
  if (field == "gain") return row.gain;
  if (field == "discount") return row.discount;
  if (field == "term") return row.term;
  if (field == "idealTerm") return row.ideal_term;
  if (field == "cg") return row.cg;
  if (field == "dcg") return row.dcg;
  if (field == "idealGrade") return row.ideal_grade;
  if (field == "idealGain") return row.ideal_gain;
  if (field == "idcg") return row.idcg;
  if (field == "ndcg") return row.ndcg;
  if (field == "roundedDcg") return row.rounded_dcg;
  if (field == "roundedIdcg") return row.rounded_idcg;
  if (field == "roundedNdcg") return row.rounded_ndcg;
  FAIL("unknown column " << field);
  return 0;
}

double summary_field(const Summary& s, const std::string& field) {
  if (field == "k") return s.k;
  if (field == "dcgAtK") return s.dcg_at_k;
  if (field == "idcgAtK") return s.idcg_at_k;
  if (field == "ndcgAtK") return s.ndcg_at_k;
  if (field == "roundedNdcgAtK") return s.rounded_ndcg_at_k;
  FAIL("unknown summary field " << field);
  return 0;
}

nlohmann::json optional_text(const std::optional<std::string>& text) {
  return text ? nlohmann::json(*text) : nlohmann::json(nullptr);
}

void check_diagnostics(const std::vector<Diagnostic>& actual, const nlohmann::json& expected) {
  std::string reported;
  for (const Diagnostic& d : actual) {
    reported += std::string(source_name(d.source)) + ":" + std::to_string(d.line) + ":" +
                std::to_string(d.column) + ": " + d.message + "\n";
  }
  CAPTURE(reported);
  CHECK(actual.size() == expected.size());
  for (const auto& e : expected) {
    bool found = false;
    for (const Diagnostic& d : actual) {
      const bool column_ok = !e.contains("column") || e["column"].get<std::uint32_t>() == d.column;
      const bool code_ok = e.value("code", std::string()) == std::string(d.code);
      if (source_name(d.source) == e["source"].get<std::string>() &&
          d.line == e["line"].get<std::uint32_t>() && column_ok && code_ok &&
          d.message.find(e["contains"].get<std::string>()) != std::string::npos) {
        found = true;
      }
    }
    const std::string wanted = e.dump();
    CAPTURE(wanted);
    CHECK_MESSAGE(found, "expected diagnostic not reported");
  }
}

}  // namespace

TEST_CASE("every shared vector gives its expected table, summary and diagnostics") {
  const auto cases = load_vector_cases();
  REQUIRE(cases.size() >= 30);
  for (const VectorCase& vc : cases) {
    const auto& c = vc.data;
    const std::string name = vc.file + ": " + c["name"].get<std::string>();  // named for CAPTURE
    CAPTURE(name);
    const Explanation r = explain(c["ranking"].get<std::string>(),
                                  c["judgments"].get<std::string>(), option_values(c["options"]));
    const auto& expect = c["expect"];
    REQUIRE(r.ok == expect["ok"].get<bool>());
    if (!r.ok) {
      check_diagnostics(r.errors, expect["errors"]);
      continue;
    }
    check_diagnostics(r.warnings, expect["warnings"]);
    const auto& columns = expect["columns"];
    REQUIRE(r.rows.size() == columns["rank"].size());
    for (const auto& column : columns.items()) {
      const std::string field = column.key();  // a plain variable: CAPTURE cannot take a binding
      const auto& values = column.value();
      for (std::size_t i = 0; i < r.rows.size(); ++i) {
        CAPTURE(field);
        CAPTURE(i + 1);
        if (field == "doc") {
          CHECK(optional_text(r.rows[i].doc) == values[i]);
        } else if (field == "idealDoc") {
          CHECK(optional_text(r.rows[i].ideal_doc) == values[i]);
        } else {
          CHECK(field_of(r.rows[i], field) ==
                doctest::Approx(values[i].get<double>()).epsilon(1e-12));
        }
      }
    }
    for (const auto& entry : expect["summary"].items()) {
      const std::string field = entry.key();
      CAPTURE(field);
      CHECK(summary_field(r.summary, field) ==
            doctest::Approx(entry.value().get<double>()).epsilon(1e-12));
    }
    // The values printed in the seed documents: 4 decimals, or as rounded on the page.
    for (const auto& g : c.value("golden", nlohmann::json::array())) {
      const std::string golden = g.dump();
      CAPTURE(golden);
      const std::string field = g["field"];
      const double actual = g.contains("rank")
                                ? field_of(r.rows.at(g["rank"].get<std::size_t>() - 1), field)
                                : summary_field(r.summary, field);
      if (g.contains("decimals")) {
        CHECK(round_to(actual, g["decimals"].get<int>()) ==
              doctest::Approx(g["value"].get<double>()).epsilon(1e-12));
      } else {
        CHECK(std::fabs(actual - g["value"].get<double>()) <= 5e-5);
      }
    }
  }
}

}  // namespace ndcg::test
