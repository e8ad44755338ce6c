// libFuzzer: a whole TREC evaluation: measures and flags (one a line: -lN, -c, -J, -MN, -NN,
// -DQID, -RFORMAT, -Z"qid measure mean sd" (one -Z line), -eQID, -oNAME=VALUE for a
// convention), qrels (or preferences) and run, separated by NUL;
// the output formatted as trec_eval's text, and one query explained step by step.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "ndcg/trec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ndcg::fuzz::pieces(data, size, 3);
  ndcg::trec::EvalOptions options;
  std::string_view measures = parts[0];
  while (!measures.empty()) {
    const std::size_t end = measures.find('\n');
    const std::string_view name = measures.substr(0, end);
    if (name.rfind("-l", 0) == 0) {
      (void)ndcg::trec::set_eval_option(options, "relevanceLevel", name.substr(2));
    } else if (name == "-c") {
      options.average_complete = true;
    } else if (name == "-J") {
      options.judged_only = true;
    } else if (name.rfind("-M", 0) == 0) {
      (void)ndcg::trec::set_eval_option(options, "maxPerQuery", name.substr(2));
    } else if (name.rfind("-N", 0) == 0) {
      (void)ndcg::trec::set_eval_option(options, "docsInCollection", name.substr(2));
    } else if (name.rfind("-D", 0) == 0) {
      (void)ndcg::trec::set_eval_option(options, "onlyQuery", name.substr(2));
    } else if (name.rfind("-R", 0) == 0) {
      (void)ndcg::trec::set_eval_option(options, "relInfoFormat", name.substr(2));
    } else if (name.rfind("-Z", 0) == 0) {
      (void)ndcg::trec::set_eval_option(options, "zscores", name.substr(2));
    } else if (name.rfind("-e", 0) == 0) {
      options.explain_query.assign(name.substr(2));
    } else if (name.rfind("-o", 0) == 0) {
      // A convention, "-opreset=sklearn" or "-oties=average", as ndcg-calc -o takes it.
      const std::string_view pair = name.substr(2);
      const std::size_t eq = pair.find('=');
      if (eq != std::string_view::npos) {
        (void)ndcg::trec::set_eval_option(options, pair.substr(0, eq), pair.substr(eq + 1));
      }
    } else {
      (void)ndcg::trec::add_measure(options, name);
    }
    if (end == std::string_view::npos) break;
    measures.remove_prefix(end + 1);
  }
  const ndcg::trec::Evaluation e = ndcg::trec::evaluate(parts[1], parts[2], options);
  if (e.ok) (void)ndcg::trec::format_trec(e, true, !options.average_complete);
  return 0;
}
