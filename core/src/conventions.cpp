#include "ndcg/conventions.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "ndcg/text.hpp"

namespace ndcg {
namespace {

// Options that describe the input or the cut-off rather than a library's conventions: they
// apply under every preset.
bool applies_to_every_preset(const std::string& name) {
  return name == "k" || name == "rankingNumbers";
}

PresetResult result_of(std::string preset, const Explanation& e) {
  PresetResult r;
  r.preset = std::move(preset);
  r.ok = e.ok;
  r.summary = e.summary;
  return r;
}

}  // namespace

ConventionsComparison compare_conventions(std::string_view ranking_text,
                                          std::string_view judgments_text,
                                          const std::vector<OptionValue>& option_values,
                                          std::string_view first, std::string_view second) {
  ConventionsComparison out;
  ExplainedTexts texts(ranking_text, judgments_text);
  const Explanation given = texts.explain(option_values);
  out.warnings = given.warnings;
  DiagnosticList errors;
  for (const std::string_view name : {first, second}) {
    if (find_preset(name) == nullptr) {
      Options unused;
      if (auto e = apply_preset(unused, name)) errors.add(std::move(*e));
    }
  }
  if (!given.ok || !errors.empty()) {
    for (const Diagnostic& d : given.errors) errors.add(d);
    out.errors = errors.finish();
    return out;
  }
  out.as_given = result_of("", given);

  std::vector<OptionValue> shared;
  for (const OptionValue& v : option_values) {
    if (applies_to_every_preset(v.name)) shared.push_back(v);
  }
  // Under every preset, from the same reading of the texts (ExplainedTexts), as summaries.
  const auto explain_with = [&](std::vector<OptionValue> values) {
    values.insert(values.end(), shared.begin(), shared.end());
    return texts.explain(values, Detail::summary);
  };
  for (const Preset& p : presets()) {
    out.presets.push_back(
        result_of(std::string(p.name), explain_with({{"preset", std::string(p.name)}})));
  }

  out.first.assign(first);
  out.second.assign(second);
  const std::vector<OptionValue> a = preset_values(*find_preset(first));
  const std::vector<OptionValue> b = preset_values(*find_preset(second));
  // The first preset's own result, computed with the others above.
  const PresetResult& base =
      *std::find_if(out.presets.begin(), out.presets.end(),
                    [&](const PresetResult& p) { return p.preset == first; });
  for (const OptionValue& option : a) {
    const auto other = std::find_if(b.begin(), b.end(),
                                    [&](const OptionValue& v) { return v.name == option.name; });
    if (other == b.end() || other->value == option.value) continue;
    std::vector<OptionValue> switched = a;
    for (OptionValue& v : switched) {
      if (v.name == option.name) v.value = other->value;
    }
    const Explanation e = explain_with(switched);
    OptionEffect effect;
    effect.option = option.name;
    effect.first_value = option.value;
    effect.second_value = other->value;
    effect.ok = e.ok && base.ok;
    if (effect.ok) {
      effect.ndcg = e.summary.ndcg_at_k;
      effect.change = e.summary.ndcg_at_k - base.summary.ndcg_at_k;
    }
    out.effects.push_back(std::move(effect));
  }
  out.ok = true;
  return out;
}

}  // namespace ndcg
