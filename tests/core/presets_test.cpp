// tests/vectors/presets.json: every preset reproduces the values its library documents, in
// explain() and in the TREC evaluation; and the conventions behind them, one at a time.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ndcg/conventions.hpp"
#include "ndcg/explain.hpp"
#include "ndcg/trec.hpp"
#include "vectors.hpp"

using namespace ndcg;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const nlohmann::json& presets_json() {
  static const nlohmann::json data =
      nlohmann::json::parse(read_text(std::string(NDCG_VECTORS_DIR) + "/presets.json"));
  return data;
}

// `actual` printed to `decimals` places is `wanted`, as the library prints it.
void check_rounded(double actual, double wanted, int decimals, const std::string& what) {
  INFO(what << ": " << actual << " to " << decimals << " decimals, wanted " << wanted);
  CHECK(std::fabs(round_to(actual, decimals) - wanted) < 1e-9);
}

// A value as presets.json states it: within "tolerance" of it (a doctest run with pytest's
// NUMBER option: the digits written, give or take one in the last), else rounded to "decimals".
void check_value(double actual, const nlohmann::json& v, double wanted, const std::string& what) {
  if (v.contains("tolerance")) {
    const double tolerance = v.at("tolerance");
    INFO(what << ": " << actual << ", wanted " << wanted << " ± " << tolerance);
    CHECK(std::fabs(actual - wanted) <= tolerance);
    return;
  }
  check_rounded(actual, wanted, v.at("decimals"), what);
}

std::vector<OptionValue> with_preset(const std::string& preset, const nlohmann::json& options) {
  std::vector<OptionValue> values = test::option_values(options);
  values.push_back({"preset", preset});  // last on purpose: a preset applies first wherever it is
  return values;
}

trec::Evaluation evaluate_with(const std::string& qrels, const std::string& run,
                               const std::string& measure,
                               const std::vector<OptionValue>& options) {
  trec::EvalOptions eval;
  REQUIRE_FALSE(trec::add_measure(eval, measure));
  const DiagnosticList errors = trec::set_eval_options(eval, options);
  REQUIRE(errors.empty());
  return trec::evaluate(qrels, run, eval);
}

double value_of(const trec::Evaluation& e, const std::string& query) {
  REQUIRE(e.ok);
  REQUIRE(e.columns.size() == 1);
  if (query == "all") return e.mean[0];
  for (const auto& q : e.per_query) {
    if (q.qid == query) return q.values[0];
  }
  FAIL("query " << query << " is not in the evaluation");
  return 0;
}

}  // namespace

TEST_CASE("presets: every preset reproduces the values of its library's documentation or tests") {
  const auto& presets = presets_json().at("presets");
  CHECK(presets.size() == ndcg::presets().size());
  for (const auto& p : presets) {
    const std::string name = p.at("name");
    REQUIRE_MESSAGE(find_preset(name) != nullptr, name);
    // Three values of the library's own, or the reason it documents none.
    CHECK((p.at("values").size() >= 3 || p.contains("noValues")));
    for (const auto& v : p.at("values")) {
      const std::string from = v.at("from");
      if (v.contains("qrels") || v.contains("qrelsText")) {
        const std::string dir = std::string(NDCG_TREC_DIR) + "/";
        const auto text = [&](const char* file, const char* inline_text) {
          return v.contains(inline_text) ? v.at(inline_text).get<std::string>()
                                         : read_text(dir + v.at(file).get<std::string>());
        };
        const auto e = evaluate_with(text("qrels", "qrelsText"), text("run", "runText"),
                                     v.at("measure"), {{"preset", name}});
        check_value(value_of(e, v.at("query")), v, v.at("value"), name + ", " + from);
        continue;
      }
      const Explanation r =
          explain(v.at("ranking").get<std::string>(), v.at("judgments").get<std::string>(),
                  with_preset(name, v.at("options")));
      REQUIRE_MESSAGE(r.ok, name << ", " << from);
      for (const auto& [field, wanted] : v.at("expect").items()) {
        const double actual = field == "ndcgAtK"   ? r.summary.ndcg_at_k
                              : field == "dcgAtK"  ? r.summary.dcg_at_k
                              : field == "idcgAtK" ? r.summary.idcg_at_k
                                                   : NAN;
        check_value(actual, v, wanted, name + ", " + from + ", " + field);
      }
    }
  }
}

TEST_CASE("presets: the example with tied scores, in explain() and in the TREC evaluation") {
  const auto& example = presets_json().at("example");
  const int decimals = example.at("decimals");
  for (const auto& [preset, wanted] : example.at("expect").items()) {
    const Explanation r = explain(example.at("ranking").get<std::string>(),
                                  example.at("judgments").get<std::string>(),
                                  std::vector<OptionValue>{{"preset", preset}});
    REQUIRE(r.ok);
    CHECK(r.scored);
    check_rounded(r.summary.ndcg_at_k, wanted, decimals, preset + " (explain)");
    const auto e =
        evaluate_with(example.at("qrels"), example.at("run"), "ndcg", {{"preset", preset}});
    check_rounded(value_of(e, "all"), wanted, decimals, preset + " (evaluate)");
  }
  const auto& ties = presets_json().at("sklearnTies");
  const auto e =
      evaluate_with(ties.at("qrels"), ties.at("run"), ties.at("measure"), {{"preset", "sklearn"}});
  check_rounded(value_of(e, "all"), ties.at("value"), 4, "sklearn ties (evaluate)");
  const Explanation r =
      explain(ties.at("ranking").get<std::string>(), ties.at("judgments").get<std::string>(),
              std::vector<OptionValue>{{"preset", "sklearn"}, {"k", "1"}});
  REQUIRE(r.ok);
  check_rounded(r.summary.ndcg_at_k, ties.at("value"), 4, "sklearn ties (explain)");
}

TEST_CASE("presets: trec_eval's conventions through explain() equal the fast TREC evaluation") {
  // The preset path computes ndcg rank by rank with explain(); without options the evaluator
  // uses its own loop. They must agree to the last bit on trec_eval's and our own test files.
  const std::string dir = std::string(NDCG_TREC_DIR) + "/";
  const std::pair<const char*, const char*> files[] = {
      {"trec_eval-10.0/qrels.test", "trec_eval-10.0/results.test"},
      {"basic.qrels", "basic.run"},
      {"missing.qrels", "missing.run"},
      {"basic.qrels", "ungrouped.run"}};
  for (const auto& pair : files) {
    const char* const qrels_file = pair.first;
    const char* const run_file = pair.second;
    const std::string qrels = read_text(dir + qrels_file);
    const std::string run = read_text(dir + run_file);
    for (const char* measure : {"ndcg", "ndcg_cut.1,3,10,100,1000", "ndcg.0=0.5,1=2,2=9"}) {
      for (const char* complete : {"false", "true"}) {
        trec::EvalOptions fast;
        REQUIRE_FALSE(trec::add_measure(fast, measure));
        REQUIRE_FALSE(trec::set_eval_option(fast, "averageComplete", complete));
        trec::EvalOptions conventions = fast;
        REQUIRE_FALSE(trec::set_eval_option(conventions, "preset", "trec_eval"));
        const auto a = trec::evaluate(qrels, run, fast);
        const auto b = trec::evaluate(qrels, run, conventions);
        INFO(qrels_file << " " << run_file << " " << measure << " -c " << complete);
        REQUIRE(a.ok);
        REQUIRE(b.ok);
        REQUIRE(a.per_query.size() == b.per_query.size());
        for (std::size_t q = 0; q < a.per_query.size(); ++q) {
          for (std::size_t c = 0; c < a.columns.size(); ++c) {
            CHECK(a.per_query[q].values[c] ==
                  doctest::Approx(b.per_query[q].values[c]).epsilon(1e-12));
          }
        }
      }
    }
  }
}

TEST_CASE("presets: an option beside a preset overrides it, wherever it stands") {
  const auto& example = presets_json().at("example");
  const std::string ranking = example.at("ranking");
  const std::string judgments = example.at("judgments");
  // sklearn with ties kept in input order: d1 (3) before d2 (2), ideal from the ranking.
  const double wanted = (3 / std::log2(3.0) + 2 / 2.0) / (3 + 2 / std::log2(3.0));
  for (const auto& options : {std::vector<OptionValue>{{"ties", "input"}, {"preset", "sklearn"}},
                              std::vector<OptionValue>{{"preset", "sklearn"}, {"ties", "input"}}}) {
    const Explanation r = explain(ranking, judgments, options);
    REQUIRE(r.ok);
    CHECK(r.summary.ndcg_at_k == doctest::Approx(wanted));
  }
  const Explanation unknown =
      explain(ranking, judgments, std::vector<OptionValue>{{"preset", "nope"}});
  REQUIRE_FALSE(unknown.ok);
  CHECK(unknown.errors[0].message.find("the presets are trec_eval") != std::string::npos);
  trec::EvalOptions eval;
  CHECK(trec::set_eval_option(eval, "k", "10").has_value());
  CHECK(trec::set_eval_option(eval, "idealDepth", "cut").has_value());
  CHECK(trec::set_eval_option(eval, "rankingNumbers", "score").has_value());
  CHECK_FALSE(trec::set_eval_option(eval, "ties", "average").has_value());
  REQUIRE(eval.conventions.has_value());
  CHECK(eval.conventions->ties == TieRule::average);
  CHECK(eval.conventions->ideal == IdealFrom::judgments);  // the rest is trec_eval's
}

TEST_CASE("scores: how the numbers beside documents are read, and said") {
  const std::string judgments = "d1 3\nd2 2\nd3 0\n";
  SUBCASE("doc number lines without a header are grades, and the reading says it was assumed") {
    const Explanation r = explain("d3 0.9\nd1 0.5\n", "", std::vector<OptionValue>{});
    REQUIRE(r.ok);
    CHECK_FALSE(r.scored);
    CHECK(r.numbers_from == NumbersFrom::assumed);
    CHECK(r.rows[0].grade == 0.9);
  }
  SUBCASE("a header naming a score column, in any order, CSV or TSV") {
    for (const char* text :
         {"doc,score\nd3,0.9\nd1,0.5\n", "score\tdocid\n0.9\td3\n0.5\td1\n",
          "| rank | doc | score |\n|---|---|---|\n| 1 | d3 | 0.9 |\n| 2 | d1 | 0.5 |\n"}) {
      const Explanation r = explain(text, judgments, std::vector<OptionValue>{});
      INFO(text);
      REQUIRE(r.ok);
      CHECK(r.scored);
      CHECK(r.numbers_from == NumbersFrom::header);
      CHECK(*r.rows[0].doc == "d3");
      CHECK(*r.rows[0].score == 0.9);
      CHECK(r.rows[1].grade == 3);
    }
  }
  SUBCASE("a header with a score and a grade column: the grade is the ranking's own") {
    const Explanation r =
        explain("doc,score,label\nd1,0.2,1\nd2,0.7,2\n", "", std::vector<OptionValue>{});
    REQUIRE(r.ok);
    CHECK(*r.rows[0].doc == "d2");
    CHECK(r.rows[0].grade == 2);
  }
  SUBCASE("TREC run lines are ranked by their score, not their rank column") {
    const Explanation r =
        explain("7 Q0 d1 1 0.2 sys\n7 Q0 d2 2 0.7 sys\n", judgments, std::vector<OptionValue>{});
    REQUIRE(r.ok);
    CHECK(r.numbers_from == NumbersFrom::run);
    CHECK(*r.rows[0].doc == "d2");
    const Explanation two =
        explain("7 Q0 d1 1 0.2 sys\n8 Q0 d2 2 0.7 sys\n", judgments, std::vector<OptionValue>{});
    REQUIRE_FALSE(two.ok);
    CHECK(two.errors[0].line == 2);
    CHECK(two.errors[0].message.find("one query") != std::string::npos);
  }
  SUBCASE("rankingNumbers=score reads doc number lines as scores") {
    const Explanation r = explain("d3 0.9\nd1 0.5\nd2 0.7\n", judgments,
                                  std::vector<OptionValue>{{"rankingNumbers", "score"}});
    REQUIRE(r.ok);
    CHECK(r.numbers_from == NumbersFrom::option);
    CHECK(*r.rows[1].doc == "d2");
  }
  SUBCASE("every document has a score or none has") {
    const Explanation r =
        explain("d3 0.9\nd1\n", "", std::vector<OptionValue>{{"rankingNumbers", "score"}});
    REQUIRE_FALSE(r.ok);
    CHECK(r.errors[0].line == 2);
    CHECK(r.errors[0].message.find("no score") != std::string::npos);
    const Explanation bad = explain("doc,score\nd1,high\n", "", std::vector<OptionValue>{});
    REQUIRE_FALSE(bad.ok);
    CHECK(bad.errors[0].column == 4);
    CHECK(bad.errors[0].message.find("score 'high'") != std::string::npos);
    const Explanation short_row = explain("doc,score\nd1\n", "", std::vector<OptionValue>{});
    REQUIRE_FALSE(short_row.ok);
    CHECK(short_row.errors[0].message.find("header on line 1 names 2 columns") !=
          std::string::npos);
  }
  SUBCASE("a header row in the judgments box is skipped; grade,doc swaps the columns") {
    const Explanation r =
        explain("d1\nd2\n", "doc,grade\nd1,3\nd2,1\n", std::vector<OptionValue>{});
    REQUIRE(r.ok);
    CHECK(r.rows[0].grade == 3);
    const Explanation swapped =
        explain("d1\nd2\n", "grade,doc\n3,d1\n1,d2\n", std::vector<OptionValue>{});
    REQUIRE(swapped.ok);
    CHECK(swapped.rows[1].grade == 1);
  }
}

TEST_CASE("ties: the three rules on one ranking") {
  const std::string ranking = "doc score\nd9 0.9\nd1 0.5\nd2 0.5\nd3 0.5\n";
  const std::string judgments = "d1 1\nd2 2\nd3 3\n";
  const auto order = [&](const char* rule) {
    const Explanation r = explain(ranking, judgments, std::vector<OptionValue>{{"ties", rule}});
    REQUIRE(r.ok);
    std::string docs;
    for (const auto& row : r.rows) docs += *row.doc + " ";
    return std::make_pair(docs, r);
  };
  CHECK(order("input").first == "d9 d1 d2 d3 ");
  CHECK(order("docno-desc").first == "d9 d3 d2 d1 ");
  const auto [docs, avg] = order("average");
  CHECK(docs == "d9 d1 d2 d3 ");
  for (std::size_t i = 1; i < 4; ++i) {
    CHECK(avg.rows[i].gain == 2);  // (1 + 2 + 3) / 3
    CHECK(avg.rows[i].tie_first == 2);
    CHECK(avg.rows[i].tie_last == 4);
  }
  CHECK(avg.rows[1].own_gain == 1);
  CHECK(avg.rows[0].tie_first == 0);
  // Averaged gains give the mean DCG over the 3! orders of the tied documents.
  const double mean_dcg = 2 / std::log2(3.0) + 2 / std::log2(4.0) + 2 / std::log2(5.0);
  CHECK(avg.summary.dcg_at_k == doctest::Approx(mean_dcg));
  bool said = false;
  for (const auto& w : avg.warnings) said = said || w.code == "scores-tied";
  CHECK(said);
}

TEST_CASE("conventions: log base, negative gains, unjudged grade, relevant-from grade") {
  SUBCASE("base applies to the log(rank + 1) discount (scikit-learn's log_base)") {
    const Explanation r = explain("d1 1\nd2 1\n", "", std::vector<OptionValue>{{"base", "10"}});
    REQUIRE(r.ok);
    CHECK(r.rows[1].discount == doctest::Approx(std::log10(3.0)));
  }
  SUBCASE("negative grades gain 0 unless kept") {
    const Explanation zero = explain("d1 -1\nd2 2\n", "", std::vector<OptionValue>{});
    const Explanation kept =
        explain("d1 -1\nd2 2\n", "", std::vector<OptionValue>{{"negativeGains", "keep"}});
    REQUIRE(zero.ok);
    REQUIRE(kept.ok);
    CHECK(zero.rows[0].gain == 0);
    CHECK(kept.rows[0].gain == -1);
    CHECK(kept.summary.dcg_at_k == doctest::Approx(-1 + 2 / std::log2(3.0)));
  }
  SUBCASE("unjudged documents take unjudgedGrade (Elasticsearch's unknown_doc_rating)") {
    const Explanation r =
        explain("d1\nd2\n", "d1 2\n", std::vector<OptionValue>{{"unjudgedGrade", "1"}});
    REQUIRE(r.ok);
    CHECK(r.rows[1].grade == 1);
    CHECK(r.rows[1].gain == 1);
    bool said = false;
    for (const auto& w : r.warnings)
      said = said || w.message.find("counts as grade 1") != std::string::npos;
    CHECK(said);
  }
  SUBCASE("relevantFrom: lower grades gain 0, negative ones even when kept; off by default") {
    const std::string ranking = "d1 0.5\nd2 -1\nd3 2\n";
    const std::vector<OptionValue> level{{"relevantFrom", "1"}, {"negativeGains", "keep"}};
    const Explanation off = explain(ranking, "", std::vector<OptionValue>{});
    const Explanation on = explain(ranking, "", level);
    REQUIRE(off.ok);
    REQUIRE(on.ok);
    CHECK(off.rows[0].gain == 0.5);
    CHECK(on.rows[0].gain == 0);
    CHECK(on.rows[1].gain == 0);
    CHECK(on.rows[2].gain == 2);
    CHECK(on.summary.idcg_at_k == doctest::Approx(2.0));
    // Each grade the level changes is named once, at its ranking line.
    std::size_t said = 0;
    for (const auto& w : on.warnings) {
      if (w.message.find("below 1, the grade from which") == std::string::npos) continue;
      ++said;
      CHECK(w.line == 1);
      CHECK(w.message.find("d1, d2") != std::string::npos);
    }
    CHECK(said == 1);
    // "off" and "" turn it off again, after a preset that sets it.
    const Explanation ranx = explain(ranking, "", std::vector<OptionValue>{{"preset", "ranx"}});
    const Explanation ranx_off =
        explain(ranking, "", std::vector<OptionValue>{{"preset", "ranx"}, {"relevantFrom", "off"}});
    REQUIRE(ranx.ok);
    REQUIRE(ranx_off.ok);
    CHECK(ranx.rows[0].gain == 0);
    CHECK(ranx_off.rows[0].gain == 0.5);
    Options options;
    const auto error = set_option(options, "relevantFrom", "high");
    REQUIRE(error.has_value());
    CHECK(error->message.find("expected a grade such as 1") != std::string::npos);
  }
  SUBCASE("an unjudged document gains 0 even when a custom map gives grade 0 a gain") {
    const Explanation r =
        explain("d1\nd2\n", "d1 2\n", std::vector<OptionValue>{{"gain", "0=0.5,2=3"}});
    REQUIRE(r.ok);
    CHECK(r.rows[1].gain == 0);
  }
}

TEST_CASE("compare conventions: trec_eval against scikit-learn on the example, option by option") {
  const auto& example = presets_json().at("example");
  const ConventionsComparison c =
      compare_conventions(example.at("ranking").get<std::string>(),
                          example.at("judgments").get<std::string>(), {}, "trec_eval", "sklearn");
  REQUIRE(c.ok);
  REQUIRE(c.presets.size() == presets().size());
  for (const PresetResult& p : c.presets) {
    if (!example.at("expect").contains(p.preset)) continue;
    CHECK(round_to(p.summary.ndcg_at_k, 4) ==
          doctest::Approx(example.at("expect").at(p.preset).get<double>()));
  }
  const auto effect = [&](const std::string& option) -> const OptionEffect& {
    for (const OptionEffect& e : c.effects) {
      if (e.option == option) return e;
    }
    FAIL("no effect for " << option);
    return c.effects.front();
  };
  // Ties averaged instead of ranked by docno: d1 and d2 share (3 + 2) / 2.
  const OptionEffect& ties = effect("ties");
  CHECK(ties.first_value == "docno-desc");
  CHECK(ties.second_value == "average");
  const double idcg = 3 + 2 / std::log2(3.0) + 1 / 2.0;
  const double trec = (2 / std::log2(3.0) + 3 / 2.0) / idcg;
  CHECK(ties.ndcg == doctest::Approx(2.5 * (1 / std::log2(3.0) + 1 / 2.0) / idcg));
  CHECK(ties.change == doctest::Approx(ties.ndcg - trec));
  // The ideal from the ranked documents only: d4 (grade 1, not retrieved) leaves it.
  const OptionEffect& ideal = effect("ideal");
  CHECK(ideal.second_value == "ranking");
  CHECK(ideal.ndcg == doctest::Approx((2 / std::log2(3.0) + 3 / 2.0) / (3 + 2 / std::log2(3.0))));
  CHECK(ideal.change > 0);
  // Options that differ but do not move this input are listed with no change.
  CHECK(effect("idealDepth").change == 0);
  CHECK(effect("negativeGains").change == 0);
  // k and rankingNumbers given by the caller apply under every preset.
  const ConventionsComparison at1 =
      compare_conventions("d3 0.9\nd1 0.5\nd2 0.5\n", example.at("judgments").get<std::string>(),
                          {{"k", "1"}, {"rankingNumbers", "score"}}, "ranx", "sklearn");
  REQUIRE(at1.ok);
  for (const PresetResult& p : at1.presets) CHECK(p.summary.k == 1);
  const ConventionsComparison bad = compare_conventions("d1", "", {}, "trec_eval", "nope");
  CHECK_FALSE(bad.ok);
  CHECK(bad.errors[0].message.find("unknown preset 'nope'") != std::string::npos);
}

// Every shared vector, and a scored ranking with ties and judgments whose numbers are read as
// scores, as grades, and as the input says.
namespace {

struct InputCase {
  std::string name, ranking, judgments;
  std::vector<OptionValue> options;
};

std::vector<InputCase> input_cases() {
  std::vector<InputCase> cases;
  for (const test::VectorCase& vc : test::load_vector_cases()) {
    const auto& c = vc.data;
    cases.push_back({vc.file + ": " + c["name"].get<std::string>(), c["ranking"].get<std::string>(),
                     c["judgments"].get<std::string>(), test::option_values(c["options"])});
  }
  for (const char* numbers : {"score", "grade", "auto"}) {
    cases.push_back({std::string("numbers ") + numbers,
                     "d3 0.9\nd1 0.5\nd2 0.5\nd5 2\n",
                     "d1 3\nd2 2\nd3 1\nd4 1\n",
                     {{"rankingNumbers", numbers}, {"k", "3"}}});
  }
  return cases;
}

// Each diagnostic as one string of its source, place and message, to compare lists whole.
std::vector<std::string> messages(const std::vector<Diagnostic>& list) {
  std::vector<std::string> out;
  for (const Diagnostic& d : list) {
    out.push_back(std::to_string(static_cast<int>(d.source)) + ":" + std::to_string(d.line) + ":" +
                  std::to_string(d.column) + ":" + d.message);
  }
  return out;
}

}  // namespace

TEST_CASE("compare conventions: each preset's values, and each option's effect, are explain()'s") {
  // The comparison reads the texts once and explains them under every preset: each result must
  // be the one a whole explain() of the texts under that preset gives, bit for bit.
  const auto same_summary = [](const Summary& a, const Summary& b) {
    CHECK(a.k == b.k);
    CHECK(a.judged_relevant == b.judged_relevant);
    CHECK(std::memcmp(&a.dcg_at_k, &b.dcg_at_k, sizeof(double)) == 0);
    CHECK(std::memcmp(&a.idcg_at_k, &b.idcg_at_k, sizeof(double)) == 0);
    CHECK(std::memcmp(&a.ndcg_at_k, &b.ndcg_at_k, sizeof(double)) == 0);
  };
  std::size_t compared = 0;
  for (const InputCase& c : input_cases()) {
    const std::string& name = c.name;
    CAPTURE(name);
    const std::string& ranking = c.ranking;
    const std::string& judgments = c.judgments;
    const std::vector<OptionValue>& given = c.options;
    const ConventionsComparison r =
        compare_conventions(ranking, judgments, given, "trec_eval", "sklearn");
    REQUIRE(r.ok == explain(ranking, judgments, given).ok);
    if (!r.ok) continue;
    std::vector<OptionValue> shared;
    for (const OptionValue& v : given) {
      if (v.name == "k" || v.name == "rankingNumbers") shared.push_back(v);
    }
    const auto explained = [&](std::vector<OptionValue> values) {
      values.insert(values.end(), shared.begin(), shared.end());
      return explain(ranking, judgments, values);
    };
    for (const PresetResult& p : r.presets) {
      CAPTURE(p.preset);
      const Explanation e = explained({{"preset", p.preset}});
      REQUIRE(p.ok == e.ok);
      if (p.ok) same_summary(p.summary, e.summary);
      ++compared;
    }
    const std::vector<OptionValue> a = preset_values(*find_preset("trec_eval"));
    const std::vector<OptionValue> b = preset_values(*find_preset("sklearn"));
    for (const OptionEffect& effect : r.effects) {
      CAPTURE(effect.option);
      std::vector<OptionValue> switched = a;
      for (OptionValue& v : switched) {
        if (v.name == effect.option) v.value = effect.second_value;
      }
      for (const OptionValue& v : b) {
        if (v.name == effect.option) CHECK(v.value == effect.second_value);
      }
      const Explanation e = explained(switched);
      REQUIRE(effect.ok == e.ok);
      if (effect.ok) CHECK(std::memcmp(&effect.ndcg, &e.summary.ndcg_at_k, sizeof(double)) == 0);
    }
  }
  CHECK(compared > 300);
}

TEST_CASE("texts read once explain as explain() does, whole or as a summary alone") {
  // One ExplainedTexts per input, asked under the input's options, then under every preset,
  // then with options that change the reading, the cut-off, ties and rounding, and options that
  // do not apply or a gain map that errs. Each whole answer must be what explain() gives, and
  // each summary alone (Detail::summary) the whole answer's ok, errors, summary and reading of
  // the numbers, bit for bit, and nothing else.
  const auto same = [](const Explanation& a, const Explanation& b) {
    REQUIRE(a.ok == b.ok);
    CHECK(messages(a.errors) == messages(b.errors));
    CHECK(messages(a.warnings) == messages(b.warnings));
    REQUIRE(a.rows.size() == b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      CHECK(a.rows[i].doc == b.rows[i].doc);
      CHECK(std::memcmp(&a.rows[i].ndcg, &b.rows[i].ndcg, sizeof(double)) == 0);
    }
    CHECK(a.ideal.size() == b.ideal.size());
    CHECK(std::memcmp(&a.summary.ndcg_at_k, &b.summary.ndcg_at_k, sizeof(double)) == 0);
  };
  const auto bits = [](double x) {
    std::uint64_t b = 0;
    std::memcpy(&b, &x, sizeof b);
    return b;
  };
  std::size_t compared = 0;
  std::size_t failed = 0;
  for (const InputCase& c : input_cases()) {
    const std::string& name = c.name;
    CAPTURE(name);
    const std::string& ranking = c.ranking;
    const std::string& judgments = c.judgments;
    std::vector<std::vector<OptionValue>> asked{c.options};
    for (const Preset& p : presets()) {
      asked.push_back({{"preset", std::string(p.name)}});
      asked.push_back({{"preset", std::string(p.name)}, {"k", "3"}});
    }
    asked.push_back({{"rankingNumbers", "score"}});
    asked.push_back({{"rankingNumbers", "grade"}, {"k", "2"}});
    asked.push_back({{"ties", "average"}, {"rankingNumbers", "score"}});
    asked.push_back({{"roundBeforeDividing", "2"}, {"k", "3"}});
    asked.push_back({{"gain", "0=0,1=1"}});  // grades above 1 have no gain: an error
    asked.push_back({{"k", "-1"}});
    asked.push_back({{"rankingNumbers", "score"}, {"gain", "nope"}});
    // The reference reads both texts itself and looks every judgment up anew: the explain()
    // of option values is an ExplainedTexts of its own.
    const auto reference = [&](const std::vector<OptionValue>& values) {
      Options options;
      if (!set_options(options, values).empty()) return explain(ranking, judgments, values);
      return explain(ranking, judgments, options);
    };
    ExplainedTexts texts(ranking, judgments);
    for (const std::vector<OptionValue>& values : asked) {
      const Explanation whole = texts.explain(values);
      same(whole, reference(values));
      const Explanation brief = texts.explain(values, Detail::summary);
      REQUIRE(brief.ok == whole.ok);
      CHECK(messages(brief.errors) == messages(whole.errors));
      CHECK(brief.warnings.empty());
      CHECK(brief.rows.empty());
      CHECK(brief.ideal.empty());
      CHECK(brief.numbers_from == whole.numbers_from);
      CHECK(brief.scored == whole.scored);
      const Summary& a = brief.summary;
      const Summary& b = whole.summary;
      CHECK(a.k == b.k);
      CHECK(bits(a.dcg_at_k) == bits(b.dcg_at_k));
      CHECK(bits(a.idcg_at_k) == bits(b.idcg_at_k));
      CHECK(bits(a.ndcg_at_k) == bits(b.ndcg_at_k));
      CHECK(bits(a.rounded_dcg_at_k) == bits(b.rounded_dcg_at_k));
      CHECK(bits(a.rounded_idcg_at_k) == bits(b.rounded_idcg_at_k));
      CHECK(bits(a.rounded_ndcg_at_k) == bits(b.rounded_ndcg_at_k));
      CHECK(a.judged_relevant == b.judged_relevant);
      CHECK(a.rounded_decimals == b.rounded_decimals);
      ++compared;
      failed += whole.ok ? 0 : 1;
    }
  }
  CHECK(compared > 1000);
  CHECK(failed > 20);  // errors, of the texts and of the options, are among those compared
}
