// libFuzzer: the TREC run reader, fed in chunks of varying sizes, grouped and buffered.
#include <cstdint>
#include <string_view>

#include "fuzz_common.hpp"
#include "ndcg/trec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool buffer_all : {false, true}) {
    std::size_t documents = 0;
    ndcg::trec::RunReader run([&](const ndcg::trec::QueryRun& q) { documents += q.docs.size(); },
                              buffer_all, 1u << 20);
    ndcg::fuzz::feed_in_chunks(text, [&](std::string_view chunk) { run.feed(chunk); });
    run.finish();
  }
  return 0;
}
