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
  (void)ndcg::explain(parts[0], parts[1], options);
  return 0;
}
