// The ndcg-calc command line: arguments in, text out (see cli.hpp).
#include "ndcg/cli.hpp"

#include <fast_float.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <span>
#include <type_traits>
#include <utility>

#include "ndcg/compare.hpp"

namespace ndcg::cli {
namespace {

constexpr std::string_view kUsage =
    R"(usage: ndcg-calc [-q] [-c] [-n] [-J] [-l N] [-M N] [-N N] [-m MEASURE]... [-Z FILE]
                 [-D N[.QID]] [-R FORMAT] [-T trec_results] [--preset NAME] [-o NAME=VALUE]...
                 [--format trec|json|tsv] [--explain QID] QRELS RUN

Evaluates RUN ("query Q0 docno rank score tag" lines) against QRELS ("query iteration docno
grade" lines) as trec_eval 10.0 does, and prints its lines, with its flags (short, grouped as
-qc, or long as --level_for_rel 2). Either file may be - for stdin; gzipped files are read as
they are.

  -q, --query_eval_wanted         also print the value of every query
  -c, --complete_rel_info_wanted  average over every qrels query (one without results counts 0)
  -n, --nosummary                 do not print the "all" lines
  -l, --level_for_rel N           grade from which a document is relevant (default 1)
  -M, --Max_retrieved_per_topic N  only the first N ranked documents of each query count
  -N, --Number_docs_in_coll N     documents in the collection (utility's fourth coefficient)
  -J, --Judged_docs_only          drop unjudged documents from every ranking first
  -m, --measure MEASURE           a measure as trec_eval names it (map, P.5,10, ndcg_cut.10,
                                  ndcg.1=0.5,2=3, ...), a set of them (official, the default;
                                  all_trec; set; qrels_jg; prefs; all_prefs), or an ir_measures
                                  name (nDCG@10, AP(rel=2), P@10, RR@10, SetF, RBP(p=0.8), ...);
                                  repeat it for more.
                                  -h -m NAME describes a measure; -h -m all_trec all of them
  -Z, --Zscore FILE               print z-scores against "query measure mean stddev" lines
  -D, --Debug_level N[.QID]       evaluate QID only; with N >= 1 also print its working (on
                                  stderr); -D N alone prints every query's working
  -R, --Rel_info_format FORMAT    qrels; qrels_jg (the second field names a judgment group);
                                  prefs ("query group subgroup docno level" preferences); or
                                  qrels_prefs (a qrels file read as preferences). Without -m,
                                  the measures are the format's set (official, qrels_jg, prefs)
  -T, --Results_format FORMAT     trec_results (the only one trec_eval has)
  -v, --version                   the version
  -h, --help                      this text (with -m, the measures' definitions)
  --preset NAME    compute ndcg and ndcg_cut as a library does: trec_eval, trec_eval-ndcg_cut,
                   sklearn, torchmetrics, ranx, ranx-burges, ir_measures, gdeval, lightgbm,
                   xgboost, tf-ranking, spark, elasticsearch, ntcir, lecture (ties, gain,
                   ideal, ...; see the README)
  -o NAME=VALUE    one convention, over the preset's (or trec_eval's): gain, discount, base,
                   ideal, ties, negativeGains, unjudgedGrade, relevantFrom,
                   ndcgWhenIdcgZero (trec_eval's obsolete -o is not read)
  --format FORMAT  trec (default: trec_eval's lines), json, or tsv (one row a query); json
                   holds --explain's working, tsv prints it on stderr
  --explain QID[:COLUMN]  print one query's working: the step-by-step NDCG table, or for a
                   column such as map, P_10, bpref or ERR@20 the quantities at each rank
  --progress       report reading progress on stderr)";

// trec_eval's flags and this tool's own, as getopt_long's table lists them.
struct Flag {
  std::string_view name;  // the long name
  char short_name;        // 0: none
  bool takes_value;
};
constexpr Flag kFlags[] = {
    {"help", 'h', false},
    {"version", 'v', false},
    {"query_eval_wanted", 'q', false},
    {"measure", 'm', true},
    {"complete_rel_info_wanted", 'c', false},
    {"level_for_rel", 'l', true},
    {"nosummary", 'n', false},
    {"Debug_level", 'D', true},
    {"Judged_docs_only", 'J', false},
    {"Number_docs_in_coll", 'N', true},
    {"Max_retrieved_per_topic", 'M', true},
    {"Rel_info_format", 'R', true},
    {"Results_format", 'T', true},
    {"Zscore", 'Z', true},
    {"preset", 0, true},
    {"o", 'o', true},
    {"format", 0, true},
    {"explain", 0, true},
    {"progress", 0, false},
};

constexpr std::string_view kCompareUsage =
    R"(usage: ndcg-calc compare [-m MEASURE]... [--test TEST]... [--permutations N] [--seed S]
                 [--alpha A] [--correction holm|bh|none] [--missing zero|drop]
                 [--pairs baseline|all] [--format text|json|tsv|latex] [-l N] [-M N] [-J]
                 [--preset NAME] [-o NAME=VALUE]... QRELS RUN_A RUN_B [RUN...]

Evaluates every run against QRELS and compares them query by query: the mean of each run, and
for each run against RUN_A (the baseline) the mean difference with its bootstrap interval, the
effect size, and paired tests, their p-values corrected for the comparisons made.

  -m, --measure MEASURE   a measure, as for an evaluation (nDCG@10, AP, P@10, ndcg_cut.10, map;
                          default map, P_10 and ndcg_cut_10); only measures whose "all" value
                          is a mean of per-query values are compared
  --test TEST             randomization (Fisher's, the default), t (Student's paired t),
                          wilcoxon (signed rank) or bootstrap; repeat it or list them with
                          commas; the first marks the table, all four are run unless one is
                          given
  --permutations N        random sign assignments and bootstrap resamples (default 10000); the
                          randomization test counts all 2^n when that is no more than N
  --seed S                the random draws' seed (default 42): the same seed, the same p
  --alpha A               significance level, and the interval's 1 - A (default 0.05)
  --correction C          holm (default), bh (Benjamini-Hochberg) or none, over every pair and
                          measure compared
  --missing M             zero (default): a query a run has no results for counts 0, as with
                          trec_eval -c; drop: only queries every run has results for
  --pairs P               baseline (default): each run against RUN_A; all: every pair
  --format F              text (default: the table papers print, then each pair's tests),
                          json (everything, per-query values too), tsv (a row per pair, measure
                          and test), latex (the table, with booktabs)
  -l, -M, -J, --preset, -o  as for an evaluation
  -h, --help              this text)";

// compare's flags.
constexpr Flag kCompareFlags[] = {
    {"help", 'h', false},
    {"measure", 'm', true},
    {"level_for_rel", 'l', true},
    {"Judged_docs_only", 'J', false},
    {"Max_retrieved_per_topic", 'M', true},
    {"Number_docs_in_coll", 'N', true},
    {"preset", 0, true},
    {"o", 'o', true},
    {"format", 0, true},
    {"test", 0, true},
    {"permutations", 0, true},
    {"seed", 0, true},
    {"alpha", 0, true},
    {"correction", 0, true},
    {"missing", 0, true},
    {"pairs", 0, true},
    {"progress", 0, false},
};

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

// The flags as given, in order: each long name with its value ("" for a switch).
struct Given {
  std::string_view name;
  std::string value;
};

// The arguments split into flags and files, or the usage error.
struct Split {
  std::vector<Given> flags;
  std::vector<std::string> files;
  std::string error;
};

Split split_arguments(const std::vector<std::string>& argv, std::span<const Flag> table) {
  Split out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--") {
      out.files.insert(out.files.end(), argv.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                       argv.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      out.files.push_back(a);  // a file, or "-" for stdin
      continue;
    }
    if (a[1] == '-') {
      // --name, --name=value, or a unique prefix of a name.
      const std::string_view body = std::string_view(a).substr(2);
      const std::size_t eq = body.find('=');
      const std::string_view name = body.substr(0, eq);
      const Flag* flag = nullptr;
      std::vector<const Flag*> matches;
      for (const Flag& f : table) {
        if (f.name.size() < 2) continue;  // -o has no long form
        if (f.name == name) {
          flag = &f;
          break;
        }
        if (f.name.substr(0, name.size()) == name) matches.push_back(&f);
      }
      if (flag == nullptr) {
        if (matches.size() == 1) {
          flag = matches[0];
        } else if (matches.empty()) {
          out.error = "unknown option '--" + std::string(name) + "'";
          return out;
        } else {
          out.error = "option '--" + std::string(name) + "' is ambiguous:";
          for (std::size_t m = 0; m < matches.size(); ++m) {
            out.error += (m == 0 ? " --" : ", --") + std::string(matches[m]->name);
          }
          return out;
        }
      }
      if (!flag->takes_value) {
        if (eq != std::string_view::npos) {
          out.error = "option '--" + std::string(flag->name) + "' takes no value";
          return out;
        }
        out.flags.push_back({flag->name, ""});
      } else if (eq != std::string_view::npos) {
        out.flags.push_back({flag->name, std::string(body.substr(eq + 1))});
      } else if (i + 1 < argv.size()) {
        out.flags.push_back({flag->name, argv[++i]});
      } else {
        out.error = "option '--" + std::string(flag->name) + "' needs a value";
        return out;
      }
      continue;
    }
    // -abc: switches grouped; a flag that takes a value takes the rest, or the next argument.
    for (std::size_t c = 1; c < a.size(); ++c) {
      const Flag* flag = nullptr;
      for (const Flag& f : table) {
        if (f.short_name != 0 && f.short_name == a[c]) flag = &f;
      }
      if (flag == nullptr) {
        out.error = "unknown option '-" + std::string(1, a[c]) + "'";
        return out;
      }
      if (!flag->takes_value) {
        out.flags.push_back({flag->name, ""});
        continue;
      }
      if (c + 1 < a.size()) {
        out.flags.push_back({flag->name, a.substr(c + 1)});
      } else if (i + 1 < argv.size()) {
        out.flags.push_back({flag->name, argv[++i]});
      } else {
        out.error = "option '-" + std::string(1, a[c]) + "' needs a value";
        return out;
      }
      break;
    }
  }
  return out;
}

}  // namespace

std::string_view usage() {
  return kUsage;
}

std::string usage_error(std::string_view message) {
  const std::string_view text = usage();
  return "ndcg-calc: " + std::string(message) + "\n" +
         std::string(text.substr(0, text.find("\n\n"))) + "\n(ndcg-calc -h for every option)\n";
}

std::vector<std::string> run_names(const std::vector<std::string>& paths) {
  std::vector<std::string> names;
  for (const std::string& path : paths) {
    std::string name = path;
    for (int n = 2; std::find(names.begin(), names.end(), name) != names.end(); ++n) {
      name = path + " (" + std::to_string(n) + ")";
    }
    names.push_back(std::move(name));
  }
  return names;
}

std::string_view compare_usage() {
  return kCompareUsage;
}

namespace {

// The flags with a value that an evaluation and a comparison both take: -l, -M and -N (whole
// numbers) and -o NAME=VALUE. Adds the option `name`'s value sets, or says why the value is wrong.
std::optional<std::string> evaluation_flag(std::string_view name, const std::string& value,
                                           std::vector<OptionValue>& options) {
  if (name == "level_for_rel") {
    const std::string_view digits = std::string_view(value).substr(value.starts_with('-') ? 1 : 0);
    if (!all_digits(digits)) return "-l takes a whole number, not " + quoted(value);
    options.push_back({"relevanceLevel", value});
  } else if (name == "Max_retrieved_per_topic" || name == "Number_docs_in_coll") {
    const bool max = name == "Max_retrieved_per_topic";
    if (!all_digits(value)) {
      return std::string(max ? "-M" : "-N") + " takes a whole number 0 or more, not " +
             quoted(value);
    }
    options.push_back({max ? "maxPerQuery" : "docsInCollection", value});
  } else if (name == "o") {
    const std::size_t eq = value.find('=');
    if (eq == std::string::npos || eq == 0) {
      return "-o takes NAME=VALUE, such as ties=average, not " + quoted(value);
    }
    options.push_back({value.substr(0, eq), value.substr(eq + 1)});
  }
  return std::nullopt;
}

Parsed parse_compare(const std::vector<std::string>& argv) {
  Parsed parsed;
  Split split = split_arguments(argv, kCompareFlags);
  if (!split.error.empty()) {
    parsed.error = std::move(split.error);
    return parsed;
  }
  Arguments args;
  args.command = Command::compare;
  args.format = Format::text;
  args.files = std::move(split.files);
  auto fail = [&](std::string message) {
    parsed.error = std::move(message);
    return parsed;
  };
  std::string tests;
  for (const Given& g : split.flags) {
    if (g.name == "help") args.help = true;
    if (g.name == "progress") args.progress = true;
    if (g.name == "measure") args.measures.push_back(g.value);
    if (g.name == "Judged_docs_only") args.options.push_back({"judgedOnly", "true"});
    if (g.name == "preset") args.options.push_back({"preset", g.value});
    if (auto error = evaluation_flag(g.name, g.value, args.options)) return fail(*error);
    if (g.name == "test") tests += (tests.empty() ? "" : ",") + g.value;
    for (std::string_view name :
         {"permutations", "seed", "alpha", "correction", "missing", "pairs"}) {
      if (g.name == name) args.compare_options.push_back({std::string(name), g.value});
    }
    if (g.name == "format") {
      if (g.value == "text") {
        args.format = Format::text;
      } else if (g.value == "json") {
        args.format = Format::json;
      } else if (g.value == "tsv") {
        args.format = Format::tsv;
      } else if (g.value == "latex") {
        args.format = Format::latex;
      } else {
        return fail("compare's --format is text, json, tsv or latex, not " + quoted(g.value));
      }
    }
  }
  if (!tests.empty()) args.compare_options.insert(args.compare_options.begin(), {"tests", tests});
  if (args.help) {
    parsed.arguments = std::move(args);
    return parsed;
  }
  // A bad comparison option is a usage error, found here rather than after the files are read.
  compare::Options check;
  const DiagnosticList errors = compare::set_options(check, args.compare_options);
  if (!errors.empty()) return fail(errors.items().front().message);
  if (args.files.size() < 3) {
    return fail("compare needs QRELS and two runs or more; got " +
                std::to_string(args.files.size()) + " file" + (args.files.size() == 1 ? "" : "s"));
  }
  if (std::count(args.files.begin(), args.files.end(), "-") > 1) {
    return fail("only one file can be - (stdin)");
  }
  parsed.arguments = std::move(args);
  return parsed;
}

}  // namespace

Parsed parse_arguments(const std::vector<std::string>& argv) {
  if (!argv.empty() && argv.front() == "compare") {
    return parse_compare(std::vector<std::string>(argv.begin() + 1, argv.end()));
  }
  Parsed parsed;
  Split split = split_arguments(argv, kFlags);
  if (!split.error.empty()) {
    parsed.error = std::move(split.error);
    return parsed;
  }
  Arguments args;
  args.files = std::move(split.files);
  // The last value of a flag given twice counts, except for those that add up (-m, -o).
  auto last = [&](std::string_view name) -> const std::string* {
    const std::string* value = nullptr;
    for (const Given& g : split.flags) {
      if (g.name == name) value = &g.value;
    }
    return value;
  };
  auto has = [&](std::string_view name) { return last(name) != nullptr; };
  args.help = has("help");
  args.version = has("version");
  args.per_query = has("query_eval_wanted");
  args.summary = !has("nosummary");
  args.progress = has("progress");
  std::vector<OptionValue> conventions;
  for (const Given& g : split.flags) {
    if (g.name == "measure") args.measures.push_back(g.value);
  }
  if (args.help || args.version) {
    parsed.arguments = std::move(args);
    return parsed;
  }
  auto fail = [&](std::string message) {
    parsed.error = std::move(message);
    return parsed;
  };
  if (const std::string* explain = last("explain")) {
    // --explain 301:map: the working of one column; a query id may itself hold ':'.
    const std::size_t colon = explain->rfind(':');
    if (colon != std::string::npos && colon > 0) {
      args.explain = explain->substr(0, colon);
      args.explain_measure = explain->substr(colon + 1);
    } else {
      args.explain = *explain;
    }
  }
  std::vector<OptionValue>& options = args.options;
  if (has("complete_rel_info_wanted")) options.push_back({"averageComplete", "true"});
  if (has("Judged_docs_only")) options.push_back({"judgedOnly", "true"});
  for (std::string_view name :
       {"level_for_rel", "Max_retrieved_per_topic", "Number_docs_in_coll"}) {
    if (const std::string* value = last(name)) {
      if (auto error = evaluation_flag(name, *value, options)) return fail(*error);
    }
  }
  if (const std::string* debug = last("Debug_level")) {
    const std::size_t dot = debug->find('.');
    const std::string level = debug->substr(0, dot);
    if (!all_digits(level) || (dot != std::string::npos && dot + 1 == debug->size())) {
      return fail("-D takes a level and an optional query, such as 1 or 1.301, not " +
                  quoted(*debug));
    }
    const bool working = level.find_first_not_of('0') != std::string::npos;
    if (dot != std::string::npos) {
      const std::string query = debug->substr(dot + 1);
      options.push_back({"onlyQuery", query});
      if (working && args.explain.empty()) args.explain = query;
      args.explanation_to_stderr = working && args.explain == query;
    } else if (working) {
      options.push_back({"explainAll", "true"});  // every query's working, on stderr
    }
  }
  if (const std::string* format = last("Rel_info_format")) {
    if (*format != "qrels" && *format != "qrels_jg" && *format != "prefs" &&
        *format != "qrels_prefs") {
      return fail("-R takes a relevance file format (qrels, qrels_jg, prefs, qrels_prefs), not " +
                  quoted(*format));
    }
    options.push_back({"relInfoFormat", *format});
  }
  if (const std::string* results = last("Results_format")) {
    if (*results != "trec_results") {
      return fail("-T takes trec_results (the only results format), not " + quoted(*results));
    }
  }
  if (!args.explain.empty()) options.push_back({"explainQuery", args.explain});
  if (!args.explain_measure.empty()) options.push_back({"explainMeasure", args.explain_measure});
  if (const std::string* preset = last("preset")) options.push_back({"preset", *preset});
  for (const Given& g : split.flags) {
    if (g.name != "o") continue;
    if (auto error = evaluation_flag(g.name, g.value, options)) return fail(*error);
  }
  if (const std::string* zscores = last("Zscore")) args.zscores_file = *zscores;
  if (const std::string* format = last("format")) {
    if (*format == "trec") {
      args.format = Format::trec;
    } else if (*format == "json") {
      args.format = Format::json;
    } else if (*format == "tsv") {
      args.format = Format::tsv;
    } else {
      return fail("--format is trec, json or tsv, not " + quoted(*format));
    }
  }
  if (args.files.size() != 2) {
    return fail("expected two files, QRELS and RUN; got " + std::to_string(args.files.size()));
  }
  if (args.files[0] == "-" && args.files[1] == "-") {
    return fail("only one of QRELS and RUN can be - (stdin)");
  }
  parsed.arguments = std::move(args);
  return parsed;
}

std::string help(const std::vector<std::string>& names) {
  std::string out = std::string(usage()) + "\n";
  if (names.empty()) return out;
  std::set<std::string_view, std::less<>> wanted;
  for (const std::string& name : names) {
    bool is_set = false;
    for (const trec::Nickname& set : trec::measure_nicknames()) {
      if (set.name != name) continue;
      is_set = true;
      wanted.insert(set.measures.begin(), set.measures.end());
    }
    if (!is_set) wanted.insert(std::string_view(name).substr(0, name.find('.')));
  }
  out += "\nMeasures:\n";
  for (const trec::MeasureDef& m : trec::measure_catalogue()) {
    if (!wanted.contains(m.name) && !(m.ir_measures.size() > 0 && wanted.contains(m.ir_measures))) {
      continue;
    }
    out += "  " + std::string(m.name);
    if (!m.defaults.empty()) out += "." + std::string(m.defaults);
    if (!m.ir_measures.empty()) out += " (ir_measures: " + std::string(m.ir_measures) + ")";
    out += "\n      " + std::string(m.definition) + "\n";
  }
  return out;
}

namespace {

// Digits d1 d2 ... dp with a decimal exponent: d1.d2...dp × 10^power.
struct Digits {
  char digit[17];
  int count = 0;
  int power = 0;
};

// x's first p digits as printf's "%.{p-1}e" rounds them.
Digits printf_digits(double magnitude, int p) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*e", p - 1, magnitude);  // d.ddde±XX
  Digits d;
  const char* c = text;
  for (; *c != 'e'; ++c) {
    if (*c != '.') d.digit[d.count++] = *c;
  }
  d.power = std::atoi(c + 1);
  return d;
}

// `all` (x's 17 digits, correctly rounded) rounded to p digits: x rounded to p digits, unless the
// digits dropped are exactly 5 then zeros (x may lie on either side of that midpoint), when
// printf gives them itself.
Digits rounded(const Digits& all, int p, double magnitude) {
  Digits d = all;
  d.count = p;
  if (p == 17) return d;
  const char* dropped = all.digit + p;
  bool midpoint = dropped[0] == '5';
  for (int i = p + 1; midpoint && i < 17; ++i) midpoint = all.digit[i] == '0';
  if (midpoint) return printf_digits(magnitude, p);
  if (dropped[0] >= '5') {
    int i = p;
    while (i > 0 && d.digit[i - 1] == '9') d.digit[--i] = '0';
    if (i == 0) {
      d.digit[0] = '1';  // 9.99 up to 10.0: 1.00 and one more power of ten
      ++d.power;
    } else {
      ++d.digit[i - 1];
    }
  }
  return d;
}

// Whether `d` reads back as `magnitude`, read as strtod reads it (fast_float rounds as it does;
// strtod in wasm computes in software long doubles).
bool reads_back(const Digits& d, double magnitude) {
  char text[32];
  char* t = text;
  *t++ = d.digit[0];
  *t++ = '.';
  std::memcpy(t, d.digit + 1, static_cast<std::size_t>(d.count - 1));
  t += d.count - 1;
  *t++ = 'e';
  t = std::to_chars(t, text + sizeof text, d.power).ptr;
  double value = 0;
  const auto read = fast_float::from_chars(text, t, value);
  return read.ec == std::errc() && value == magnitude;
}

}  // namespace

std::string js_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x == 0) return "0";
  const bool negative = x < 0;
  const double magnitude = std::fabs(x);
  char out[40];
  char* o = out;
  if (negative) *o++ = '-';
  // A whole number below 2^53 is its digits (a count, a grade).
  if (magnitude < 9007199254740992.0 && magnitude == std::trunc(magnitude)) {
    o = std::to_chars(o, out + sizeof out, static_cast<std::uint64_t>(magnitude)).ptr;
    return std::string(out, o);
  }
  // The shortest digits that read back as x: those of "%.{p}e" (x rounded to p digits) for the
  // least p that reads back, which more digits always do once p does. Each p's digits come from
  // x's 17 (rounded): at most one printf and a few readings a value, instead of a printf and a
  // strtod for each p up to the answer (16 or 17 for most computed values). JSON and TSV reports of
  // 100,000 queries took 11 s natively and 43-53 s in wasm.
  Digits all;
  all.count = 17;
  if (!seventeen_digits(magnitude, all.digit, all.power)) all = printf_digits(magnitude, 17);
  // Most computed values need 16 or 17 digits: 16 is tried first, then 15, then the half that
  // holds the answer. That more digits read back once fewer do holds where the doubles on either
  // side of x are as far from it; below a power of two the next is half as far, so there the
  // digits are tried one more at a time (15 digits of 2^-645 read back, and 16 do not).
  // `d` is the shortest found to read back so far: first the 17 digits, which always do.
  Digits d = all;
  const auto shorter = [&](int p) {
    Digits candidate = rounded(all, p, magnitude);
    if (!reads_back(candidate, magnitude)) return false;
    d = candidate;
    return true;
  };
  int low = 1;
  int high = 17;  // d has `high` digits
  int exponent = 0;
  if (std::frexp(magnitude, &exponent) == 0.5) {
    while (low < high && !shorter(low)) ++low;
    high = low;
  }
  int p = 16;
  while (low < high) {
    if (shorter(p)) {
      high = p;
    } else {
      low = p + 1;
    }
    p = high == 16 ? 15 : (low + high) / 2;
  }
  while (d.count > 1 && d.digit[d.count - 1] == '0') --d.count;
  // ECMAScript's Number::toString: x = 0.digits × 10^n.
  const int n = d.power + 1;
  const int k = d.count;
  const auto put = [&o](const char* from, int count) {
    std::memcpy(o, from, static_cast<std::size_t>(count));
    o += count;
  };
  if (k <= n && n <= 21) {
    put(d.digit, k);
    for (int i = k; i < n; ++i) *o++ = '0';
  } else if (0 < n && n <= 21) {
    put(d.digit, n);
    *o++ = '.';
    put(d.digit + n, k - n);
  } else if (-6 < n && n <= 0) {
    *o++ = '0';
    *o++ = '.';
    for (int i = n; i < 0; ++i) *o++ = '0';
    put(d.digit, k);
  } else {
    *o++ = d.digit[0];
    if (k > 1) {
      *o++ = '.';
      put(d.digit + 1, k - 1);
    }
    *o++ = 'e';
    *o++ = n - 1 < 0 ? '-' : '+';
    o = std::to_chars(o, out + sizeof out, std::abs(n - 1)).ptr;
  }
  return std::string(out, o);
}

namespace {

std::string fixed4(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4f", x);
  return buffer;
}

// JSON, written as JSON.stringify(value, null, 2) writes it: the same indentation, numbers in
// JavaScript's form, NaN and infinities as null.
class JsonWriter {
 public:
  std::string take() { return std::move(out_); }
  // What is written so far appended to `out`, and forgotten here: the writer goes on where it
  // was (its brackets and indentation).
  void move_to(std::string& out) {
    out += out_;
    out_.clear();
  }
  std::size_t size() const { return out_.size(); }

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  void key(std::string_view name) {
    item();
    string_value(name, ": ");
    after_key_ = true;
  }
  void value(double x) {
    item();
    out_ += std::isfinite(x) ? js_number(x) : "null";
  }
  void value(bool b) {
    item();
    out_ += b ? "true" : "false";
  }
  void value(std::string_view text) {
    item();
    string_value(text);
  }
  void value(const char* text) { value(std::string_view(text)); }
  void value(const std::string& text) { value(std::string_view(text)); }
  void value(const std::optional<std::string>& text) {
    if (text) {
      value(*text);
    } else {
      null();
    }
  }
  void null() {
    item();
    out_ += "null";
  }
  // A member: its key and its value; whole numbers are written as JavaScript numbers.
  template <class T>
  void field(std::string_view name, const T& x) {
    key(name);
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      value(static_cast<double>(x));
    } else {
      value(x);
    }
  }

 private:
  void open(char bracket) {
    item();
    out_ += bracket;
    empty_.push_back(true);
  }
  void close(char bracket) {
    const bool was_empty = empty_.back();
    empty_.pop_back();
    if (!was_empty) newline();
    out_ += bracket;
  }
  // Before a value or key: a comma after the previous item, and the indentation. Appended at
  // once: each append is a call in wasm, and a report of 100,000 queries has 3 million items.
  void item() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (empty_.empty()) return;
    const bool first = empty_.back();
    empty_.back() = false;
    line_start(first ? "\n" : ",\n");
  }
  void newline() { line_start("\n"); }
  void line_start(std::string_view lead) {
    static constexpr std::string_view kSpaces = "                                ";  // 32
    std::size_t indent = 2 * empty_.size();
    char text[2 + kSpaces.size()];
    std::memcpy(text, lead.data(), lead.size());
    const std::size_t first = std::min(indent, kSpaces.size());
    std::memcpy(text + lead.size(), kSpaces.data(), first);
    out_.append(text, lead.size() + first);
    for (indent -= first; indent > 0; indent -= std::min(indent, kSpaces.size())) {
      out_.append(kSpaces.data(), std::min(indent, kSpaces.size()));
    }
  }
  // The text quoted and escaped as JSON.stringify escapes it, then `after`. Text that needs no
  // escape (a measure's name, most query ids) is appended at once.
  void string_value(std::string_view text, std::string_view after = {}) {
    char quoted[128];
    if (text.size() + after.size() + 2 <= sizeof quoted &&
        std::all_of(text.begin(), text.end(), [](char c) {
          return static_cast<unsigned char>(c) >= 0x20 && c != '"' && c != '\\';
        })) {
      // std::copy, not memcpy: an empty view may have no data at all.
      quoted[0] = '"';
      std::copy(text.begin(), text.end(), quoted + 1);
      quoted[text.size() + 1] = '"';
      std::copy(after.begin(), after.end(), quoted + text.size() + 2);
      out_.append(quoted, text.size() + after.size() + 2);
      return;
    }
    out_ += '"';
    for (unsigned char c : text) {
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\b':
          out_ += "\\b";
          break;
        case '\f':
          out_ += "\\f";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\t':
          out_ += "\\t";
          break;
        default:
          if (c < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
            out_ += buffer;
          } else {
            out_ += static_cast<char>(c);
          }
      }
    }
    out_ += '"';
    out_ += after;
  }

  std::string out_;
  std::vector<bool> empty_;  // per open bracket: nothing written in it yet
  bool after_key_ = false;
};

void write_diagnostics(JsonWriter& json, const std::vector<Diagnostic>& list) {
  json.begin_array();
  for (const Diagnostic& d : list) {
    json.begin_object();
    json.field("source", source_name(d.source));
    json.field("line", d.line);
    json.field("column", d.column);
    json.field("message", d.message);
    if (!d.code.empty()) json.field("code", d.code);
    json.end_object();
  }
  json.end_array();
}

// An explanation as the JS API shapes it (wasm/api.mjs): rows, ideal, summary, reading.
void write_explanation(JsonWriter& json, const Explanation& e) {
  json.begin_object();
  json.field("ok", e.ok);
  if (!e.ok) {
    json.key("errors");
    write_diagnostics(json, e.errors);
    json.key("warnings");
    write_diagnostics(json, e.warnings);
    json.end_object();
    return;
  }
  const bool rounded = e.summary.rounded_decimals.has_value();
  json.key("rows");
  json.begin_array();
  for (const StepRow& r : e.rows) {
    json.begin_object();
    json.field("rank", r.rank);
    json.field("doc", r.doc);
    json.field("grade", r.grade);
    json.field("gain", r.gain);
    json.field("discount", r.discount);
    json.field("term", r.term);
    json.field("cg", r.cg);
    json.field("dcg", r.dcg);
    json.field("idealDoc", r.ideal_doc);
    json.field("idealGrade", r.ideal_grade);
    json.field("idealGain", r.ideal_gain);
    json.field("idealTerm", r.ideal_term);
    json.field("idcg", r.idcg);
    json.field("ndcg", r.ndcg);
    json.field("judged", r.judged);
    json.field("repeated", r.repeated);
    if (e.scored) {
      json.field("score", r.score.value_or(0));
      json.field("ownGain", r.own_gain);
      json.key("tie");
      if (r.tie_first == 0) {
        json.null();
      } else {
        json.begin_object();
        json.field("first", r.tie_first);
        json.field("last", r.tie_last);
        json.end_object();
      }
    }
    if (rounded) {
      json.field("roundedDcg", r.rounded_dcg);
      json.field("roundedIdcg", r.rounded_idcg);
      json.field("roundedNdcg", r.rounded_ndcg);
    }
    json.end_object();
  }
  json.end_array();
  json.key("ideal");
  json.begin_array();
  for (const IdealEntry& entry : e.ideal) {
    json.begin_object();
    json.field("doc", entry.doc);
    json.field("grade", entry.grade);
    json.field("gain", entry.gain);
    json.end_object();
  }
  json.end_array();
  json.key("summary");
  json.begin_object();
  json.field("k", e.summary.k);
  json.field("dcgAtK", e.summary.dcg_at_k);
  json.field("idcgAtK", e.summary.idcg_at_k);
  json.field("ndcgAtK", e.summary.ndcg_at_k);
  json.field("judgedRelevant", e.summary.judged_relevant);
  if (rounded) {
    json.field("roundedDecimals", *e.summary.rounded_decimals);
    json.field("roundedDcgAtK", e.summary.rounded_dcg_at_k);
    json.field("roundedIdcgAtK", e.summary.rounded_idcg_at_k);
    json.field("roundedNdcgAtK", e.summary.rounded_ndcg_at_k);
  }
  json.end_object();
  json.key("warnings");
  write_diagnostics(json, e.warnings);
  json.key("reading");
  json.begin_object();
  json.field("numbers", e.scored                              ? "score"
                        : e.numbers_from == NumbersFrom::none ? "none"
                                                              : "grade");
  json.field("from", numbers_from_name(e.numbers_from));
  json.end_object();
  json.end_object();
}

void write_working(JsonWriter& json, const trec::Working& w) {
  json.begin_object();
  json.field("column", w.column);
  json.key("columns");
  json.begin_array();
  for (const std::string& c : w.columns) json.value(c);
  json.end_array();
  json.key("rows");
  json.begin_array();
  for (const trec::WorkingRow& r : w.rows) {
    json.begin_object();
    json.field("rank", r.rank);
    json.field("doc", r.docno);
    json.field("grade", r.grade);
    json.field("counted", r.counted);
    json.key("values");
    json.begin_array();
    for (double v : r.values) json.value(v);  // NaN (does not apply): null
    json.end_array();
    json.end_object();
  }
  json.end_array();
  json.field("result", w.result);
  json.field("value", w.value);
  json.end_object();
}

// The values of one line (a query's or the means) as an object keyed by column name.
void write_values(JsonWriter& json, const std::vector<trec::Column>& columns,
                  const std::vector<double>& values) {
  json.begin_object();
  for (std::size_t c = 0; c < columns.size() && c < values.size(); ++c) {
    json.field(columns[c].name, values[c]);
  }
  json.end_object();
}

// The JSON report (JSON.stringify(result, null, 2)'s form) a piece at a time: what comes before
// the per-query values, each query's, then the rest.
class JsonReport {
 public:
  JsonReport(const Arguments& args, const trec::Evaluation& e)
      : per_query_(args.per_query), explain_(!args.explain.empty()), e_(&e) {}

  // Appends whole queries' values to `out` until it has grown by `bytes`, then the rest: false
  // once there is nothing left to append.
  bool next(std::string& out, std::size_t bytes) {
    const std::size_t start = out.size();
    bool ended = false;  // the tail written by this call, which ends it with the last newline
    while (part_ < 3 && out.size() - start + json_.size() < bytes) {
      if (part_ == 0) {
        head();
        part_ = per_query_ ? 1 : 2;
      } else if (part_ == 1 && query_ < e_->per_query.size()) {
        query(e_->per_query[query_++]);
      } else {
        if (part_ == 1) json_.end_array();
        tail();
        part_ = 3;
        ended = true;
      }
    }
    json_.move_to(out);
    if (ended) out += '\n';
    return out.size() > start;
  }

 private:
  void head() {
    json_.begin_object();
    json_.field("ok", true);
    json_.key("columns");
    json_.begin_array();
    for (const trec::Column& c : e_->columns) {
      json_.begin_object();
      json_.field("name", c.name);
      json_.field("wholeNumber", c.whole_number);
      json_.field("text", c.value == trec::ValueKind::text);
      json_.field("perQuery", c.per_query);
      json_.field("summary", trec::summary_name(c.summary));
      json_.field("measure", c.measure);
      json_.field("cutoff", c.cutoff);
      json_.end_object();
    }
    json_.end_array();
    if (per_query_) {
      json_.key("perQuery");
      json_.begin_array();
    }
  }

  void query(const trec::QueryValues& q) {
    const std::vector<trec::Column>& columns = e_->columns;
    json_.begin_object();
    json_.field("query", q.qid);
    json_.key("values");
    write_values(json_, columns, q.values);
    if (!q.texts.empty()) {
      json_.key("texts");
      json_.begin_object();
      for (std::size_t c = 0; c < columns.size() && c < q.texts.size(); ++c) {
        if (columns[c].value == trec::ValueKind::text && columns[c].per_query)
          json_.field(columns[c].name, q.texts[c]);
      }
      json_.end_object();
    }
    json_.end_object();
  }

  void tail() {
    const trec::Evaluation& e = *e_;
    json_.key("mean");
    write_values(json_, e.columns, e.mean);
    json_.key("stdev");
    write_values(json_, e.columns, e.stdev);
    json_.field("queriesAveraged", e.queries_averaged);
    json_.field("runTag", e.run_tag);
    json_.key("warnings");
    write_diagnostics(json_, e.warnings);
    if (e.zscores) json_.field("zscores", true);
    if (e.working) {
      json_.key("working");
      write_working(json_, *e.working);
    }
    if (explain_ && e.explanation) {
      json_.key("explanation");
      write_explanation(json_, *e.explanation);
    }
    json_.end_object();
  }

  bool per_query_;
  bool explain_;
  const trec::Evaluation* e_;
  JsonWriter json_;
  int part_ = 0;  // 0: the head; 1: the queries from query_ on; 2: the rest; 3: written
  std::size_t query_ = 0;
};

// The TSV report, a row a query then the "all" row, a piece at a time.
class TsvReport {
 public:
  TsvReport(const Arguments& args, const trec::Evaluation& e)
      : per_query_(args.per_query), e_(&e) {}

  bool next(std::string& out, std::size_t bytes) {
    const std::size_t start = out.size();
    if (!headed_) {
      out += "query";
      for (const trec::Column& c : e_->columns) {
        out += '\t';
        out += c.name;
      }
      out += '\n';
      headed_ = true;
    }
    if (per_query_) {
      while (query_ < e_->per_query.size() && out.size() - start < bytes) {
        const trec::QueryValues& q = e_->per_query[query_++];
        line(out, q.qid, q.values);
      }
      if (query_ < e_->per_query.size()) return true;
    }
    if (!ended_) {
      line(out, "all", e_->mean);
      ended_ = true;
    }
    return out.size() > start;
  }

 private:
  void line(std::string& out, std::string_view label, const std::vector<double>& values) const {
    out += label;
    for (std::size_t c = 0; c < e_->columns.size(); ++c) {
      out += '\t';
      if (c < values.size()) out += js_number(values[c]);
    }
    out += '\n';
  }

  bool per_query_;
  const trec::Evaluation* e_;
  bool headed_ = false;
  std::size_t query_ = 0;
  bool ended_ = false;
};

// A report's results, after the working in `r.out`: left to `r.rest` when they are asked for in
// pieces, else written now (a report of 5,000 queries is a megabyte, written in place).
template <class Pieces>
void results(Report& r, Pieces pieces, bool in_pieces) {
  if (in_pieces) {
    r.rest = [pieces](std::string& out, std::size_t bytes) mutable {
      return pieces.next(out, bytes);
    };
  } else {
    pieces.next(r.out, trec::TrecLines::kAll);
  }
}

// Cells padded to their column's width: left-aligned where `left` says so, else right-aligned.
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<bool>& left) {
  // Widths in code points, as the text is read on a terminal.
  auto width = [](const std::string& s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
  };
  std::vector<std::size_t> widths(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) {
    widths[i] = width(header[i]);
    for (const auto& row : rows) widths[i] = std::max(widths[i], width(row[i]));
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out += "  ";
      const std::string pad(widths[i] - width(cells[i]), ' ');
      out += left[i] ? cells[i] + pad : pad + cells[i];
    }
    out += "\n";
  };
  line(header);
  for (const auto& row : rows) line(row);
  return out;
}

std::string format_working(const std::string& qid, const trec::Working& w) {
  std::vector<std::string> header = {"rank", "docno", "grade"};
  header.insert(header.end(), w.columns.begin(), w.columns.end());
  std::vector<std::vector<std::string>> rows;
  for (const trec::WorkingRow& r : w.rows) {
    std::vector<std::string> cells = {std::to_string(r.rank), r.docno,
                                      r.grade == -1   ? "-"
                                      : r.grade == -2 ? "neg"
                                                      : std::to_string(r.grade)};
    for (double v : r.values) {
      cells.push_back(std::isnan(v)                             ? ""
                      : !std::isfinite(v) || v == std::trunc(v) ? js_number(v)
                                                                : fixed4(v));
    }
    rows.push_back(std::move(cells));
  }
  std::vector<bool> left(header.size(), false);
  left[1] = true;
  return "Query " + qid + ", " + w.column +
         ": ranked by score, ties by docno descending (grade -: not in the qrels, neg: judged "
         "negative)\n" +
         table(header, rows, left) + w.result + "\n";
}

std::string format_explanation(const std::string& qid, const Explanation& e) {
  if (!e.ok) {
    std::string out = "Query " + qid + ": no table:";
    for (const Diagnostic& d : e.errors) out += " " + d.message;
    return out + "\n";
  }
  const std::vector<std::string> header = {"rank",        "docno",       "grade", "gain", "DCG",
                                           "ideal docno", "ideal grade", "IDCG",  "NDCG"};
  std::vector<std::vector<std::string>> rows;
  for (const StepRow& r : e.rows) {
    rows.push_back({std::to_string(r.rank), r.doc.value_or(""), js_number(r.grade),
                    js_number(r.gain), fixed4(r.dcg), r.ideal_doc.value_or("-"),
                    js_number(r.ideal_grade), fixed4(r.idcg), fixed4(r.ndcg)});
  }
  std::vector<bool> left(header.size(), false);
  left[1] = left[5] = true;
  return "Query " + qid +
         ": ranked by score, ties by docno descending; linear gain, log2(rank+1), ideal from "
         "every judged document\n" +
         table(header, rows, left) + "ndcg = " + fixed4(e.summary.dcg_at_k) + " / " +
         fixed4(e.summary.idcg_at_k) + " = " + fixed4(e.summary.ndcg_at_k) +
         " (the whole ideal ranking)\n";
}

// Where a diagnostic points, as the command line names the files: "run.txt:12:3: ", or "" for
// one about the options.
std::string location(const Diagnostic& d, std::string_view qrels_name, std::string_view run_name) {
  if (d.source == Source::options) return std::string();
  std::string out = d.source == Source::qrels ? std::string(qrels_name)
                    : d.source == Source::run ? std::string(run_name)
                                              : std::string(source_name(d.source));
  if (d.line > 0) {
    out += ":" + std::to_string(d.line);
    if (d.column > 0) out += ":" + std::to_string(d.column);
  }
  return out + ": ";
}

}  // namespace

Report report(const Arguments& args, const trec::Evaluation& e, std::string_view qrels_name,
              std::string_view run_name, bool in_pieces) {
  Report r;
  auto where = [&](const Diagnostic& d) { return location(d, qrels_name, run_name); };
  for (const Diagnostic& w : e.warnings)
    r.err += "ndcg-calc: warning: " + where(w) + w.message + "\n";
  if (!e.ok) {
    bool all_options = true;
    for (const Diagnostic& d : e.errors) {
      r.err += "ndcg-calc: " + where(d) + d.message + "\n";
      all_options = all_options && d.source == Source::options;
    }
    // A bad -m or -l is a usage error (2), like a bad flag; a bad file is an error in the data.
    r.status = all_options ? 2 : 1;
    return r;
  }
  // The working asked for, as a table before trec_eval's lines; -D's beside them on stderr. TSV
  // keeps stdout one table, so its tables go to stderr; JSON carries them as its "working" and
  // "explanation" members, so that stdout is one JSON document.
  if (args.format != Format::json) {
    std::string& tables = args.format == Format::tsv ? r.err : r.out;
    if (!args.explain_measure.empty() && e.working) {
      tables += format_working(args.explain, *e.working);
    } else if (!args.explain.empty() && e.explanation) {
      (args.explanation_to_stderr ? r.err : tables) +=
          format_explanation(args.explain, *e.explanation);
    }
  }
  for (const auto& [query, explanation] : e.explanations) {
    r.err += format_explanation(query, explanation);
  }
  switch (args.format) {
    case Format::trec:
      results(r, trec::TrecLines(e, args.per_query, args.summary), in_pieces);
      break;
    case Format::tsv:
      results(r, TsvReport(args, e), in_pieces);
      break;
    case Format::json:
      results(r, JsonReport(args, e), in_pieces);
      break;
    case Format::text:
    case Format::latex:
      break;  // compare's formats; parse_arguments gives them only to compare
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// compare

namespace {

std::string signed4(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%+.4f", x);
  return buffer;
}

std::string p_value(double p) {
  if (std::isnan(p)) return "-";
  char buffer[64];
  if (p > 0 && p < 0.0001) {
    std::snprintf(buffer, sizeof buffer, "%.1e", p);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.4f", p);
  }
  return buffer;
}

std::string statistic_text(const compare::TestResult& t) {
  if (std::isinf(t.statistic)) return t.statistic > 0 ? "inf" : "-inf";
  switch (t.test) {
    case compare::Test::t:
      return fixed4(t.statistic);
    case compare::Test::wilcoxon: {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "W+ %g", t.statistic);
      return buffer;
    }
    default:
      return signed4(t.statistic);
  }
}

std::string_view correction_words(compare::Correction c) {
  switch (c) {
    case compare::Correction::holm:
      return "Holm's correction";
    case compare::Correction::bh:
      return "Benjamini-Hochberg's correction";
    case compare::Correction::none:
      return "no correction";
  }
  return "";
}

// -1 worse than the baseline, +1 better, 0 neither, by the first test.
int marker(const compare::Comparison& c, std::size_t system, std::size_t measure) {
  for (const compare::PairComparison& pc : c.pairs) {
    if (pc.a == 0 && pc.b == system && pc.measure == measure && pc.tests.front().significant) {
      return pc.difference > 0 ? 1 : (pc.difference < 0 ? -1 : 0);
    }
  }
  return 0;
}

std::string queries_words(const compare::Comparison& c) {
  const std::size_t n = c.queries.size();
  return std::to_string(n) + " quer" + (n == 1 ? "y" : "ies") +
         (c.options.missing == compare::Missing::zero
              ? " (every qrels query; one a run has no results for counts 0, as with trec_eval -c)"
              : " (those every run has results for)");
}

std::string markers_words(const compare::Comparison& c) {
  const compare::TestResult& first = c.pairs.front().tests.front();
  return "significantly better or worse than " + c.systems.front() + ": " +
         std::string(compare::test_name(first.test)) + " test, p < " + js_number(c.options.alpha) +
         " after " + std::string(correction_words(c.options.correction)) + " over " +
         std::to_string(c.family) + " comparison" + (c.family == 1 ? "" : "s");
}

// Each line of `text` after `indent`, without the blanks a table pads its last column with.
std::string without_trailing_blanks(const std::string& text, std::string_view indent) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += std::string(indent) + line + "\n";
    start = end + 1;
  }
  return out;
}

std::string compare_text(const compare::Comparison& c) {
  std::string out = "Compared on " + queries_words(c) + ".\n\n";
  std::vector<std::string> header = {"run"};
  header.insert(header.end(), c.measures.begin(), c.measures.end());
  std::vector<std::vector<std::string>> rows;
  for (std::size_t s = 0; s < c.systems.size(); ++s) {
    std::vector<std::string> row = {c.systems[s]};
    for (std::size_t m = 0; m < c.measures.size(); ++m) {
      const int mark = s == 0 ? 0 : marker(c, s, m);
      row.push_back(fixed4(c.mean(s, m)) + (mark > 0 ? " ▲" : mark < 0 ? " ▼" : "  "));
    }
    rows.push_back(std::move(row));
  }
  std::vector<bool> left(header.size(), false);
  left[0] = true;
  out += without_trailing_blanks(table(header, rows, left), "");
  out += "\n▲ ▼ " + markers_words(c) + ".\n";
  const std::string adjusted =
      c.options.correction == compare::Correction::none
          ? "p"
          : "p (" + std::string(compare::correction_name(c.options.correction)) + ")";
  for (const compare::PairComparison& pc : c.pairs) {
    out += "\n" + c.measures[pc.measure] + ": " + c.systems[pc.b] + " - " + c.systems[pc.a] + "\n";
    out += "  difference " + signed4(pc.difference);
    if (!std::isnan(pc.low)) {
      out += ", " + js_number(100 * (1 - c.options.alpha)) + "% interval " + signed4(pc.low) +
             " to " + signed4(pc.high) + " (bootstrap)";
    }
    out += ", effect size " +
           (std::isnan(pc.effect_size) ? std::string("-") : fixed4(pc.effect_size)) + "; " +
           std::to_string(pc.wins) + " better, " + std::to_string(pc.losses) + " worse, " +
           std::to_string(pc.ties) + " tied\n";
    std::vector<std::vector<std::string>> tests;
    for (const compare::TestResult& t : pc.tests) {
      tests.push_back({std::string(compare::test_name(t.test)), statistic_text(t), p_value(t.p),
                       p_value(t.p_adjusted), t.significant ? "*" : "", t.method});
    }
    out += without_trailing_blanks(table({"test", "statistic", "p", adjusted, "", "how"}, tests,
                                         {true, false, false, false, true, true}),
                                   "  ");
  }
  return out;
}

std::string latex_escape(std::string_view text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '_':
      case '&':
      case '%':
      case '$':
      case '#':
      case '{':
      case '}':
        out += '\\';
        out += ch;
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      case '\\':
        out += "\\textbackslash{}";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string compare_latex(const compare::Comparison& c) {
  std::string out = "% ndcg-calc compare: means over " + queries_words(c) + ".\n";
  out += "% $^\\blacktriangle$ $^\\blacktriangledown$: " + markers_words(c) +
         ". Best mean of each column in bold.\n";
  out += "% Needs \\usepackage{booktabs} and \\usepackage{amssymb}.\n";
  out += "\\begin{tabular}{l" + std::string(c.measures.size(), 'r') + "}\n\\toprule\nRun";
  for (const std::string& m : c.measures) out += " & " + latex_escape(m);
  out += " \\\\\n\\midrule\n";
  for (std::size_t s = 0; s < c.systems.size(); ++s) {
    out += latex_escape(c.systems[s]);
    for (std::size_t m = 0; m < c.measures.size(); ++m) {
      double best = c.mean(0, m);
      for (std::size_t o = 1; o < c.systems.size(); ++o) best = std::max(best, c.mean(o, m));
      std::string cell = fixed4(c.mean(s, m));
      if (fixed4(best) == cell) cell = "\\textbf{" + cell + "}";
      const int mark = s == 0 ? 0 : marker(c, s, m);
      if (mark != 0) cell += mark > 0 ? "$^\\blacktriangle$" : "$^\\blacktriangledown$";
      out += " & " + cell;
    }
    out += " \\\\\n";
  }
  out += "\\bottomrule\n\\end{tabular}\n";
  return out;
}

std::string compare_tsv(const compare::Comparison& c) {
  std::string out =
      "measure\trun_a\trun_b\tqueries\tmean_a\tmean_b\tdifference\tlow\thigh\teffect_size\t"
      "better\tworse\ttied\ttest\tstatistic\tp\tp_adjusted\tsignificant\tmethod\n";
  auto number = [](double x) { return std::isnan(x) ? std::string() : js_number(x); };
  for (const compare::PairComparison& pc : c.pairs) {
    for (const compare::TestResult& t : pc.tests) {
      out += c.measures[pc.measure] + "\t" + c.systems[pc.a] + "\t" + c.systems[pc.b] + "\t" +
             std::to_string(pc.queries) + "\t" + number(pc.mean_a) + "\t" + number(pc.mean_b) +
             "\t" + number(pc.difference) + "\t" + number(pc.low) + "\t" + number(pc.high) + "\t" +
             number(pc.effect_size) + "\t" + std::to_string(pc.wins) + "\t" +
             std::to_string(pc.losses) + "\t" + std::to_string(pc.ties) + "\t" +
             std::string(compare::test_name(t.test)) + "\t" + number(t.statistic) + "\t" +
             number(t.p) + "\t" + number(t.p_adjusted) + "\t" + (t.significant ? "true" : "false") +
             "\t" + t.method + "\n";
    }
  }
  return out;
}

std::string compare_json(const compare::Comparison& c,
                         const std::vector<trec::Evaluation>& evaluations) {
  JsonWriter json;
  json.begin_object();
  json.key("options");
  json.begin_object();
  json.key("tests");
  json.begin_array();
  for (compare::Test t : c.options.tests) json.value(compare::test_name(t));
  json.end_array();
  json.field("permutations", c.options.permutations);
  json.field("seed", std::to_string(c.options.seed));  // text: JSON numbers hold 53 bits
  json.field("alpha", c.options.alpha);
  json.field("correction", compare::correction_name(c.options.correction));
  json.field("missing", compare::missing_name(c.options.missing));
  json.field("pairs", compare::pairs_name(c.options.pairs));
  json.end_object();
  json.key("runs");
  json.begin_array();
  for (std::size_t s = 0; s < c.systems.size(); ++s) {
    json.begin_object();
    json.field("name", c.systems[s]);
    json.field("runTag", evaluations[s].run_tag);
    json.key("mean");
    json.begin_object();
    for (std::size_t m = 0; m < c.measures.size(); ++m) json.field(c.measures[m], c.mean(s, m));
    json.end_object();
    json.end_object();
  }
  json.end_array();
  json.key("measures");
  json.begin_array();
  for (const std::string& m : c.measures) json.value(m);
  json.end_array();
  json.key("queries");
  json.begin_array();
  for (const std::string& q : c.queries) json.value(q);
  json.end_array();
  json.key("perQuery");
  json.begin_object();
  for (std::size_t s = 0; s < c.systems.size(); ++s) {
    json.key(c.systems[s]);
    json.begin_object();
    for (std::size_t m = 0; m < c.measures.size(); ++m) {
      json.key(c.measures[m]);
      json.begin_array();
      for (std::size_t q = 0; q < c.queries.size(); ++q) json.value(c.value(s, m, q));
      json.end_array();
    }
    json.end_object();
  }
  json.end_object();
  json.field("family", c.family);
  json.key("pairs");
  json.begin_array();
  for (const compare::PairComparison& pc : c.pairs) {
    json.begin_object();
    json.field("measure", c.measures[pc.measure]);
    json.field("a", c.systems[pc.a]);
    json.field("b", c.systems[pc.b]);
    json.field("queries", pc.queries);
    json.field("meanA", pc.mean_a);
    json.field("meanB", pc.mean_b);
    json.field("difference", pc.difference);
    json.field("stdev", pc.stdev);
    json.field("effectSize", pc.effect_size);
    json.field("low", pc.low);
    json.field("high", pc.high);
    json.field("better", pc.wins);
    json.field("worse", pc.losses);
    json.field("tied", pc.ties);
    json.key("tests");
    json.begin_array();
    for (const compare::TestResult& t : pc.tests) {
      json.begin_object();
      json.field("test", compare::test_name(t.test));
      json.field("statistic", t.statistic);
      json.field("p", t.p);
      json.field("pAdjusted", t.p_adjusted);
      json.field("significant", t.significant);
      if (t.test == compare::Test::t) json.field("df", t.df);
      if (t.test == compare::Test::wilcoxon && !t.exact) json.field("z", t.z);
      json.field("exact", t.exact);
      json.field("samples", t.samples);
      json.field("method", t.method);
      json.end_object();
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();
  json.key("warnings");
  write_diagnostics(json, c.warnings);
  json.end_object();
  return json.take() + "\n";
}

}  // namespace

Report compare_report(const Arguments& args, const std::vector<trec::Evaluation>& evaluations,
                      std::string_view qrels_name, const std::vector<std::string>& run_names) {
  Report r;
  bool failed = false;
  bool all_options = true;
  for (std::size_t i = 0; i < evaluations.size(); ++i) {
    const trec::Evaluation& e = evaluations[i];
    auto where = [&](const Diagnostic& d) { return location(d, qrels_name, run_names[i]); };
    // What is about the qrels or the options is the same for every run: said once.
    auto once = [&](const Diagnostic& d) { return i == 0 || d.source == Source::run; };
    for (const Diagnostic& w : e.warnings) {
      if (once(w)) r.err += "ndcg-calc: warning: " + where(w) + w.message + "\n";
    }
    for (const Diagnostic& d : e.errors) {
      if (!once(d)) continue;
      r.err += "ndcg-calc: " + where(d) + d.message + "\n";
      all_options = all_options && d.source == Source::options;
    }
    failed = failed || !e.ok;
  }
  if (failed) {
    r.status = all_options ? 2 : 1;
    return r;
  }
  compare::Options options;
  compare::set_options(options, args.compare_options);  // checked by parse_arguments
  std::vector<const trec::Evaluation*> pointers;
  for (const trec::Evaluation& e : evaluations) pointers.push_back(&e);
  const compare::Comparison c = compare::compare(run_names, pointers, options);
  for (const Diagnostic& w : c.warnings) r.err += "ndcg-calc: warning: " + w.message + "\n";
  if (!c.ok) {
    for (const Diagnostic& d : c.errors) r.err += "ndcg-calc: " + d.message + "\n";
    r.status = 2;
    return r;
  }
  switch (args.format) {
    case Format::json:
      r.out = compare_json(c, evaluations);
      break;
    case Format::tsv:
      r.out = compare_tsv(c);
      break;
    case Format::latex:
      r.out = compare_latex(c);
      break;
    default:
      r.out = compare_text(c);
      break;
  }
  return r;
}

}  // namespace ndcg::cli
