// libFuzzer: the bytes one instance of the core hands another — a run evaluated for a
// comparison (compare::unpack) and the later part of a split run (Session::absorb_packed).
// Any bytes, and valid bytes changed where the input says, must give an error (or a join)
// and a result, never a crash. The first byte picks which: 0 and 1 read the rest as it is, 2
// and 3 XOR it over valid bytes made here from a small qrels and run.
#include <cstdint>
#include <string>
#include <string_view>

#include "ndcg/compare.hpp"
#include "ndcg/text.hpp"
#include "ndcg/trec.hpp"

namespace {

constexpr std::string_view kQrels = "1 0 a 1\n1 0 b 0\n2 0 a 2\n2 0 d 1\n3 0 c 1\n";
constexpr std::string_view kRun =
    "1 Q0 a 1 2.0 t\n1 Q0 b 2 1.0 t\n1 Q0 b 3 0.5 t\n2 Q0 a 1 1 t\n2 Q0 z 2 0.5 t\n"
    "3 Q0 c 1 3 u\n";

ndcg::trec::EvalOptions options() {
  ndcg::trec::EvalOptions o;
  (void)ndcg::trec::configure_evaluation(o, {"map", "P.5", "ndcg_cut.10", "relstring", "num_ret"},
                                         {});
  return o;
}

// A session that has read the qrels and the run up to query 2, ready to absorb the rest.
struct FirstPart {
  ndcg::trec::Session session{options()};
  FirstPart() {
    session.feed_qrels(kQrels);
    session.finish_qrels();
    session.feed_run(kRun.substr(0, kRun.find("2 Q0")));
    (void)session.finish_run();
  }
};

// Valid later-part bytes: query 2 on.
std::string later_part() {
  ndcg::trec::Session later(options());
  later.feed_qrels(kQrels);
  later.finish_qrels();
  later.continue_run(4);
  later.feed_run(kRun.substr(kRun.find("2 Q0")));
  (void)later.finish_run();
  return later.pack_part();
}

std::string changed(std::string bytes, std::string_view by) {
  for (std::size_t i = 0; i < by.size() && !bytes.empty(); ++i) {
    bytes[(i * 131) % bytes.size()] = static_cast<char>(bytes[(i * 131) % bytes.size()] ^ by[i]);
  }
  return bytes;
}

void compare_with(std::string_view bytes) {
  static const ndcg::trec::Evaluation base = ndcg::trec::evaluate(kQrels, kRun, options());
  ndcg::DiagnosticList errors;
  const std::optional<ndcg::trec::Evaluation> other = ndcg::compare::unpack(bytes, errors);
  if (!other) return;
  ndcg::compare::Options o;
  o.permutations = 64;
  (void)ndcg::compare::compare({"a", "b"}, {&base, &*other}, o);
}

void absorb(std::string_view bytes) {
  FirstPart first;
  if (first.session.absorb_packed(bytes)) (void)first.session.result();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const std::string evaluation =
      ndcg::compare::pack(ndcg::trec::evaluate(kQrels, kRun, options()));
  static const std::string part = later_part();
  switch (data[0] % 4) {
    case 0:
      compare_with(rest);
      break;
    case 1:
      absorb(rest);
      break;
    case 2:
      compare_with(changed(evaluation, rest));
      break;
    default:
      absorb(changed(part, rest));
      break;
  }
  return 0;
}
