// Check my working: someone's column of values against the explanation, and the usual causes of
// a difference, each tried by recomputing what that cause would have produced.
#include "ndcg/check.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "ndcg/text.hpp"

namespace ndcg {
namespace {

std::string lower(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<Quantity> quantity_of_name(std::string_view name) {
  const std::string n = lower(name);
  if (n == "g" || n == "gain" || n == "gains") return Quantity::gain;
  if (n == "term" || n == "terms") return Quantity::term;
  if (n == "cg") return Quantity::cg;
  if (n == "dcg") return Quantity::dcg;
  if (n == "ig" || n == "idealgain") return Quantity::ideal_gain;
  if (n == "idealterm" || n == "ideal-term") return Quantity::ideal_term;
  if (n == "idcg") return Quantity::idcg;
  if (n == "ndcg") return Quantity::ndcg;
  return std::nullopt;
}

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int decimals_of(std::string_view token) {
  const std::size_t dot = token.find('.');
  if (dot == std::string_view::npos) return 0;
  int d = 0;
  for (std::size_t i = dot + 1; i < token.size() && is_digit(token[i]); ++i) ++d;
  return d;
}

// Reads the working line by line (see check.hpp).
class WorkingParser {
 public:
  void line(std::string_view text, std::uint32_t number) {
    if (report_control_character(text, Source::working, number, errors_)) return;
    std::string_view s = trim(text);
    if (s.empty() || s.front() == '#' || is_table_rule(s)) return;
    // A header row of a table: words only, some of them quantities.
    if (!std::any_of(s.begin(), s.end(), is_digit)) {
      std::vector<std::optional<Quantity>> header;
      bool any = false;
      for (const Field& f : split_fields(s)) {
        const auto q = quantity_of_name(f.text);
        any = any || q.has_value();
        header.push_back(q);
      }
      if (any && header.size() >= 2) {
        header_ = std::move(header);
        header_columns_.assign(header_.size(), std::nullopt);
      }
      return;
    }
    const std::uint32_t base = static_cast<std::uint32_t>(s.data() - text.data());
    std::size_t i = 0;
    // A leading name: "DCG", "| NDCG |", "$IDCG_6 =", "G:", "DCG[i] = (".
    while (i < s.size() && (s[i] == '|' || s[i] == '$' || s[i] == ' ' || s[i] == '\t')) ++i;
    std::optional<Quantity> named;
    const std::size_t name_start = i;
    while (i < s.size() && is_letter(s[i])) ++i;
    if (i > name_start) {
      named = quantity_of_name(s.substr(name_start, i - name_start));
      if (!named) {
        // A row of another column ("rel", "log2(i+1)"), or a table row led by a document id.
        if (!header_.empty()) return table_row(s, base, number);
        return;
      }
      // A subscript or a rank: DCG_6, DCG@10, DCG[i], DCG6.
      if (i < s.size() && (s[i] == '_' || s[i] == '@')) ++i;
      while (i < s.size() && (is_digit(s[i]) || s[i] == '{' || s[i] == '}')) ++i;
      if (i < s.size() && s[i] == '[') {
        const std::size_t close = s.find(']', i);
        i = close == std::string_view::npos ? s.size() : close + 1;
      }
    } else if (!header_.empty()) {
      return table_row(s, base, number);
    }
    numbers(s.substr(i), base + static_cast<std::uint32_t>(i), text, number, named);
  }

  Parsed<std::vector<WorkingColumn>> finish() {
    for (std::size_t c = 0; c < header_columns_.size(); ++c) {
      if (header_columns_[c]) columns_.push_back(std::move(*header_columns_[c]));
    }
    Parsed<std::vector<WorkingColumn>> out;
    if (columns_.empty() && errors_.empty()) {
      errors_.add(Source::working, 0, 0,
                  "the working holds no numbers: paste a column such as DCG = (1.0, 1.0, 1.6), a "
                  "table with a header row (rank G CG DCG), or a sum 7 + 1.893 + 3.5 = 12.393");
    }
    out.value = std::move(columns_);
    out.errors = errors_;
    return out;
  }

 private:
  struct Token {
    std::string_view text;
    std::uint32_t offset;
  };

  // Splits numbers on separators; '+' marks a sum and '=' its total.
  void numbers(std::string_view rest, std::uint32_t base, std::string_view line,
               std::uint32_t number, std::optional<Quantity> named) {
    std::vector<Token> tokens;
    std::optional<Token> total;
    bool sum = false;
    bool after_equals = false;
    std::size_t i = 0;
    while (i < rest.size()) {
      const char c = rest[i];
      if (c == '+') {
        sum = true;
        ++i;
        continue;
      }
      if (c == '=') {
        after_equals = true;
        ++i;
        continue;
      }
      if (!(is_digit(c) || c == '.' || c == '-')) {
        ++i;
        continue;
      }
      const std::size_t start = i;
      while (i < rest.size() && (is_digit(rest[i]) || rest[i] == '.' || rest[i] == '/' ||
                                 (rest[i] == '-' && i == start))) {
        ++i;
      }
      Token t{rest.substr(start, i - start), base + static_cast<std::uint32_t>(start)};
      if (sum && after_equals) {
        total = t;  // the last number after '=' once terms were added up
      } else if (after_equals && !sum && !tokens.empty()) {
        // "DCG = 3 ... = 4.2": a result after the values; the values are what counts.
        total = t;
      } else {
        if (after_equals && tokens.empty()) after_equals = false;
        tokens.push_back(t);
      }
    }
    WorkingColumn column;
    column.quantity = named;
    if (sum) {
      // The terms of a sum: a DCG written out is its terms, an IDCG its ideal terms.
      column.quantity = named == Quantity::idcg || named == Quantity::ideal_gain
                            ? std::optional(Quantity::ideal_term)
                            : std::optional(Quantity::term);
    }
    for (const Token& t : tokens) {
      if (auto v = value_of(t, line, number)) column.values.push_back(*v);
    }
    if (sum && total) column.total = value_of(*total, line, number);
    if (column.values.empty()) return;
    if (!named && !sum && !columns_.empty() && !columns_.back().quantity &&
        !columns_.back().total) {
      // Bare numbers on several lines: one column.
      auto& into = columns_.back().values;
      into.insert(into.end(), column.values.begin(), column.values.end());
      return;
    }
    columns_.push_back(std::move(column));
  }

  void table_row(std::string_view s, std::uint32_t base, std::uint32_t number) {
    const std::vector<Field> fields = split_fields(s);
    for (std::size_t c = 0; c < fields.size() && c < header_.size(); ++c) {
      if (!header_[c]) continue;
      const Token t{fields[c].text, base + fields[c].offset};
      const auto v = value_of(t, s, number, base);
      if (!v) continue;
      if (!header_columns_[c]) header_columns_[c] = WorkingColumn{header_[c], {}, std::nullopt};
      header_columns_[c]->values.push_back(*v);
    }
  }

  // A number, or a division "3/1.585" (its value, with the divisor's decimals).
  std::optional<WrittenValue> value_of(const Token& t, std::string_view line, std::uint32_t number,
                                       std::uint32_t line_base = 0) {
    const std::uint32_t column = column_of(line, t.offset - line_base);
    const std::size_t slash = t.text.find('/');
    std::optional<double> value;
    int decimals = decimals_of(t.text);
    double tolerance = 0;
    if (slash != std::string_view::npos) {
      const auto a = parse_decimal(t.text.substr(0, slash));
      const auto b = parse_decimal(t.text.substr(slash + 1));
      if (a && b && *b != 0) {
        value = *a / *b;
        // Both parts rounded to the digits written: the quotient is as exact as they are.
        const double da = 0.5 * std::pow(10.0, -decimals_of(t.text.substr(0, slash)));
        const double db = 0.5 * std::pow(10.0, -decimals_of(t.text.substr(slash + 1)));
        tolerance = (da + std::fabs(*value) * db) / std::fabs(*b) + 1e-12;
        decimals = 3;
      }
    } else {
      value = parse_decimal(t.text);
    }
    if (!value) {
      errors_.add(Source::working, number, column, quote(t.text) + " is not a number");
      return std::nullopt;
    }
    return WrittenValue{*value, decimals, number, column, tolerance};
  }

  std::vector<WorkingColumn> columns_;
  std::vector<std::optional<Quantity>> header_;
  std::vector<std::optional<WorkingColumn>> header_columns_;
  DiagnosticList errors_;
};

std::string fmt(double v, int decimals = 4) {
  std::string s = printf_fixed_short(v, static_cast<unsigned>(std::max(decimals, 0)));
  if (s == "-0") s = "0";
  return s;
}

double value_in(const StepRow& row, Quantity q) {
  switch (q) {
    case Quantity::gain:
      return row.gain;
    case Quantity::term:
      return row.term;
    case Quantity::cg:
      return row.cg;
    case Quantity::dcg:
      return row.dcg;
    case Quantity::ideal_gain:
      return row.ideal_gain;
    case Quantity::ideal_term:
      return row.ideal_term;
    case Quantity::idcg:
      return row.idcg;
    case Quantity::ndcg:
      return row.ndcg;
  }
  return 0;
}

std::vector<double> column_of_quantity(const Explanation& e, Quantity q) {
  std::vector<double> out;
  out.reserve(e.rows.size());
  for (const StepRow& r : e.rows) out.push_back(value_in(r, q));
  return out;
}

// `ours` as `written` shows it: rounded to its decimals (or, failing that, cut to them).
enum class Match : std::uint8_t { no, rounded, cut };

Match match(double ours, const WrittenValue& written) {
  if (written.tolerance > 0) {
    return std::fabs(ours - written.value) <= written.tolerance ? Match::rounded : Match::no;
  }
  const int d = std::min(written.decimals, 12);
  const double scale = std::pow(10.0, d);
  const double tolerance = 1e-9 * std::max(1.0, std::fabs(written.value));
  // A whole number is taken as written: "1" for an NDCG of 0.87 is not a rounding.
  if (d == 0) return std::fabs(ours - written.value) <= tolerance ? Match::rounded : Match::no;
  if (std::fabs(round_to(ours, d) - written.value) <= tolerance) return Match::rounded;
  if (std::fabs(std::trunc(ours * scale) / scale - written.value) <= tolerance) return Match::cut;
  return Match::no;
}

bool all_match(const std::vector<double>& ours, const std::vector<WrittenValue>& theirs) {
  if (ours.size() < theirs.size()) return false;
  for (std::size_t i = 0; i < theirs.size(); ++i) {
    if (match(ours[i], theirs[i]) != Match::rounded) return false;
  }
  return true;
}

bool cumulative(Quantity q) {
  return q == Quantity::cg || q == Quantity::dcg || q == Quantity::idcg;
}

std::string ranks_text(std::uint32_t first, std::uint32_t last) {
  return first == last ? "rank " + std::to_string(first)
                       : "ranks " + std::to_string(first) + "–" + std::to_string(last);
}

class ColumnChecker {
 public:
  ColumnChecker(ExplainedTexts& texts, const std::vector<OptionValue>& options,
                const Explanation& e, const WorkingColumn& working, Quantity q)
      : texts_(texts), options_(options), e_(e), w_(working), q_(q) {
    out_.quantity = q;
    out_.total = w_.total;
    ours_ = column_of_quantity(e_, q_);
  }

  CheckedColumn run() {
    const std::vector<WrittenValue>& theirs = w_.values;
    bool cut = false;
    int most_decimals = 0;
    for (std::size_t i = 0; i < theirs.size(); ++i) {
      CheckedValue v;
      v.rank = static_cast<std::uint32_t>(i + 1);
      v.theirs = theirs[i].value;
      v.decimals = theirs[i].decimals;
      if (i < ours_.size()) {
        v.ours = ours_[i];
        const Match m = match(ours_[i], theirs[i]);
        v.matches = m == Match::rounded;
        cut = cut || m == Match::cut;
      }
      most_decimals = std::max(most_decimals, theirs[i].decimals);
      out_.values.push_back(v);
    }
    check_total();
    const std::size_t n = ours_.size();
    const std::size_t m = theirs.size();
    bool every = std::all_of(out_.values.begin(), out_.values.end(),
                             [](const CheckedValue& v) { return v.matches; });
    // Values cut instead of rounded (1.63 written 1.6 is fine, 1.66 written 1.6 is cut): a
    // column is cut when every value fits that way, never one value here and there.
    if (!every && cut && n == m &&
        std::all_of(out_.values.begin(), out_.values.end(), [&](const CheckedValue& v) {
          return v.ours && match(*v.ours, theirs[v.rank - 1]) != Match::no;
        })) {
      for (CheckedValue& v : out_.values) v.matches = true;
      every = true;
    } else {
      cut = false;
    }
    if (m + 1 == n && left_out()) return std::move(out_);
    if (every && m == n) {
      add("rounding", 0,
          "every value matches" +
              std::string(most_decimals > 0 && most_decimals < 12
                              ? ", " + std::string(cut ? "cut" : "rounded") + " to " +
                                    std::to_string(most_decimals) + " decimal" +
                                    (most_decimals == 1 ? "" : "s")
                              : "") +
              (cut ? " (cut, not rounded: the last digit is dropped, not rounded)" : ""));
      return std::move(out_);
    }
    if (m != n) {
      add("count", 0,
          "the working has " + std::to_string(m) + " value" + (m == 1 ? "" : "s") + " for " +
              std::to_string(n) + " rank" + (n == 1 ? "" : "s") +
              (m < n ? "; the ranks after " + std::to_string(m) + " are not checked"
                     : "; the values after rank " + std::to_string(n) + " have no rank"));
      if (every) return std::move(out_);
    }
    if (q_ == Quantity::ndcg && from_rounded()) return std::move(out_);
    if (other_conventions()) return std::move(out_);
    if (wrong_terms()) return std::move(out_);
    for (const CheckedValue& v : out_.values) {
      if (v.matches || !v.ours) continue;
      add("differs", v.rank,
          "at rank " + std::to_string(v.rank) + " the working has " + fmt(v.theirs, 6) +
              " where the calculation gives " + fmt(*v.ours) +
              "; no single slip explains it: compare the rows up to there");
      break;
    }
    return std::move(out_);
  }

 private:
  void add(std::string_view cause, std::uint32_t rank, std::string message) {
    out_.findings.push_back(Finding{cause, rank, std::move(message)});
  }

  // A sum: is the total the sum of its terms, and what the terms should add up to.
  void check_total() {
    if (!w_.total) return;
    double sum = 0;
    for (const WrittenValue& v : w_.values) sum += v.value;
    const std::size_t k = std::min(w_.values.size(), ours_.size());
    double ours = 0;
    for (std::size_t i = 0; i < k; ++i) ours += ours_[i];
    out_.our_total = ours;
    const WrittenValue& total = *w_.total;
    const double slack = 0.5 * std::pow(10.0, -std::min(total.decimals, 12)) * 1.0001 +
                         0.5 * std::pow(10.0, -3) * static_cast<double>(w_.values.size());
    if (std::fabs(sum - total.value) > slack) {
      add("sum", 0,
          "your terms add up to " + fmt(sum) + ", not " + fmt(total.value, total.decimals));
    }
    if (match(ours, total) == Match::no) {
      add("sum", 0,
          "the total should be " + fmt(ours) + " (the sum of the right terms), not " +
              fmt(total.value, total.decimals));
    } else {
      add("sum", 0, "the total " + fmt(total.value, total.decimals) + " is right");
    }
  }

  // One rank missing from the list: every value after it is one rank early.
  bool left_out() {
    const std::vector<WrittenValue>& t = w_.values;
    std::vector<std::uint32_t> fits;
    for (std::size_t r = 0; r < ours_.size(); ++r) {
      bool ok = true;
      for (std::size_t i = 0; i < t.size() && ok; ++i) {
        ok = match(ours_[i < r ? i : i + 1], t[i]) == Match::rounded;
      }
      if (ok) fits.push_back(static_cast<std::uint32_t>(r + 1));
    }
    if (fits.empty()) return false;
    const std::uint32_t first = fits.front();
    const std::uint32_t last = fits.back();
    std::string message = "one rank is left out: ";
    if (first == last) {
      message += "rank " + std::to_string(first) + " (" + fmt(ours_[first - 1]) +
                 "); from there on each value stands one rank early";
    } else {
      message += "one of " + ranks_text(first, last) + " (each " + fmt(ours_[first - 1]) +
                 "), so from rank " + std::to_string(first) +
                 " on each value stands one rank early; the list has " + std::to_string(t.size()) +
                 " values for " + std::to_string(ours_.size()) + " ranks";
    }
    add("rank-left-out", first, message);
    return true;
  }

  Explanation explain_with(const std::vector<OptionValue>& extra) const {
    std::vector<OptionValue> options = options_;
    options.insert(options.end(), extra.begin(), extra.end());
    return texts_.explain(options);
  }

  // NDCG computed from DCG and IDCG rounded first, as a slide that prints them does.
  bool from_rounded() {
    const std::vector<double> dcg = column_of_quantity(e_, Quantity::dcg);
    const std::vector<double> idcg = column_of_quantity(e_, Quantity::idcg);
    for (int d = 0; d <= 4; ++d) {
      std::vector<double> ndcg;
      for (std::size_t i = 0; i < dcg.size(); ++i) {
        const double a = round_to(dcg[i], d);
        const double b = round_to(idcg[i], d);
        ndcg.push_back(b > 0 ? a / b : 0);
      }
      if (!all_match(ndcg, w_.values)) continue;
      std::string where;
      std::size_t differ = 0;
      for (std::size_t i = 0; i < w_.values.size() && i < ours_.size(); ++i) {
        if (match(ours_[i], w_.values[i]) == Match::rounded) continue;
        if (differ++ < 4) where += (where.empty() ? "" : ", ") + std::to_string(i + 1);
      }
      add("computed-from-rounded", 0,
          "these NDCG values were divided after rounding DCG and IDCG to " + std::to_string(d) +
              " decimal" + (d == 1 ? "" : "s") +
              (differ > 0 ? "; at rank" + std::string(differ == 1 ? " " : "s ") + where +
                                (differ > 4 ? ", …" : "") +
                                " that gives another value than the exact quotient rounded"
                          : ""));
      return true;
    }
    return false;
  }

  // The whole column as another convention gives it.
  bool other_conventions() {
    const Options& o = current_;
    struct Alternative {
      std::string_view cause;
      std::vector<OptionValue> options;
      std::string message;
    };
    std::vector<Alternative> alternatives;
    const bool jk = o.discount == DiscountKind::jarvelin_kekalainen;
    alternatives.push_back(
        {"discount",
         {{"discount", jk ? "log2(rank+1)" : "jarvelin-kekalainen"}},
         jk ? "these values use the log2(rank + 1) discount (Burges et al.), not the "
              "Järvelin–Kekäläinen one set here"
            : "these values use the Järvelin–Kekäläinen discount (no discount below rank b, then "
              "log_b(rank)), not log2(rank + 1) as set here"});
    const bool exponential = o.gain == GainKind::exponential;
    alternatives.push_back({"gain",
                            {{"gain", exponential ? "linear" : "exponential"}},
                            exponential
                                ? "these values use linear gain (G = g), not 2^g − 1 as set here"
                                : "these values use exponential gain (G = 2^g − 1), not the grade "
                                  "itself as set here"});
    if (q_ == Quantity::ideal_gain || q_ == Quantity::ideal_term || q_ == Quantity::idcg ||
        q_ == Quantity::ndcg) {
      const bool from_ranking = o.ideal == IdealFrom::ranking;
      alternatives.push_back(
          {"ideal-source",
           {{"ideal", from_ranking ? "judgments" : "ranking"}},
           from_ranking ? "these values build the ideal from every judged document, not from the "
                          "ranked list as set here"
                        : "these values build the ideal from the ranked list alone, not from every "
                          "judged document as set here: judged documents that were not retrieved "
                          "are missing from it"});
      const bool whole = o.ideal_depth == IdealDepth::whole;
      alternatives.push_back(
          {"ideal-length",
           {{"idealDepth", whole ? "cut" : "whole"}},
           whole ? "these values cut the ideal at k, not the whole ideal as set here"
                 : "these values take IDCG over the whole ideal ranking, not its top k"});
    }
    for (const Alternative& a : alternatives) {
      const Explanation other = explain_with(a.options);
      if (!other.ok) continue;
      if (!all_match(column_of_quantity(other, q_), w_.values)) continue;
      add(a.cause, 0, a.message);
      return true;
    }
    return false;
  }

  // A running sum that goes wrong at one rank and stays off by the same amount after it, or a
  // term column with single wrong terms: name the rank, the term used and the right one.
  bool wrong_terms() {
    const std::vector<WrittenValue>& t = w_.values;
    const std::size_t m = std::min(t.size(), ours_.size());
    const Quantity gain_q =
        q_ == Quantity::idcg || q_ == Quantity::ideal_term ? Quantity::ideal_gain : Quantity::gain;
    if (q_ == Quantity::term || q_ == Quantity::ideal_term) {
      bool any = false;
      for (std::size_t i = 0; i < m; ++i) {
        if (match(ours_[i], t[i]) == Match::rounded) continue;
        any = true;
        name_term(static_cast<std::uint32_t>(i + 1), t[i].value, t[i].decimals, gain_q);
      }
      return any;
    }
    if (!cumulative(q_)) return false;
    std::size_t r = 0;
    while (r < m && match(ours_[r], t[r]) == Match::rounded) ++r;
    if (r == m) return false;
    const double offset = t[r].value - ours_[r];
    const double slack = 1.5 * std::pow(10.0, -std::min(t[r].decimals, 12)) + 1e-9;
    for (std::size_t i = r + 1; i < m; ++i) {
      const double d = std::pow(10.0, -std::min(t[i].decimals, 12));
      if (std::fabs((t[i].value - ours_[i]) - offset) > slack + d) return false;
    }
    const double previous = r == 0 ? 0.0 : t[r - 1].value;
    name_term(static_cast<std::uint32_t>(r + 1), t[r].value - previous,
              std::max(t[r].decimals, r == 0 ? 0 : t[r - 1].decimals), gain_q,
              " (" + fmt(previous, t[r].decimals) + " + " +
                  fmt(t[r].value - previous, t[r].decimals) + " = " +
                  fmt(t[r].value, t[r].decimals) + "); every value after it is off by the same " +
                  fmt(offset, t[r].decimals));
    return true;
  }

  // What rank r's term was taken as: the discount itself, the gain undivided, or another number.
  void name_term(std::uint32_t rank, double used, int decimals, Quantity gain_q,
                 const std::string& tail = "") {
    const StepRow& row = e_.rows[rank - 1];
    const double gain = value_in(row, gain_q);
    if (q_ == Quantity::cg) {
      // CG adds each gain undiscounted.
      add("wrong-term", rank,
          "rank " + std::to_string(rank) + " adds " + fmt(used, decimals) +
              " where G = " + fmt(gain) + " belongs" + tail);
      return;
    }
    const double right = gain / row.discount;
    const WrittenValue as_written{used, std::min(decimals, 12), 0, 0, 0};
    std::string what;
    if (row.discount != 1 && match(row.discount, as_written) != Match::no) {
      what = ", which is the discount itself; the term is G / discount = " + fmt(gain) + " / " +
             fmt(row.discount, 3) + " = " + fmt(right, 3);
    } else if (row.discount != 1 && match(gain, as_written) != Match::no) {
      what = ", the gain without its discount; the term is " + fmt(gain) + " / " +
             fmt(row.discount, 3) + " = " + fmt(right, 3);
    } else if (row.discount != 1 && match(gain * row.discount, as_written) != Match::no) {
      what = ", the gain multiplied by the discount; the term is " + fmt(gain) + " / " +
             fmt(row.discount, 3) + " = " + fmt(right, 3);
    } else {
      what =
          " where " + fmt(gain) + " / " + fmt(row.discount, 3) + " = " + fmt(right, 3) + " belongs";
    }
    add("wrong-term", rank,
        "rank " + std::to_string(rank) + " adds " + fmt(used, decimals) + what + tail);
  }

 public:
  Options current_;

 private:
  ExplainedTexts& texts_;  // the ranking and judgments, read once for every explanation
  const std::vector<OptionValue>& options_;
  const Explanation& e_;
  const WorkingColumn& w_;
  Quantity q_;
  std::vector<double> ours_;
  CheckedColumn out_;
};

}  // namespace

std::string_view quantity_name(Quantity q) {
  switch (q) {
    case Quantity::gain:
      return "G";
    case Quantity::term:
      return "G / discount";
    case Quantity::cg:
      return "CG";
    case Quantity::dcg:
      return "DCG";
    case Quantity::ideal_gain:
      return "IG";
    case Quantity::ideal_term:
      return "IG / discount";
    case Quantity::idcg:
      return "IDCG";
    case Quantity::ndcg:
      return "NDCG";
  }
  return "";
}

Parsed<std::vector<WorkingColumn>> parse_working(std::string_view text) {
  WorkingParser parser;
  LineSplitter lines;
  auto on_line = [&](std::string_view line, std::uint32_t number) { parser.line(line, number); };
  lines.feed(text, on_line);
  lines.finish(on_line);
  return parser.finish();
}

WorkingCheck check_working(std::string_view ranking_text, std::string_view judgments_text,
                           const std::vector<OptionValue>& option_values,
                           std::string_view working_text, std::string_view quantity) {
  WorkingCheck out;
  ExplainedTexts texts(ranking_text, judgments_text);
  const Explanation e = texts.explain(option_values);
  out.warnings = e.warnings;
  auto working = parse_working(working_text);
  DiagnosticList errors;
  errors.append(working.errors);
  std::optional<Quantity> chosen;
  if (!quantity.empty()) {
    chosen = quantity_of_name(quantity);
    if (!chosen) {
      errors.add(Source::options, 0, 0,
                 "option quantity: expected G, term, CG, DCG, IG, ideal-term, IDCG or NDCG, got " +
                     quote(quantity));
    }
  }
  for (const WorkingColumn& c : working.value) {
    if (!c.quantity && !chosen && errors.empty()) {
      errors.add(Source::working, c.values.front().line, 0,
                 "these numbers have no name: write DCG = (…) or choose what the column holds "
                 "(G, CG, DCG, IDCG or NDCG)");
    }
  }
  for (const Diagnostic& d : e.errors) errors.add(d);
  if (!errors.empty()) {
    out.errors = errors.finish();
    return out;
  }
  Options current;
  set_options(current, option_values);  // valid: the explanation above accepted them
  for (const WorkingColumn& c : working.value) {
    ColumnChecker checker(texts, option_values, e, c,
                          c.quantity.value_or(chosen.value_or(Quantity::dcg)));
    checker.current_ = current;
    out.columns.push_back(checker.run());
  }
  out.ok = true;
  return out;
}

}  // namespace ndcg
