// Check my working: a person's own G, terms, CG, DCG, IDCG or NDCG values (as homework writes
// them or a slide prints them) held against the explanation, value by value, with the cause of
// a difference named when it is one of the usual slips: rounding (and to how many places), a
// value computed from rounded ones, the other discount, the other gain, the ideal from the other
// source or of the other length, one rank's term computed wrongly, a rank left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ndcg/diagnostic.hpp"
#include "ndcg/explain.hpp"

namespace ndcg {

// What a column of someone's working holds, rank by rank.
enum class Quantity : std::uint8_t { gain, term, cg, dcg, ideal_gain, ideal_term, idcg, ndcg };

// "G", "G / discount", "CG", "DCG", "IG", "IG / discount", "IDCG", "NDCG".
std::string_view quantity_name(Quantity q);

struct WrittenValue {
  double value = 0;
  int decimals = 0;  // as written: "1.60" has 2
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  // For a division of rounded numbers ("3/1.585"): how far it may stand from the exact value.
  double tolerance = 0;
};

struct WorkingColumn {
  std::optional<Quantity> quantity;  // from its name ("DCG = (...)", a header), if it has one
  std::vector<WrittenValue> values;  // rank 1 first
  // "7 + 1.893 + ... = 16.047": terms and the total written after them.
  std::optional<WrittenValue> total;
};

// Reads someone's working: one or more named rows ("DCG = (1.0, 1.0, 1.6)", "| NDCG | 0.33 |
// 0.17 |", "G: 1 0 1"), a table whose header names the columns ("rank G CG DCG"), a sum
// "DCG_6 = 7 + 1.893 + 3.5 = 16.047" (its terms; "IDCG = 3/1 + 3/1.585" the ideal's, a term
// may be written as a division), or bare numbers (one column, unnamed).
// Errors: text that holds no number; a value that is not a number (located).
Parsed<std::vector<WorkingColumn>> parse_working(std::string_view text);

// One value of the working against the explanation's.
struct CheckedValue {
  std::uint32_t rank = 0;
  double theirs = 0;
  int decimals = 0;
  std::optional<double> ours;  // absent past the end of the ranking
  bool matches = false;        // equal once ours is rounded (or cut) to the decimals written
};

// A cause found for the differences, or what the working shows when all is well.
struct Finding {
  // "rounding", "computed-from-rounded", "discount", "gain", "ideal-source", "ideal-length",
  // "wrong-term", "rank-left-out", "sum", "differs", "count"
  std::string_view cause;
  std::uint32_t rank = 0;  // the rank it is about, or 0 for the whole column
  std::string message;
};

struct CheckedColumn {
  Quantity quantity = Quantity::dcg;
  std::vector<CheckedValue> values;
  std::vector<Finding> findings;
  std::optional<WrittenValue> total;  // the sum's total as written, and ours for the same ranks
  double our_total = 0;
};

struct WorkingCheck {
  bool ok = false;
  std::vector<CheckedColumn> columns;
  std::vector<Diagnostic> errors;    // the working's, or the explanation's when it fails
  std::vector<Diagnostic> warnings;  // the explanation's
};

// Explains the ranking under the options, then checks each column of the working. A column
// without a name takes `quantity` ("G", "term", "CG", "DCG", "IG", "ideal-term", "IDCG", "NDCG";
// an error when neither says what it is).
WorkingCheck check_working(std::string_view ranking_text, std::string_view judgments_text,
                           const std::vector<OptionValue>& option_values,
                           std::string_view working_text, std::string_view quantity = "");

}  // namespace ndcg
