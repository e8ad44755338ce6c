// libFuzzer: check my working and compare conventions: ranking, judgments, options (name=value a
// line) and the working, separated by NUL.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "ndcg/check.hpp"
#include "ndcg/conventions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ndcg::fuzz::pieces(data, size, 4);
  const std::vector<ndcg::OptionValue> options = ndcg::fuzz::option_lines(parts[2]);
  (void)ndcg::check_working(parts[0], parts[1], options, parts[3]);
  // The comparison explains every preset: only for small inputs, so each run stays quick.
  if (parts[0].size() + parts[1].size() < 4096) {
    (void)ndcg::compare_conventions(parts[0], parts[1], options, "trec_eval", "sklearn");
  }
  return 0;
}
