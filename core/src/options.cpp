#include "ndcg/options.hpp"

#include <algorithm>
#include <cmath>

#include "ndcg/text.hpp"

namespace ndcg {
namespace {

Diagnostic option_error(std::string_view name, std::string message) {
  return Diagnostic{Source::options, 0, 0, "option " + std::string(name) + ": " + message};
}

// Parses "3=7,2=3,1=1" (separators ',', ';' or white space; ':' may replace '=').
std::optional<Diagnostic> parse_gain_map(std::string_view text,
                                         std::vector<std::pair<double, double>>& out) {
  std::vector<std::pair<double, double>> map;
  std::vector<std::string_view> written;  // each entry's grade as typed, for messages
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find_first_of(",; \t\n", i);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view entry = trim(text.substr(i, end - i));
    i = end + 1;
    if (entry.empty()) continue;
    const std::size_t eq = entry.find_first_of("=:");
    if (eq == std::string_view::npos) {
      return option_error("gain", "custom gain entry " + quote(entry) +
                                      " is not grade=gain; write it like 3=7,2=3,1=1");
    }
    const auto grade = parse_decimal(trim(entry.substr(0, eq)));
    const auto gain = parse_decimal(trim(entry.substr(eq + 1)));
    if (!grade || !gain) {
      return option_error("gain", "in custom gain entry " + quote(entry) +
                                      " both the grade and the gain must be numbers");
    }
    if (*gain < 0) {
      return option_error("gain", "in custom gain entry " + quote(entry) +
                                      " the gain is negative; gains must be 0 or more");
    }
    map.emplace_back(*grade, *gain);
    written.push_back(trim(entry.substr(0, eq)));
  }
  if (map.empty()) {
    return option_error("gain",
                        "expected linear, exponential or a grade=gain map such as 3=7,2=3,1=1");
  }
  // Sorted by grade for gain_of's binary search; a grade given twice is found as a neighbour.
  std::vector<std::size_t> order(map.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return map[a].first < map[b].first; });
  std::vector<std::pair<double, double>> sorted;
  sorted.reserve(map.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k > 0 && map[order[k]].first == map[order[k - 1]].first) {
      return option_error(
          "gain", "grade " + quote(written[order[k]]) + " appears twice in the custom gain map");
    }
    sorted.push_back(map[order[k]]);
  }
  out = std::move(sorted);
  return std::nullopt;
}

}  // namespace

std::optional<Diagnostic> set_option(Options& options, std::string_view name,
                                     std::string_view raw_value) {
  const std::string_view value = trim(raw_value);
  if (name == "gain") {
    if (value == "linear") {
      options.gain = GainKind::linear;
    } else if (value == "exponential") {
      options.gain = GainKind::exponential;
    } else {
      std::vector<std::pair<double, double>> map;
      if (auto error = parse_gain_map(value, map)) return error;
      options.gain = GainKind::custom;
      options.custom_gains = std::move(map);
    }
    return std::nullopt;
  }
  if (name == "discount") {
    if (value == "log2(rank+1)" || value == "log(rank+1)") {
      options.discount = DiscountKind::log2_rank_plus_1;
    } else if (value == "jarvelin-kekalainen") {
      options.discount = DiscountKind::jarvelin_kekalainen;
    } else {
      return option_error(name,
                          "expected log2(rank+1) or jarvelin-kekalainen, got " + quote(value));
    }
    return std::nullopt;
  }
  if (name == "base") {
    const auto base = parse_decimal(value);
    if (!base || !(*base > 1.0)) {
      return option_error(name,
                          "the log base must be a number greater than 1, got " + quote(value));
    }
    options.base = *base;
    return std::nullopt;
  }
  if (name == "ideal") {
    if (value == "judgments") {
      options.ideal = IdealFrom::judgments;
    } else if (value == "ranking") {
      options.ideal = IdealFrom::ranking;
    } else {
      return option_error(name, "expected judgments or ranking, got " + quote(value));
    }
    return std::nullopt;
  }
  if (name == "idealDepth") {
    if (value == "cut") {
      options.ideal_depth = IdealDepth::cut;
    } else if (value == "whole") {
      options.ideal_depth = IdealDepth::whole;
    } else {
      return option_error(name, "expected cut or whole, got " + quote(value));
    }
    return std::nullopt;
  }
  if (name == "k") {
    if (value.empty()) {
      options.k = 0;
      return std::nullopt;
    }
    const auto k = parse_decimal(value);
    if (!k || *k < 0 || *k != std::floor(*k) || *k > 4294967295.0) {
      return option_error(name,
                          "the cut-off must be a whole number such as 10 (0 means the "
                          "whole ranking), got " +
                              quote(value));
    }
    options.k = static_cast<std::uint32_t>(*k);
    return std::nullopt;
  }
  if (name == "ndcgWhenIdcgZero") {
    const auto v = parse_decimal(value);
    if (!v) return option_error(name, "expected a number such as 0 or 1, got " + quote(value));
    options.ndcg_when_idcg_zero = *v;
    return std::nullopt;
  }
  if (name == "roundBeforeDividing") {
    if (value.empty() || value == "off") {
      options.round_before_dividing.reset();
      return std::nullopt;
    }
    const auto d = parse_decimal(value);
    if (!d || *d < 0 || *d > 12 || *d != std::floor(*d)) {
      return option_error(
          name, "expected a number of decimals from 0 to 12, or off, got " + quote(value));
    }
    options.round_before_dividing = static_cast<int>(*d);
    return std::nullopt;
  }
  if (name == "ties") {
    if (value == "input") {
      options.ties = TieRule::input;
    } else if (value == "docno-desc") {
      options.ties = TieRule::docno_desc;
    } else if (value == "average") {
      options.ties = TieRule::average;
    } else {
      return option_error(name, "expected input, docno-desc or average, got " + quote(value));
    }
    return std::nullopt;
  }
  if (name == "negativeGains") {
    if (value == "zero" || value == "keep") {
      options.keep_negative_gains = value == "keep";
      return std::nullopt;
    }
    return option_error(name, "expected zero or keep, got " + quote(value));
  }
  if (name == "unjudgedGrade") {
    const auto v = parse_decimal(value);
    if (!v) return option_error(name, "expected a number such as 0, got " + quote(value));
    options.unjudged_grade = *v;
    return std::nullopt;
  }
  if (name == "relevantFrom") {
    if (value.empty() || value == "off") {
      options.relevant_from.reset();
      return std::nullopt;
    }
    const auto v = parse_decimal(value);
    if (!v) {
      return option_error(
          name, "expected a grade such as 1 (grades below it gain 0), or off, got " + quote(value));
    }
    options.relevant_from = *v;
    return std::nullopt;
  }
  if (name == "rankingNumbers") {
    if (value == "auto") {
      options.ranking_numbers = RankingNumbers::automatic;
    } else if (value == "grade") {
      options.ranking_numbers = RankingNumbers::grade;
    } else if (value == "score") {
      options.ranking_numbers = RankingNumbers::score;
    } else {
      return option_error(name, "expected auto, grade or score, got " + quote(value));
    }
    return std::nullopt;
  }
  if (name == "preset") return apply_preset(options, value);
  return option_error(name,
                      "unknown option; the options are preset, gain, discount, base, ideal, "
                      "idealDepth, k, ties, negativeGains, unjudgedGrade, relevantFrom, "
                      "rankingNumbers, ndcgWhenIdcgZero and roundBeforeDividing");
}

const std::vector<Preset>& presets() {
  // Every option a preset leaves out keeps its default, so each one names all the conventions
  // that differ between libraries: gain, discount, base, ideal, idealDepth, ties, negativeGains,
  // unjudgedGrade, relevantFrom (empty: none) and ndcgWhenIdcgZero.
  static const std::vector<Preset> kPresets = {
      {"trec_eval", "trec_eval ndcg",
       "gain=linear;discount=log2(rank+1);base=2;ideal=judgments;idealDepth=whole;"
       "ties=docno-desc;negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "usnistgov/trec_eval 10.0, m_ndcg.c and trec_format.c (ties: docno descending)"},
      {"trec_eval-ndcg_cut", "trec_eval ndcg_cut",
       "gain=linear;discount=log2(rank+1);base=2;ideal=judgments;idealDepth=cut;"
       "ties=docno-desc;negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "usnistgov/trec_eval 10.0, m_ndcg_cut.c"},
      {"sklearn", "scikit-learn ndcg_score",
       "gain=linear;discount=log2(rank+1);base=2;ideal=ranking;idealDepth=cut;ties=average;"
       "negativeGains=keep;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "scikit-learn, sklearn/metrics/_ranking.py: ndcg_score, _tie_averaged_dcg"},
      {"torchmetrics", "torchmetrics retrieval_normalized_dcg",
       "gain=linear;discount=log2(rank+1);base=2;ideal=ranking;idealDepth=cut;ties=average;"
       "negativeGains=keep;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "Lightning-AI/torchmetrics, src/torchmetrics/functional/retrieval/ndcg.py (scikit-learn's "
       "_dcg_sample_scores and _tie_average_dcg, translated)"},
      {"ranx", "ranx ndcg",
       "gain=linear;discount=log2(rank+1);base=2;ideal=judgments;idealDepth=cut;ties=input;"
       "negativeGains=zero;unjudgedGrade=0;relevantFrom=1;ndcgWhenIdcgZero=0",
       "AmenRa/ranx, ranx/metrics/ndcg.py (jarvelin=True)"},
      {"ranx-burges", "ranx ndcg_burges",
       "gain=exponential;discount=log2(rank+1);base=2;ideal=judgments;idealDepth=cut;"
       "ties=input;negativeGains=zero;unjudgedGrade=0;relevantFrom=1;ndcgWhenIdcgZero=0",
       "AmenRa/ranx, ranx/metrics/ndcg.py (jarvelin=False)"},
      {"ir_measures", "ir_measures nDCG (pytrec_eval)",
       "gain=linear;discount=log2(rank+1);base=2;ideal=judgments;idealDepth=cut;"
       "ties=docno-desc;negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "terrierteam/ir_measures: nDCG and nDCG@k from its default provider, pytrec_eval, which "
       "runs trec_eval's ndcg and ndcg_cut"},
      {"gdeval", "gdeval.pl (TREC Web track)",
       "gain=exponential;discount=log2(rank+1);base=2;ideal=judgments;idealDepth=cut;"
       "ties=docno-desc;negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "gdeval.pl 1.3 of the TREC 2010-2014 Web tracks: 2^g - 1 over log2(rank + 1), the ideal "
       "from the judged documents at depth k (20 by default), runs ordered by score then docno "
       "descending (runOrder)"},
      {"lightgbm", "LightGBM ndcg@k",
       "gain=exponential;discount=log2(rank+1);base=2;ideal=ranking;idealDepth=cut;ties=input;"
       "negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=1",
       "microsoft/LightGBM, src/metric/dcg_calculator.cpp (label_gain 2^i - 1, discount "
       "1 / log2(2 + i), std::stable_sort by score, the ideal from the query's own labels) and "
       "src/metric/rank_metric.hpp (a query without relevant documents scores 1)"},
      {"xgboost", "XGBoost ndcg@k",
       "gain=exponential;discount=log2(rank+1);base=2;ideal=ranking;idealDepth=cut;ties=input;"
       "negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=1",
       "dmlc/xgboost, src/metric/rank_metric.cc (ndcg: 2^label - 1 with ndcg_exp_gain, the "
       "default; "
       "the ideal from the group's labels; a group without relevant documents scores 1, 0 with "
       "ndcg-) as tests/cpp/metric/test_rank_metric.cc checks it"},
      {"tf-ranking", "TF-Ranking NDCGMetric",
       "gain=exponential;discount=log2(rank+1);base=2;ideal=ranking;idealDepth=cut;ties=average;"
       "negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "tensorflow/ranking, tensorflow_ranking/python/metrics_impl.py (NDCGMetric: 2^label - 1 "
       "over log2(rank + 1), the ideal from the list's own labels, both cut at topn) and "
       "utils.py (sort_by_scores shuffles tied scores at random: averaging tied gains gives "
       "the mean over those shuffles)"},
      {"spark", "Spark MLlib RankingMetrics.ndcgAt",
       "gain=exponential;discount=log2(rank+1);base=2.718281828459045;ideal=judgments;"
       "idealDepth=cut;ties=input;negativeGains=keep;unjudgedGrade=0;relevantFrom=;"
       "ndcgWhenIdcgZero=0",
       "apache/spark, mllib/src/main/scala/org/apache/spark/mllib/evaluation/RankingMetrics.scala "
       "(ndcgAt: 2^rel - 1 over the natural log of rank + 1, the ideal from the ground-truth "
       "labels cut at k; without relevance values every label gains 1)"},
      {"ntcir", "NTCIREVAL MSnDCG@l",
       "gain=linear;discount=log2(rank+1);base=2.718281828459045;ideal=judgments;"
       "idealDepth=cut;ties=input;negativeGains=zero;unjudgedGrade=0;relevantFrom=;"
       "ndcgWhenIdcgZero=0",
       "NTCIREVAL (Sakai) and its Python port mpkato/pyNTCIREVAL, pyNTCIREVAL/metrics/ms_ndcg.py: "
       "the gain of each relevance level as given with -g (1:2:3 by default: the level), over "
       "the natural log of rank + 1, the ideal from every judged document, cut at l; its "
       "original nDCG@l is the lecture preset's Järvelin-Kekäläinen discount"},
      {"elasticsearch", "Elasticsearch rank_eval dcg (normalize: true)",
       "gain=exponential;discount=log2(rank+1);base=2;ideal=judgments;idealDepth=cut;ties=input;"
       "negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "elastic/elasticsearch, modules/rank-eval DiscountedCumulativeGain.java: 2^rating - 1 over "
       "log2(rank + 1), the ideal from every rated document cut at k (10 by default), hits in "
       "the order returned, unrated hits counting 0 unless unknown_doc_rating gives a rating"},
      {"lecture", "Lecture (COMP3009J)",
       "gain=linear;discount=jarvelin-kekalainen;base=2;ideal=judgments;idealDepth=cut;"
       "ties=input;negativeGains=zero;unjudgedGrade=0;relevantFrom=;ndcgWhenIdcgZero=0",
       "Järvelin & Kekäläinen, ACM TOIS 20(4), 2002, as the lecture notes compute it"},
  };
  return kPresets;
}

const Preset* find_preset(std::string_view name) {
  for (const Preset& p : presets()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<OptionValue> preset_values(const Preset& preset) {
  std::vector<OptionValue> out;
  std::string_view rest = preset.options;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find(';'), rest.size());
    const std::string_view pair = rest.substr(0, end);
    rest = end < rest.size() ? rest.substr(end + 1) : std::string_view{};
    const std::size_t eq = pair.find('=');
    out.push_back({std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1))});
  }
  return out;
}

std::optional<Diagnostic> apply_preset(Options& options, std::string_view name) {
  const Preset* preset = find_preset(name);
  if (preset == nullptr) {
    std::string names;
    for (const Preset& p : presets()) names += (names.empty() ? "" : ", ") + std::string(p.name);
    return option_error("preset", "unknown preset " + quote(name) + "; the presets are " + names);
  }
  Options next = options;
  for (const OptionValue& v : preset_values(*preset)) {
    if (auto error = set_option(next, v.name, v.value)) return error;
  }
  options = std::move(next);
  return std::nullopt;
}

DiagnosticList set_options(Options& options, const std::vector<OptionValue>& values) {
  return set_in_preset_order(values, [&](std::string_view name, std::string_view value) {
    return set_option(options, name, value);
  });
}

std::optional<double> gain_of(double grade, const Options& options) {
  switch (options.gain) {
    case GainKind::linear:
      return grade;
    case GainKind::exponential: {
      const double gain = std::exp2(grade) - 1.0;
      if (!std::isfinite(gain)) return std::nullopt;
      return gain;
    }
    case GainKind::custom: {
      const auto& map = options.custom_gains;
      const auto it = std::lower_bound(map.begin(), map.end(), grade,
                                       [](const auto& entry, double g) { return entry.first < g; });
      if (it != map.end() && it->first == grade) return it->second;
      if (grade == 0) return 0.0;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

double discount_at(std::uint32_t rank, const Options& options) {
  const double r = static_cast<double>(rank);
  if (options.discount == DiscountKind::log2_rank_plus_1) {
    if (options.base == 2.0) return std::log2(r + 1.0);
    return std::log(r + 1.0) / std::log(options.base);
  }
  if (r < options.base) return 1.0;
  // log2 is exact for powers of two; dividing two logs is not, so base 2 takes the direct path.
  if (options.base == 2.0) return std::log2(r);
  return std::log(r) / std::log(options.base);
}

double round_to(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  const double scaled = value * scale;
  if (!std::isfinite(scaled)) return value;
  return std::round(scaled) / scale;
}

}  // namespace ndcg
