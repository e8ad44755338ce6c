#include "ndcg/input.hpp"

#include <cctype>
#include <cmath>
#include <utility>

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

// A line of column titles such as "| Rank | Document | G |" or "n  doc #  relevance  CG _n":
// no digits, and at least one word that names a column of a ranking table.
bool is_table_header(std::string_view line) {
  if (has_digit(line)) return false;
  static constexpr std::string_view kTitles[] = {
      "rank", "n", "doc", "docno", "docid", "document", "id", "g", "gain", "rel", "relevance",
      "grade", "cg", "dcg", "idcg", "ndcg", "score", "calculation", "log", "ig"};
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
    if (i == start) break;
    std::string word(line.substr(start, i - start));
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view title : kTitles) {
      if (word == title) return true;
    }
  }
  return false;
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
  if (auto value = parse_decimal(text, &out_of_range)) return value;
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

// ---------------------------------------------------------------------------------------------
// Ranking

class RankingParser {
 public:
  void line(std::string_view text, std::uint32_t number) {
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
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == ',')) ++i;
      const std::size_t start = i;
      while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != ',') ++i;
      if (i > start) {
        tokens.push_back(Field{s.substr(start, i - start), static_cast<std::uint32_t>(base + start)});
      }
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
    for (const Field& t : tokens) {
      const std::uint32_t column = column_of(text, t.offset);
      auto grade = read_grade(t.text, Source::ranking, number, column, result_.errors);
      if (grade) result_.value.entries.push_back(RankedEntry{std::nullopt, grade, number, 0, column});
    }
    return true;
  }

  void row(std::string_view text, std::uint32_t number) {
    std::vector<Field> fields = split_fields(text);
    drop_trailing_empty(fields);
    if (fields.empty()) return;
    auto& entries = result_.value.entries;
    if (entries.empty() && fields.size() >= 2 && is_table_header(text)) {
      result_.warnings.add(Source::ranking, number, 0,
                           "skipped this line: it looks like a table header (column titles, no "
                           "digits) rather than a ranked document");
      return;
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
    if (entry.doc->empty()) {
      result_.errors.add(Source::ranking, number, entry.doc_column, "the document id is empty");
      return;
    }
    bool ok = true;
    if (grade_field != nullptr) {
      entry.grade_column = column_of(text, grade_field->offset);
      entry.grade = read_grade(grade_field->text, Source::ranking, number, entry.grade_column,
                               result_.errors);
      ok = entry.grade.has_value();
    }
    if (note) {
      const std::uint32_t note_column =
          column_of(text, static_cast<std::uint32_t>(note->data() - text.data()));
      auto noted = read_grade(*note, Source::ranking, number, note_column, result_.errors,
                              "grade note");
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

  Parsed<RankedList> result_;
  std::size_t content_lines_ = 0;
  std::string first_line_;
  std::uint32_t first_number_ = 0;
  bool warned_extra_columns_ = false;
};

// ---------------------------------------------------------------------------------------------
// Judgments

class JudgmentsBuilder {
 public:
  explicit JudgmentsBuilder(Parsed<Judgments>& out) : out_(out) {}

  void add(std::string doc, double grade, std::uint32_t line, std::uint32_t column) {
    Judgments& j = out_.value;
    auto [it, inserted] = j.index_of.emplace(doc, j.items.size());
    if (inserted) {
      j.items.push_back(Judgment{std::move(doc), grade, line, column});
      return;
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
  }

 private:
  static std::string format_grade(double g) {
    std::string s = std::to_string(g);
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }
  Parsed<Judgments>& out_;
};

// The lecture's "R = { [d_3, 3], [d_5, 3], ... }"; pairs may span lines.
void parse_set_notation(std::string_view text, Parsed<Judgments>& out) {
  JudgmentsBuilder builder(out);
  std::vector<std::size_t> line_starts{0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_starts.push_back(i + 1);
  }
  auto locate = [&](std::size_t offset) -> std::pair<std::uint32_t, std::uint32_t> {
    std::size_t lo = 0;
    std::size_t hi = line_starts.size();
    while (hi - lo > 1) {
      const std::size_t mid = (lo + hi) / 2;
      if (line_starts[mid] <= offset) lo = mid; else hi = mid;
    }
    std::size_t end = text.find('\n', line_starts[lo]);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(line_starts[lo], end - line_starts[lo]);
    return {static_cast<std::uint32_t>(lo + 1),
            column_of(line, static_cast<std::uint32_t>(offset - line_starts[lo]))};
  };
  auto check_outside = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      const char c = text[i];
      if ((c >= '0' && c <= '9') || c == ']') {
        auto [line, column] = locate(i);
        out.errors.add(Source::judgments, line, column,
                       "unexpected text outside the [doc, grade] pairs; write every judgment "
                       "as [doc, grade]");
        return;
      }
    }
  };
  std::size_t pos = 0;
  while (true) {
    const std::size_t open = text.find('[', pos);
    check_outside(pos, open == std::string_view::npos ? text.size() : open);
    if (open == std::string_view::npos) break;
    const std::size_t close = text.find(']', open);
    const std::size_t next_open = text.find('[', open + 1);
    if (close == std::string_view::npos || (next_open != std::string_view::npos && next_open < close)) {
      auto [line, column] = locate(open);
      out.errors.add(Source::judgments, line, column, "this '[' has no closing ']'");
      if (close == std::string_view::npos) break;
      pos = next_open;
      continue;
    }
    const std::string_view inside = text.substr(open + 1, close - open - 1);
    const std::size_t comma = inside.find(',');
    auto [line, column] = locate(open);
    if (comma == std::string_view::npos || inside.find(',', comma + 1) != std::string_view::npos) {
      out.errors.add(Source::judgments, line, column,
                     "expected a pair [doc, grade] such as [d3, 3], found " +
                         quote(trim(inside)));
    } else {
      const std::string doc = normalise_doc_id(inside.substr(0, comma));
      const std::string_view grade_text = trim(inside.substr(comma + 1));
      const std::size_t grade_offset = static_cast<std::size_t>(grade_text.data() - text.data());
      auto [gline, gcolumn] = locate(grade_offset);
      if (doc.empty()) {
        out.errors.add(Source::judgments, line, column, "the document id is empty");
      } else if (doc.find_first_of("\r\n") != std::string::npos) {
        out.errors.add(Source::judgments, line, column,
                       "a pair [doc, grade] must not break across lines inside the document id");
      } else if (auto grade = read_grade(grade_text, Source::judgments, gline, gcolumn, out.errors)) {
        builder.add(doc, *grade, gline, gcolumn);
      }
    }
    pos = close + 1;
  }
}

class JudgmentLinesParser {
 public:
  explicit JudgmentLinesParser(Parsed<Judgments>& out) : out_(out), builder_(out) {}

  void line(std::string_view text, std::uint32_t number) {
    if (is_comment_or_blank(text)) return;
    std::vector<Field> fields = split_fields(text);
    drop_trailing_empty(fields);
    const Field* doc = nullptr;
    const Field* grade = nullptr;
    if (fields.size() == 2) {
      doc = &fields[0];
      grade = &fields[1];
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
      const std::string what =
          fields.size() == 1 ? "found only " + quote(fields[0].text)
                             : "found " + std::to_string(fields.size()) + " fields";
      out_.errors.add(Source::judgments, number, 1,
                      "expected 'doc grade' (e.g. d3 3) or a qrels line 'query iteration doc "
                      "grade', " + what);
      return;
    }
    const std::uint32_t column = column_of(text, grade->offset);
    const std::string id = normalise_doc_id(doc->text);
    if (id.empty()) {
      out_.errors.add(Source::judgments, number, column_of(text, doc->offset),
                      "the document id is empty");
      return;
    }
    if (auto g = read_grade(grade->text, Source::judgments, number, column, out_.errors)) {
      builder_.add(id, *g, number, column);
    }
  }

 private:
  Parsed<Judgments>& out_;
  JudgmentsBuilder builder_;
  std::string query_;
  std::uint32_t query_line_ = 0;
  bool reported_queries_ = false;
};

}  // namespace

Parsed<RankedList> parse_ranking(std::string_view text) {
  RankingParser parser;
  LineSplitter lines;
  auto on_line = [&](std::string_view line, std::uint32_t number) { parser.line(line, number); };
  lines.feed(text, on_line);
  lines.finish(on_line);
  return parser.finish();
}

Parsed<Judgments> parse_judgments(std::string_view text) {
  Parsed<Judgments> out;
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

}  // namespace ndcg
