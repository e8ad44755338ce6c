// ndcg/cli.hpp: the command line's arguments as getopt_long reads them, and its formats. The
// programs themselves are run over the shared cases by tests/wasm/cli.test.mjs.
#include "ndcg/cli.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

using namespace ndcg;

namespace {

cli::Arguments parsed(const std::vector<std::string>& argv) {
  const cli::Parsed p = cli::parse_arguments(argv);
  REQUIRE_MESSAGE(p.arguments.has_value(), p.error);
  return *p.arguments;
}

std::string error_of(const std::vector<std::string>& argv) {
  const cli::Parsed p = cli::parse_arguments(argv);
  REQUIRE_FALSE(p.arguments.has_value());
  return p.error;
}

std::string option(const cli::Arguments& a, std::string_view name) {
  std::string value = "(absent)";
  for (const OptionValue& o : a.options) {
    if (o.name == name) value = o.value;
  }
  return value;
}

}  // namespace

TEST_CASE("flags are read as getopt_long reads them: grouped, attached, long, prefixes") {
  const cli::Arguments a = parsed({"-qc", "-l2", "-M", "3", "-mmap", "-m", "P.5", "q", "r"});
  CHECK(a.per_query);
  CHECK(option(a, "averageComplete") == "true");
  CHECK(option(a, "relevanceLevel") == "2");
  CHECK(option(a, "maxPerQuery") == "3");
  CHECK(a.measures == std::vector<std::string>{"map", "P.5"});
  CHECK(a.files == std::vector<std::string>{"q", "r"});

  // A unique prefix of a long name; a value after '=' or in the next argument, whatever it is.
  CHECK(option(parsed({"--level", "2", "q", "r"}), "relevanceLevel") == "2");
  CHECK(option(parsed({"--level_for_rel=-1", "q", "r"}), "relevanceLevel") == "-1");
  CHECK(option(parsed({"-l", "-1", "q", "r"}), "relevanceLevel") == "-1");
  // "--" ends the flags: a file may start with '-'.
  CHECK(parsed({"--", "-q", "-r"}).files == std::vector<std::string>{"-q", "-r"});
  CHECK(parsed({"-", "r"}).files == std::vector<std::string>{"-", "r"});
  // The last of a flag given twice counts; -m and -o add up.
  CHECK(option(parsed({"-l1", "-l3", "q", "r"}), "relevanceLevel") == "3");
  const cli::Arguments o =
      parsed({"--preset", "sklearn", "-o", "ties=average", "-o", "gain=exponential", "q", "r"});
  CHECK(option(o, "preset") == "sklearn");
  CHECK(option(o, "ties") == "average");
  CHECK(option(o, "gain") == "exponential");
}

TEST_CASE("--explain and -D name the query to explain, and where its working goes") {
  cli::Arguments a = parsed({"--explain", "301:P_10", "q", "r"});
  CHECK(a.explain == "301");
  CHECK(a.explain_measure == "P_10");
  CHECK(option(a, "explainQuery") == "301");
  CHECK(option(a, "explainMeasure") == "P_10");
  a = parsed({"--explain", "a:b:map", "q", "r"});  // a query id may hold ':'
  CHECK(a.explain == "a:b");
  a = parsed({"-D", "1.302", "q", "r"});
  CHECK(option(a, "onlyQuery") == "302");
  CHECK(a.explain == "302");
  CHECK(a.explanation_to_stderr);
  a = parsed({"-D", "0.302", "q", "r"});  // level 0: evaluate 302 only, explain nothing
  CHECK(a.explain.empty());
  a = parsed({"-D", "2", "q", "r"});
  CHECK(option(a, "explainAll") == "true");
}

TEST_CASE("usage errors say what is wrong in one sentence") {
  CHECK(error_of({"-x", "q", "r"}) == "unknown option '-x'");
  CHECK(error_of({"--nope", "q", "r"}) == "unknown option '--nope'");
  CHECK(error_of({"--Re", "x", "q", "r"}) ==
        "option '--Re' is ambiguous: --Rel_info_format, --Results_format");
  CHECK(error_of({"-q", "--help=1", "q", "r"}) == "option '--help' takes no value");
  CHECK(error_of({"q", "r", "-l"}) == "option '-l' needs a value");
  CHECK(error_of({"-l", "two", "q", "r"}) == "-l takes a whole number, not 'two'");
  CHECK(error_of({"-M", "-1", "q", "r"}) == "-M takes a whole number 0 or more, not '-1'");
  CHECK(error_of({"-D", "1.", "q", "r"}).starts_with("-D takes a level and an optional query"));
  CHECK(error_of({"-R", "trec", "q", "r"}).starts_with("-R takes a relevance file format"));
  CHECK(error_of({"-T", "x", "q", "r"}).starts_with("-T takes trec_results"));
  CHECK(error_of({"-o", "ties", "q", "r"}).starts_with("-o takes NAME=VALUE"));
  CHECK(error_of({"--format", "xml", "q", "r"}) == "--format is trec, json or tsv, not 'xml'");
  CHECK(error_of({"q"}) == "expected two files, QRELS and RUN; got 1");
  CHECK(error_of({"-", "-"}) == "only one of QRELS and RUN can be - (stdin)");
  // -h and -v need no files.
  CHECK(parsed({"-h"}).help);
  CHECK(parsed({"--vers"}).version);
  const std::string text = cli::usage_error("unknown option '-x'");
  CHECK(text.starts_with("ndcg-calc: unknown option '-x'\nusage: ndcg-calc [-q]"));
  CHECK(text.ends_with("QRELS RUN\n(ndcg-calc -h for every option)\n"));
}

TEST_CASE("-h -m NAME defines the measures named, a set by its members") {
  const std::string one = cli::help({"map"});
  CHECK(one.starts_with(std::string(cli::usage())));
  CHECK(one.find("\nMeasures:\n  map (ir_measures: AP)\n      average precision") !=
        std::string::npos);
  const std::string set = cli::help({"official"});
  CHECK(set.find("\n  P.5,10,15,20,30,100,200,500,1000 (ir_measures: P@k)\n") != std::string::npos);
  CHECK(set.find("\n  ndcg_cut") == std::string::npos);  // not in the official set
}

TEST_CASE("numbers are written as JavaScript's String(x) writes them") {
  const std::pair<double, const char*> cases[] = {
      {0, "0"},
      {-0.0, "0"},
      {1, "1"},
      {-1.5, "-1.5"},
      {0.1, "0.1"},
      {0.1 + 0.2, "0.30000000000000004"},
      {1.0 / 3, "0.3333333333333333"},
      {0.44166666666666665, "0.44166666666666665"},
      {100, "100"},
      {1e21, "1e+21"},
      {1.5e21, "1.5e+21"},
      {123456789012345680000.0, "123456789012345680000"},
      {0.000001, "0.000001"},
      {1e-7, "1e-7"},
      {1.25e-7, "1.25e-7"},
      {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {-1000000, "-1000000"},
      {std::numeric_limits<double>::quiet_NaN(), "NaN"},
      {std::numeric_limits<double>::infinity(), "Infinity"},
      {-std::numeric_limits<double>::infinity(), "-Infinity"},
  };
  for (const auto& c : cases) {
    const auto& text = c.second;
    CAPTURE(text);
    CHECK(cli::js_number(c.first) == text);
  }
}

namespace {

// The shortest "%.{p}e" that strtod reads back, for p from 1 up: what js_number gives, the slow
// way (a printf and a strtod for each p), written out here to hold it to.
std::string shortest_digits(double magnitude, int& exponent) {
  char buffer[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, magnitude);
    if (std::strtod(buffer, nullptr) == magnitude) break;
  }
  const std::string text = buffer;
  const std::size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits += c;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  exponent = std::atoi(buffer + e + 1);
  return digits;
}

}  // namespace

TEST_CASE("js_number's digits are the shortest that read back, for any double") {
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  const auto next = [&state] {
    state += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  std::vector<double> values;
  for (int i = 0; i < 60000; ++i) {
    const std::uint64_t bits = next();
    double x = 0;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isfinite(x) && x != 0) values.push_back(x);
  }
  // Values a report holds: ratios of small counts, means, and decimals as typed; and values
  // whose 17 digits end in 5 and zeros (printf is asked for them again).
  for (int a = 1; a <= 120; ++a) {
    for (int b = 1; b <= 60; ++b) values.push_back(static_cast<double>(a) / b);
  }
  for (int i = 0; i < 3000; ++i) values.push_back(static_cast<double>(next() % 100000000) / 1e4);
  // Random doubles from 2^-72 to 2^53, where the digits are worked out without printf.
  for (int i = 0; i < 40000; ++i) {
    values.push_back(
        std::ldexp(static_cast<double>(next() >> 11), -static_cast<int>(next() % 125)));
  }
  for (double x : {0.5, 0.25, 0.125, 1.5, 2.5, 0.05, 0.15, 0.35, 1e-5, 5e-7, 9.5, 0.95, 0.995,
                   9.999999999999999e22, 1e23, 4.35, 2.675, 1.0000000000000002}) {
    values.push_back(x);
  }
  for (int shift = -1074; shift <= 1023; ++shift) values.push_back(std::ldexp(1.0, shift));
  // Values whose exact digits end in a 5 just past the 17th (1 + 2^-17 = 1.00000762939453125):
  // ties, which printf rounds to even, as JavaScript does; and values at powers of ten's edges.
  for (int j = 1; j <= 60; ++j) {
    for (double base : {1.0, 3.0, 7.0, 0.5, 1e-6, 1e15}) {
      values.push_back(base + std::ldexp(base, -j));
      values.push_back(base - std::ldexp(base, -j));
    }
  }
  for (int e = -8; e <= 17; ++e) {
    const double ten = std::pow(10.0, e);
    values.push_back(ten);
    values.push_back(std::nextafter(ten, 0.0));
    values.push_back(std::nextafter(ten, 1e300));
  }
  std::size_t checked = 0;
  for (double x : values) {
    CAPTURE(x);
    int exponent = 0;
    const std::string digits = shortest_digits(std::fabs(x), exponent);
    const std::string text = cli::js_number(x);
    // The same digits and point as JavaScript places them (the cases above check its forms).
    std::string theirs;
    for (char c : text.substr(0, text.find('e'))) {
      if (c >= '0' && c <= '9') theirs += c;
    }
    const std::size_t first = theirs.find_first_not_of('0');
    REQUIRE(first != std::string::npos);
    theirs = theirs.substr(first);
    while (theirs.size() > 1 && theirs.back() == '0') theirs.pop_back();
    CHECK(theirs == digits);
    CHECK(std::strtod(text.c_str(), nullptr) == x);
    ++checked;
  }
  CHECK(checked > 110000);
}

TEST_CASE("the report locates messages in the files as named, and sets the exit status") {
  trec::Evaluation failed;
  failed.errors = {{Source::run, 12, 3, "the score is not a number"},
                   {Source::qrels, 0, 0, "the qrels file has no judgments"}};
  failed.warnings = {{Source::options, 0, 0, "a note"}};
  cli::Report r = cli::report(parsed({"a.qrels", "b.run"}), failed, "a.qrels", "b.run");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "ndcg-calc: warning: a note\n"
        "ndcg-calc: b.run:12:3: the score is not a number\n"
        "ndcg-calc: a.qrels: the qrels file has no judgments\n");
  trec::Evaluation bad_measure;
  bad_measure.errors = {{Source::options, 0, 0, "unknown measure 'nope'"}};
  r = cli::report(parsed({"a", "b"}), bad_measure, "a", "b");
  CHECK(r.status == 2);
  CHECK(r.err == "ndcg-calc: unknown measure 'nope'\n");
}

TEST_CASE("a report in pieces holds the working in out and leaves the results to rest") {
  const std::string qrels = "1 0 a 1\n1 0 b 0\n2 0 a 2\n";
  const std::string run = "1 Q0 a 1 2 tag\n1 Q0 b 2 1 tag\n2 Q0 c 1 1 tag\n2 Q0 a 2 0 tag\n";
  for (const std::vector<std::string>& argv :
       {std::vector<std::string>{"-q", "-m", "map", "Q", "R"},
        std::vector<std::string>{"-q", "-m", "ndcg", "--explain", "2", "Q", "R"},
        std::vector<std::string>{"-m", "ndcg", "--explain", "2", "Q", "R"},
        std::vector<std::string>{"-q", "-m", "ndcg", "--format", "json", "--explain", "2", "Q",
                                 "R"},
        std::vector<std::string>{"-m", "relstring", "-m", "map", "--format", "json", "Q", "R"},
        std::vector<std::string>{"-q", "-m", "relstring", "-m", "map", "--format", "json", "Q",
                                 "R"},
        std::vector<std::string>{"-q", "-m", "P.1,2", "--format", "tsv", "Q", "R"},
        std::vector<std::string>{"-m", "P.1,2", "--format", "tsv", "--explain", "1", "Q", "R"}}) {
    std::string command;
    for (const std::string& a : argv) command += a + " ";
    CAPTURE(command);
    const cli::Arguments args = parsed(argv);
    trec::EvalOptions options;
    REQUIRE(trec::configure_evaluation(options, args.measures, args.options).empty());
    options.explain_query = args.explain;
    const trec::Evaluation e = trec::evaluate(qrels, run, options);
    REQUIRE(e.ok);
    const cli::Report whole = cli::report(args, e, "Q", "R");
    CHECK_FALSE(whole.rest);
    CHECK(whole.out.size() > 20);
    // Pieces of a byte or more, and of a kilobyte: they join to the whole, and each of trec_eval's
    // and TSV's ends a line (JSON's end with a query's closing brace).
    for (std::size_t bytes : {std::size_t{1}, std::size_t{1000}}) {
      cli::Report pieces = cli::report(args, e, "Q", "R", true);
      CHECK(pieces.err == whole.err);
      REQUIRE(pieces.rest);
      std::string out = pieces.out;
      std::string piece;
      std::size_t count = 0;
      while (pieces.rest(piece, bytes)) {
        REQUIRE(++count <= whole.out.size());
        if (args.format != cli::Format::json) CHECK(piece.back() == '\n');
        out += piece;
        piece.clear();
      }
      CHECK_FALSE(pieces.rest(piece, bytes));
      CHECK(out == whole.out);
    }
  }
}
