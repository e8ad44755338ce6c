// tests/vectors/working.json: someone's working held against the calculation, with the cause of
// each difference named; and how working is read.
#include "ndcg/check.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "vectors.hpp"

using namespace ndcg;

namespace {

nlohmann::json load_checks() {
  std::ifstream in(std::string(NDCG_VECTORS_DIR) + "/working.json");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str()).at("checks");
}

}  // namespace

TEST_CASE("check my working: the seed documents' slips and the usual causes are named") {
  for (const auto& c : load_checks()) {
    const std::string name = c.at("name");
    INFO(name);
    const WorkingCheck r =
        check_working(c.at("ranking").get<std::string>(), c.at("judgments").get<std::string>(),
                      test::option_values(c.at("options")), c.at("working").get<std::string>());
    REQUIRE(r.ok);
    const auto& expect = c.at("expect");
    REQUIRE(r.columns.size() == expect.size());
    for (std::size_t i = 0; i < expect.size(); ++i) {
      const CheckedColumn& column = r.columns[i];
      const auto& want = expect[i];
      CHECK(quantity_name(column.quantity) == want.at("quantity").get<std::string>());
      std::vector<std::uint32_t> differ;
      for (const CheckedValue& v : column.values) {
        if (!v.matches && v.ours) differ.push_back(v.rank);
      }
      CHECK(differ == want.at("differ").get<std::vector<std::uint32_t>>());
      REQUIRE(column.findings.size() == want.at("findings").size());
      for (std::size_t f = 0; f < column.findings.size(); ++f) {
        const auto& wf = want.at("findings")[f];
        INFO(column.findings[f].message);
        CHECK(column.findings[f].cause == wf.at("cause").get<std::string>());
        CHECK(column.findings[f].rank == wf.at("rank").get<std::uint32_t>());
        CHECK(column.findings[f].message.find(wf.at("contains").get<std::string>()) !=
              std::string::npos);
      }
    }
  }
}

TEST_CASE("check my working: reading the working") {
  SUBCASE("named rows, a header table, a sum and bare numbers") {
    const auto p = parse_working("DCG@3 = (1.0, 1.6)\n| NDCG | 0.33 | 0.17 |\nG: 1 0 1\n");
    REQUIRE(p.errors.empty());
    REQUIRE(p.value.size() == 3);
    CHECK(p.value[0].quantity == Quantity::dcg);
    CHECK(p.value[0].values[1].decimals == 1);
    CHECK(p.value[1].quantity == Quantity::ndcg);
    CHECK(p.value[2].values.size() == 3);
    const auto bare = parse_working("0.5\n0.25\n0.125\n");
    REQUIRE(bare.value.size() == 1);
    CHECK_FALSE(bare.value[0].quantity.has_value());
    CHECK(bare.value[0].values.size() == 3);
    const auto sum = parse_working("IDCG_6 = 3/1 + 3/1.585 = 4.893");
    REQUIRE(sum.value.size() == 1);
    CHECK(sum.value[0].quantity == Quantity::ideal_term);
    REQUIRE(sum.value[0].total.has_value());
    CHECK(sum.value[0].total->value == 4.893);
    CHECK(sum.value[0].values[1].tolerance > 0);
  }
  SUBCASE("nothing to check, or nothing saying what it is, is a clear error") {
    const WorkingCheck empty = check_working("1 0 1", "", {}, "no numbers here");
    REQUIRE_FALSE(empty.ok);
    CHECK(empty.errors[0].message.find("holds no numbers") != std::string::npos);
    const WorkingCheck unnamed = check_working("1 0 1", "", {}, "1 1 1.5");
    REQUIRE_FALSE(unnamed.ok);
    CHECK(unnamed.errors[0].message.find("have no name") != std::string::npos);
    const WorkingCheck chosen = check_working("1 0 1", "", {}, "1 1 1.5", "CG");
    REQUIRE(chosen.ok);
    CHECK(chosen.columns[0].quantity == Quantity::cg);
    CHECK(chosen.columns[0].values[2].matches == false);
    const WorkingCheck bad = check_working("1 0 1", "", {}, "1 1 2", "DCGs");
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.errors[0].source == Source::options);
  }
}
