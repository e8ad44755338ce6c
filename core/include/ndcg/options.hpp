// The conventions an NDCG computation follows, as data.
//
// Different textbooks and libraries disagree on gain, discount, where the ideal ranking comes
// from and how deep it goes; each of those choices is one field here, so a preset that
// reproduces a tool or a lecture is a list of option values, never a fork of the code.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ndcg/diagnostic.hpp"

namespace ndcg {

enum class GainKind : std::uint8_t {
  linear,       // G = g
  exponential,  // G = 2^g − 1
  custom,       // G = map[g]; a grade missing from the map is an error, except 0 (gain 0)
};

enum class DiscountKind : std::uint8_t {
  // G / log_b(r + 1) at every rank, b = 2 almost everywhere (Burges et al.; trec_eval, sklearn,
  // whose log_base sets b)
  log2_rank_plus_1,
  jarvelin_kekalainen,  // no discount for r < b, then G / log_b(r) (Järvelin & Kekäläinen 2002)
};

enum class IdealFrom : std::uint8_t {
  judgments,  // every judged document, best first: the recall base (trec_eval)
  ranking,    // the grades of the ranked list itself, best first
};

enum class IdealDepth : std::uint8_t {
  cut,    // IDCG@k sums the top k ideal gains (ndcg_cut.k, NDCG@k almost everywhere)
  whole,  // IDCG sums every ideal gain whatever k is (trec_eval's plain `ndcg`)
};

// Documents whose scores tie: which order they are ranked in, and what they gain.
enum class TieRule : std::uint8_t {
  input,       // in the order given (a stable sort by score; ranx, LightGBM)
  docno_desc,  // by document id, descending byte order (trec_eval)
  // tied ranks share the mean gain of the tied documents (McSherry & Najork, ECIR 2008;
  // scikit-learn and torchmetrics); shown in the order given
  average,
};

// How the number beside a document in a pasted ranking is read when no header row says it.
enum class RankingNumbers : std::uint8_t {
  automatic,  // a grade, unless a header row ("doc score") or a TREC run line says a score
  grade,
  score,
};

struct Options {
  GainKind gain = GainKind::linear;
  // (grade, gain), sorted by grade, grades distinct; used when gain == custom.
  std::vector<std::pair<double, double>> custom_gains;
  DiscountKind discount = DiscountKind::log2_rank_plus_1;
  double base = 2.0;  // log base of either discount; must be > 1
  IdealFrom ideal = IdealFrom::judgments;
  IdealDepth ideal_depth = IdealDepth::cut;
  std::uint32_t k = 0;               // cut-off; 0 = the length of the ranking
  double ndcg_when_idcg_zero = 0.0;  // trec_eval reports 0
  // When set, DCG and IDCG are also rounded to this many decimals and divided again, which is
  // what a slide does when it computes NDCG from the rounded numbers it printed.
  std::optional<int> round_before_dividing;
  TieRule ties = TieRule::input;  // applies when the ranking carries scores
  // A negative grade gains 0, as in trec_eval; kept, its gain is the negative number the gain
  // function gives (linear and custom gains; exponential gains of negative grades are negative).
  bool keep_negative_gains = false;
  // The grade of a ranked document that neither the judgments nor the ranking grade
  // (Elasticsearch's unknown_doc_rating); 0 by default, which is also what trec_eval does.
  double unjudged_grade = 0;
  // When set, a grade below it counts as not relevant: gain 0 in the ranking and in the ideal
  // (ranx's rel_lvl). Unset, every grade has the gain the gain function gives it.
  std::optional<double> relevant_from;
  RankingNumbers ranking_numbers = RankingNumbers::automatic;
};

// A library or source whose conventions can be set in one go: the option values it stands for
// (applied before any option given beside it, which overrides them), and where they are defined.
struct Preset {
  std::string_view name;
  std::string_view label;     // as people name it: "scikit-learn ndcg_score"
  std::string_view options;   // "name=value" pairs separated by ';'
  std::string_view citation;  // the definition followed: a file of the library, or a paper
};

// One option as text, the way the JS API, the command line and presets hand them over.
struct OptionValue {
  std::string name;
  std::string value;
};

// A preset's option values, in the order its definition lists them.
std::vector<OptionValue> preset_values(const Preset& preset);

// Every preset, in the order a user interface lists them.
const std::vector<Preset>& presets();
const Preset* find_preset(std::string_view name);

// Applies a preset's option values to `options`; an error (source options) for an unknown name.
std::optional<Diagnostic> apply_preset(Options& options, std::string_view name);

// Sets one option from its textual value, as the JS API and the command line give it.
// Names and accepted values:
//   gain                  "linear" | "exponential" | a map "3=7,2=3,1=1" (':' also accepted)
//   discount              "log2(rank+1)" | "jarvelin-kekalainen"
//   base                  a number > 1
//   ideal                 "judgments" | "ranking"
//   idealDepth            "cut" | "whole"
//   k                     a whole number ≥ 1, or "0" / "" for the length of the ranking
//   ndcgWhenIdcgZero      a finite number
//   roundBeforeDividing   a whole number of decimals 0..12, or "" / "off"
//   ties                  "input" | "docno-desc" | "average"
//   negativeGains         "zero" | "keep"
//   unjudgedGrade         a finite number
//   relevantFrom          a grade: lower grades gain 0 (not relevant); "" or "off" for none
//   rankingNumbers        "auto" | "grade" | "score"
//   preset                the name of a preset (see presets()); sets every option it names
// Returns a diagnostic (source options, line 0) naming the option and the accepted values when
// the name is unknown or the value is invalid; `options` is then unchanged.
std::optional<Diagnostic> set_option(Options& options, std::string_view name,
                                     std::string_view value);

// Calls `set(name, value)` (returning std::optional<Diagnostic>) for every value: a preset first,
// then the others in order, so that an option given beside a preset overrides it, wherever it
// stands. Returns the errors. Shared by explain's options and TREC evaluation's.
template <class Set>
DiagnosticList set_in_preset_order(const std::vector<OptionValue>& values, Set&& set) {
  DiagnosticList errors;
  for (const bool preset : {true, false}) {
    for (const OptionValue& v : values) {
      if ((v.name == "preset") != preset) continue;
      if (auto error = set(v.name, v.value)) errors.add(std::move(*error));
    }
  }
  return errors;
}

// set_in_preset_order with set_option.
DiagnosticList set_options(Options& options, const std::vector<OptionValue>& values);

// Gain of a grade under `options`. Returns nullopt when the gain is undefined: a custom map that
// lacks the grade, or an exponential gain that overflows a double (grades above 1023).
std::optional<double> gain_of(double grade, const Options& options);

// The number the gain at 1-based `rank` is divided by (1 where there is no discount).
double discount_at(std::uint32_t rank, const Options& options);

// `value` rounded half away from zero to `decimals` places, as a person rounding by hand does.
double round_to(double value, int decimals);

}  // namespace ndcg
