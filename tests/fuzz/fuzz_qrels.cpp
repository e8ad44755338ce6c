// libFuzzer: the TREC qrels reader, fed in chunks of varying sizes.
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"
#include "ndcg/trec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ndcg::trec::QrelsReader qrels(1u << 20);  // a small memory limit, so the limit is reached too
  ndcg::fuzz::feed_in_chunks(text, [&](std::string_view chunk) { qrels.feed(chunk); });
  qrels.finish();
  return 0;
}
