#include "ndcg/input.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>

#include "ndcg/json.hpp"
#include "ndcg/text.hpp"

namespace ndcg {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool has_digit(std::string_view text) {
  for (char c : text) {
    if (c >= '0' && c <= '9') return true;
  }
  return false;
}

// A line of column titles such as "| Rank | Document | G |", "n  doc #  relevance  CG _n" or a
// caption "Discounted Cumulated Gain": no digits, and words that name columns of a ranking table.
// `titles_only` when every word does; `some_titles` when at least one does.
enum class TitleLine { no, some_titles, titles_only };

TitleLine title_line(std::string_view line) {
  if (has_digit(line)) return TitleLine::no;
  static constexpr std::string_view kTitles[] = {
      "rank",       "n",          "doc",        "docno",       "docid",  "document", "id",
      "g",          "gain",       "rel",        "relevance",   "grade",  "cg",       "dcg",
      "idcg",       "ndcg",       "score",      "calculation", "log",    "ig",       "cumulated",
      "cumulative", "discounted", "normalised", "normalized",  "ideal",  "position", "pred",
      "prediction", "label",      "rating",     "item",        "docs",   "judgment", "judgement",
      "qid",        "query",      "iter",       "tag",         "scores", "grades"};
  std::size_t titles = 0;
  std::size_t others = 0;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
    if (i == start) break;
    // Compared ignoring case, with no copy of the word (a pasted list of a million bad lines
    // asks this of every one).
    const std::string_view word = line.substr(start, i - start);
    const bool title = std::any_of(std::begin(kTitles), std::end(kTitles),
                                   [word](std::string_view t) { return iequals(word, t); });
    (title ? titles : others) += 1;
  }
  if (titles == 0) return TitleLine::no;
  return others == 0 ? TitleLine::titles_only : TitleLine::some_titles;
}

// What a column of a header row holds, by its title.
enum class Role : std::uint8_t { other, rank, doc, score, grade };

Role column_role(std::string_view title) {
  std::string t;
  for (char c : trim(title)) {
    if (c == ' ' || c == '_' || c == '-') continue;
    t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (std::string_view w : {"rank", "n", "position", "pos"}) {
    if (t == w) return Role::rank;
  }
  for (std::string_view w : {"doc", "docs", "docno", "docid", "document", "id", "item", "itemid"}) {
    if (t == w) return Role::doc;
  }
  for (std::string_view w : {"score", "scores", "pred", "prediction", "yscore", "ypred"}) {
    if (t == w) return Role::score;
  }
  for (std::string_view w : {"grade", "grades", "g", "rel", "relevance", "label", "ytrue",
                             "judgment", "judgement", "rating"}) {
    if (t == w) return Role::grade;
  }
  return Role::other;
}

bool is_comment_or_blank(std::string_view line) {
  const std::string_view t = trim(line);
  return t.empty() || t.front() == '#';
}

bool is_non_finite_word(std::string_view text) {
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  return iequals(text, "nan") || iequals(text, "inf") || iequals(text, "infinity");
}

// Parses a grade field, reporting why it is not a grade. `what` names the field in messages.
std::optional<double> read_grade(std::string_view text, Source source, std::uint32_t line,
                                 std::uint32_t column, DiagnosticList& errors,
                                 std::string_view what = "grade") {
  bool out_of_range = false;
  // "-0" is grade 0, not a negative zero that would print as "-0".
  if (auto value = parse_decimal(text, &out_of_range)) return *value == 0 ? 0.0 : *value;
  std::string message = std::string(what) + " " + quote(text);
  if (text.empty()) {
    message = std::string(what) + " is missing";
  } else if (out_of_range) {
    message += " is too large to compute with; grades are usually small numbers such as 0 to 3";
  } else if (is_non_finite_word(text)) {
    message += " is not a finite number; use a number such as 0, 1, 2 or 3";
  } else if (text.find(',') != std::string_view::npos) {
    message += " is not a number; write decimals with a point, e.g. 0.5";
  } else {
    message += " is not a number";
  }
  errors.add(source, line, column, std::move(message));
  return std::nullopt;
}

void drop_trailing_empty(std::vector<Field>& fields) {
  while (!fields.empty() && fields.back().text.empty()) fields.pop_back();
}

std::string hex_code_point(unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  return std::string("U+00") + kHex[c >> 4] + kHex[c & 15];
}

// Reports a text that cannot be read at all: too large, or UTF-16. True if so.
bool report_unreadable(std::string_view text, Source source, DiagnosticList& errors) {
  if (text.size() > kMaxPastedBytes) {
    errors.add(source, 0, 0,
               "this text is " + std::to_string(text.size() >> 20) +
                   " MB; the step-by-step view reads up to " +
                   std::to_string(kMaxPastedBytes >> 20) +
                   " MB per box. Evaluate large files as TREC qrels and runs instead");
    return true;
  }
  if (text.size() >= 2 &&
      ((text[0] == '\xFF' && text[1] == '\xFE') || (text[0] == '\xFE' && text[1] == '\xFF'))) {
    errors.add(source, 1, 1,
               "this text is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8 "
               "and paste or drop it again");
    return true;
  }
  return false;
}

// Checks a normalised document id; reports why it cannot be one. `comma_line`: the line had a
// comma, so a space in the id may come from a decimal comma ("d1 0,5").
bool check_doc_id(const std::string& id, Source source, std::uint32_t line, std::uint32_t column,
                  bool comma_line, DiagnosticList& errors) {
  if (id.empty()) {
    errors.add(source, line, column, "the document id is empty");
    return false;
  }
  if (id.size() > kMaxDocIdBytes) {
    errors.add(source, line, column,
               "the document id is " + std::to_string(id.size()) +
                   " bytes long; ids are limited to " + std::to_string(kMaxDocIdBytes) + " bytes");
    return false;
  }
  if (const std::size_t at = find_control(id); at != std::string::npos) {
    errors.add(source, line, column,
               "the document id " + quote(id) + " contains the control character " +
                   hex_code_point(static_cast<unsigned char>(id[at])));
    return false;
  }
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (space_length(id, i) == 0) continue;
    errors.add(source, line, column,
               "the document id " + quote(id) + " contains white space; an id is one word" +
                   (comma_line ? ". If the comma is a decimal comma, write the grade with a point "
                                 "(0.5, not 0,5)"
                               : ""));
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Ranking

class RankingParser {
 public:
  explicit RankingParser(RankingNumbers numbers) : numbers_(numbers) {}

  void line(std::string_view text, std::uint32_t number) {
    if (stopped_) return;
    if (report_control_character(text, Source::ranking, number, result_.errors)) return;
    if (is_comment_or_blank(text) || is_table_rule(text)) return;
    ++content_lines_;
    if (content_lines_ == 1) {
      // Held back: if it stays the only line it may be a vector of grades.
      first_line_.assign(text);
      first_number_ = number;
      return;
    }
    if (content_lines_ == 2) row(first_line_, first_number_);
    row(text, number);
  }

  Parsed<RankedList> finish() {
    if (content_lines_ == 1 && !grade_vector(first_line_, first_number_)) {
      row(first_line_, first_number_);
    }
    RankedList& list = result_.value;
    const RankedEntry* with_score = nullptr;
    const RankedEntry* without_score = nullptr;
    bool numbers = false;
    for (const RankedEntry& e : list.entries) {
      if (e.score && with_score == nullptr) with_score = &e;
      if (!e.score && without_score == nullptr) without_score = &e;
      numbers = numbers || e.score || e.grade;
    }
    if (with_score != nullptr && without_score != nullptr) {
      result_.errors.add(Source::ranking, without_score->line, without_score->doc_column,
                         "this document has no score but the one on line " +
                             std::to_string(with_score->line) +
                             " has; give every document a score, or none");
    }
    list.scored = with_score != nullptr && without_score == nullptr;
    if (list.numbers_from == NumbersFrom::none && numbers && !list.grades_only) {
      list.numbers_from =
          numbers_ == RankingNumbers::automatic ? NumbersFrom::assumed : NumbersFrom::option;
    }
    if (!numbers && list.numbers_from != NumbersFrom::run) list.numbers_from = NumbersFrom::none;
    return std::move(result_);
  }

 private:
  // "1 0 1 0 0 3", "1, 0, 3", "G = (1, 0, 1)", "[3, 2, 3]". Returns false if the line is not a
  // vector of grades (it is then read as a row).
  bool grade_vector(std::string_view text, std::uint32_t number) {
    std::string_view s = trim(text);
    std::size_t base = static_cast<std::size_t>(s.data() - text.data());
    bool marked = false;
    const std::size_t eq = s.find('=');
    if (eq != std::string_view::npos) {
      const std::string_view name = trim(s.substr(0, eq));
      bool identifier = !name.empty();
      for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '@';
        identifier = identifier && ok;
      }
      if (!identifier) return false;
      const std::string_view rest = s.substr(eq + 1);
      base += eq + 1 + static_cast<std::size_t>(trim(rest).data() - rest.data());
      s = trim(rest);
      marked = true;
    }
    if (s.size() >= 2 && (s.front() == '(' || s.front() == '[') &&
        (s.back() == ')' || s.back() == ']')) {
      s = s.substr(1, s.size() - 2);
      base += 1;
      marked = true;
    }
    std::vector<Field> tokens;
    std::vector<std::size_t> empty_slots;  // offsets of commas with no grade before them
    std::size_t i = 0;
    bool token_since_comma = false;
    while (i < s.size()) {
      if (s[i] == ',') {
        if (!token_since_comma) empty_slots.push_back(base + i);
        token_since_comma = false;
        ++i;
        continue;
      }
      if (const std::size_t n = space_length(s, i); n > 0) {
        i += n;
        continue;
      }
      const std::size_t start = i;
      while (i < s.size() && s[i] != ',' && space_length(s, i) == 0) ++i;
      tokens.push_back(Field{s.substr(start, i - start), static_cast<std::uint32_t>(base + start)});
      token_since_comma = true;
    }
    if (tokens.empty()) return false;
    std::size_t numbers = 0;
    for (const Field& t : tokens) {
      // "1 inf 0" is a vector with a bad grade, not a row "rank doc grade" for a document "inf".
      numbers += parse_decimal(t.text).has_value() || is_non_finite_word(t.text) ? 1 : 0;
    }
    if (numbers != tokens.size() && !marked) return false;
    if (!marked && tokens.size() < 3) return false;
    result_.value.grades_only = true;
    ColumnCursor columns(text);
    std::size_t slot = 0;
    for (const Field& t : tokens) {
      for (; slot < empty_slots.size() && empty_slots[slot] < t.offset; ++slot) {
        result_.errors.add(Source::ranking, number, columns.at(empty_slots[slot]).column,
                           "a grade is missing before this comma; write 0 for a rank that is "
                           "not relevant");
      }
      const std::uint32_t column = columns.at(t.offset).column;
      auto grade = read_grade(t.text, Source::ranking, number, column, result_.errors);
      if (!grade) continue;
      if (result_.value.entries.size() == kMaxPastedEntries) {
        report_too_many(number, column);
        break;
      }
      result_.value.entries.push_back(
          RankedEntry{std::nullopt, grade, number, 0, column, std::nullopt, 0});
    }
    return true;
  }

  void report_too_many(std::uint32_t number, std::uint32_t column) {
    result_.errors.add(Source::ranking, number, column,
                       "the ranking has more than " + std::to_string(kMaxPastedEntries) +
                           " documents; the step-by-step view stops here. Evaluate longer "
                           "rankings as a TREC run");
    stopped_ = true;
  }

  void row(std::string_view text, std::uint32_t number) {
    std::vector<Field> fields = split_fields(text);
    drop_trailing_empty(fields);
    if (fields.empty()) return;
    auto& entries = result_.value.entries;
    if (!header_.empty()) return mapped_row(fields, text, number);
    if (fields.size() >= 2) {
      // Read as a document, such a line could only be an error (its "grade" has no digit).
      // Column titles are skipped wherever a table pasted from slides or a PDF puts them; a line
      // that only starts like them is skipped, and said, only before the first document.
      const TitleLine titles = title_line(text);
      if (titles == TitleLine::titles_only) {
        if (entries.empty()) read_header(fields, number);
        return;
      }
      if (titles == TitleLine::some_titles && entries.empty()) {
        result_.warnings.add(Source::ranking, number, 0,
                             "skipped this line: it looks like a table header (column titles, "
                             "no digits) rather than a ranked document");
        return;
      }
    }
    // "d9 (r: 3)": a grade note split off by white space belongs to the id before it.
    for (std::size_t i = 1; i < fields.size(); ++i) {
      std::string_view probe = fields[i].text;
      if (!probe.empty() && probe.front() == '(' && take_grade_note(probe) && probe.empty()) {
        const std::size_t end = fields[i].offset + fields[i].text.size();
        fields[i - 1].text = text.substr(fields[i - 1].offset, end - fields[i - 1].offset);
        fields.erase(fields.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
    if (fields.size() == 6 && parse_integer(fields[3].text) && parse_decimal(fields[4].text) &&
        !parse_decimal(fields[1].text)) {
      return run_row(fields, text, number);
    }
    const Field* doc_field = nullptr;
    const Field* grade_field = nullptr;
    const auto rank_at = [&](const Field& f) {
      const auto value = parse_decimal(f.text);
      return value && *value == static_cast<double>(entries.size() + 1);
    };
    if (fields.size() == 2 && rank_at(fields[0]) && !parse_decimal(fields[1].text) &&
        fields[1].text.front() != '(') {
      // "| 16 | d_5 |": a table row of rank and document, without a grade.
      doc_field = &fields[1];
    } else if (fields.size() <= 2) {
      doc_field = &fields[0];
      if (fields.size() == 2) grade_field = &fields[1];
    } else {
      const auto rank = parse_decimal(fields[0].text);
      if (!rank || *rank != std::floor(*rank)) {
        result_.errors.add(Source::ranking, number, column_of(text, fields[0].offset),
                           "expected 'doc', 'doc grade' or 'rank doc grade' but found " +
                               std::to_string(fields.size()) +
                               " fields; a document id cannot contain a space");
        return;
      }
      const double expected = static_cast<double>(entries.size() + 1);
      if (*rank != expected) {
        result_.warnings.add(Source::ranking, number, column_of(text, fields[0].offset),
                             "the rank column says " + std::string(fields[0].text) +
                                 " but this is rank " + std::to_string(entries.size() + 1) +
                                 "; documents are ranked in the order of the lines");
      }
      if (fields.size() > 3 && !warned_extra_columns_) {
        warned_extra_columns_ = true;
        result_.warnings.add(Source::ranking, number, column_of(text, fields[3].offset),
                             "columns after the third (rank, document, grade) are ignored");
      }
      doc_field = &fields[1];
      grade_field = &fields[2];
    }
    RankedEntry entry;
    entry.line = number;
    entry.doc_column = column_of(text, doc_field->offset);
    std::string_view doc_text = doc_field->text;
    const auto note = take_grade_note(doc_text);
    entry.doc = normalise_doc_id(doc_text);
    if (!check_doc_id(*entry.doc, Source::ranking, number, entry.doc_column,
                      text.find(',') != std::string_view::npos, result_.errors)) {
      return;
    }
    if (entries.size() == kMaxPastedEntries) {
      report_too_many(number, entry.doc_column);
      return;
    }
    bool ok = true;
    if (grade_field != nullptr && numbers_ == RankingNumbers::score) {
      entry.score_column = column_of(text, grade_field->offset);
      entry.score = read_grade(grade_field->text, Source::ranking, number, entry.score_column,
                               result_.errors, "score");
      ok = entry.score.has_value();
    } else if (grade_field != nullptr) {
      entry.grade_column = column_of(text, grade_field->offset);
      entry.grade = read_grade(grade_field->text, Source::ranking, number, entry.grade_column,
                               result_.errors);
      ok = entry.grade.has_value();
    }
    if (note) {
      const std::uint32_t note_column =
          column_of(text, static_cast<std::uint32_t>(note->data() - text.data()));
      auto noted =
          read_grade(*note, Source::ranking, number, note_column, result_.errors, "grade note");
      if (!noted) {
        ok = false;
      } else if (!entry.grade) {
        entry.grade = noted;
        entry.grade_column = note_column;
      } else if (*noted != *entry.grade) {
        result_.warnings.add(Source::ranking, number, note_column,
                             "the note says r: " + std::string(*note) +
                                 " but the grade column says " + std::string(grade_field->text) +
                                 "; the grade column is used");
      }
    }
    if (ok) entries.push_back(std::move(entry));
  }

  // A header row of column titles: kept when it names a document and a score column, so that
  // every row is read by it; one naming a grade column only says how the numbers are read.
  void read_header(const std::vector<Field>& fields, std::uint32_t number) {
    std::vector<Role> roles;
    bool doc = false;
    bool score = false;
    bool grade = false;
    for (const Field& f : fields) {
      const Role role = column_role(f.text);
      if (role == Role::other) return;
      doc = doc || role == Role::doc;
      score = score || role == Role::score;
      grade = grade || role == Role::grade;
      roles.push_back(role);
    }
    if (!doc || !(score || grade)) return;
    result_.value.numbers_from = NumbersFrom::header;
    if (score) {
      header_ = std::move(roles);
      header_line_ = number;
    }
  }

  // A row read by the header's columns.
  void mapped_row(const std::vector<Field>& fields, std::string_view text, std::uint32_t number) {
    if (fields.size() != header_.size()) {
      result_.errors.add(Source::ranking, number, 1,
                         "this row has " + std::to_string(fields.size()) +
                             " fields but the header on line " + std::to_string(header_line_) +
                             " names " + std::to_string(header_.size()) + " columns");
      return;
    }
    RankedEntry entry;
    entry.line = number;
    bool ok = true;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const std::uint32_t column = column_of(text, fields[i].offset);
      switch (header_[i]) {
        case Role::doc:
          entry.doc_column = column;
          entry.doc = normalise_doc_id(fields[i].text);
          ok = ok &&
               check_doc_id(*entry.doc, Source::ranking, number, column, false, result_.errors);
          break;
        case Role::score:
          entry.score_column = column;
          entry.score =
              read_grade(fields[i].text, Source::ranking, number, column, result_.errors, "score");
          ok = ok && entry.score.has_value();
          break;
        case Role::grade:
          entry.grade_column = column;
          entry.grade = read_grade(fields[i].text, Source::ranking, number, column, result_.errors);
          ok = ok && entry.grade.has_value();
          break;
        case Role::rank:
        case Role::other:
          break;
      }
    }
    add_entry(std::move(entry), ok);
  }

  // "qid Q0 doc rank score tag": a line of a TREC run, ranked by its score (the rank is ignored,
  // as trec_eval ignores it). The step-by-step view explains one query.
  void run_row(const std::vector<Field>& fields, std::string_view text, std::uint32_t number) {
    result_.value.numbers_from = NumbersFrom::run;
    if (query_.empty()) {
      query_.assign(fields[0].text);
      query_line_ = number;
    } else if (fields[0].text != query_) {
      if (!reported_queries_) {
        reported_queries_ = true;
        result_.errors.add(Source::ranking, number, column_of(text, fields[0].offset),
                           "this run line is for query " + quote(fields[0].text) + " and line " +
                               std::to_string(query_line_) + "'s for " + quote(query_) +
                               "; the step-by-step view explains one query, so keep the lines "
                               "of one query (or evaluate the whole run in the TREC tab)");
      }
      return;
    }
    RankedEntry entry;
    entry.line = number;
    entry.doc_column = column_of(text, fields[2].offset);
    entry.doc = normalise_doc_id(fields[2].text);
    bool ok =
        check_doc_id(*entry.doc, Source::ranking, number, entry.doc_column, false, result_.errors);
    entry.score_column = column_of(text, fields[4].offset);
    entry.score = read_grade(fields[4].text, Source::ranking, number, entry.score_column,
                             result_.errors, "score");
    add_entry(std::move(entry), ok && entry.score.has_value());
  }

  void add_entry(RankedEntry entry, bool ok) {
    if (!ok) return;
    if (result_.value.entries.size() == kMaxPastedEntries) {
      report_too_many(entry.line, entry.doc_column);
      return;
    }
    result_.value.entries.push_back(std::move(entry));
  }

  RankingNumbers numbers_;
  std::vector<Role> header_;  // the columns of a header row that names a score column
  std::uint32_t header_line_ = 0;
  std::string query_;  // of TREC run lines
  std::uint32_t query_line_ = 0;
  bool reported_queries_ = false;
  Parsed<RankedList> result_;
  std::size_t content_lines_ = 0;
  std::string first_line_;
  std::uint32_t first_number_ = 0;
  bool warned_extra_columns_ = false;
  bool stopped_ = false;  // kMaxPastedEntries reached
};

// ---------------------------------------------------------------------------------------------
// Judgments

class JudgmentsBuilder {
 public:
  explicit JudgmentsBuilder(Parsed<Judgments>& out) : out_(out) {}

  // False once kMaxPastedEntries judgments are held (reported once): the caller stops.
  bool add(std::string doc, double grade, std::uint32_t line, std::uint32_t column) {
    Judgments& j = out_.value;
    if (j.items.size() == kMaxPastedEntries) {
      out_.errors.add(Source::judgments, line, column,
                      "there are more than " + std::to_string(kMaxPastedEntries) +
                          " judgments; the step-by-step view stops here. Evaluate larger "
                          "judgment sets as TREC qrels");
      return false;
    }
    auto [it, inserted] = j.index_of.emplace(doc, j.items.size());
    if (inserted) {
      j.items.push_back(Judgment{std::move(doc), grade, line, column});
      return true;
    }
    const Judgment& first = j.items[it->second];
    if (first.grade == grade) {
      out_.warnings.add(Source::judgments, line, column,
                        quote(doc) + " is judged again with the same grade (first on line " +
                            std::to_string(first.line) + "); the repeat is ignored");
    } else {
      out_.errors.add(Source::judgments, line, column,
                      quote(doc) + " is judged twice with different grades: " +
                          format_grade(first.grade) + " on line " + std::to_string(first.line) +
                          " and " + format_grade(grade) + " here; keep one of them");
    }
    return true;
  }

 private:
  static std::string format_grade(double g) {
    return printf_fixed_short(g, 6);  // std::to_string's "%f", shortened
  }
  Parsed<Judgments>& out_;
};

// The lecture's "R = { [d_3, 3], [d_5, 3], ... }", also in LaTeX ("$R = \\{ ... \\}$"); pairs
// may span lines. One pass over the text: every offset is located by a forward-only cursor.
void parse_set_notation(std::string_view text, Parsed<Judgments>& out) {
  JudgmentsBuilder builder(out);
  ColumnCursor cursor(text);
  const auto error_at = [&](std::size_t offset, std::string message) {
    const auto place = cursor.at(offset);
    out.errors.add(Source::judgments, place.line, place.column, std::move(message));
  };
  // What may stand outside the pairs: before the first, a name and "= {" (or "\{", "$", "(");
  // between two, commas and white space; after the last, closing brackets, '$' and a full stop.
  const auto allowed_outside = [](char c, bool before_first, bool after_last) {
    if (c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      return true;
    }
    if (before_first) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '=' || c == '{' || c == '(' || c == '\\' || c == '$' || c == ':';
    }
    if (after_last) return c == '}' || c == ')' || c == '\\' || c == '$' || c == '.';
    return false;
  };
  // Checks text[from, to) outside the pairs; reports the first stray piece of it.
  const auto check_outside = [&](std::size_t from, std::size_t to, bool before_first,
                                 bool after_last) {
    for (std::size_t i = from; i < to;) {
      if (const std::size_t n = space_length(text, i); n > 0) {
        i += n;
        continue;
      }
      if (allowed_outside(text[i], before_first, after_last)) {
        ++i;
        continue;
      }
      std::size_t stop = i;
      while (stop < to && std::string_view("\n[,}").find(text[stop]) == std::string_view::npos) {
        ++stop;
      }
      error_at(i, "unexpected text " + quote(trim(text.substr(i, stop - i))) +
                      " outside the [doc, grade] pairs; write every judgment as [doc, grade]");
      return;
    }
  };
  if (const std::size_t at = find_control(text); at != std::string_view::npos) {
    // Line breaks are allowed between pairs; any other control character is not text.
    for (std::size_t i = at; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c == '\n' || c == '\r' || !((c < 0x20 && c != '\t') || c == 0x7F)) continue;
      error_at(i, "this text contains the control character " + hex_code_point(c) +
                      ", which no judgment has: is this a binary file, or text in another "
                      "encoding than UTF-8?");
      return;
    }
  }
  std::size_t pos = 0;
  bool first = true;
  while (pos < text.size()) {
    const std::size_t open = text.find('[', pos);
    if (open == std::string_view::npos) {
      check_outside(pos, text.size(), first, true);
      break;
    }
    check_outside(pos, open, first, false);
    first = false;
    // The pair ends at the next ']' unless another '[' comes first.
    std::size_t close = open + 1;
    while (close < text.size() && text[close] != ']' && text[close] != '[') ++close;
    if (close == text.size() || text[close] == '[') {
      error_at(open, "this '[' has no closing ']'");
      pos = close;
      continue;
    }
    const std::string_view inside = text.substr(open + 1, close - open - 1);
    const std::size_t comma = inside.find(',');
    pos = close + 1;
    if (comma == std::string_view::npos || inside.find(',', comma + 1) != std::string_view::npos) {
      error_at(open, "expected a pair [doc, grade] such as [d3, 3], found " + quote(trim(inside)));
      continue;
    }
    const std::string_view doc_text = inside.substr(0, comma);
    if (doc_text.find_first_of("\r\n") != std::string_view::npos) {
      error_at(open, "a pair [doc, grade] must not break across lines inside the document id");
      continue;
    }
    const std::string doc = normalise_doc_id(doc_text);
    const std::string_view grade_text = trim(inside.substr(comma + 1));
    const auto doc_place = cursor.at(open);
    if (!check_doc_id(doc, Source::judgments, doc_place.line, doc_place.column, false,
                      out.errors)) {
      continue;
    }
    const auto grade_place =
        cursor.at(grade_text.empty() ? open + 1 + comma
                                     : static_cast<std::size_t>(grade_text.data() - text.data()));
    if (auto grade = read_grade(grade_text, Source::judgments, grade_place.line, grade_place.column,
                                out.errors)) {
      if (!builder.add(doc, *grade, grade_place.line, grade_place.column)) return;
    }
  }
}

class JudgmentLinesParser {
 public:
  explicit JudgmentLinesParser(Parsed<Judgments>& out) : out_(out), builder_(out) {}

  void line(std::string_view text, std::uint32_t number) {
    if (stopped_ || report_control_character(text, Source::judgments, number, out_.errors)) return;
    if (is_comment_or_blank(text) || is_table_rule(text)) return;
    std::vector<Field> fields = split_fields(text);
    drop_trailing_empty(fields);
    if (fields.size() >= 2 && title_line(text) == TitleLine::titles_only) {
      // A header row ("doc,grade", "query iter docno rel"); "grade,doc" says the columns swap.
      if (fields.size() == 2 && column_role(fields[0].text) == Role::grade &&
          column_role(fields[1].text) == Role::doc) {
        grade_first_ = true;
      }
      return;
    }
    const Field* doc = nullptr;
    const Field* grade = nullptr;
    if (fields.size() == 2) {
      doc = &fields[grade_first_ ? 1 : 0];
      grade = &fields[grade_first_ ? 0 : 1];
    } else if (fields.size() == 4) {
      if (query_.empty()) {
        query_.assign(fields[0].text);
        query_line_ = number;
      } else if (fields[0].text != query_) {
        if (!reported_queries_) {
          reported_queries_ = true;
          out_.errors.add(Source::judgments, number, column_of(text, fields[0].offset),
                          "these qrels name query " + quote(fields[0].text) + " here and " +
                              quote(query_) + " on line " + std::to_string(query_line_) +
                              "; the step-by-step view explains one query, so keep the "
                              "lines of one query");
        }
        return;
      }
      doc = &fields[2];
      grade = &fields[3];
    } else {
      const std::string what = fields.size() == 1
                                   ? "found only " + quote(fields[0].text)
                                   : "found " + std::to_string(fields.size()) + " fields";
      out_.errors.add(Source::judgments, number, 1,
                      "expected 'doc grade' (e.g. d3 3) or a qrels line 'query iteration doc "
                      "grade', " +
                          what);
      return;
    }
    const std::uint32_t column = column_of(text, grade->offset);
    const std::string id = normalise_doc_id(doc->text);
    if (!check_doc_id(id, Source::judgments, number, column_of(text, doc->offset),
                      text.find(',') != std::string_view::npos, out_.errors)) {
      return;
    }
    if (auto g = read_grade(grade->text, Source::judgments, number, column, out_.errors)) {
      stopped_ = !builder_.add(id, *g, number, column);
    }
  }

 private:
  Parsed<Judgments>& out_;
  JudgmentsBuilder builder_;
  std::string query_;
  std::uint32_t query_line_ = 0;
  bool reported_queries_ = false;
  bool grade_first_ = false;  // a header row "grade,doc" came first
  bool stopped_ = false;      // kMaxPastedEntries reached
};

// ---------------------------------------------------------------------------------------------
// JSON: the shapes Python and JavaScript tools print rankings and judgments in

class JsonInput {
 public:
  JsonInput(std::string_view text, Source source, DiagnosticList& errors)
      : text_(text), source_(source), errors_(errors), cursor_(text) {}

  std::optional<json::Value> parse() {
    json::Document d = json::parse(text_);
    if (d.error) {
      error(d.error->offset, "this JSON cannot be read: " + d.error->message);
      return std::nullopt;
    }
    return std::move(d.value);
  }

  void error(std::uint32_t offset, std::string message) {
    const auto place = cursor_.at(offset);
    errors_.add(source_, place.line, place.column, std::move(message));
  }

  ColumnCursor::Place place(std::uint32_t offset) { return cursor_.at(offset); }

  // A document id from a JSON string (or a number written as one), checked as text ids are.
  std::optional<std::string> doc(const json::Value& v) {
    if (v.kind != json::Value::Kind::string && v.kind != json::Value::Kind::number) {
      error(v.offset, "a document id must be a string such as \"d1\"");
      return std::nullopt;
    }
    std::string id = normalise_doc_id(v.text);
    const auto at = place(v.offset);
    if (!check_doc_id(id, source_, at.line, at.column, false, errors_)) return std::nullopt;
    return id;
  }

  std::optional<double> number(const json::Value& v, std::string_view what) {
    if (v.kind == json::Value::Kind::number) return v.number == 0 ? 0.0 : v.number;
    if (v.kind == json::Value::Kind::string) {
      if (auto n = parse_decimal(v.text)) return *n == 0 ? 0.0 : *n;
    }
    error(v.offset,
          std::string(what) + " must be a number, not " +
              (v.kind == json::Value::Kind::string ? quote(v.text) : std::string("this")));
    return std::nullopt;
  }

  // {"q1": {"d1": 3}}: one query of a nested run or qrels dict, or the object itself.
  const json::Value* single_query(const json::Value& v, std::string_view what) {
    if (v.kind != json::Value::Kind::object || v.members.empty()) return &v;
    bool nested = true;
    for (const auto& [key, member] : v.members)
      nested = nested && member.kind == json::Value::Kind::object;
    if (!nested) return &v;
    if (v.members.size() > 1) {
      error(v.members[1].value.offset,
            "this JSON holds " + std::string(what) + " for " + std::to_string(v.members.size()) +
                " queries; the step-by-step view explains one query, so keep one (or evaluate the "
                "whole set as TREC files)");
      return nullptr;
    }
    return &v.members.front().value;
  }

 private:
  std::string_view text_;
  Source source_;
  DiagnosticList& errors_;
  ColumnCursor cursor_;
};

// A ranking as JSON: ["d1", "d2"], [3, 2, 3], [["d1", 3], ...], {"d1": 3, ...} (in key order),
// [{"doc": "d1", "score": 0.5, "grade": 2}, ...], or a run dict {"q1": {"d1": 0.5}} (scores).
void read_json_ranking(std::string_view text, RankingNumbers numbers, Parsed<RankedList>& out) {
  JsonInput in(text, Source::ranking, out.errors);
  const auto root = in.parse();
  if (!root) return;
  RankedList& list = out.value;
  const auto add = [&](RankedEntry entry) {
    if (list.entries.size() == kMaxPastedEntries) {
      out.errors.add(Source::ranking, entry.line, entry.doc_column,
                     "the ranking has more than " + std::to_string(kMaxPastedEntries) +
                         " documents; the step-by-step view stops here");
      return false;
    }
    list.entries.push_back(std::move(entry));
    return true;
  };
  const auto at = [&](const json::Value& v, RankedEntry& e) {
    const auto p = in.place(v.offset);
    e.line = p.line;
    e.doc_column = p.column;
  };
  // A number beside a document: a grade, unless scores are asked for.
  const auto beside = [&](RankedEntry& e, const json::Value& v) {
    const auto p = in.place(v.offset);
    const bool score = numbers == RankingNumbers::score;
    auto n = in.number(v, score ? "a score" : "a grade");
    if (!n) return false;
    (score ? e.score : e.grade) = *n;
    (score ? e.score_column : e.grade_column) = p.column;
    return true;
  };
  const json::Value* value = &*root;
  const bool nested_run = value->kind == json::Value::Kind::object && !value->members.empty() &&
                          value->members.front().value.kind == json::Value::Kind::object;
  value = in.single_query(*value, "rankings");
  if (value == nullptr) return;
  if (value->kind == json::Value::Kind::object) {
    // {"d1": 3}: documents in the order written, each with its number.
    list.numbers_from = nested_run                             ? NumbersFrom::run
                        : numbers == RankingNumbers::automatic ? NumbersFrom::assumed
                                                               : NumbersFrom::option;
    for (const auto& [key, member] : value->members) {
      RankedEntry e;
      at(member, e);
      json::Value id;
      id.kind = json::Value::Kind::string;
      id.text = key;
      id.offset = member.offset;
      auto doc = in.doc(id);
      if (!doc) continue;
      e.doc = std::move(doc);
      if (nested_run) {
        auto n = in.number(member, "a score");
        if (!n) continue;
        e.score = *n;
        e.score_column = e.doc_column;
      } else if (!beside(e, member)) {
        continue;
      }
      if (!add(std::move(e))) return;
    }
    return;
  }
  if (value->kind != json::Value::Kind::array) {
    in.error(value->offset,
             "a JSON ranking is an array of document ids, or an object such as {\"d1\": 3}");
    return;
  }
  bool all_numbers = !value->items.empty();
  for (const json::Value& item : value->items)
    all_numbers = all_numbers && item.kind == json::Value::Kind::number;
  if (all_numbers) {
    list.grades_only = true;
    for (const json::Value& item : value->items) {
      RankedEntry e;
      at(item, e);
      e.grade = item.number == 0 ? 0.0 : item.number;
      e.grade_column = e.doc_column;
      e.doc_column = 0;
      if (!add(std::move(e))) return;
    }
    return;
  }
  for (const json::Value& item : value->items) {
    RankedEntry e;
    at(item, e);
    if (item.kind == json::Value::Kind::string) {
      e.doc = in.doc(item);
      if (!e.doc) continue;
    } else if (item.kind == json::Value::Kind::array) {
      // ["d1", 3]
      if (item.items.size() != 2) {
        in.error(item.offset,
                 "a pair in a JSON ranking is [document, number], such as [\"d1\", 3]");
        continue;
      }
      e.doc = in.doc(item.items[0]);
      if (!e.doc || !beside(e, item.items[1])) continue;
      if (list.numbers_from == NumbersFrom::none) {
        list.numbers_from =
            numbers == RankingNumbers::automatic ? NumbersFrom::assumed : NumbersFrom::option;
      }
    } else if (item.kind == json::Value::Kind::object) {
      // {"doc": "d1", "score": 0.5, "grade": 2}: the keys say what each number is.
      list.numbers_from = NumbersFrom::json;
      bool ok = true;
      // A number under a "score" or "grade" key, with its column.
      const auto read = [&](const json::Value& member, std::string_view what,
                            std::optional<double>& into, std::uint32_t& column) {
        into = in.number(member, what);
        column = in.place(member.offset).column;
        ok = ok && into.has_value();
      };
      for (const auto& [key, member] : item.members) {
        // The keys name the numbers as a header row's titles do.
        switch (column_role(key)) {
          case Role::doc:
            e.doc = in.doc(member);
            ok = ok && e.doc.has_value();
            break;
          case Role::score:
            read(member, "a score", e.score, e.score_column);
            break;
          case Role::grade:
            read(member, "a grade", e.grade, e.grade_column);
            break;
          case Role::rank:
          case Role::other:
            break;
        }
      }
      if (ok && !e.doc) {
        in.error(item.offset, "this object names no document: give it a key doc, docid or id");
        ok = false;
      }
      if (!ok) continue;
    } else {
      in.error(
          item.offset,
          "an item of a JSON ranking is a document id, a [document, number] pair or an object");
      continue;
    }
    if (!add(std::move(e))) return;
  }
}

// Judgments as JSON: {"d1": 3}, a qrels dict {"q1": {"d1": 3}}, [["d1", 3], ...] or
// [{"doc": "d1", "grade": 3}, ...].
void read_json_judgments(std::string_view text, Parsed<Judgments>& out, JudgmentsBuilder& builder) {
  JsonInput in(text, Source::judgments, out.errors);
  const auto root = in.parse();
  if (!root) return;
  const json::Value* value = in.single_query(*root, "judgments");
  if (value == nullptr) return;
  const auto judge = [&](const json::Value& id, const json::Value& grade) {
    auto doc = in.doc(id);
    auto g = in.number(grade, "a grade");
    if (!doc || !g) return true;
    const auto p = in.place(grade.offset);
    return builder.add(std::move(*doc), *g, p.line, p.column);
  };
  if (value->kind == json::Value::Kind::object) {
    for (const auto& [key, member] : value->members) {
      json::Value id;
      id.kind = json::Value::Kind::string;
      id.text = key;
      id.offset = member.offset;
      if (!judge(id, member)) return;
    }
    return;
  }
  if (value->kind != json::Value::Kind::array) {
    in.error(value->offset,
             "JSON judgments are an object such as {\"d1\": 3} or an array of pairs");
    return;
  }
  for (const json::Value& item : value->items) {
    if (item.kind == json::Value::Kind::array && item.items.size() == 2) {
      if (!judge(item.items[0], item.items[1])) return;
      continue;
    }
    if (item.kind == json::Value::Kind::object) {
      const json::Value* id = nullptr;
      const json::Value* grade = nullptr;
      for (const auto& [key, member] : item.members) {
        const Role role = column_role(key);
        if (role == Role::doc) id = &member;
        if (role == Role::grade) grade = &member;
      }
      if (id == nullptr || grade == nullptr) {
        in.error(item.offset,
                 "a judgment object needs a document (doc, docid or id) and a grade (grade, rel or "
                 "relevance)");
        continue;
      }
      if (!judge(*id, *grade)) return;
      continue;
    }
    in.error(item.offset, "a JSON judgment is [document, grade] or an object with doc and grade");
  }
}

}  // namespace

bool report_control_character(std::string_view text, Source source, std::uint32_t number,
                              DiagnosticList& errors) {
  const std::size_t at = find_control(text);
  if (at == std::string_view::npos) return false;
  errors.add(source, number, column_of(text, static_cast<std::uint32_t>(at)),
             "this line contains the control character " +
                 hex_code_point(static_cast<unsigned char>(text[at])) +
                 ": is this a binary file, or text in another encoding than UTF-8?");
  return true;
}

Parsed<RankedList> parse_ranking(std::string_view text, RankingNumbers numbers) {
  {
    Parsed<RankedList> unreadable;
    if (report_unreadable(text, Source::ranking, unreadable.errors)) return unreadable;
  }
  if (json::looks_like_json(text)) {
    Parsed<RankedList> out;
    read_json_ranking(text, numbers, out);
    // Every document has a score or none has, as for text.
    const RankedList& list = out.value;
    const bool any = std::any_of(list.entries.begin(), list.entries.end(),
                                 [](const RankedEntry& e) { return e.score.has_value(); });
    const auto missing = std::find_if(list.entries.begin(), list.entries.end(),
                                      [](const RankedEntry& e) { return !e.score; });
    if (any && missing != list.entries.end()) {
      out.errors.add(
          Source::ranking, missing->line, missing->doc_column,
          "this document has no score but others have; give every document a score, or none");
    }
    out.value.scored = any && missing == list.entries.end();
    bool numbers_seen = false;
    for (const RankedEntry& e : list.entries) numbers_seen = numbers_seen || e.score || e.grade;
    if (!numbers_seen && !list.grades_only) out.value.numbers_from = NumbersFrom::none;
    return out;
  }
  RankingParser parser(numbers);
  LineSplitter lines;
  auto on_line = [&](std::string_view line, std::uint32_t number) { parser.line(line, number); };
  lines.feed(text, on_line);
  lines.finish(on_line);
  return parser.finish();
}

Parsed<Judgments> parse_judgments(std::string_view text) {
  Parsed<Judgments> out;
  if (report_unreadable(text, Source::judgments, out.errors)) return out;
  if (json::looks_like_json(text)) {
    JudgmentsBuilder builder(out);
    read_json_judgments(text, out, builder);
    return out;
  }
  if (text.find('[') != std::string_view::npos) {
    parse_set_notation(text, out);
    return out;
  }
  JudgmentLinesParser parser(out);
  LineSplitter lines;
  auto on_line = [&](std::string_view line, std::uint32_t number) { parser.line(line, number); };
  lines.feed(text, on_line);
  lines.finish(on_line);
  return out;
}

std::string_view numbers_from_name(NumbersFrom from) {
  switch (from) {
    case NumbersFrom::none:
      return "none";
    case NumbersFrom::assumed:
      return "assumed";
    case NumbersFrom::header:
      return "header";
    case NumbersFrom::option:
      return "option";
    case NumbersFrom::run:
      return "run";
    case NumbersFrom::json:
      return "json";
  }
  return "none";
}

}  // namespace ndcg
