// libFuzzer: a whole TREC evaluation: measures and flags (one a line: -lN, -c, -J, -MN, -NN,
// -DQID, -RFORMAT, -Z"qid measure mean sd" (one -Z line), -eQID, -oNAME=VALUE for a
// convention), qrels (or preferences) and run, separated by NUL;
// the output formatted as trec_eval's text, and one query explained step by step. And the run
// read in pieces as ndcg-calc's threads read a large one (cut where queries start; each later
// piece in a session of its own, fed before the qrels it then shares, and absorbed in order):
// when the pieces join, the output must be the whole reading's. So too for the run split in two
// whose sessions each keep the judgments of their own part's queries only, as Node's threads
// do, told by a few sampled lines (each part's first, and the run's last): whatever those
// samples wrongly suggest, parts that join must give the whole reading's output.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
  if (e.ok) {
    const std::string whole = ndcg::trec::format_trec(e, true, !options.average_complete);
    // ndcg-calc prints the same lines a piece at a time (TrecLines): they must join to these.
    ndcg::trec::TrecLines lines(e, true, !options.average_complete);
    std::string joined;
    while (lines.next(joined, 37)) {
    }
    if (joined != whole) std::abort();
  }

  const std::string_view qrels = parts[1];
  const std::string_view run = parts[2];
  if (!ndcg::trec::Session(options).can_split()) return 0;
  std::vector<std::size_t> starts{0};
  for (const std::size_t third : {run.size() / 3, 2 * run.size() / 3}) {
    const auto boundary = ndcg::trec::query_boundary(run.substr(third));
    if (boundary && third + *boundary > starts.back()) starts.push_back(third + *boundary);
  }
  if (starts.size() < 2) return 0;
  // Two parts, at the first cut, each session keeping its own part's judgments.
  {
    const auto line_at = [&](std::size_t at) {
      const std::size_t end = run.find('\n', at);
      return std::string(
                 run.substr(at, end == std::string_view::npos ? run.size() - at : end - at)) +
             "\n";
    };
    const std::size_t cut = starts[1];
    const std::size_t last = run.rfind('\n', run.size() >= 2 ? run.size() - 2 : 0);
    const std::string first_samples = line_at(0);
    const std::string later_samples =
        line_at(cut) + line_at(last == std::string_view::npos || last + 1 < cut ? cut : last + 1);
    ndcg::trec::Session head(options);
    ndcg::trec::Session tail(options);
    head.keep_part_queries(first_samples, later_samples, false);
    tail.keep_part_queries(first_samples, later_samples, true);
    for (ndcg::trec::Session* s : {&head, &tail}) {
      s->feed_qrels(qrels);
      s->finish_qrels();
    }
    tail.continue_run_at_byte(cut);
    head.feed_run(run.substr(0, cut));
    tail.feed_run(run.substr(cut));
    const bool regroup = head.finish_run();
    if (!tail.finish_run() && !regroup && head.absorb_packed(tail.pack_part())) {
      const ndcg::trec::Evaluation halves = head.result();
      if (halves.ok != e.ok) std::abort();
      if (e.ok && ndcg::trec::format_trec(halves, true, !options.average_complete) !=
                      ndcg::trec::format_trec(e, true, !options.average_complete)) {
        std::abort();
      }
    }
  }
  starts.push_back(run.size());
  std::vector<std::unique_ptr<ndcg::trec::Session>> later;
  for (std::size_t piece = 1; piece + 1 < starts.size(); ++piece) {
    auto& session = later.emplace_back(std::make_unique<ndcg::trec::Session>(options));
    session->continue_run_at_byte(starts[piece]);
    session->read_run_before_qrels();
    session->feed_run(run.substr(starts[piece], starts[piece + 1] - starts[piece]));
  }
  ndcg::trec::Session first(options);
  first.feed_qrels(qrels);
  first.finish_qrels();
  first.feed_run(run.substr(0, starts[1]));
  bool joined = !first.finish_run();
  for (auto& session : later) {
    session->share_qrels(first);
    if (session->finish_run()) joined = false;
  }
  for (auto& session : later) joined = joined && first.absorb(*session);
  if (!joined) return 0;
  const ndcg::trec::Evaluation pieced = first.result();
  if (pieced.ok != e.ok) std::abort();
  if (e.ok && ndcg::trec::format_trec(pieced, true, !options.average_complete) !=
                  ndcg::trec::format_trec(e, true, !options.average_complete)) {
    std::abort();
  }
  return 0;
}
