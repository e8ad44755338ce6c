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
  std::vector<ndcg::OptionValue> options;
  std::string_view lines = parts[2];
  while (!lines.empty()) {
    const std::size_t end = lines.find('\n');
    const std::string_view line = lines.substr(0, end);
    const std::size_t eq = line.find('=');
    if (eq != std::string_view::npos) {
      options.push_back({std::string(line.substr(0, eq)), std::string(line.substr(eq + 1))});
    }
    if (end == std::string_view::npos) break;
    lines.remove_prefix(end + 1);
  }
  (void)ndcg::check_working(parts[0], parts[1], options, parts[3]);
  // The comparison explains every preset: only for small inputs, so each run stays quick.
  if (parts[0].size() + parts[1].size() < 4096) {
    (void)ndcg::compare_conventions(parts[0], parts[1], options, "trec_eval", "sklearn");
  }
  return 0;
}
