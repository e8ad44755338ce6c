// The ndcg-calc command line, shared by its two programs: the Node one (wasm/cli.mjs, through
// the bindings) and the native one (core/tools/ndcg-calc.cpp). Both read their arguments and
// print their results through these functions, so that the same flags give the same bytes.
//
// Reading files (paths, stdin, gzip) stays with each program; everything between argv and the
// text printed is here: trec_eval's flags as getopt_long reads them, the usage text, -h -m, and
// the formats of a finished evaluation (trec_eval's lines, TSV, JSON, the step tables).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ndcg/options.hpp"
#include "ndcg/trec.hpp"

namespace ndcg::cli {

// The whole usage text (-h).
std::string_view usage();

// What a usage error prints on stderr: the message, the usage line, and where to read more.
std::string usage_error(std::string_view message);

// trec, json and tsv for an evaluation; text (the default), json, tsv and latex for compare.
enum class Format : std::uint8_t { trec, json, tsv, text, latex };

// ndcg-calc QRELS RUN evaluates; ndcg-calc compare QRELS RUN_A RUN_B [RUN...] compares runs.
enum class Command : std::uint8_t { evaluate, compare };

struct Arguments {
  Command command = Command::evaluate;
  bool help = false;
  bool version = false;
  bool per_query = false;  // -q
  bool summary = true;     // not -n
  bool progress = false;   // --progress
  Format format = Format::trec;
  std::vector<std::string> measures;  // each -m, in order
  // The evaluation options and conventions, as set_eval_options reads them: -c, -J, -l, -M, -N,
  // -D's query, -R, --preset, each -o; explainQuery and explainMeasure from --explain.
  std::vector<OptionValue> options;
  std::string explain;          // --explain's query id (or -D N.QID's, N >= 1)
  std::string explain_measure;  // --explain QID:COLUMN's column
  // -D N.QID with N >= 1: the working goes to stderr beside trec_eval's lines.
  bool explanation_to_stderr = false;
  std::optional<std::string> zscores_file;  // -Z FILE: its text is the option "zscores"
  std::vector<std::string> files;           // QRELS and RUN ("-": stdin); compare: and more runs
  // compare: --test, --permutations, --seed, --alpha, --correction, --missing, --pairs, as
  // compare::set_options reads them
  std::vector<OptionValue> compare_options;
};

struct Parsed {
  std::optional<Arguments> arguments;  // absent exactly when error is set
  std::string error;                   // a usage error, one sentence
};

// Reads argv (without the program's name) as trec_eval's getopt_long does (with "compare"
// first, the compare command's flags and files): short flags, grouped
// ("-qc") or with their value attached ("-l2"); long names or a unique prefix of one
// ("--level 2", "--level=2"); a flag that takes a value takes the next argument whatever it is
// ("-l -1"); "--" ends the flags. Values are checked here as far as the command line can
// (-l a whole number, -R a known format, two files); the core checks the rest.
Parsed parse_arguments(const std::vector<std::string>& argv);

// -h's text; with -m NAME..., followed by the definitions of the measures named (sets expand
// to their members).
std::string help(const std::vector<std::string>& measures);

// What the program prints once the evaluation is done, and its exit status.
struct Report {
  std::string out;  // stdout
  std::string err;  // stderr
  int status = 0;   // 0; 1 for an error in the data; 2 for a usage error (a bad -m or -l)
  // With report(..., in_pieces): the results, printed after `out` a piece at a time. Each call
  // appends whole queries' lines to its string until it has grown by the bytes given (then the
  // summary), and says whether it appended anything. It refers to the evaluation.
  std::function<bool(std::string&, std::size_t)> rest;
};

// The bytes a program asks Report::rest for at a time.
inline constexpr std::size_t kPieceBytes = std::size_t{1} << 20;

// Warnings and errors located in the files as named on the command line ("run.txt:12:3: ..."),
// the working asked for (--explain, -D), then the results in the format asked for. With
// `in_pieces`, the results are left to `rest`, which refers to `evaluation`: a program prints
// them a piece at a time, not holding them all (100,000 queries' -q lines are 100 MB).
Report report(const Arguments& arguments, const trec::Evaluation& evaluation,
              std::string_view qrels_name, std::string_view run_name, bool in_pieces = false);

// compare's names for its runs: the paths as given, one given again numbered ("run.txt (2)"),
// so that every run has its own name.
std::vector<std::string> run_names(const std::vector<std::string>& paths);

// compare's usage text (compare -h).
std::string_view compare_usage();

// What `compare` prints once every run is evaluated (`evaluations`, in the order of the files,
// each with the options compare::configure set): each run's warnings and errors located in its
// file, then the comparison in the format asked for.
Report compare_report(const Arguments& arguments, const std::vector<trec::Evaluation>& evaluations,
                      std::string_view qrels_name, const std::vector<std::string>& run_names);

// A number as JavaScript's String(x) writes it: the shortest decimal that reads back as x,
// positional from 1e-6 to 1e21, else with an exponent ("1e-7", "1.5e+21"); NaN, Infinity.
std::string js_number(double x);

}  // namespace ndcg::cli
