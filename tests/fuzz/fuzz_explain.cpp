// libFuzzer: the whole step-by-step explanation: ranking, judgments and options (name=value a
// line), separated by NUL. For a short input, also the comparison of conventions, which reads
// the texts once for all its explanations: each preset's summary must be the one a whole
// explain() gives under that preset, bit for bit.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "ndcg/conventions.hpp"
#include "ndcg/explain.hpp"

namespace {

bool same(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

void check_conventions(std::string_view ranking, std::string_view judgments,
                       const std::vector<ndcg::OptionValue>& options) {
  const ndcg::ConventionsComparison c =
      ndcg::compare_conventions(ranking, judgments, options, "trec_eval", "sklearn");
  if (!c.ok) return;
  std::vector<ndcg::OptionValue> shared;
  for (const ndcg::OptionValue& v : options) {
    if (v.name == "k" || v.name == "rankingNumbers") shared.push_back(v);
  }
  for (const ndcg::PresetResult& p : c.presets) {
    std::vector<ndcg::OptionValue> values{{"preset", p.preset}};
    values.insert(values.end(), shared.begin(), shared.end());
    const ndcg::Explanation e = ndcg::explain(ranking, judgments, values);
    if (e.ok != p.ok) std::abort();
    if (e.ok && (e.summary.k != p.summary.k || !same(e.summary.dcg_at_k, p.summary.dcg_at_k) ||
                 !same(e.summary.idcg_at_k, p.summary.idcg_at_k) ||
                 !same(e.summary.ndcg_at_k, p.summary.ndcg_at_k))) {
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ndcg::fuzz::pieces(data, size, 3);
  const std::vector<ndcg::OptionValue> options = ndcg::fuzz::option_lines(parts[2]);
  (void)ndcg::explain(parts[0], parts[1], options);
  // Some forty explanations each: kept to short inputs, so that the fuzzer stays fast.
  if (size <= 2048) check_conventions(parts[0], parts[1], options);
  return 0;
}
