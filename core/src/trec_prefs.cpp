// Preference measures with the semantics of trec_eval 10.0's form_prefs_counts.c and its
// m_prefs_*.c measures (C. Buckley, NIST), re-implemented from their definitions and checked
// against its output: preferences are counted once per query, per judgment group, as
// fulfilled or possible among the retrieved documents, implied (one of the two retrieved) or
// not occurring (neither), and each measure is a ratio of those counts.
#include "trec_prefs.hpp"

#include <algorithm>

namespace ndcg::trec {

namespace {

struct Line {  // one preference line with its document's number
  const Preference* p;
  std::int64_t doc;  // the document's number (see PreferenceGroup)
};

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

// Counts one preference of a group, document a over document b (numbered as in
// PreferenceGroup), into the group's counts and the query's pair counts. The possible counts
// gather the unfulfilled ones here; the fulfilled are added to them once the group is counted.
void tally(PreferenceGroup& g, PreferenceCounts& pc, std::int64_t a, std::int64_t b) {
  const std::int64_t njr = pc.num_judged_ret;
  ++pc.counts[static_cast<std::size_t>(a * pc.num_judged + b)];
  if (a < b) {
    if (b < njr)
      ++g.fulfilled_ret;
    else if (a < njr)
      ++g.fulfilled_imp;  // only a retrieved
    else
      ++g.possible_notoccur;
  } else {
    if (a < njr)
      ++g.possible_ret;  // both retrieved, b above a
    else if (b < njr)
      ++g.possible_imp;  // only b retrieved
    else
      ++g.possible_notoccur;
  }
}

// trec_eval's counting for a group of one subgroup: every document of a class is preferred to
// every document of each lower class.
void count_classes(PreferenceGroup& g, PreferenceCounts& pc) {
  const std::int64_t njr = pc.num_judged_ret;
  for (std::size_t c1 = 0; c1 < g.classes.size(); ++c1) {
    const auto& docs1 = g.classes[c1].docs;
    const auto retrieved = static_cast<std::int64_t>(
        std::lower_bound(docs1.begin(), docs1.end(), njr) - docs1.begin());
    if (g.classes[c1].level > 0.0) {
      g.num_rel_ret += retrieved;
      g.num_rel += static_cast<std::int64_t>(docs1.size());
    } else {
      g.num_nonrel_ret += retrieved;
      g.num_nonrel += static_cast<std::int64_t>(docs1.size());
    }
    for (std::size_t c2 = c1 + 1; c2 < g.classes.size(); ++c2) {
      for (const std::int64_t a : docs1) {
        for (const std::int64_t b : g.classes[c2].docs) {
          tally(g, pc, a, b);
        }
      }
    }
  }
  g.possible_ret += g.fulfilled_ret;
  g.possible_imp += g.fulfilled_imp;
}

// trec_eval's counting for a group of several subgroups, over the closure of its preferences.
void count_array(PreferenceGroup& g, PreferenceCounts& pc) {
  const std::int64_t n = pc.num_judged;
  const std::int64_t njr = pc.num_judged_ret;
  for (std::int64_t i = 0; i < n; ++i) {
    const double level = g.levels[static_cast<std::size_t>(i)];
    const bool ret = i < njr;
    if (level > 0.0) {
      ++g.num_rel;
      g.num_rel_ret += ret ? 1 : 0;
    } else if (level == 0.0) {
      ++g.num_nonrel;
      g.num_nonrel_ret += ret ? 1 : 0;
    }
  }
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      if (i != j && g.prefers_doc(i, j)) tally(g, pc, i, j);
    }
  }
  g.possible_ret += g.fulfilled_ret;
  g.possible_imp += g.fulfilled_imp;
}

}  // namespace

std::optional<PreferenceCounts> count_preferences(const std::vector<std::string_view>& ranked,
                                                  const std::vector<Preference>& preferences,
                                                  const std::string& qid, std::size_t memory_limit,
                                                  Diagnostic* error) {
  PreferenceCounts pc;
  std::vector<std::string_view> docs;
  docs.reserve(preferences.size());
  for (const Preference& p : preferences) docs.push_back(p.docno);
  std::sort(docs.begin(), docs.end());
  docs.erase(std::unique(docs.begin(), docs.end()), docs.end());
  const auto n = static_cast<std::int64_t>(docs.size());
  pc.num_judged = n;

  // Groups of several subgroups each keep an n x n bit array; every group shares the counts.
  std::size_t arrays = 0;
  for (std::size_t i = 0; i < preferences.size();) {
    std::size_t end = i;
    bool several = false;
    while (end < preferences.size() && preferences[end].group == preferences[i].group) {
      several = several || preferences[end].subgroup != preferences[i].subgroup;
      ++end;
    }
    arrays += several ? 1 : 0;
    i = end;
  }
  const std::size_t words = (docs.size() + 63) / 64;
  const double need = static_cast<double>(docs.size()) * static_cast<double>(docs.size()) * 2 +
                      static_cast<double>(arrays) * static_cast<double>(docs.size()) *
                          static_cast<double>(words) * 8;
  if (need > static_cast<double>(memory_limit)) {
    error->source = Source::qrels;
    error->message =
        "query " + quoted(qid) + " has preferences over " + std::to_string(n) +
        " documents, whose counts need " + std::to_string(static_cast<long long>(need / 1e6)) +
        " MB (a count for each pair of documents, as trec_eval keeps them), more than the " +
        std::to_string(memory_limit >> 20) +
        " MB the evaluator allows; split the query's preferences";
    return std::nullopt;
  }

  // Number the documents: the retrieved ones in rank order, then the others in docno order.
  std::vector<std::int64_t> number(docs.size(), -1);
  std::int64_t next = 0;
  for (const std::string_view docno : ranked) {
    const auto it = std::lower_bound(docs.begin(), docs.end(), docno);
    if (it == docs.end() || *it != docno) continue;
    std::int64_t& k = number[static_cast<std::size_t>(it - docs.begin())];
    if (k < 0) k = next++;
  }
  pc.num_judged_ret = next;
  for (std::int64_t& k : number) {
    if (k < 0) k = next++;
  }
  std::vector<Line> lines;
  lines.reserve(preferences.size());
  for (const Preference& p : preferences) {
    const auto it = std::lower_bound(docs.begin(), docs.end(), std::string_view(p.docno));
    lines.push_back(Line{&p, number[static_cast<std::size_t>(it - docs.begin())]});
  }
  // By group, subgroup, level (highest first), then document number.
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    if (a.p->group != b.p->group) return a.p->group < b.p->group;
    if (a.p->subgroup != b.p->subgroup) return a.p->subgroup < b.p->subgroup;
    if (a.p->level != b.p->level) return a.p->level > b.p->level;
    return a.doc < b.doc;
  });

  pc.counts.assign(docs.size() * docs.size(), 0);
  std::vector<std::string_view> docno_of(docs.size());
  for (std::size_t i = 0; i < docs.size(); ++i)
    docno_of[static_cast<std::size_t>(number[i])] = docs[i];

  for (std::size_t start = 0; start < lines.size();) {
    std::size_t end = start;
    bool several = false;
    while (end < lines.size() && lines[end].p->group == lines[start].p->group) {
      several = several || lines[end].p->subgroup != lines[start].p->subgroup;
      ++end;
    }
    PreferenceGroup g;
    if (!several) {
      for (std::size_t i = start; i < end; ++i) {
        if (g.classes.empty() || g.classes.back().level != lines[i].p->level) {
          g.classes.push_back(PreferenceGroup::EquivalenceClass{lines[i].p->level, {}});
        }
        g.classes.back().docs.push_back(lines[i].doc);
      }
      count_classes(g, pc);
    } else {
      g.words_per_row = words;
      g.prefers.assign(docs.size() * words, 0);
      g.levels.assign(docs.size(), -1.0);
      const auto set = [&](std::int64_t a, std::int64_t b) {
        g.prefers[static_cast<std::size_t>(a) * words + static_cast<std::size_t>(b) / 64] |=
            std::uint64_t{1} << (static_cast<std::size_t>(b) % 64);
      };
      for (std::size_t i = start; i < end; ++i) {
        const Preference& p = *lines[i].p;
        g.levels[static_cast<std::size_t>(lines[i].doc)] = p.level;
        std::size_t j = i + 1;
        while (j < end && lines[j].p->subgroup == p.subgroup && lines[j].p->level == p.level) ++j;
        for (; j < end && lines[j].p->subgroup == p.subgroup; ++j) set(lines[i].doc, lines[j].doc);
      }
      // Transitive closure (Warshall): a > k and k > b give a > b.
      for (std::size_t k = 0; k < docs.size(); ++k) {
        const std::uint64_t* row_k = &g.prefers[k * words];
        for (std::size_t i = 0; i < docs.size(); ++i) {
          std::uint64_t* row_i = &g.prefers[i * words];
          if (((row_i[k / 64] >> (k % 64)) & 1u) == 0) continue;
          for (std::size_t w = 0; w < words; ++w) row_i[w] |= row_k[w];
        }
      }
      // A cycle a > ... > a leaves two documents each preferred to the other.
      for (std::int64_t a = 0; a < n; ++a) {
        for (std::int64_t b = a + 1; b < n; ++b) {
          if (!g.prefers_doc(a, b) || !g.prefers_doc(b, a)) continue;
          *error = Diagnostic{
              Source::qrels, lines[start].p->line, 0,
              "query " + quoted(qid) + ", judgment group " + quoted(lines[start].p->group) +
                  ": documents " + quoted(docno_of[static_cast<std::size_t>(a)]) + " and " +
                  quoted(docno_of[static_cast<std::size_t>(b)]) +
                  " are each preferred to the other through the group's subgroups; one group's "
                  "preferences must agree, so put the disagreeing subgroups in groups of their "
                  "own (trec_eval aborts here)"};
          return std::nullopt;
        }
      }
      count_array(g, pc);
    }
    pc.groups.push_back(std::move(g));
    start = end;
  }
  return pc;
}

namespace {

struct Ratio {
  std::int64_t fulfilled = 0;
  std::int64_t possible = 0;
};

// Which preferences a measure counts: retrieved pairs only, also implied ones, or all.
enum class Counted : std::uint8_t { ret, imp, all };

Ratio ratio_of(const PreferenceGroup& g, Counted counted) {
  Ratio r{g.fulfilled_ret, g.possible_ret};
  if (counted != Counted::ret) {
    r.fulfilled += g.fulfilled_imp;
    r.possible += g.possible_imp;
  }
  if (counted == Counted::all) r.possible += g.possible_notoccur;
  return r;
}

double simple(const PreferenceCounts& pc, Counted counted) {
  Ratio total;
  for (const PreferenceGroup& g : pc.groups) {
    const Ratio r = ratio_of(g, counted);
    total.fulfilled += r.fulfilled;
    total.possible += r.possible;
  }
  return total.possible != 0
             ? static_cast<double>(total.fulfilled) / static_cast<double>(total.possible)
             : 0.0;
}

// The mean over document pairs with a preference of the share of groups that rank the pair as
// the ranking does; a pair neither of whose documents is retrieved counts as 0 (Counted::all).
double pairs(const PreferenceCounts& pc, Counted counted) {
  const std::int64_t njr = pc.num_judged_ret;
  const std::int64_t n = pc.num_judged;
  double sum = 0;
  std::int64_t num_pairs = 0;
  const auto add = [&](std::int64_t i, std::int64_t j) {
    const double ij = pc.count(i, j);
    const double ji = pc.count(j, i);
    if (ij == 0 && ji == 0) return;
    ++num_pairs;
    sum += ij / (ij + ji);
  };
  for (std::int64_t i = 0; i < njr; ++i) {
    for (std::int64_t j = i + 1; j < njr; ++j) add(i, j);
  }
  if (counted != Counted::ret) {
    for (std::int64_t i = 0; i < njr; ++i) {
      for (std::int64_t j = njr; j < n; ++j) add(i, j);
    }
  }
  if (counted == Counted::all) {
    for (std::int64_t i = njr; i < n; ++i) {
      for (std::int64_t j = i + 1; j < n; ++j) {
        num_pairs += pc.count(i, j) != 0 || pc.count(j, i) != 0 ? 1 : 0;
      }
    }
  }
  return num_pairs != 0 ? sum / static_cast<double>(num_pairs) : 0.0;
}

// The mean over judgment groups of each group's ratio; a group with nothing possible adds 0,
// and a query whose ratios add up to 0 is 0.
double per_group(const PreferenceCounts& pc, Counted counted) {
  double sum = 0;
  for (const PreferenceGroup& g : pc.groups) {
    const Ratio r = ratio_of(g, counted);
    if (r.possible != 0) sum += static_cast<double>(r.fulfilled) / static_cast<double>(r.possible);
  }
  return sum > 0.0 ? sum / static_cast<double>(pc.groups.size()) : 0.0;
}

// prefs_avgjg_Rnonrel's recount of a group with more non-relevant documents N than relevant
// ones R (retrieved ones, for the _ret flavour): only the first R non-relevant documents
// count. trec_eval's loops are followed as they are written, including that the second loop
// also pairs the non-relevant class with its own first R documents.
Ratio recount(const PreferenceGroup& g, const PreferenceCounts& pc, bool retrieved_only) {
  const std::int64_t njr = pc.num_judged_ret;
  std::int64_t fulfilled = 0;
  std::int64_t not_fulfilled = 0;
  const auto tally = [&](std::int64_t a, std::int64_t b) {
    if (a < b && (retrieved_only || a < njr))
      ++fulfilled;
    else
      ++not_fulfilled;
  };
  if (!g.classes.empty()) {
    const auto& classes = g.classes;
    // The document numbers of a class to walk: all, or (_ret) those before the first one not
    // retrieved, the numbers being ascending.
    const auto walked = [&](const std::vector<std::int64_t>& docs, std::size_t limit) {
      std::size_t end = std::min(limit, docs.size());
      if (retrieved_only) {
        end = static_cast<std::size_t>(
            std::lower_bound(docs.begin(), docs.begin() + static_cast<std::ptrdiff_t>(end), njr) -
            docs.begin());
      }
      return end;
    };
    const std::vector<std::int64_t>& nonrel = classes.back().docs;
    const std::size_t kept =
        walked(nonrel, static_cast<std::size_t>(retrieved_only ? g.num_rel_ret : g.num_rel));
    for (std::size_t c1 = 0; c1 < classes.size(); ++c1) {
      const std::size_t end1 = walked(classes[c1].docs, classes[c1].docs.size());
      for (std::size_t c2 = c1 + 1; c2 + 1 < classes.size(); ++c2) {
        const std::size_t end2 = walked(classes[c2].docs, classes[c2].docs.size());
        for (std::size_t x = 0; x < end1; ++x) {
          for (std::size_t y = 0; y < end2; ++y) tally(classes[c1].docs[x], classes[c2].docs[y]);
        }
      }
    }
    for (std::size_t c1 = 0; c1 < classes.size(); ++c1) {
      const std::size_t end1 = walked(classes[c1].docs, classes[c1].docs.size());
      for (std::size_t x = 0; x < end1; ++x) {
        for (std::size_t y = 0; y < kept; ++y) tally(classes[c1].docs[x], nonrel[y]);
      }
    }
    return Ratio{fulfilled, not_fulfilled + fulfilled};
  }
  // Several subgroups: leave out every non-relevant document after the first num_rel of them
  // (in document number order; among the retrieved ones for _ret).
  const std::int64_t n = pc.num_judged;
  const std::int64_t scanned = retrieved_only ? njr : n;
  std::int64_t first_discarded = 0;
  std::int64_t seen = 0;
  for (; first_discarded < scanned; ++first_discarded) {
    if (g.levels[static_cast<std::size_t>(first_discarded)] == 0.0 && ++seen == g.num_rel + 1) {
      break;
    }
  }
  const auto dropped = [&](std::int64_t i) {
    return i >= first_discarded && g.levels[static_cast<std::size_t>(i)] == 0.0;
  };
  const std::int64_t rows = retrieved_only ? njr : n;
  for (std::int64_t i = 0; i < rows; ++i) {
    if (dropped(i)) continue;
    for (std::int64_t j = 0; j < (retrieved_only ? njr : n); ++j) {
      if (j == i || dropped(j) || !g.prefers_doc(i, j)) continue;
      // Not fulfilled: j above i among the retrieved, or i not retrieved and j retrieved.
      // Fulfilled: i retrieved and ranked above j (or j not retrieved). Neither retrieved:
      // possible only.
      if (i < njr) {
        (j > i ? fulfilled : not_fulfilled) += 1;
      } else {
        ++not_fulfilled;
      }
    }
  }
  return Ratio{fulfilled, not_fulfilled + fulfilled};
}

double rnonrel(const PreferenceCounts& pc, bool retrieved_only) {
  double sum = 0;
  for (const PreferenceGroup& g : pc.groups) {
    const std::int64_t r = retrieved_only ? g.num_rel_ret : g.num_rel;
    const std::int64_t n = retrieved_only ? g.num_nonrel_ret : g.num_nonrel;
    Ratio ratio;
    if (r >= n) {
      // R - N more non-relevant documents, each below every relevant retrieved one.
      ratio = ratio_of(g, retrieved_only ? Counted::ret : Counted::all);
      ratio.fulfilled += g.num_rel_ret * (r - n);
      ratio.possible += g.num_rel * (r - n);
    } else {
      ratio = recount(g, pc, retrieved_only);
    }
    // 0 / 0 (a group judging only non-relevant documents) is NaN, which makes the query 0.
    sum += static_cast<double>(ratio.fulfilled) / static_cast<double>(ratio.possible);
  }
  return sum > 0.0 ? sum / static_cast<double>(pc.groups.size()) : 0.0;
}

}  // namespace

bool is_preference_measure(const MeasureDef& d) {
  return d.name.substr(0, 6) == "prefs_";
}

void compute_preference_measure(const Measure& m, const PreferenceCounts& pc, double* value) {
  const std::string_view name = m.definition().name;
  std::int64_t total = 0;
  if (name == "prefs_num_prefs_poss") {
    for (const PreferenceGroup& g : pc.groups) {
      total += g.possible_ret + g.possible_imp + g.possible_notoccur;
    }
    *value = static_cast<double>(total);
  } else if (name == "prefs_num_prefs_ful") {
    for (const PreferenceGroup& g : pc.groups) total += g.fulfilled_ret + g.fulfilled_imp;
    *value = static_cast<double>(total);
  } else if (name == "prefs_num_prefs_ful_ret") {
    for (const PreferenceGroup& g : pc.groups) total += g.fulfilled_ret;
    *value = static_cast<double>(total);
  } else if (name == "prefs_simp") {
    *value = simple(pc, Counted::all);
  } else if (name == "prefs_pair") {
    *value = pairs(pc, Counted::all);
  } else if (name == "prefs_avgjg") {
    *value = per_group(pc, Counted::all);
  } else if (name == "prefs_avgjg_Rnonrel") {
    *value = rnonrel(pc, false);
  } else if (name == "prefs_simp_ret") {
    *value = simple(pc, Counted::ret);
  } else if (name == "prefs_pair_ret") {
    *value = pairs(pc, Counted::ret);
  } else if (name == "prefs_avgjg_ret") {
    *value = per_group(pc, Counted::ret);
  } else if (name == "prefs_avgjg_Rnonrel_ret") {
    *value = rnonrel(pc, true);
  } else if (name == "prefs_simp_imp") {
    *value = simple(pc, Counted::imp);
  } else if (name == "prefs_pair_imp") {
    *value = pairs(pc, Counted::imp);
  } else if (name == "prefs_avgjg_imp") {
    *value = per_group(pc, Counted::imp);
  }
}

}  // namespace ndcg::trec
