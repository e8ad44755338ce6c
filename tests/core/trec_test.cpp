// tests/trec/cases.json: our trec_eval-format output must equal trec_eval 10.0's byte for byte.
#include "ndcg/trec.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <utility>

#include "ndcg/cli.hpp"

using namespace ndcg;
using namespace ndcg::trec;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(std::string(NDCG_TREC_DIR) + "/" + path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Request {
  EvalOptions options;
  bool per_query = false;
  std::vector<Diagnostic> errors;
};

// The case's flags, read as ndcg-calc reads them (ndcg/cli.hpp).
Request parse_args(const nlohmann::json& args) {
  std::vector<std::string> argv(args.begin(), args.end());
  argv.insert(argv.end(), {"QRELS", "RUN"});
  const cli::Parsed parsed = cli::parse_arguments(argv);
  REQUIRE_MESSAGE(parsed.arguments.has_value(), parsed.error);
  Request r;
  r.per_query = parsed.arguments->per_query;
  r.errors = configure_evaluation(r.options, parsed.arguments->measures, parsed.arguments->options)
                 .finish();
  return r;
}

Evaluation evaluate_in_chunks(std::string_view qrels_text, std::string_view run_text,
                              const EvalOptions& options, std::size_t chunk) {
  Session session(options);
  for (std::size_t i = 0; i < qrels_text.size(); i += chunk)
    session.feed_qrels(qrels_text.substr(i, chunk));
  session.finish_qrels();
  int readings = 0;
  do {
    REQUIRE(++readings <= 2);
    for (std::size_t i = 0; i < run_text.size(); i += chunk)
      session.feed_run(run_text.substr(i, chunk));
  } while (session.finish_run());
  return session.result();
}

const nlohmann::json& manifest() {
  static const nlohmann::json data = nlohmann::json::parse(read_file("cases.json"));
  return data;
}

}  // namespace

TEST_CASE("TREC output equals trec_eval 10.0's, byte for byte, whatever the chunk size") {
  for (const auto& c : manifest()["cases"]) {
    const std::string name = c["name"];
    CAPTURE(name);
    const Request request = parse_args(c["args"]);
    REQUIRE(request.errors.empty());
    const std::string qrels = read_file(c["qrels"]);
    const std::string run = read_file(c["run"]);
    const std::string expected = read_file(c["expected"]);
    for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 20}) {
      CAPTURE(chunk);
      const Evaluation e = evaluate_in_chunks(qrels, run, request.options, chunk);
      REQUIRE(e.ok);
      CHECK(format_trec(e, request.per_query) == expected);
      // The same lines a piece at a time, as ndcg-calc prints them: whole queries, each piece
      // at least as long as asked for until the summary.
      for (std::size_t bytes : {std::size_t{1}, std::size_t{500}}) {
        CAPTURE(bytes);
        TrecLines lines(e, request.per_query, true);
        std::string joined;
        std::string piece;
        std::size_t pieces = 0;
        while (lines.next(piece, bytes)) {
          REQUIRE(++pieces <= expected.size());
          CHECK(piece.back() == '\n');
          joined += piece;
          piece.clear();
        }
        CHECK(joined == expected);
        CHECK_FALSE(lines.next(piece, bytes));
        CHECK(piece.empty());
      }
      std::string warnings;
      for (const Diagnostic& w : e.warnings) warnings += w.message + "\n";
      CAPTURE(warnings);
      const auto expected_warnings = c.value("warnings", nlohmann::json::array());
      CHECK(e.warnings.size() == expected_warnings.size());
      for (const auto& w : expected_warnings) {
        CHECK(warnings.find(w["contains"].get<std::string>()) != std::string::npos);
      }
    }
  }
}

namespace {

// How the later part reaches the first session: absorbed (threads), packed as bytes (instances
// of the core), absorbed having used the first session's qrels (threads that share them), or
// packed having been read without the number of its first line (instances that do not count
// the lines before it); or absorbed having been read before the first session's qrels, which it
// then shares (a thread that starts at once); or packed, each session having kept the judgments
// of its own part's queries only, as every line of the run tells them (Session::keep_part_queries).
enum class Join { absorbed, packed, shared_qrels, lines_unknown, before_qrels, own_queries };

// The run read by two sessions, split at byte `at` (a line start): the result when the two
// parts join (Session::absorb), else nullopt.
std::optional<Evaluation> evaluate_split(std::string_view qrels, std::string_view run,
                                         const EvalOptions& options, std::size_t at,
                                         Join join = Join::absorbed) {
  LineSplitter counter;
  counter.feed(run.substr(0, at), [](std::string_view, std::uint32_t) {});
  Session first(options);
  Session later(options);
  if (join == Join::own_queries) {
    first.keep_part_queries(run.substr(0, at), run.substr(at), false);
    later.keep_part_queries(run.substr(0, at), run.substr(at), true);
  }
  if (join == Join::before_qrels) {
    later.continue_run(counter.lines_emitted() + 1, at);
    later.read_run_before_qrels();
    later.feed_run(run.substr(at));
  }
  first.feed_qrels(qrels);
  first.finish_qrels();
  if (join == Join::shared_qrels || join == Join::before_qrels) {
    later.share_qrels(first);
  } else {
    later.feed_qrels(qrels);
    later.finish_qrels();
  }
  if (join == Join::lines_unknown) {
    later.continue_run_at_byte(at);
  } else if (join != Join::before_qrels) {
    later.continue_run(counter.lines_emitted() + 1, at);
  }
  first.feed_run(run.substr(0, at));
  if (join != Join::before_qrels) later.feed_run(run.substr(at));
  const bool regroup = first.finish_run();
  if (later.finish_run() || regroup) return std::nullopt;
  const bool packed =
      join == Join::packed || join == Join::lines_unknown || join == Join::own_queries;
  if (!(packed ? first.absorb_packed(later.pack_part()) : first.absorb(later))) {
    return std::nullopt;
  }
  return first.result();
}

// Query spans as text: "qid start-end" a line, or "none".
std::string spans_text(const std::optional<std::vector<QuerySpan>>& spans) {
  if (!spans) return "none";
  std::string out;
  for (const QuerySpan& s : *spans) {
    out += s.qid + " " + std::to_string(s.start) + "-" + std::to_string(s.end) + "\n";
  }
  return out;
}

std::string described(const std::vector<Diagnostic>& list) {
  std::string out;
  for (const Diagnostic& d : list) {
    out += std::string(source_name(d.source)) + ":" + std::to_string(d.line) + ":" +
           std::to_string(d.column) + ": " + d.message + "\n";
  }
  return out;
}

// Splits `run` at every line start: where a query starts (query_boundary's choice), the parts
// must join and give what one session gives, output, warnings and errors alike; elsewhere they
// may not join (a query in both parts), and must not give anything else.
// Whether the line starting at `at` starts a query: query_boundary over a window from the line
// before it finds it there.
bool query_starts_at(std::string_view run, std::size_t at) {
  const std::size_t before = run.rfind('\n', at - 2);  // the end of the line before that one
  const std::size_t from = before == std::string_view::npos ? 0 : before;
  const std::string_view window = run.substr(from);
  // With no line before the previous one, a newline makes the window's first line a whole one.
  const std::string prefixed = before == std::string_view::npos ? "\n" + std::string(window) : "";
  const std::optional<std::size_t> b = query_boundary(prefixed.empty() ? window : prefixed);
  return b && *b == (prefixed.empty() ? at - from : at + 1);
}

void check_every_split(std::string_view qrels, std::string_view run, const EvalOptions& options,
                       bool grouped) {
  const Evaluation whole = evaluate(qrels, run, options);
  std::size_t joined = 0;
  std::size_t unnumbered_joined = 0;
  for (std::size_t at = run.find('\n'); at != std::string_view::npos && at + 1 < run.size();
       at = run.find('\n', at + 1)) {
    CAPTURE(at + 1);
    const bool query_starts = query_starts_at(run, at + 1);
    const std::optional<Evaluation> split = evaluate_split(qrels, run, options, at + 1);
    joined += split ? 1 : 0;
    // The same part carried as bytes (another instance of the core) joins the same way.
    // So does a later part read with the first session's qrels (threads that share them), and
    // one read before them.
    // And one whose sessions kept only their own part's judgments.
    for (const Join join :
         {Join::packed, Join::shared_qrels, Join::before_qrels, Join::own_queries}) {
      CAPTURE(static_cast<int>(join));
      const std::optional<Evaluation> carried = evaluate_split(qrels, run, options, at + 1, join);
      CHECK(carried.has_value() == split.has_value());
      if (carried && split) {
        CHECK(described(carried->errors) == described(split->errors));
        CHECK(described(carried->warnings) == described(split->warnings));
        if (split->ok) CHECK(format_trec(*carried, true) == format_trec(*split, true));
        CHECK(spans_text(carried->run_spans) == spans_text(split->run_spans));
        CHECK(spans_text(carried->qrels_spans) == spans_text(split->qrels_spans));
      }
    }
    // A later part read without the number of its first line joins when nothing it says names
    // a line, and then gives the same; else the run is read again in one.
    const std::optional<Evaluation> unnumbered =
        evaluate_split(qrels, run, options, at + 1, Join::lines_unknown);
    if (unnumbered) {
      ++unnumbered_joined;
      REQUIRE(split);
      CHECK(described(unnumbered->errors) == described(split->errors));
      CHECK(described(unnumbered->warnings) == described(split->warnings));
      if (split->ok) CHECK(format_trec(*unnumbered, true) == format_trec(*split, true));
      CHECK(spans_text(unnumbered->run_spans) == spans_text(split->run_spans));
    } else if (split && split->ok) {
      // Refused only when something is located, and a run that evaluates says nothing located
      // but warnings.
      CHECK(std::any_of(split->warnings.begin(), split->warnings.end(),
                        [](const Diagnostic& d) { return d.line != 0; }));
    }
    if (query_starts && grouped) REQUIRE(split);
    if (!split) continue;
    CHECK(split->ok == whole.ok);
    CHECK(described(split->errors) == described(whole.errors));
    CHECK(described(split->warnings) == described(whole.warnings));
    if (whole.ok) CHECK(format_trec(*split, true) == format_trec(whole, true));
    // Where each query's lines are: the whole file's offsets, from both parts.
    CHECK(spans_text(split->run_spans) == spans_text(whole.run_spans));
    CHECK(spans_text(split->qrels_spans) == spans_text(whole.qrels_spans));
  }
  if (grouped) CHECK(joined > 0);
  if (grouped && whole.ok && whole.warnings.empty()) CHECK(unnumbered_joined > 0);
}

// trec_eval's own test run, evaluated whole under every measure and under -c, -J and -M: each
// request with its result.
std::vector<std::pair<Request, Evaluation>> test_run_evaluations(const std::string& qrels,
                                                                 const std::string& run) {
  std::vector<std::pair<Request, Evaluation>> out;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-q", "-m", "all_trec"},
        std::vector<std::string>{"-q", "-c", "-J", "-M", "20", "-m", "official"}}) {
    Request request = parse_args(nlohmann::json(args));
    Evaluation whole = evaluate(qrels, run, request.options);
    REQUIRE(whole.ok);
    out.emplace_back(std::move(request), std::move(whole));
  }
  return out;
}

}  // namespace

TEST_CASE("each report line is what trec_eval's printf writes, for any value and query id") {
  // format_trec builds a line in a buffer of its own, with a path for query ids too long for it
  // and printf's for values its own formatting declines: each against printf's "%-22s\t%s\t%6.4f".
  Evaluation e;
  e.columns = {Column{"map"}, Column{"num_ret"}, Column{"a_measure_named_longer_than_22"}};
  e.columns[1].whole_number = true;
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = {0,         1,      0.5,    0.00005, 0.00015, -0.00001,
                                      123456.78, 1e15,   -1e15,  1e300,   inf,     -inf,
                                      -0.0,      9.9e18, 1e-300, 42,      -7,      0.99995};
  const std::string long_id(300, 'q');
  for (const std::string& qid : {std::string("301"), std::string(""), long_id}) {
    for (const double v : values) e.per_query.push_back(QueryValues{qid, {v, v, v}, {}});
  }
  e.per_query.push_back(QueryValues{"nan", {std::nan(""), std::nan(""), std::nan("")}, {}});
  e.mean = {0.25, 3, 1e20};
  std::string expected;
  const auto line = [&](const std::string& name, const std::string& qid, double v, bool whole) {
    char prefix[400];
    std::snprintf(prefix, sizeof prefix, "%-22s\t", name.c_str());
    expected += prefix;
    expected += qid + "\t";
    char text[400];
    if (whole) {  // trec_eval's (long) of the value; what is not a 64-bit integer, as x86 casts it
      std::snprintf(
          text, sizeof text, "%lld",
          std::isfinite(v) && std::fabs(v) < 9.2e18 ? static_cast<long long>(v) : LLONG_MIN);
    } else if (std::isnan(v)) {
      std::snprintf(text, sizeof text, "  -nan");  // as trec_eval's glibc prints NaN
    } else {
      std::snprintf(text, sizeof text, "%6.4f", v);
    }
    expected += std::string(text) + "\n";
  };
  for (const QueryValues& q : e.per_query) {
    for (std::size_t c = 0; c < e.columns.size(); ++c) {
      line(e.columns[c].name, q.qid, q.values[c], e.columns[c].whole_number);
    }
  }
  for (std::size_t c = 0; c < e.columns.size(); ++c) {
    line(e.columns[c].name, "all", e.mean[c], e.columns[c].whole_number);
  }
  CHECK(format_trec(e, true, true) == expected);
}

TEST_CASE("a run split at a query boundary and read by two sessions gives one session's result") {
  for (const auto& c : manifest()["cases"]) {
    const std::string name = c["name"];
    CAPTURE(name);
    Request request = parse_args(c["args"]);
    const std::string run = read_file(c["run"]);
    const bool grouped = c["run"].get<std::string>() != "ungrouped.run";
    check_every_split(read_file(c["qrels"]), run, request.options, grouped);
    // And with the query spans the page keeps, to explain one query by reading its lines only.
    request.options.query_spans = true;
    check_every_split(read_file(c["qrels"]), run, request.options, grouped);
  }
  for (const auto& c : manifest()["errors"]) {
    const std::string name = c["name"];
    CAPTURE(name);
    const Request request = parse_args(c.value("args", nlohmann::json::array()));
    if (!request.errors.empty()) continue;
    check_every_split(c["qrelsText"].get<std::string>(), c["runText"].get<std::string>(),
                      request.options, false);
  }
  // trec_eval's own test run, under -c, -J, -M and every measure.
  const std::string qrels = read_file("trec_eval-10.0/qrels.test");
  const std::string run = read_file("trec_eval-10.0/results.test");
  for (const auto& [request, whole] : test_run_evaluations(qrels, run)) {
    std::size_t splits = 0;
    for (std::size_t at = run.find('\n'); at != std::string::npos && at + 1 < run.size();
         at = run.find('\n', at + 1)) {
      if (!query_starts_at(run, at + 1)) continue;
      ++splits;
      CAPTURE(at + 1);
      const std::optional<Evaluation> split = evaluate_split(qrels, run, request.options, at + 1);
      REQUIRE(split);
      CHECK(format_trec(*split, true) == format_trec(whole, true));
      CHECK(described(split->warnings) == described(whole.warnings));
    }
    CHECK(splits == 2);  // before 302 and before 303
  }
  // Bytes that are not a later part: no join, whatever they are.
  {
    const Request request = parse_args(nlohmann::json(std::vector<std::string>{"-m", "map"}));
    Session first(request.options);
    Session later(request.options);
    for (Session* s : {&first, &later}) {
      s->feed_qrels(qrels);
      s->finish_qrels();
    }
    const std::size_t at = run.find("\n303") + 1;
    first.feed_run(std::string_view(run).substr(0, at));
    later.continue_run(static_cast<std::uint32_t>(std::count(run.begin(), run.begin() + at, '\n')) +
                       1);
    later.feed_run(std::string_view(run).substr(at));
    REQUIRE_FALSE(first.finish_run());
    REQUIRE_FALSE(later.finish_run());
    const std::string bytes = later.pack_part();
    for (std::size_t n = 0; n < bytes.size(); n += 7) {
      Session copy(request.options);
      copy.feed_qrels(qrels);
      copy.finish_qrels();
      copy.feed_run(std::string_view(run).substr(0, at));
      REQUIRE_FALSE(copy.finish_run());
      CHECK_FALSE(copy.absorb_packed(std::string_view(bytes).substr(0, n)));
    }
    CHECK_FALSE(first.absorb_packed("not a part"));
    CHECK(first.absorb_packed(bytes));
  }
  // Options that keep one session (an explanation, -D, spans) are not split.
  EvalOptions explained;
  REQUIRE(configure_evaluation(explained, {"map"}, {{"explainQuery", "301"}}).empty());
  const std::size_t second = run.find("\n302 ") + 1;
  CHECK_FALSE(evaluate_split(qrels, run, explained, second));
}

TEST_CASE(
    "a run read in many pieces, each later one before the qrels, gives one session's result") {
  // As ndcg-calc's two threads read a large run: the first session reads the qrels and then the
  // pieces from the front; each later piece is read by a session of its own, most of them before
  // the qrels are read, and the first session absorbs them in order.
  const std::string qrels = read_file("trec_eval-10.0/qrels.test");
  const std::string run = read_file("trec_eval-10.0/results.test");
  std::vector<std::size_t> boundaries;
  for (std::size_t at = run.find('\n'); at != std::string::npos && at + 1 < run.size();
       at = run.find('\n', at + 1)) {
    if (query_starts_at(run, at + 1)) boundaries.push_back(at + 1);
  }
  REQUIRE(boundaries.size() == 2);  // before 302 and before 303
  // Pieces of one query each, or a piece of two (whose first query is kept waiting for the
  // qrels when the piece is read before them).
  for (const std::vector<std::size_t>& cuts : {boundaries, std::vector<std::size_t>{boundaries[0]},
                                               std::vector<std::size_t>{boundaries[1]}}) {
    std::vector<std::size_t> starts{0};
    starts.insert(starts.end(), cuts.begin(), cuts.end());
    starts.push_back(run.size());
    CAPTURE(starts.size());
    for (const auto& [request, whole] : test_run_evaluations(qrels, run)) {
      // The first session reads pieces [0, front); the later pieces are read before the qrels
      // from the back, or after them, in sessions of their own.
      for (std::size_t front = 1; front < starts.size() - 1; ++front) {
        for (const bool after_qrels : {false, true}) {
          CAPTURE(front);
          CAPTURE(after_qrels);
          Session first(request.options);
          std::vector<std::unique_ptr<Session>> later;
          for (std::size_t piece = starts.size() - 2; piece >= front; --piece) {
            auto& session = later.emplace_back(std::make_unique<Session>(request.options));
            session->continue_run_at_byte(starts[piece]);
            if (!after_qrels) {
              session->read_run_before_qrels();
              session->feed_run(
                  std::string_view(run).substr(starts[piece], starts[piece + 1] - starts[piece]));
            }
            if (piece == front) break;
          }
          first.feed_qrels(qrels);
          first.finish_qrels();
          first.feed_run(std::string_view(run).substr(0, starts[front]));
          REQUIRE_FALSE(first.finish_run());
          // Absorbed in the run's order: the last read is the earliest piece.
          for (std::size_t k = later.size(); k-- > 0;) {
            const std::size_t piece = front + (later.size() - 1 - k);
            Session& session = *later[k];
            session.share_qrels(first);
            if (after_qrels) {
              session.feed_run(
                  std::string_view(run).substr(starts[piece], starts[piece + 1] - starts[piece]));
            }
            REQUIRE_FALSE(session.finish_run());
            REQUIRE(first.absorb(session));
          }
          const Evaluation pieced = first.result();
          REQUIRE(pieced.ok);
          CHECK(format_trec(pieced, true) == format_trec(whole, true));
          CHECK(described(pieced.warnings) == described(whole.warnings));
        }
      }
    }
  }
}

TEST_CASE("PartQueries: the queries of one part of a sorted run, by the order its samples fit") {
  // Byte order and number order both fit: a query is kept when either puts it in the part.
  const PartQueries first("1 Q0 a 1 1 x\n2 Q0 a 1 1 x\n", "3 Q0 a 1 1 x\n5 Q0 a 1 1 x", false);
  const PartQueries later("1 Q0 a 1 1 x\n2 Q0 a 1 1 x\n", "3 Q0 a 1 1 x\n5 Q0 a 1 1 x", true);
  CHECK(first.orders() == (PartQueries::kByteOrder | PartQueries::kNumberOrder));
  CHECK(first.keeps("0"));
  CHECK(first.keeps("2"));
  CHECK(first.keeps("10"));  // before "3" in byte order
  CHECK_FALSE(first.keeps("3"));
  CHECK_FALSE(first.keeps("4"));
  CHECK(first.keeps("x"));  // not a number: kept, as byte order puts it...
  CHECK_FALSE(later.keeps("2"));
  CHECK(later.keeps("3"));
  CHECK(later.keeps("30"));
  CHECK(later.keeps("10"));  // after 3 in number order
  CHECK(later.keeps("x"));   // ...after "3"
  // Numbers in number order only (9 before 10): byte order does not fit.
  const PartQueries numbers("8 Q0 a\n9 Q0 a\n", "10 Q0 a\n11 Q0 a\n", false);
  CHECK(numbers.orders() == PartQueries::kNumberOrder);
  CHECK(numbers.keeps("9"));
  CHECK(numbers.keeps("009"));
  CHECK_FALSE(numbers.keeps("10"));
  CHECK_FALSE(numbers.keeps("100"));
  CHECK(numbers.keeps("q7"));  // no place among numbers: kept
  // Ids that are not all numbers, in byte order; comment and blank lines are not samples.
  const PartQueries words("# comment\na Q0 d\n\nb Q0 d\n", "c Q0 d\n", true);
  CHECK(words.orders() == PartQueries::kByteOrder);
  CHECK_FALSE(words.keeps("b"));
  CHECK(words.keeps("c"));
  CHECK(words.keeps("cz"));
  // No order fits: every query is kept.
  for (const auto& parts : std::vector<std::pair<std::string, std::string>>{
           {"2 Q0 d\n1 Q0 d\n", "3 Q0 d\n"},  // the first part goes down
           {"1 Q0 d\n", "3 Q0 d\n2 Q0 d\n"},  // the later part goes down
           {"3 Q0 d\n", "3 Q0 d\n"},          // a query in both parts
           {"1 Q0 d\n", ""},                  // no sample of the later part
           {"b Q0 d\n", "a Q0 d\n"}}) {
    const std::string& a = parts.first;
    const std::string& b = parts.second;
    CAPTURE(a);
    CAPTURE(b);
    const PartQueries none(a, b, false);
    CHECK(none.all());
    CHECK(none.keeps("zzz"));
    CHECK(PartQueries(a, b, true).keeps("0"));
  }
  CHECK(PartQueries().all());
}

TEST_CASE("QrelsReader::keep_only keeps its part's judgments and checks every line as before") {
  std::string qrels;
  for (int q = 1; q <= 6; ++q) {
    for (int d = 0; d < 40; ++d) {
      qrels +=
          std::to_string(q) + " 0 doc" + std::to_string(d) + " " + std::to_string(d % 3) + "\n";
    }
  }
  QrelsReader all;
  all.feed(qrels);
  all.finish();
  QrelsReader part;
  part.keep_only(std::make_unique<PartQueries>("1 Q0 a\n2 Q0 a\n", "4 Q0 a\n6 Q0 a\n", false));
  part.feed(qrels);
  part.finish();
  REQUIRE(part.errors().empty());
  REQUIRE(part.queries().size() == 6);
  for (const auto& entry : part.queries()) {
    const std::string& qid = entry.first;
    const QueryQrels& q = entry.second;
    CAPTURE(qid);
    const bool kept = qid < "4";
    CHECK(q.dropped == !kept);
    CHECK(q.by_doc.size() == (kept ? 40u : 0u));
    CHECK(q.grade_counts == (kept ? all.queries().at(qid).grade_counts
                                  : std::vector<std::pair<std::int64_t, std::int64_t>>{}));
  }
  CHECK_FALSE(part.dropped_met_again());
  // A document judged twice in a dropped query is still an error, at the same line.
  const std::string twice = qrels + "7 0 a 1\n7 0 b 1\n7 0 a 0\n";
  QrelsReader whole_twice;
  whole_twice.feed(twice);
  whole_twice.finish();
  QrelsReader part_twice;
  part_twice.keep_only(std::make_unique<PartQueries>("1 Q0 a\n", "4 Q0 a\n", false));
  part_twice.feed(twice);
  part_twice.finish();
  REQUIRE(whole_twice.errors().size() == 1);
  CHECK(described(part_twice.errors().items()) == described(whole_twice.errors().items()));
  // The memory limit is met at the same line: a dropped query counts as if kept.
  for (const std::size_t limit : {std::size_t{2000}, std::size_t{6000}, std::size_t{20000}}) {
    CAPTURE(limit);
    QrelsReader limited(limit);
    limited.feed(qrels);
    limited.finish();
    QrelsReader limited_part(limit);
    limited_part.keep_only(std::make_unique<PartQueries>("1 Q0 a\n", "2 Q0 a\n", true));
    limited_part.feed(qrels);
    limited_part.finish();
    CHECK(described(limited_part.errors().items()) == described(limited.errors().items()));
  }
  // A dropped query met again after another's lines: said, as its judgments were not all
  // checked against each other.
  QrelsReader apart;
  apart.keep_only(std::make_unique<PartQueries>("1 Q0 a\n", "2 Q0 a\n", false));
  apart.feed("1 0 a 1\n2 0 a 1\n1 0 b 1\n");
  apart.finish();
  CHECK_FALSE(apart.dropped_met_again());
  apart.feed("");
  QrelsReader apart_dropped;
  apart_dropped.keep_only(std::make_unique<PartQueries>("1 Q0 a\n", "2 Q0 a\n", false));
  apart_dropped.feed("2 0 a 1\n1 0 a 1\n2 0 b 1\n");
  apart_dropped.finish();
  CHECK(apart_dropped.dropped_met_again());
}

TEST_CASE("a part that meets a query whose judgments its session dropped is not joined") {
  const auto lines = [](std::initializer_list<int> queries) {
    std::string text;
    for (const int q : queries) {
      for (int d = 0; d < 5; ++d) {
        text += std::to_string(q) + " Q0 doc" + std::to_string(d) + " " + std::to_string(d + 1) +
                " " + std::to_string(10 - d) + " run\n";
      }
    }
    return text;
  };
  std::string qrels;
  for (int q = 1; q <= 6; ++q) {
    for (int d = 0; d < 5; d += 2)
      qrels += std::to_string(q) + " 0 doc" + std::to_string(d) + " 1\n";
  }
  // The run's queries between the samples: sorted, or not.
  struct Case {
    const char* what;
    std::string first, later;
    bool joins;
  };
  const std::vector<Case> cases = {
      {"sorted", lines({1, 2, 3}), lines({4, 5, 6}), true},
      {"the first part holds a later query", lines({1, 5, 3}), lines({4, 2, 6}), false},
      {"the later part holds an earlier query", lines({1, 2, 3}), lines({4, 0, 6}), true},
      {"the later part holds an earlier judged query", lines({1, 3}), lines({4, 2, 6}), false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const std::string run = c.first + c.later;
    for (const char* measures : {"map", "all_trec"}) {
      for (const bool complete : {false, true}) {
        CAPTURE(measures);
        CAPTURE(complete);
        EvalOptions options;
        REQUIRE(configure_evaluation(options, {measures},
                                     {{"averageComplete", complete ? "true" : "false"}})
                    .empty());
        Session first(options);
        Session later(options);
        // Sampled: each part's first and last queries, as if the middle ones were not seen.
        const auto ends = [](const std::string& part) {
          const std::size_t last = part.rfind('\n', part.size() - 2) + 1;
          return part.substr(0, part.find('\n') + 1) + part.substr(last);
        };
        first.keep_part_queries(ends(c.first), ends(c.later), false);
        later.keep_part_queries(ends(c.first), ends(c.later), true);
        for (Session* s : {&first, &later}) {
          s->feed_qrels(qrels);
          s->finish_qrels();
        }
        later.continue_run(16, c.first.size());
        first.feed_run(c.first);
        later.feed_run(c.later);
        REQUIRE_FALSE(first.finish_run());
        REQUIRE_FALSE(later.finish_run());
        // -c keeps every query's judgments (it evaluates those the run does not have), so its
        // parts join whatever the order.
        const bool joined = first.absorb_packed(later.pack_part());
        CHECK(joined == (c.joins || complete));
        if (joined) {
          const Evaluation whole = evaluate(qrels, run, options);
          CHECK(format_trec(first.result(), true) == format_trec(whole, true));
        }
      }
    }
  }
}

TEST_CASE("query_boundary finds the first line whose query differs from the one before") {
  const std::string run =
      "t Q0 a 1 1 x\n"  // partial at the window's start
      "1 Q0 a 1 1 x\n"
      "# a comment\n"
      "1 Q0 b 2 1 x\n"
      "\n"
      "2 Q0 a 1 1 x\n"
      "2 Q0 b 2 1 x\n";
  const std::size_t two = run.find("2 Q0 a");
  CHECK(query_boundary(run) == std::optional<std::size_t>(two));
  // A window starting inside the first query: the partial line is not read as a line.
  CHECK(query_boundary(std::string_view(run).substr(3)) == std::optional<std::size_t>(two - 3));
  // No line of another query after a whole one, or the last line cut short: none.
  CHECK_FALSE(query_boundary(std::string_view(run).substr(0, two + 4)));
  CHECK_FALSE(query_boundary(std::string_view(run).substr(two)));
  CHECK_FALSE(query_boundary("no line end"));
}

TEST_CASE("malformed TREC files give located errors and no partial result") {
  for (const auto& c : manifest()["errors"]) {
    const std::string name = c["name"];
    CAPTURE(name);
    Request request = parse_args(c.value("args", nlohmann::json::array()));
    std::vector<Diagnostic> errors = request.errors;
    if (errors.empty()) {
      const Evaluation e = evaluate(c["qrelsText"].get<std::string>(),
                                    c["runText"].get<std::string>(), request.options);
      CHECK_FALSE(e.ok);
      CHECK(e.per_query.empty());
      CHECK(e.mean.empty());
      errors = e.errors;
    }
    std::string listed;
    for (const Diagnostic& d : errors) {
      listed += std::string(source_name(d.source)) + ":" + std::to_string(d.line) + ":" +
                std::to_string(d.column) + ": " + d.message + "\n";
    }
    CAPTURE(listed);
    REQUIRE(errors.size() == c["errors"].size());
    for (std::size_t i = 0; i < errors.size(); ++i) {
      const auto& want = c["errors"][i];
      CHECK(source_name(errors[i].source) == want["source"].get<std::string>());
      CHECK(errors[i].line == want["line"].get<std::uint32_t>());
      CHECK(errors[i].column == want["column"].get<std::uint32_t>());
      CHECK(errors[i].message.find(want["contains"].get<std::string>()) != std::string::npos);
    }
  }
}

TEST_CASE("docno_hash: a docno's bytes in 8-byte words, its last ones in order, however loaded") {
  // The definition, a byte at a time: each word of 8 bytes, then the 1 to 7 bytes left in a
  // word's low bytes in order, mixed as docno_hash mixes them. docno_hash loads them in other
  // ways (overlapping words, first-middle-last bytes) for the same words.
  const auto reference = [](std::string_view d) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull ^ (d.size() * 0xFF51AFD7ED558CCDull);
    std::size_t i = 0;
    const auto word_at = [&](std::size_t from, std::size_t count) {
      std::uint64_t w = 0;
      for (std::size_t k = 0; k < count; ++k) {
        w |= std::uint64_t{static_cast<unsigned char>(d[from + k])} << (8 * k);
      }
      return w;
    };
    for (; i + 8 <= d.size(); i += 8) {
      h = (h ^ word_at(i, 8)) * 0xBF58476D1CE4E5B9ull;
      h ^= h >> 31;
    }
    if (i < d.size()) {
      h = (h ^ word_at(i, d.size() - i)) * 0x94D049BB133111EBull;
      h ^= h >> 29;
    }
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 32);
  };
  std::mt19937_64 random(7);
  for (std::size_t length = 0; length <= 40; ++length) {
    for (int k = 0; k < 200; ++k) {
      std::string docno(length, '\0');
      for (char& c : docno) c = static_cast<char>(random() % 256);
      CAPTURE(length);
      CHECK(docno_hash(docno) == reference(docno));
    }
  }
}

TEST_CASE("a grouped run is handed over one query at a time") {
  QrelsReader qrels;
  qrels.feed("1 0 a 1\n2 0 b 1\n");
  qrels.finish();
  std::vector<std::string> seen;
  RunReader run([&](const QueryRun& q) { seen.push_back(q.qid); });
  run.feed("1 Q0 a 1 1 t\n1 Q0 c 2 0.5 t\n2 Q0 b 1 1 t\n");
  CHECK(seen == std::vector<std::string>{"1"});  // query 1 is complete before the file ends
  run.finish();
  CHECK(seen == std::vector<std::string>{"1", "2"});
  CHECK_FALSE(run.regroup_needed());
}

TEST_CASE("a run whose queries are apart stops at the first query met again, and is read again") {
  // Each of a shuffled run's lines is a query's stretch of its own: reading on, and evaluating
  // each stretch, would be thrown away once the run is read again with every query kept.
  const std::string text =
      "2 Q0 b 1 1 t\n1 Q0 a 1 1 t\n2 Q0 c 2 0.5 t\n1 Q0 d 2 0.5 t\nbad line\n3 Q0 e 1 1 u\n";
  std::vector<std::string> seen;
  RunReader run([&](const QueryRun& q) { seen.push_back(q.qid); });
  run.feed(text.substr(0, 30));
  run.feed(text.substr(30));
  run.finish();
  CHECK(run.regroup_needed());
  CHECK(run.stopped());
  CHECK(seen == std::vector<std::string>{"2", "1"});  // the stretches before query 2 met again
  CHECK(run.errors().items().empty());                // the bad line is for the reading again
  CHECK(run.run_tag() == "t");

  std::vector<std::string> whole;
  RunReader again(
      [&](const QueryRun& q) {
        std::string docs;
        for (const QueryRun::Doc& d : q.docs) docs += q.docno(d);
        whole.push_back(q.qid + ":" + docs);
      },
      true);
  again.feed(text);
  again.finish();
  CHECK_FALSE(again.regroup_needed());
  REQUIRE(again.errors().items().size() == 1);
  CHECK(again.errors().items()[0].line == 5);
  CHECK(whole == std::vector<std::string>{"1:ad", "2:bc", "3:e"});  // in trec_eval's order
}

TEST_CASE("a line's query and tag are told from the line before's by every byte, at any length") {
  // Ids and tags of 1 to 20 bytes, each differing from the one before in one byte, at every
  // position in turn ("qqq", "xqq", "xxq", "xxx"), each id on two lines: every id is a query, and
  // the run's tag is the last line's. Lines of 64 bytes or more take the reader's other path.
  for (std::size_t n = 1; n <= 20; ++n) {
    for (const std::size_t pad : {std::size_t{0}, std::size_t{60}}) {
      CAPTURE(n);
      CAPTURE(pad);
      std::string text;
      std::vector<std::string> expected;
      std::string tag;
      for (std::size_t at = 0; at <= n; ++at) {
        const std::string qid = std::string(at, 'x') + std::string(n - at, 'q');
        tag = std::string(at, 'u') + std::string(n - at, 't');
        for (int k = 0; k < 2; ++k) {
          text += qid + " Q0 d" + std::to_string(k) + std::string(pad, 'p') + " 1 " +
                  std::to_string(2 - k) + " " + tag + "\n";
        }
        expected.push_back(qid);
      }
      std::vector<std::string> seen;
      RunReader run([&](const QueryRun& q) { seen.push_back(q.qid); });
      run.feed(text);
      run.finish();
      CHECK(run.errors().items().empty());
      CHECK_FALSE(run.regroup_needed());
      CHECK(seen == expected);
      CHECK(run.run_tag() == tag);
    }
  }
}

TEST_CASE("qrels whose queries are apart give the judgments the grouped file gives") {
  // trec_eval's test qrels with their lines dealt out in turn to 2, 3 and 7 piles (each query's
  // lines then in several stretches, met again and again), a judgment repeated in a later
  // stretch: the same queries, judgments and grades, and the same repeat reported.
  const std::string grouped = read_file("trec_eval-10.0/qrels.test");
  std::vector<std::string> lines;
  std::istringstream in(grouped);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const auto dump = [](const QrelsReader& r) {
    std::ostringstream out;
    for (const auto& [qid, q] : r.queries()) {
      out << qid << ":";
      std::vector<std::string> judged;
      for (const JudgedDocs::Entry& e : q.by_doc.entries()) {
        judged.push_back(std::string(q.by_doc.docno(e)) + "=" + std::to_string(e.grade));
        REQUIRE(q.by_doc.find(q.by_doc.docno(e)) == &e);
      }
      std::sort(judged.begin(), judged.end());
      for (const std::string& j : judged) out << " " << j;
      out << "\n";
    }
    return out.str();
  };
  QrelsReader whole;
  whole.feed(grouped);
  whole.finish();
  REQUIRE(whole.errors().items().empty());
  for (const std::size_t piles : {2, 3, 7}) {
    CAPTURE(piles);
    std::string apart;
    for (std::size_t pile = 0; pile < piles; ++pile) {
      for (std::size_t i = pile; i < lines.size(); i += piles) apart += lines[i] + "\n";
    }
    QrelsReader reader;
    reader.feed(apart);
    reader.finish();
    CHECK(reader.errors().items().empty());
    CHECK(dump(reader) == dump(whole));

    QrelsReader repeated;
    repeated.feed(apart + lines[1] + "\n");
    repeated.finish();
    REQUIRE(repeated.errors().items().size() == 1);
    CHECK(repeated.errors().items()[0].line == lines.size() + 1);
  }
}

TEST_CASE("query spans: reading a query's spans alone evaluates it as the whole files do") {
  // trec_eval's test files, and the run with its lines shuffled so that its queries are apart
  // (read twice, and spans of several stretches).
  const std::string qrels = read_file("trec_eval-10.0/qrels.test");
  const std::string grouped = read_file("trec_eval-10.0/results.test");
  std::vector<std::string> lines;
  std::istringstream in(grouped);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string apart = "# a comment first\n";
  for (std::size_t i = 0; i < lines.size(); i += 2) apart += lines[i] + "\n";
  for (std::size_t i = 1; i < lines.size(); i += 2) apart += lines[i] + "\r\n";
  for (const std::string& run : {grouped, apart}) {
    EvalOptions options;
    REQUIRE(configure_evaluation(options, {"map", "ndcg_cut.10", "P.5"}, {{"querySpans", "true"}})
                .empty());
    for (const std::size_t chunk : {std::size_t{7}, std::size_t{4096}, run.size()}) {
      CAPTURE(chunk);
      Session session(options);
      for (std::size_t i = 0; i < qrels.size(); i += chunk)
        session.feed_qrels(qrels.substr(i, chunk));
      session.finish_qrels();
      do {
        for (std::size_t i = 0; i < run.size(); i += chunk) session.feed_run(run.substr(i, chunk));
      } while (session.finish_run());
      const Evaluation whole = session.result();
      REQUIRE(whole.ok);
      REQUIRE(whole.qrels_spans);
      REQUIRE(whole.run_spans);
      // Grouped, a span a query; apart, each query in two stretches (odd lines, even lines).
      CHECK(whole.run_spans->size() == whole.per_query.size() * (run == grouped ? 1 : 2));
      for (const QueryValues& q : whole.per_query) {
        CAPTURE(q.qid);
        const auto only = [&](const std::string& text, const std::vector<QuerySpan>& spans) {
          std::string part;
          for (const QuerySpan& s : spans) {
            if (s.qid == q.qid) part += text.substr(s.start, s.end - s.start);
          }
          return part;
        };
        EvalOptions one = options;
        one.query_spans = false;
        const Evaluation alone =
            evaluate(only(qrels, *whole.qrels_spans), only(run, *whole.run_spans), one);
        REQUIRE(alone.ok);
        REQUIRE(alone.per_query.size() == 1);
        CHECK(alone.per_query[0].qid == q.qid);
        CHECK(alone.per_query[0].values == q.values);
      }
    }
  }
  // Not asked for: none kept.
  EvalOptions plain;
  REQUIRE(configure_evaluation(plain, {"map"}, {}).empty());
  const Evaluation e = evaluate(qrels, grouped, plain);
  CHECK_FALSE(e.qrels_spans);
  CHECK_FALSE(e.run_spans);
}

TEST_CASE("measure names") {
  EvalOptions o;
  CHECK_FALSE(add_measure(o, "P.5,10"));
  CHECK_FALSE(add_measure(o, "P@20"));
  CHECK_FALSE(add_measure(o, "nDCG@10"));
  CHECK_FALSE(add_measure(o, "ndcg_cut.10"));  // merges with nDCG@10
  CHECK_FALSE(add_measure(o, "recall"));       // default cut-offs
  REQUIRE(o.measures.size() == 3);
  CHECK(o.measures[0].cutoffs == std::vector<std::int64_t>{5, 10, 20});
  CHECK(o.measures[1].cutoffs == std::vector<std::int64_t>{10});
  CHECK(o.measures[2].cutoffs.size() == 9);
  for (const char* bad : {"P.0", "P.x", "map.3", "nDCG@", "ndcg.a=1", "foo", "X@3", "", " ",
                          "ndcg.1=1,1=2", "P.1e2", "P.9223372036854775808", "P.", "P.5,5",
                          "utility.1,2", "official.5", "AP(foo=1)", "P(rel=x)@5", "RR@0"}) {
    const std::string name = bad;
    CAPTURE(name);
    CHECK(add_measure(o, bad).has_value());
  }
}

TEST_CASE("what the readers and the evaluator keep is bounded, with an error naming the line") {
  SUBCASE("qrels") {
    QrelsReader qrels(4096);  // room for about a hundred judgments (16 bytes and a docno each)
    std::string text;
    for (int i = 0; i < 1000; ++i) text += "1 0 doc" + std::to_string(i) + " 1\n";
    qrels.feed(text);
    qrels.finish();
    REQUIRE(qrels.errors().items().size() == 1);
    const Diagnostic& e = qrels.errors().items()[0];
    CHECK(e.source == Source::qrels);
    CHECK(e.line > 10);
    CHECK(e.line < 200);
    CHECK(e.message.find("need more than 0 MB") == std::string::npos);
    CHECK(e.message.find("Split the qrels by query") != std::string::npos);
  }
  SUBCASE("one query of a run") {
    std::size_t handed_over = 0;
    RunReader run([&](const QueryRun&) { ++handed_over; }, false, 4096);
    std::string text;
    for (int i = 0; i < 1000; ++i) text += "1 Q0 doc" + std::to_string(i) + " 1 1 t\n";
    run.feed(text);
    run.finish();
    REQUIRE(run.errors().items().size() == 1);
    CHECK(run.errors().items()[0].message.find("query '1' has more documents than fit") !=
          std::string::npos);
    CHECK(handed_over == 0);
  }
  SUBCASE("a grouped run holds one query at a time, so many small queries fit") {
    RunReader run([](const QueryRun&) {}, false, 4096);
    std::string text;
    for (int q = 0; q < 20; ++q) {
      for (int i = 0; i < 20; ++i)
        text += std::to_string(q) + " Q0 d" + std::to_string(i) + " 1 1 t\n";
    }
    run.feed(text);
    run.finish();
    CHECK(run.errors().empty());
  }
  SUBCASE("per-query results") {
    QrelsReader qrels;
    std::string qrels_text;
    std::string run_text;
    for (int q = 0; q < 200; ++q) {
      qrels_text += std::to_string(q) + " 0 d 1\n";
      run_text += std::to_string(q) + " Q0 d 1 1 t\n";
    }
    qrels.feed(qrels_text);
    qrels.finish();
    EvalOptions options;
    options.results_memory_limit = 4096;
    Evaluator evaluator(qrels, options);
    RunReader run([&](const QueryRun& q) { evaluator.add(q); });
    run.feed(run_text);
    run.finish();
    const Evaluation e = evaluator.finish(run);
    CHECK_FALSE(e.ok);
    REQUIRE(e.errors.size() == 1);
    CHECK(e.errors[0].message.find("per-query results need more than") != std::string::npos);
  }
}

TEST_CASE("qrels and run files given the other way round are said once, not an error a line") {
  std::string run;
  for (int q = 1; q <= 300; ++q)
    run += std::to_string(q) + " Q0 doc" + std::to_string(q) + " 1 2.5 sys\n";
  const std::string qrels = "1 0 doc1 1\n2 0 doc2 0\n";
  QrelsReader as_qrels;
  as_qrels.feed(run);
  as_qrels.finish();
  const auto qrels_errors = as_qrels.errors().finish();
  REQUIRE(qrels_errors.size() == 1);
  CHECK(qrels_errors[0].line == 1);
  CHECK(qrels_errors[0].code == "files-swapped");
  CHECK(qrels_errors[0].message.find("were the qrels and run files swapped?") != std::string::npos);

  std::size_t queries = 0;
  RunReader as_run([&](const QueryRun&) { ++queries; });
  as_run.feed(qrels);
  as_run.finish();
  const auto run_errors = as_run.errors().finish();
  REQUIRE(run_errors.size() == 1);
  CHECK(run_errors[0].code == "files-swapped");
  CHECK(run_errors[0].message.find("looks like a qrels line") != std::string::npos);
  CHECK(queries == 0);

  // A run line somewhere after good qrels lines is an ordinary located error.
  QrelsReader mixed;
  mixed.feed("1 0 doc1 1\n1 Q0 doc2 1 2.5 sys\n");
  mixed.finish();
  const auto mixed_errors = mixed.errors().finish();
  REQUIRE(mixed_errors.size() == 1);
  CHECK(mixed_errors[0].code.empty());
  CHECK(mixed_errors[0].line == 2);
}

TEST_CASE("columns say which measure and cut-off they come from; means come with a deviation") {
  const std::string qrels = "1 0 a 2\n1 0 b 1\n2 0 c 1\n3 0 d 1\n";
  const std::string run = "1 Q0 a 1 2 x\n1 Q0 c 2 1 x\n2 Q0 c 1 1 x\n";
  EvalOptions options;
  for (const char* m : {"recip_rank", "ndcg_cut.10", "P.5", "map", "P.10"}) {
    REQUIRE_FALSE(add_measure(options, m));
  }
  const Evaluation e = evaluate_in_chunks(qrels, run, options, 7);
  REQUIRE(e.ok);
  // trec_eval's order, each column with the position of its measure as typed.
  std::vector<std::string> names;
  for (const Column& c : e.columns)
    names.push_back(c.name + "@" + std::to_string(c.measure) + "/" + std::to_string(c.cutoff));
  CHECK(names == std::vector<std::string>{"map@3/0", "recip_rank@0/0", "P_5@2/5", "P_10@2/10",
                                          "ndcg_cut_10@1/10"});
  // map is 0.5 for query 1 and 1 for query 2: mean 0.75, sample deviation sqrt(0.125).
  CHECK(e.mean[0] == doctest::Approx(0.75));
  CHECK(e.stdev[0] == doctest::Approx(std::sqrt(0.125)));

  // With -c the qrels query 3, without results, counts as 0 in both.
  options.average_complete = true;
  const Evaluation complete = evaluate_in_chunks(qrels, run, options, 7);
  REQUIRE(complete.ok);
  CHECK(complete.mean[0] == doctest::Approx(0.5));
  CHECK(complete.stdev[0] == doctest::Approx(0.5));  // values 0.5, 1, 0 around 0.5
}

TEST_CASE("a query is explained at the cut-off asked for") {
  const std::string qrels = "1 0 a 1\n1 0 b 3\n1 0 c 2\n";
  const std::string run = "1 Q0 a 1 3 x\n1 Q0 z 2 2 x\n1 Q0 b 3 1 x\n";
  EvalOptions options;
  REQUIRE_FALSE(add_measure(options, "ndcg_cut.2"));
  REQUIRE_FALSE(set_eval_option(options, "explainQuery", "1"));
  REQUIRE_FALSE(set_eval_option(options, "explainCutoff", "2"));
  CHECK(set_eval_option(options, "explainCutoff", "-1").has_value());
  CHECK(set_eval_option(options, "explainCutoff", "2.5").has_value());
  const Evaluation e = evaluate_in_chunks(qrels, run, options, 64);
  REQUIRE(e.ok);
  REQUIRE(e.explanation);
  CHECK(e.explanation->summary.k == 2);
  // The explanation's NDCG@2 is the evaluator's ndcg_cut_2: the ideal is cut at 2 too.
  CHECK(e.explanation->summary.ndcg_at_k == doctest::Approx(e.per_query[0].values[0]));
}

TEST_CASE("each deliberate difference from trec_eval 10.0 is said in a warning") {
  for (const auto& c : manifest()["differences"]) {
    const std::string name = c["name"];
    CAPTURE(name);
    const Request request = parse_args(c["args"]);
    REQUIRE(request.errors.empty());
    const Evaluation e = evaluate_in_chunks(c["qrelsText"].get<std::string>(),
                                            c["runText"].get<std::string>(), request.options, 3);
    REQUIRE(e.ok);
    if (c["stdout"].is_string()) CHECK(format_trec(e, request.per_query) == c["stdout"]);
    std::string warnings;
    for (const Diagnostic& w : e.warnings) warnings += w.message + "\n";
    CAPTURE(warnings);
    CHECK(warnings.find(c["warning"].get<std::string>()) != std::string::npos);
  }
}

TEST_CASE("ir_measures names with parameters equal trec_eval's measures under the same settings") {
  const std::string qrels = read_file("basic.qrels");
  const std::string run = read_file("basic.run");
  const auto mean_of = [&](std::vector<std::string> measures, std::int64_t level,
                           std::int64_t max_per_query, const std::string& column) {
    EvalOptions o;
    for (const std::string& m : measures) REQUIRE_FALSE(add_measure(o, m));
    o.relevance_level = level;
    o.max_per_query = max_per_query;
    const Evaluation e = evaluate(qrels, run, o);
    REQUIRE(e.ok);
    for (std::size_t c = 0; c < e.columns.size(); ++c) {
      if (e.columns[c].name == column) return e.mean[c];
    }
    FAIL("no column " << column);
    return 0.0;
  };
  constexpr std::int64_t kAll = INT64_MAX;
  CHECK(mean_of({"AP(rel=2)"}, 1, kAll, "AP(rel=2)") == mean_of({"map"}, 2, kAll, "map"));
  CHECK(mean_of({"P(rel=2)@5"}, 1, kAll, "P(rel=2)@5") == mean_of({"P.5"}, 2, kAll, "P_5"));
  CHECK(mean_of({"RR@2"}, 1, kAll, "RR@2") == mean_of({"recip_rank"}, 1, 2, "recip_rank"));
  CHECK(mean_of({"SetF(beta=0.5)"}, 1, kAll, "SetF(beta=0.5)") ==
        mean_of({"set_F.0.5"}, 1, kAll, "set_F_0.5"));
  CHECK(mean_of({"RBP(p=0.5)"}, 1, kAll, "RBP(p=0.5)") ==
        mean_of({"rbp.p=0.5"}, 1, kAll, "rbp_p=0.5"));
  CHECK(mean_of({"nDCG@10"}, 1, kAll, "ndcg_cut_10") ==
        mean_of({"ndcg_cut.10"}, 1, kAll, "ndcg_cut_10"));
  // Judged@k: the documents of the top k that are in the qrels (any grade), over k: the
  // characters of relstring.k other than '-' (not in the qrels), over k.
  EvalOptions o;
  REQUIRE_FALSE(add_measure(o, "Judged@5"));
  REQUIRE_FALSE(add_measure(o, "relstring.5"));
  const Evaluation e = evaluate(qrels, run, o);
  REQUIRE(e.ok);
  REQUIRE(e.columns.size() == 2);  // relstring, Judged@5 in the catalogue's order
  CHECK(e.columns[1].name == "Judged@5");
  for (const QueryValues& q : e.per_query) {
    CAPTURE(q.qid);
    REQUIRE(q.texts.size() == 2);
    const auto judged =
        std::count_if(q.texts[0].begin(), q.texts[0].end(), [](char c) { return c != '-'; });
    CHECK(q.values[1] == static_cast<double>(judged) / 5.0);
  }
}

TEST_CASE("a query keeps texts only for a column that has one a query (relstring), not runid") {
  const std::string qrels = "1 0 a 1\n1 0 b 0\n2 0 a 1\n";
  const std::string run = "1 Q0 a 1 2 tag\n1 Q0 b 2 1 tag\n2 Q0 c 1 1 tag\n";
  EvalOptions o;
  REQUIRE_FALSE(add_measure(o, "runid"));
  REQUIRE_FALSE(add_measure(o, "map"));
  Evaluation e = evaluate(qrels, run, o);
  REQUIRE(e.ok);
  REQUIRE(e.per_query.size() == 2);
  CHECK(e.run_tag == "tag");
  // The default measures have runid: a run of many queries held a string a column a query.
  for (const QueryValues& q : e.per_query) CHECK(q.texts.empty());
  REQUIRE_FALSE(add_measure(o, "relstring.3"));
  e = evaluate(qrels, run, o);
  REQUIRE(e.ok);
  REQUIRE(e.per_query.size() == 2);
  CHECK(e.per_query[0].texts.at(2) == "10");  // as far as the run goes
  CHECK(e.per_query[1].texts.at(2) == "-");
}

TEST_CASE(
    "ERR@k and nDCG(dcg='exp-log2')@k give gdeval's values (ir_measures test/test_gdeval.py)") {
  const std::string qrels =
      "0 0 D0 0\n0 0 D1 1\n0 0 D2 1\n0 0 D3 2\n0 0 D4 0\n1 0 D0 1\n1 0 D3 2\n1 0 D5 2\n";
  const std::string run =
      "0 0 D0 1 0.8 run\n0 0 D2 2 0.7 run\n0 0 D1 3 0.3 run\n0 0 D3 4 0.4 run\n"
      "0 0 D4 5 0.1 run\n1 0 D1 1 0.8 run\n1 0 D3 2 0.7 run\n1 0 D4 3 0.3 run\n"
      "1 0 D2 4 0.4 run\n";
  EvalOptions o;
  for (const char* m : {"ERR@20", "ERR@2", "nDCG(dcg='exp-log2')@20", "nDCG(dcg='exp-log2')@2"}) {
    REQUIRE_FALSE(add_measure(o, m));
  }
  const Evaluation e = evaluate(qrels, run, o);
  REQUIRE(e.ok);
  std::map<std::string, std::size_t> column;
  for (std::size_t c = 0; c < e.columns.size(); ++c) column[e.columns[c].name] = c;
  REQUIRE(column.size() == 4);
  REQUIRE(e.per_query.size() == 2);
  // gdeval prints 5 decimals; ir_measures' test asserts them.
  const auto at = [&](std::size_t q, const char* name) {
    return std::round(e.per_query[q].values[column.at(name)] * 1e5) / 1e5;
  };
  CHECK(at(0, "ERR@20") == 0.10175);
  CHECK(at(1, "ERR@20") == 0.09375);
  CHECK(at(0, "ERR@2") == 0.03125);
  CHECK(at(1, "ERR@2") == 0.09375);
  CHECK(at(0, "nDCG(dcg='exp-log2')@20") == 0.6201);
  CHECK(at(1, "nDCG(dcg='exp-log2')@20") == 0.35099);
  CHECK(at(0, "nDCG(dcg='exp-log2')@2") == 0.17377);
  CHECK(at(1, "nDCG(dcg='exp-log2')@2") == 0.38685);
}

TEST_CASE("a measure's working adds up to its value") {
  const std::string qrels = read_file("basic.qrels");
  const std::string run = read_file("basic.run");
  const auto working_of = [&](const char* measure, const char* column, const char* query) {
    EvalOptions o;
    REQUIRE_FALSE(add_measure(o, measure));
    REQUIRE_FALSE(set_eval_option(o, "explainQuery", query));
    REQUIRE_FALSE(set_eval_option(o, "explainMeasure", column));
    const Evaluation e = evaluate(qrels, run, o);
    REQUIRE(e.ok);
    REQUIRE(e.working.has_value());
    for (const QueryValues& q : e.per_query) {
      if (q.qid == query) CHECK(e.working->value == q.values[0]);
    }
    return *e.working;
  };
  const auto sum_of = [](const Working& w, std::size_t column) {
    double sum = 0;
    for (const WorkingRow& r : w.rows) {
      if (!std::isnan(r.values[column])) sum += r.values[column];
    }
    return sum;
  };
  for (const char* query : {"101", "102", "104"}) {
    CAPTURE(query);
    const Working ap = working_of("map", "map", query);
    std::int64_t relevant = 0;  // num_rel of the query: its judged grades >= 1
    for (const std::string& line : {std::string(qrels)}) {
      std::size_t at = 0;
      while (at < line.size()) {
        const std::size_t end = line.find('\n', at);
        const std::string l = line.substr(at, end - at);
        if (l.rfind(std::string(query) + " ", 0) == 0 &&
            std::stoll(l.substr(l.rfind(' ') + 1)) >= 1)
          ++relevant;
        at = end == std::string::npos ? line.size() : end + 1;
      }
    }
    CHECK(ap.value == doctest::Approx(sum_of(ap, 1) / static_cast<double>(relevant)));
    const Working bpref = working_of("bpref", "bpref", query);
    CHECK(bpref.value == doctest::Approx(sum_of(bpref, 1) / static_cast<double>(relevant)));
    const Working err = working_of("ERR@5", "ERR@5", query);
    CHECK(err.value == doctest::Approx(sum_of(err, 2)));
    CHECK(err.rows.size() <= 5);
    const Working p = working_of("P.5", "P_5", query);
    CHECK(p.value == doctest::Approx((p.rows.empty() ? 0.0 : p.rows.back().values[0]) / 5.0));
  }
}

TEST_CASE("preference measures agree with a count by hand") {
  // get_prefs.c's transitive example: 1 > 2 > 3 in one subgroup, 2 > 4 in another, so 1 > 4 by
  // transitivity: 5 preferences. The run retrieves 4, 3, 1 in that order and not 2.
  //   1 > 2: only 1 retrieved, fulfilled (implied)   1 > 3: 3 above 1, not fulfilled
  //   2 > 3: only 3 retrieved, not fulfilled (implied)  2 > 4: likewise
  //   1 > 4: 4 above 1, not fulfilled
  // All four documents are relevant (R = 4, N = 0), 3 of them retrieved, so prefs_avgjg_Rnonrel
  // adds R - N = 4 fulfilled non-relevant preferences below each relevant retrieved document and
  // 4 possible ones below each relevant one: (1 + 3·4) / (5 + 4·4); its _ret flavour, with R = 3
  // retrieved: (0 + 3·3) / (2 + 4·3).
  EvalOptions o;
  REQUIRE_FALSE(set_eval_option(o, "relInfoFormat", "prefs"));
  REQUIRE_FALSE(add_measure(o, "all_prefs"));
  const Evaluation e = evaluate("4 u s 1 3\n4 u s 2 2\n4 u s 3 1\n4 u t 2 5\n4 u t 4 4\n",
                                "4 Q0 4 1 4 r\n4 Q0 3 2 3 r\n4 Q0 1 3 2 r\n", o);
  REQUIRE(e.ok);
  REQUIRE(e.per_query.size() == 1);
  const auto at = [&](std::string_view column) {
    for (std::size_t c = 0; c < e.columns.size(); ++c) {
      if (e.columns[c].name == column) return e.per_query[0].values[c];
    }
    FAIL("no column " << column);
    return 0.0;
  };
  CHECK(at("prefs_num_prefs_poss") == 5);
  CHECK(at("prefs_num_prefs_ful") == 1);
  CHECK(at("prefs_num_prefs_ful_ret") == 0);
  CHECK(at("prefs_simp") == doctest::Approx(1.0 / 5));
  CHECK(at("prefs_simp_ret") == 0);  // 0 of the 2 preferences among retrieved documents
  CHECK(at("prefs_simp_imp") == doctest::Approx(1.0 / 5));  // no preference without either
  CHECK(at("prefs_pair") == doctest::Approx(1.0 / 5));      // one group: each pair is 0 or 1
  CHECK(at("prefs_avgjg") == doctest::Approx(1.0 / 5));
  CHECK(at("prefs_avgjg_Rnonrel") == doctest::Approx(13.0 / 21));
  CHECK(at("prefs_avgjg_Rnonrel_ret") == doctest::Approx(9.0 / 14));
}

namespace {

// What a run reader gives: every query handed over (its documents in full), its errors, its
// tag; as text, so that two readings compare in one CHECK that shows where they differ.
std::string reading_of(const std::string& text, bool careful, std::size_t chunk_seed) {
  std::ostringstream out;
  RunReader run([&](const QueryRun& q) {
    out << "query " << q.qid << "\n";
    for (const QueryRun::Doc& d : q.docs) {
      char score[32];
      std::snprintf(score, sizeof score, "%a", d.score);
      out << "  " << d.line << ":" << d.column << " [" << q.docno(d) << "] " << score << " "
          << d.hash << "\n";
    }
  });
  if (careful) run.read_every_line_carefully();
  std::mt19937_64 chunks(chunk_seed);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t size = std::min<std::size_t>(text.size() - at, 1 + chunks() % 97);
    run.feed(std::string_view(text).substr(at, size));
    at += size;
  }
  run.finish();
  for (const Diagnostic& e : run.errors().items()) {
    out << "error " << e.line << ":" << e.column << " " << e.message << "\n";
  }
  out << "tag [" << run.run_tag() << "] regroup " << run.regroup_needed() << "\n";
  return out.str();
}

// A run line as people and programs write them, and as they go wrong: blanks of every kind,
// fields across the 8- and 64-byte words the fast path reads, multi-byte and control
// characters, scores in every notation, too few and too many fields.
std::string random_run_line(std::mt19937_64& random) {
  const auto pick = [&](std::initializer_list<const char*> options) {
    return std::string(*(options.begin() + random() % options.size()));
  };
  const auto blank = [&] { return pick({" ", " ", " ", "\t", "  ", " \t ", "\t\t"}); };
  const auto word = [&](std::size_t most) {
    static const std::string letters = "abcdefghijklmnopqrstuvwxyz0123456789-_.:/ABCXYZ";
    std::string w;
    const std::size_t length = random() % (most + 1);
    for (std::size_t i = 0; i < length; ++i) w += letters[random() % letters.size()];
    if (random() % 8 == 0)
      w.insert(random() % (w.size() + 1), pick({"\xC3\xA9", "\xE2\x82\xAC", "\xFF"}));
    return w.empty() ? std::string("d") : w;
  };
  const auto score = [&] {
    return pick({"12.5",
                 "-3",
                 "0.1234567890123456789",
                 "1e-4",
                 "+2",
                 ".5",
                 "5.",
                 "-0",
                 "inf",
                 "-Infinity",
                 "nan",
                 "1.2.3",
                 "12abc",
                 "",
                 "99999999999999999999999",
                 "9007199254740993",
                 "0.30000000000000004",
                 "1E400",
                 "-",
                 ".",
                 "4.9e-324",
                 std::to_string(static_cast<double>(random() % 100000) / 1000).c_str()});
  };
  std::vector<std::string> fields = {
      pick({"301", "302", "q3", "#c", "303"}), "Q0",    word(random() % 4 == 0 ? 140 : 20),
      std::to_string(random() % 1000),         score(), word(random() % 4 == 0 ? 70 : 8)};
  if (random() % 10 == 0) fields.resize(random() % 6);
  if (random() % 10 == 0) fields.push_back(word(12));
  std::string line = random() % 6 == 0 ? blank() : "";
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i > 0 ? blank() : "") + fields[i];
  if (random() % 6 == 0) line += blank();
  if (random() % 25 == 0)
    line.insert(random() % (line.size() + 1), pick({"\x01", "\x7F", "\f", "\v", "\r", "\x1B"}));
  return line + pick({"\n", "\n", "\n", "\r\n", "\r"});
}

}  // namespace

TEST_CASE("a query's grade counts are its judgments counted per grade, few grades or many") {
  // Counted in a short list up to 16 grades, by sorting past them: queries on either side of
  // that, with negative grades (left out) and grades far apart.
  std::mt19937_64 random(20261126);
  std::string text;
  std::map<std::string, std::map<std::int64_t, std::int64_t, std::greater<>>> expected;
  int line = 0;
  for (int grades : {1, 3, 15, 16, 17, 40, 300}) {
    const std::string qid = "q" + std::to_string(grades);
    expected[qid];  // a query of negative grades only has none
    for (int d = 0; d < 400; ++d) {
      std::int64_t grade = static_cast<std::int64_t>(random() % static_cast<unsigned>(grades));
      if (d % 7 == 0) grade = -1 - grade;
      if (grade % 5 == 4) grade *= 1000000000000LL;
      text += qid + " 0 d" + std::to_string(++line) + " " + std::to_string(grade) + "\n";
      if (grade >= 0) ++expected[qid][grade];
    }
  }
  QrelsReader qrels;
  qrels.feed(text);
  qrels.finish();
  REQUIRE(qrels.errors().empty());
  for (const auto& entry : expected) {
    const std::string& qid = entry.first;
    const auto& counts = entry.second;
    CAPTURE(qid);
    const auto& got = qrels.queries().at(qid).grade_counts;
    CHECK(std::vector<std::pair<std::int64_t, std::int64_t>>(counts.begin(), counts.end()) == got);
  }
}

TEST_CASE("the run reader's fast path reads every line as its general path does") {
  std::mt19937_64 random(20261124);
  for (int text_number = 0; text_number < 300; ++text_number) {
    std::string text;
    const int lines = 1 + static_cast<int>(random() % 60);
    for (int i = 0; i < lines; ++i) text += random_run_line(random);
    if (random() % 4 == 0) text.pop_back();  // no line end at the end
    CAPTURE(text);
    CHECK(reading_of(text, false, text_number) == reading_of(text, true, text_number + 1));
  }
}

namespace {

std::string judged_of(const QueryQrels& q) {
  std::string out;
  for (const JudgedDocs::Entry& e : q.by_doc.entries()) {
    // Each judgment is found again by its docno, through the table the reader built.
    out += "  " + std::to_string(e.line) + " [" + std::string(q.by_doc.docno(e)) + "] " +
           std::to_string(e.grade) + (q.by_doc.find(q.by_doc.docno(e)) == &e ? "" : " lost") + "\n";
  }
  for (const auto& [grade, count] : q.grade_counts) {
    out += "  grade " + std::to_string(grade) + " x" + std::to_string(count) + "\n";
  }
  return out;
}

// What a qrels reader gives, as text (see reading_of).
std::string qrels_reading_of(const std::string& text, RelFormat format, bool careful,
                             std::size_t chunk_seed) {
  QrelsReader qrels;
  qrels.set_format(format);
  if (careful) qrels.read_every_line_carefully();
  std::mt19937_64 chunks(chunk_seed);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t size = std::min<std::size_t>(text.size() - at, 1 + chunks() % 97);
    qrels.feed(std::string_view(text).substr(at, size));
    at += size;
  }
  qrels.finish();
  std::string out;
  for (const auto& [qid, q] : qrels.queries()) {
    out += "query " + qid + "\n" + judged_of(q);
    for (const JudgmentGroup& g : q.groups) out += " group " + g.id + "\n" + judged_of(g.judged);
  }
  for (const Diagnostic& e : qrels.errors().items()) {
    out +=
        "error " + std::to_string(e.line) + ":" + std::to_string(e.column) + " " + e.message + "\n";
  }
  return out + "blank " + std::to_string(qrels.blank_lines()) + " " +
         std::to_string(qrels.first_blank_line()) + "\n";
}

std::string random_qrels_line(std::mt19937_64& random) {
  const auto pick = [&](std::initializer_list<const char*> options) {
    return std::string(*(options.begin() + random() % options.size()));
  };
  const auto blank = [&] { return pick({" ", " ", " ", "\t", "  ", " \t "}); };
  std::string docno =
      pick({"d1", "d2", "doc-00012345", "clueweb09-en0000-00-00000", "\xC3\xA9t\xC3\xA9", "x"});
  if (random() % 6 == 0) docno += std::string(random() % 80, 'z');
  std::vector<std::string> fields = {
      pick({"301", "302", "#1", "q3"}), pick({"0", "Q0", "a", "b"}), docno,
      pick({"0", "1", "2", "-1", "3", "1e2", "x", "99999999999999999999", "+1"})};
  if (random() % 10 == 0) fields.resize(random() % 4);
  if (random() % 10 == 0) fields.push_back(pick({"1", "t", "0.5"}));
  std::string line = random() % 8 == 0 ? blank() : "";
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i > 0 ? blank() : "") + fields[i];
  if (random() % 8 == 0) line += blank();
  if (random() % 25 == 0)
    line.insert(random() % (line.size() + 1), pick({"\x01", "\x7F", "\f", "\v", "\r"}));
  return line + pick({"\n", "\n", "\r\n"});
}

}  // namespace

TEST_CASE("the qrels reader's fast path reads every line as its general path does") {
  std::mt19937_64 random(20261125);
  for (int text_number = 0; text_number < 300; ++text_number) {
    std::string text;
    const int lines = 1 + static_cast<int>(random() % 60);
    for (int i = 0; i < lines; ++i) text += random_qrels_line(random);
    if (random() % 4 == 0) text.pop_back();
    CAPTURE(text);
    for (RelFormat format : {RelFormat::qrels, RelFormat::qrels_jg}) {
      const std::string fast = qrels_reading_of(text, format, false, text_number);
      CHECK(fast == qrels_reading_of(text, format, true, text_number + 1));
      CHECK(fast.find(" lost") == std::string::npos);
    }
  }
}

TEST_CASE("a query of more judgments than 16-bit slots can index is found as a small one") {
  // 40,000 judgments take a table of 131,072 slots, past the 16-bit ones; the queries around it
  // take small tables, built in the same table as it and settled after it.
  std::string text;
  const auto docno = [](int q, int d) {
    return "doc-" + std::to_string(q) + "-" + std::to_string(d * 7919 % 100003);
  };
  const int sizes[] = {100, 40000, 100, 9};
  for (int q = 0; q < 4; ++q) {
    for (int d = 0; d < sizes[q]; ++d) {
      text += "q" + std::to_string(q) + " 0 " + docno(q, d) + " " + std::to_string(d % 4) + "\n";
    }
  }
  // The large query's first docno again, at its end: judged twice.
  text += "q1 0 " + docno(1, 0) + " 1\n";
  QrelsReader qrels;
  qrels.feed(text);
  qrels.finish();
  REQUIRE(qrels.errors().size() == 1);
  CHECK(qrels.errors().items()[0].line == static_cast<std::uint32_t>(100 + 40000 + 100 + 9 + 1));
  CHECK(qrels.errors().items()[0].message.find("first on line 101") != std::string::npos);
  for (int q = 0; q < 4; ++q) {
    CAPTURE(q);
    const JudgedDocs& docs = qrels.queries().at("q" + std::to_string(q)).by_doc;
    REQUIRE(docs.size() == static_cast<std::size_t>(sizes[q]));
    for (int d = 0; d < sizes[q]; ++d) {
      const JudgedDocs::Entry* entry = docs.find(docno(q, d));
      REQUIRE(entry != nullptr);
      CHECK(entry->grade == d % 4);
      CHECK(docs.docno(*entry) == docno(q, d));
    }
    CHECK(docs.find(docno(q, 0) + "x") == nullptr);
    CHECK(docs.find(docno((q + 1) % 4, 1)) == nullptr);
  }
}

TEST_CASE("a query's judgments are held at their size once read, and every docno reads back") {
  // Queries of 1 to 70 judgments in a shuffled order, so that each is built in a table sized for
  // the query before, larger or smaller (from its linear scan to hashed), each read in one
  // stretch and settled when the next query starts; after each, a line of a query "apart",
  // whose lines are spread over the file: settled when first left, it then grows in its own
  // table and is given back at finish.
  std::string text;
  std::vector<std::pair<std::string, std::string>> judged;  // qid, docno
  for (int q = 1; q <= 70; ++q) {
    const int count = q * 37 % 71;  // 1 to 70, each once
    for (int d = 0; d < count; ++d) {
      const std::string qid = "q" + std::to_string(q);
      const std::string docno = "doc-" + std::string(static_cast<std::size_t>(d % 7), 'x') +
                                std::to_string(d * 7919 % 1000);
      text += qid + " 0 " + docno + " " + std::to_string(d % 3) + "\n";
      judged.emplace_back(qid, docno);
    }
    const std::string apart = "doc-apart-" + std::to_string(q);
    text += "apart 0 " + apart + " 1\n";
    judged.emplace_back("apart", apart);
  }
  QrelsReader qrels;
  qrels.feed(text);
  qrels.finish();
  REQUIRE(qrels.errors().empty());
  REQUIRE(qrels.queries().size() == 71);
  // Each query holds what a table of its judgments alone holds, once given back.
  std::map<std::string, JudgedDocs> alone;
  for (const auto& [qid, docno] : judged) alone[qid].insert(docno, docno_hash(docno), 0, 0);
  for (const auto& entry : qrels.queries()) {
    const std::string& qid = entry.first;
    const QueryQrels& query = entry.second;
    CAPTURE(qid);
    CHECK(query.by_doc.entries().capacity() == query.by_doc.size());
    alone.at(qid).shrink();
    CHECK(query.by_doc.bytes() == alone.at(qid).bytes());
  }
  for (const auto& judgment : judged) {
    const std::string& qid = judgment.first;
    const std::string& docno = judgment.second;
    CAPTURE(docno);
    const JudgedDocs& docs = qrels.queries().at(qid).by_doc;
    const JudgedDocs::Entry* entry = docs.find(docno);
    REQUIRE(entry != nullptr);
    CHECK(docs.docno(*entry) == docno);
    // Docnos not judged there, whose bits in its filter may be set by others: none is found.
    for (const std::string& other : {docno + "-", "x" + docno, docno + "-" + qid + "x"}) {
      CHECK(docs.find(other) == nullptr);
    }
  }
}
