// One ranking under every preset, side by side, and what makes two presets differ.
//
// Why do two tools give different NDCG for the same data? Each preset is a list of option
// values (options.hpp); between two presets, the options whose values differ are the whole
// answer. compare_conventions() evaluates the ranking under every preset, and for a chosen
// pair changes one differing option at a time, from the first preset's value to the second's,
// to show how far each one moves NDCG on this input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ndcg/explain.hpp"

namespace ndcg {

struct PresetResult {
  std::string preset;  // a preset's name, or "" for the options as given
  bool ok = false;
  Summary summary;  // NDCG@k, DCG@k and IDCG@k under the preset
};

// One option that differs between the two presets of a pair.
struct OptionEffect {
  std::string option;
  std::string first_value;   // the first preset's
  std::string second_value;  // the second preset's
  bool ok = false;
  double ndcg = 0;  // NDCG@k under the first preset with only this option set as the second has it
  double change = 0;  // ndcg minus the first preset's NDCG@k
};

struct ConventionsComparison {
  bool ok = false;                    // false when the input itself has errors (listed in errors)
  PresetResult as_given;              // the options as given (a preset among them, or the defaults)
  std::vector<PresetResult> presets;  // every preset, in the order of presets()
  std::string first;                  // the pair compared
  std::string second;
  std::vector<OptionEffect> effects;  // every option whose values differ, in the presets' order
  std::vector<Diagnostic> errors;
  std::vector<Diagnostic> warnings;  // the input's, as explain() gives them under the options given
};

// Explains the ranking under the options given, then under every preset (the options given that
// are not conventions, k and rankingNumbers, apply to all), and compares presets `first` and
// `second` one option at a time. An unknown preset name is an error (source options).
ConventionsComparison compare_conventions(std::string_view ranking_text,
                                          std::string_view judgments_text,
                                          const std::vector<OptionValue>& option_values,
                                          std::string_view first = "trec_eval",
                                          std::string_view second = "sklearn");

}  // namespace ndcg
