// libFuzzer: the whole step-by-step explanation: ranking, judgments and options (name=value a
// line), separated by NUL.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "ndcg/explain.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ndcg::fuzz::pieces(data, size, 3);
  const std::vector<ndcg::OptionValue> options = ndcg::fuzz::option_lines(parts[2]);
  (void)ndcg::explain(parts[0], parts[1], options);
  return 0;
}
