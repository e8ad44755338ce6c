// Measure names: trec_eval's ("P.5,10", "ndcg.1=0.5", nicknames such as "all_trec") and
// ir_measures' ("P@10", "AP(rel=2)", "RBP(p=0.8)"), read into catalogue entries with their
// parameters, and merged as repeated -m options are.
#include <algorithm>
#include <cmath>

#include "trec_measures.hpp"

namespace ndcg::trec {

namespace {

Diagnostic measure_error(std::string_view name, std::string message) {
  return Diagnostic{Source::options, 0, 0, "measure " + quote(name) + ": " + message};
}

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (true) {
    const std::size_t end = text.find(',', i);
    parts.push_back(text.substr(i, end == std::string_view::npos ? text.size() - i : end - i));
    if (end == std::string_view::npos) break;
    i = end + 1;
  }
  return parts;
}

std::optional<std::size_t> find_measure(std::string_view name) {
  const auto& catalogue = measure_catalogue();
  for (std::size_t i = 0; i < catalogue.size(); ++i) {
    if (catalogue[i].name == name) return i;
  }
  return std::nullopt;
}

// A cut-off as trec_eval reads it with atol: digits, and a fraction that it drops ("23.4" is
// 23; a note says so). Anything else is refused rather than read as 0.
std::optional<std::int64_t> read_cutoff(std::string_view text, bool* truncated) {
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  if (dot != std::string_view::npos) {
    const std::string_view fraction = text.substr(dot + 1);
    if (fraction.empty() ||
        !std::all_of(fraction.begin(), fraction.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    *truncated = true;
  }
  return parse_integer(whole);
}

// Reads `params` (the text after the measure name's first '.') into `m`.
std::optional<Diagnostic> read_parameters(Measure& m, std::string_view full,
                                          std::string_view params, std::vector<Diagnostic>& notes) {
  const MeasureDef& d = m.definition();
  const std::vector<std::string_view> parts = split_commas(params);
  switch (d.params) {
    case ParamKind::none:
      return measure_error(full, std::string(d.name) + " takes no parameters");
    case ParamKind::long_cutoffs: {
      bool truncated = false;
      for (std::string_view part : parts) {
        const auto k = read_cutoff(part, &truncated);
        if (!k || *k < 1) {
          return measure_error(full, "cut-offs are whole numbers 1 or more, such as " +
                                         std::string(d.name) + ".5,10; " + quote(part) +
                                         " is not one");
        }
        m.cutoffs.push_back(*k);
      }
      std::sort(m.cutoffs.begin(), m.cutoffs.end());
      if (std::adjacent_find(m.cutoffs.begin(), m.cutoffs.end()) != m.cutoffs.end()) {
        return measure_error(full, "a cut-off is given twice; trec_eval refuses this too");
      }
      m.parameters.assign(params);
      if (truncated) {
        notes.push_back(Diagnostic{
            Source::options, 0, 0,
            "measure " + quote(full) +
                ": a cut-off with a fraction is read as its whole part, as trec_eval reads it (" +
                std::string(d.name) + "_" + std::to_string(m.cutoffs.back()) + ")",
            "fraction-cutoff"});
      }
      return std::nullopt;
    }
    case ParamKind::double_cutoffs:
    case ParamKind::doubles: {
      for (std::string_view part : parts) {
        const auto x = parse_decimal(part);
        if (!x) {
          return measure_error(full, quote(part) + " is not a number; parameters of " +
                                         std::string(d.name) + " are numbers separated by ','");
        }
        m.values.push_back(*x);
      }
      if (d.params == ParamKind::double_cutoffs) {
        std::sort(m.values.begin(), m.values.end());
        if (std::adjacent_find(m.values.begin(), m.values.end()) != m.values.end()) {
          return measure_error(full, "a cut-off is given twice; trec_eval refuses this too");
        }
      } else if (d.name == "utility" && m.values.size() != 4) {
        return measure_error(full,
                             "utility takes 4 coefficients (relevant retrieved, non-relevant "
                             "retrieved, relevant missed, non-relevant missed), such as "
                             "utility.1,-1,0,0");
      } else if ((d.name == "relstring" || d.name == "set_F") && m.values.size() != 1) {
        return measure_error(full, std::string(d.name) + " takes one number");
      }
      m.parameters.assign(params);
      return std::nullopt;
    }
    case ParamKind::pairs: {
      for (std::string_view part : parts) {
        const std::size_t eq = part.find('=');
        const std::string_view key = part.substr(0, eq);
        const auto value =
            eq == std::string_view::npos ? std::nullopt : parse_decimal(part.substr(eq + 1));
        if (key.empty() || !value) {
          return measure_error(full, "parameters are written name=value, such as " +
                                         std::string(d.name) +
                                         (d.name.substr(0, 3) == "rbp" ? ".p=0.8" : ".1=0.5,2=3"));
        }
        const auto grade = parse_integer(key);
        const bool rbp = d.name == "rbp" || d.name == "rbp_resid";
        if (!grade && !(rbp && key == "p")) {
          return measure_error(full, quote(key) + " is not a grade; " + std::string(d.name) +
                                         " takes grade=gain" + (rbp ? " and p=persistence" : "") +
                                         " pairs");
        }
        if (grade) {
          for (const auto& [g, gain] : m.gains) {
            if (g == *grade) {
              return measure_error(full, "grade " + std::to_string(*grade) + " is given two gains");
            }
          }
          m.gains.emplace_back(*grade, *value);
        }
        m.pairs.emplace_back(std::string(key), *value);
      }
      std::sort(m.gains.begin(), m.gains.end());
      m.parameters.assign(params);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

void fill_defaults(Measure& m) {
  const MeasureDef& d = m.definition();
  std::vector<Diagnostic> ignored;
  if (!d.defaults.empty()) (void)read_parameters(m, d.name, d.defaults, ignored);
  m.parameters.clear();
}

// Adds to `into` (sorted) the cut-offs of `more` it lacks; says whether there were any.
template <class T>
bool unite(std::vector<T>& into, const std::vector<T>& more) {
  const std::size_t before = into.size();
  for (const T& x : more) {
    if (std::find(into.begin(), into.end(), x) == into.end()) into.push_back(x);
  }
  std::sort(into.begin(), into.end());
  return into.size() != before;
}

// Adds `m` to the request. A plain name or a nickname adds nothing to a measure already
// requested (same entry, relevance level, depth and name); explicit parameters replace the
// defaults; two explicit requests unite their cut-offs, and otherwise the first stands, as in
// trec_eval (which keeps only the first request's parameters, cut-offs included: a note says so).
void merge(EvalOptions& options, Measure m, bool explicit_parameters) {
  m.explicit_parameters = explicit_parameters;
  for (Measure& existing : options.measures) {
    if (existing.def != m.def || existing.relevance_level != m.relevance_level ||
        existing.depth != m.depth || existing.name != m.name) {
      continue;
    }
    if (!explicit_parameters) return;
    if (!existing.explicit_parameters) {
      m.position = existing.position;
      existing = std::move(m);
      return;
    }
    const MeasureDef& d = m.definition();
    if (d.params == ParamKind::long_cutoffs || d.params == ParamKind::double_cutoffs) {
      const bool new_cutoffs = unite(existing.cutoffs, m.cutoffs);
      const bool new_values = unite(existing.values, m.values);
      if ((new_cutoffs || new_values) && d.trec_eval) {
        options.notes.push_back(Diagnostic{
            Source::options, 0, 0,
            "measure " + std::string(d.name) +
                " is requested more than once with cut-offs; all "
                "of them are printed (trec_eval 10.0 prints only those of the first request, " +
                existing.parameters + ")",
            "merged-cutoffs"});
      }
      return;
    }
    if (existing.parameters != m.parameters) {
      options.notes.push_back(Diagnostic{Source::options, 0, 0,
                                         "measure " + std::string(d.name) +
                                             " is requested twice with different parameters; "
                                             "the first (" +
                                             existing.parameters + ") is used, as in trec_eval",
                                         "first-parameters"});
    }
    return;
  }
  m.position = options.measures.size();
  options.measures.push_back(std::move(m));
}

// An ir_measures name: Name, Name@k, Name(p=v,...), Name(p=v)@k.
struct IrName {
  std::string_view base;
  std::vector<std::pair<std::string_view, std::string_view>> params;
  std::string_view cutoff;  // after '@', "" for none
  bool has_cutoff = false;
};

std::optional<IrName> split_ir_name(std::string_view text) {
  IrName n;
  std::size_t i = 0;
  while (i < text.size() && text[i] != '(' && text[i] != '@') ++i;
  n.base = text.substr(0, i);
  if (i < text.size() && text[i] == '(') {
    const std::size_t close = text.find(')', i);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view inside = text.substr(i + 1, close - i - 1);
    for (std::string_view part : split_commas(inside)) {
      const std::size_t eq = part.find('=');
      if (eq == std::string_view::npos) return std::nullopt;
      std::string_view value = trim(part.substr(eq + 1));
      if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
          value.back() == value.front()) {
        value = value.substr(1, value.size() - 2);
      }
      n.params.emplace_back(trim(part.substr(0, eq)), value);
    }
    i = close + 1;
  }
  if (i < text.size()) {
    if (text[i] != '@') return std::nullopt;
    n.cutoff = text.substr(i + 1);
    n.has_cutoff = true;
  }
  return n;
}

struct IrMeasure {
  std::string_view ir;    // ir_measures' name
  std::string_view trec;  // the catalogue entry
  bool cutoff;            // takes @k (required when `depth` is false)
  bool depth;             // @k cuts the ranking instead (RR@10)
  bool rel;               // takes rel=
};

constexpr IrMeasure kIrMeasures[] = {
    {"nDCG", "ndcg", false, false, false},
    {"AP", "map", false, false, true},
    {"P", "P", true, false, true},
    {"R", "recall", true, false, true},
    {"RR", "recip_rank", false, true, true},
    {"Rprec", "Rprec", false, false, true},
    {"Bpref", "bpref", false, false, true},
    {"infAP", "infAP", false, false, true},
    {"NumRet", "num_ret", false, false, false},
    {"NumRel", "num_rel", false, false, true},
    {"NumRelRet", "num_rel_ret", false, false, true},
    {"NumQ", "num_q", false, false, false},
    {"SetP", "set_P", false, false, true},
    {"SetR", "set_recall", false, false, true},
    {"SetF", "set_F", false, false, true},
    {"SetAP", "set_map", false, false, true},
    {"SetRelP", "set_relative_P", false, false, true},
    {"Success", "success", true, false, true},
    {"IPrec", "iprec_at_recall", true, false, true},
    {"RBP", "rbp", false, false, true},
    {"Judged", "judged", true, false, false},
    {"ERR", "err", true, false, false},
};

std::optional<Diagnostic> add_ir_measure(EvalOptions& options, std::string_view full,
                                         const IrName& n) {
  const IrMeasure* spec = nullptr;
  for (const IrMeasure& candidate : kIrMeasures) {
    if (candidate.ir == n.base) spec = &candidate;
  }
  if (spec == nullptr) return std::nullopt;  // not an ir_measures name
  Measure m;
  m.def = *find_measure(spec->trec);
  bool explicit_parameters = false;
  std::string own_name;      // when the output cannot use trec_eval's name
  bool exponential = false;  // nDCG(dcg='exp-log2')
  std::string params_text;
  for (const auto& [key, value] : n.params) {
    if (key == "rel" && spec->rel) {
      const auto level = parse_integer(value);
      if (!level || *level < 0) {
        return measure_error(full, "rel= takes a whole number 0 or more, such as AP(rel=2)");
      }
      m.relevance_level = *level;
      own_name = std::string(full);
    } else if (key == "p" && n.base == "RBP") {
      params_text = "p=" + std::string(value);
      own_name = std::string(full);
    } else if (key == "dcg" && n.base == "nDCG" && (value == "exp-log2" || value == "log2")) {
      // ir_measures' nDCG(dcg='exp-log2')@k: gdeval's exponential gain; 'log2' is the default.
      if (value == "exp-log2") {
        if (!n.has_cutoff) {
          return measure_error(full, "nDCG(dcg='exp-log2') needs a cut-off, as gdeval's: " +
                                         std::string(full) + "@20");
        }
        m.def = *find_measure("ndcg_exp");
        exponential = true;
      }
    } else if (key == "beta" && n.base == "SetF") {
      params_text = std::string(value);
      own_name = std::string(full);
    } else {
      return measure_error(full, quote(key) + " is not a parameter of " + std::string(n.base) +
                                     (spec->rel ? "; it takes rel=" : ""));
    }
  }
  if (n.has_cutoff && n.cutoff.empty()) {
    return measure_error(full, "a cut-off must follow '@', such as " + std::string(n.base) + "@10");
  }
  if (n.has_cutoff) {
    if (!spec->cutoff && !spec->depth) {
      if (exponential) {
        // ndcg_exp already: its columns are named nDCG(dcg='exp-log2')@k
      } else if (n.base == "nDCG") {
        m.def = *find_measure("ndcg_cut");
      } else if (n.base == "AP") {
        m.def = *find_measure("map_cut");
      } else {
        return measure_error(full, std::string(n.base) + " takes no @k");
      }
    }
    if (spec->depth) {
      const auto k = parse_integer(n.cutoff);
      if (!k || *k < 1)
        return measure_error(full, "the cut-off after '@' must be a whole number ≥ 1");
      m.depth = *k;
      own_name = std::string(full);
    } else {
      params_text = std::string(n.cutoff);
    }
  } else if (spec->cutoff) {
    return measure_error(
        full, std::string(n.base) + " needs a cut-off, such as " + std::string(n.base) + "@10");
  }
  if (!params_text.empty()) {
    if (auto e = read_parameters(m, full, params_text, options.notes)) return e;
    explicit_parameters = true;
  } else {
    fill_defaults(m);
  }
  if (!own_name.empty()) m.name = own_name;
  merge(options, std::move(m), explicit_parameters);
  return std::nullopt;
}

}  // namespace

std::optional<Diagnostic> add_measure(EvalOptions& options, std::string_view raw) {
  const std::string_view name = trim(raw);
  if (name.empty()) {
    return Diagnostic{Source::options, 0, 0,
                      "a measure name is empty; name one such as ndcg_cut.10, map or P.10"};
  }
  // ir_measures names: with '@' or '(' always; a plain one ("AP", "nDCG", "RR") when it is not
  // also trec_eval's ("Rprec", "infAP" are both, and mean the same).
  const bool ir_syntax = name.find_first_of("@(") != std::string_view::npos;
  if (ir_syntax || (name.find('.') == std::string_view::npos && !find_measure(name))) {
    const auto ir = split_ir_name(name);
    bool known = false;
    for (const IrMeasure& candidate : kIrMeasures)
      known = known || (ir && candidate.ir == ir->base);
    if (known) return add_ir_measure(options, name, *ir);
    if (ir_syntax) {
      return measure_error(
          name,
          "unknown measure; ir_measures names are nDCG, nDCG@k, AP, AP@k, "
          "P@k, R@k, RR, RR@k, Rprec, Bpref, infAP, NumRet, NumRel, "
          "NumRelRet, NumQ, SetP, SetR, SetF, SetAP, SetRelP, Success@k, "
          "IPrec@r, RBP, Judged@k, ERR@k, nDCG(dcg='exp-log2')@k, with (rel=2) where "
          "they judge relevance");
    }
  }
  const std::size_t dot = name.find('.');
  const std::string_view base = name.substr(0, dot);
  const bool has_params = dot != std::string_view::npos;
  const std::string_view params = has_params ? name.substr(dot + 1) : std::string_view();
  if (has_params && params.empty()) {
    return measure_error(name, "nothing follows the '.'; write " + std::string(base) +
                                   " alone for its default parameters");
  }
  for (const Nickname& nickname : measure_nicknames()) {
    if (nickname.name != base) continue;
    if (has_params) return measure_error(name, "a set of measures takes no parameters");
    for (std::string_view member : nickname.measures) {
      Measure m;
      m.def = *find_measure(member);
      fill_defaults(m);
      merge(options, std::move(m), false);
    }
    return std::nullopt;
  }
  const auto def = find_measure(base);
  if (!def || !measure_catalogue()[*def].trec_eval) {
    std::string known;
    for (const MeasureDef& d : measure_catalogue())
      known += (known.empty() ? "" : ", ") + std::string(d.name);
    return measure_error(name,
                         "unknown measure; trec_eval's are " + known +
                             " (and the sets official, set, all_trec); ir_measures names such as "
                             "nDCG@10, AP, AP(rel=2), P@10, R@100, RR, RR@10, Success@1, SetF, "
                             "RBP(p=0.8) work too");
  }
  Measure m;
  m.def = *def;
  if (has_params) {
    if (auto e = read_parameters(m, name, params, options.notes)) return e;
  } else {
    fill_defaults(m);
  }
  merge(options, std::move(m), has_params);
  return std::nullopt;
}

std::string_view summary_name(Summary summary) {
  static constexpr std::string_view kNames[] = {"mean", "sum",  "geometric", "count",
                                                "sum",  "none", "runTag"};
  return kNames[static_cast<int>(summary)];
}

}  // namespace ndcg::trec
