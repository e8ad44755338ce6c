// Parsers for the two pasted inputs of the calculator: a ranked list and relevance judgments.
//
// Both read text line by line and never fail as a whole: every problem becomes a located
// diagnostic, and the parse goes on so that one paste reports all of its problems at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ndcg/diagnostic.hpp"
#include "ndcg/options.hpp"

namespace ndcg {

struct RankedEntry {
  std::optional<std::string> doc;  // absent when the ranking is a bare list of grades
  std::optional<double> grade;     // absent when the line names only a document
  std::uint32_t line = 0;
  std::uint32_t doc_column = 0;
  std::uint32_t grade_column = 0;
  std::optional<double> score;  // a system's score: the list is then ranked by it
  std::uint32_t score_column = 0;
};

// Where the reading of the numbers beside the documents came from.
enum class NumbersFrom : std::uint8_t {
  none,     // no number beside any document
  assumed,  // "doc number" lines without a header: read as grades (RankingNumbers::automatic)
  header,   // a header row named the column ("doc,score", "doc grade")
  option,   // RankingNumbers::grade or ::score
  run,      // TREC run lines "qid Q0 doc rank score tag", or a JSON run dict: scores
  json,     // JSON objects whose keys name the numbers ({"doc": "d1", "score": 0.5})
};

// "none", "assumed", "header", "option", "run" or "json": the names the JS API uses.
std::string_view numbers_from_name(NumbersFrom from);

struct RankedList {
  std::vector<RankedEntry> entries;  // in the order given (rank order unless scored)
  bool grades_only = false;          // the input was one line of grades, e.g. "G = (1, 0, 3)"
  bool scored = false;               // every entry has a score (none has otherwise)
  NumbersFrom numbers_from = NumbersFrom::none;
};

struct Judgment {
  std::string doc;
  double grade = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;  // of the grade
};

struct Judgments {
  std::vector<Judgment> items;                            // in input order, one per document
  std::unordered_map<std::string, std::size_t> index_of;  // doc -> position in items

  const Judgment* find(const std::string& doc) const {
    auto it = index_of.find(doc);
    return it == index_of.end() ? nullptr : &items[it->second];
  }
};

// Bounds on what the step-by-step view reads, the same in every build, so that no paste can
// exhaust memory (the wasm core has at most 2 GB) and native and wasm accept the same inputs.
// Beyond them the parsers report a located error; TREC files of any size go through trec.hpp.
inline constexpr std::size_t kMaxPastedBytes = 32u << 20;    // per box
inline constexpr std::size_t kMaxPastedEntries = 1'000'000;  // ranked documents, or judgments
inline constexpr std::size_t kMaxDocIdBytes = 4096;

template <class T>
struct Parsed {
  T value;
  DiagnosticList errors;
  DiagnosticList warnings;
};

// Reports a line that holds a control character (U+0000-U+001F but tab, U+007F: binary data, or
// UTF-16 read as bytes) as an error at its column, for any of the parsers. True if it did.
bool report_control_character(std::string_view line, Source source, std::uint32_t number,
                              DiagnosticList& errors);

// Parses a ranked list. Accepted, after blank lines and lines starting with '#' are skipped:
//   * one line of grades: "1 0 1 0 0 3", "1, 0, 3" or "G = (1, 0, 3)" (three or more numbers, or
//     any count inside brackets or after "name ="); documents are then unnamed;
//   * otherwise one document a line: "doc", "doc grade", "doc,grade", "doc<TAB>grade", or a
//     table row "rank doc grade [more columns]" whose first field is a whole number (Markdown
//     rows "| 1 | d ₁₂₃ (r: 1) | 1 |" included; a header line without digits is skipped with a
//     warning). A grade note "(r: 1)" after the id counts as the grade if no grade column follows.
// Document ids are normalised (normalise_doc_id). Grades must be finite decimal numbers.
// White space is ASCII or Unicode (space_length); a line of only white space is blank.
// Errors: a grade that is not a number, an empty slot in a line of grades ("1, , 3"), a row with
// too many fields, a document id that contains white space (after normalisation: "d1 0" from
// "d1 0,5"), a control character or is longer than kMaxDocIdBytes, UTF-16 text, a text over
// kMaxPastedBytes or more than kMaxPastedEntries documents. Warnings: a rank column that does
// not match the row's position, ignored extra columns, a skipped header.
//
// Scores: a header row that names a score column ("doc,score", "docid\tscore\tlabel", "rank doc
// score"; the columns in any order) maps every row by it; TREC run lines "qid Q0 doc rank score
// tag" (one query) carry a score; with RankingNumbers::score a "doc number" line's number is a
// score. Either every document has a score or none has (error at the first line without one).
//
// JSON (json.hpp, when the text opens like it): ["d1", "d2"], [3, 2, 3], [["d1", 3], ...],
// {"d1": 3, ...} in key order, [{"doc": "d1", "score": 0.5, "grade": 2}, ...] (keys as header
// titles name the numbers), or a run dict {"q1": {"d1": 0.5}} (scores; one query).
Parsed<RankedList> parse_ranking(std::string_view text,
                                 RankingNumbers numbers = RankingNumbers::automatic);

// Parses relevance judgments, one of:
//   * the lecture's set notation "R = { [d_3, 3], [d_5, 3], ... }" (pairs in square brackets);
//   * lines "doc grade" (tab, comma or white space between), or TREC qrels lines
//     "query iteration doc grade"; all qrels lines must name the same query.
// A header row of column titles ("doc,grade", "query iter docno rel") is skipped. JSON:
// {"d1": 3}, a qrels dict {"q1": {"d1": 3}} (one query), [["d1", 3], ...] or
// [{"doc": "d1", "grade": 3}, ...], errors located at the value.
// Errors: a grade that is not a number, a wrong field count, conflicting grades for one
// document (both lines named), more than one query, text outside the pairs of set notation other
// than "Name = {", "}", commas, '$' and white space, ids as for parse_ranking, the same size
// limits. Warnings: a document judged twice with the same grade.
Parsed<Judgments> parse_judgments(std::string_view text);

}  // namespace ndcg
