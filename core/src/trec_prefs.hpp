// Preference measures (trec_eval's -R prefs and -R qrels_prefs): one query's preferences
// counted against its ranking once, then every prefs_* measure read from the counts.
// Internal to the core; trec.hpp is the contract.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ndcg/trec.hpp"

namespace ndcg::trec {

// One judgment group's preferences, counted. Documents are numbered as trec_eval numbers them:
// those retrieved, in rank order, from 0 to num_judged_ret - 1, then the others in docno order.
// A preference A > B is "ret" when both are retrieved, "imp" (implied) when only one is, and
// "notoccur" when neither is; it is fulfilled when A is ranked above B (or only A retrieved).
struct PreferenceGroup {
  std::int64_t fulfilled_ret = 0;
  std::int64_t possible_ret = 0;  // fulfilled or not
  std::int64_t fulfilled_imp = 0;
  std::int64_t possible_imp = 0;
  std::int64_t possible_notoccur = 0;
  std::int64_t num_rel = 0;  // documents of level > 0
  std::int64_t num_rel_ret = 0;
  std::int64_t num_nonrel = 0;  // of level 0
  std::int64_t num_nonrel_ret = 0;

  // A group of one subgroup: its documents in classes of equal level, highest level first,
  // each class's document numbers ascending. A group of several: `prefers`, the transitive
  // closure of their preferences, as bit rows over every document of the query, and each
  // document's level (-1 when the group does not judge it).
  struct EquivalenceClass {
    double level;
    std::vector<std::int64_t> docs;
  };
  std::vector<EquivalenceClass> classes;
  std::vector<std::uint64_t> prefers;
  std::vector<double> levels;
  std::size_t words_per_row = 0;

  bool prefers_doc(std::int64_t a, std::int64_t b) const {
    return (prefers[static_cast<std::size_t>(a) * words_per_row +
                    static_cast<std::size_t>(b) / 64] >>
            (static_cast<std::size_t>(b) % 64)) &
           1u;
  }
};

struct PreferenceCounts {
  std::int64_t num_judged = 0;
  std::int64_t num_judged_ret = 0;
  std::vector<PreferenceGroup> groups;  // in byte order of the group ids
  // counts[a * num_judged + b]: the groups preferring document a to b (16 bits, as trec_eval's)
  std::vector<std::uint16_t> counts;

  std::uint16_t count(std::int64_t a, std::int64_t b) const {
    return counts[static_cast<std::size_t>(a * num_judged + b)];
  }
};

// Counts `preferences` (sorted as QrelsReader leaves them) against the ranked documents
// `ranked` (best first, already cut at -M). Returns nothing and sets `error` when a group's
// preferences contradict each other (A > B and, through its subgroups, B > A; located at the
// group's first line), or when the counts would need more than `memory_limit` bytes.
std::optional<PreferenceCounts> count_preferences(const std::vector<std::string_view>& ranked,
                                                  const std::vector<Preference>& preferences,
                                                  const std::string& qid,
                                                  std::size_t memory_limit, Diagnostic* error);

// Whether a measure reads preferences (the prefs_* measures).
bool is_preference_measure(const MeasureDef& d);

// Computes preference measure `m` for one query from its counts.
void compute_preference_measure(const Measure& m, const PreferenceCounts& counts, double* value);

}  // namespace ndcg::trec
