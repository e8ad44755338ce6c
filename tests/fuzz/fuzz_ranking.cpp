// libFuzzer: a pasted ranking, then explained with no judgments.
#include <cstdint>
#include <string_view>

#include "ndcg/explain.hpp"
#include "ndcg/input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)ndcg::parse_ranking(text);
  (void)ndcg::explain(text, std::string_view(), ndcg::Options{});
  return 0;
}
