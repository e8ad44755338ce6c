// libFuzzer: the TREC run reader, fed in chunks of varying sizes, grouped and buffered; and its
// fast path, which reads the common line a word at a time, against its general path: the two
// must hand over the same documents and report the same errors, or the target stops.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "ndcg/trec.hpp"

namespace {

std::string reading(std::string_view text, bool buffer_all, bool careful) {
  std::string out;
  ndcg::trec::RunReader run(
      [&](const ndcg::trec::QueryRun& q) {
        out += "query " + q.qid + "\n";
        for (const ndcg::trec::QueryRun::Doc& d : q.docs) {
          char score[40];
          std::snprintf(score, sizeof score, "%a", d.score);
          out += std::to_string(d.line) + ":" + std::to_string(d.column) + " " +
                 std::string(q.docno(d)) + " " + score + " " + std::to_string(d.hash) + "\n";
        }
      },
      buffer_all, 1u << 20);
  if (careful) run.read_every_line_carefully();
  ndcg::fuzz::feed_in_chunks(text, [&](std::string_view chunk) { run.feed(chunk); });
  run.finish();
  for (const ndcg::Diagnostic& e : run.errors().items()) {
    out +=
        "error " + std::to_string(e.line) + ":" + std::to_string(e.column) + " " + e.message + "\n";
  }
  return out + "tag " + run.run_tag() + (run.regroup_needed() ? " regroup" : "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool buffer_all : {false, true}) {
    if (reading(text, buffer_all, false) != reading(text, buffer_all, true)) std::abort();
  }
  return 0;
}
