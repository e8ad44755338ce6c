// libFuzzer: option names and values as the JS API and the command line hand them over, for
// explain (set_option) and for TREC evaluation (set_eval_option, add_measure), each then used.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_common.hpp"
#include "ndcg/explain.hpp"
#include "ndcg/trec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // name \0 value \0 name \0 value ... : explain's options; the same pieces as measures.
  const auto parts = ndcg::fuzz::pieces(data, size, 8);
  std::vector<ndcg::OptionValue> options;
  for (std::size_t i = 0; i + 1 < parts.size(); i += 2) {
    options.push_back({std::string(parts[i]), std::string(parts[i + 1])});
  }
  (void)ndcg::explain("d1 3\nd2 0\nd3 1\n2 0 1", "d1 3\nd4 2", options);
  ndcg::trec::EvalOptions eval;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i % 2 == 0) {
      (void)ndcg::trec::add_measure(eval, parts[i]);
    } else {
      (void)ndcg::trec::set_eval_option(eval, parts[i - 1], parts[i]);
    }
  }
  (void)ndcg::trec::evaluate("1 0 a 2\n1 0 b 0\n1 0 c 1\n2 0 a 1\n",
                             "1 Q0 a 1 2 t\n1 Q0 c 2 1 t\n2 Q0 b 1 1 t\n", eval);
  return 0;
}
