// libFuzzer: the TREC qrels reader, fed in chunks of varying sizes, as qrels and as judgment
// groups; and its fast path, which splits the common line a word at a time, against its general
// path: the two must keep the same judgments and report the same errors, or the target stops.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "ndcg/trec.hpp"

namespace {

std::string judged(const ndcg::trec::QueryQrels& q) {
  std::string out;
  for (const ndcg::trec::JudgedDocs::Entry& e : q.by_doc.entries()) {
    out += std::to_string(e.line) + " " + std::string(q.by_doc.docno(e)) + " " +
           std::to_string(e.grade) + "\n";
  }
  for (const auto& [grade, count] : q.grade_counts) {
    out += "grade " + std::to_string(grade) + " x" + std::to_string(count) + "\n";
  }
  return out;
}

std::string reading(std::string_view text, ndcg::trec::RelFormat format, bool careful) {
  ndcg::trec::QrelsReader qrels(1u << 20);  // a small memory limit, so the limit is reached too
  qrels.set_format(format);
  if (careful) qrels.read_every_line_carefully();
  ndcg::fuzz::feed_in_chunks(text, [&](std::string_view chunk) { qrels.feed(chunk); });
  qrels.finish();
  std::string out;
  for (const auto& [qid, q] : qrels.queries()) {
    out += "query " + qid + "\n" + judged(q);
    for (const ndcg::trec::JudgmentGroup& g : q.groups)
      out += "group " + g.id + "\n" + judged(g.judged);
  }
  for (const ndcg::Diagnostic& e : qrels.errors().items()) {
    out +=
        "error " + std::to_string(e.line) + ":" + std::to_string(e.column) + " " + e.message + "\n";
  }
  return out + "blank " + std::to_string(qrels.blank_lines());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto format : {ndcg::trec::RelFormat::qrels, ndcg::trec::RelFormat::qrels_jg}) {
    if (reading(text, format, false) != reading(text, format, true)) std::abort();
  }
  return 0;
}
