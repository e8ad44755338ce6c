// libFuzzer: pasted judgments (lines, qrels lines or set notation), then used as the ideal.
#include <cstdint>
#include <string_view>

#include "ndcg/explain.hpp"
#include "ndcg/input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)ndcg::parse_judgments(text);
  (void)ndcg::explain("d1\nd3\nd_3\nd123 2", text, ndcg::Options{});
  return 0;
}
