// Streaming readers of TREC files: qrels ("qid iter docno grade"), runs ("qid Q0 docno rank
// score tag"), and trec_eval's -Z table, read line by line as trec_eval 10.0 reads them
// (comments, extra run fields, white space) or refused with a located error where its reading
// would be silent (a grade "1e2", which C's atol reads as 1).
#include <algorithm>
#include <bit>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

#include "byte_masks.hpp"
#include "ndcg/options.hpp"
#include "ndcg/trec.hpp"
#include "trec_memory.hpp"

// What a file seldom needs (errors, preferences, -Z, the end of a file) is built for size even
// where the rest of this file is built for speed (the page's core builds it at -O2).
#if defined(__clang__)
#define NDCG_COLD __attribute__((cold, minsize))
#else
#define NDCG_COLD __attribute__((cold))
#endif

namespace ndcg::trec {
namespace {

// Estimated bytes held per kept judgment beyond its text: hash node, string and vector slack.
constexpr std::size_t kJudgmentOverhead = 96;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

// Splits on runs of spaces and tabs; returns the number of fields found (up to `max`), and
// whether there were more.
std::size_t split_blank(std::string_view line, Field* out, std::size_t max, bool* more) {
  std::size_t count = 0;
  std::size_t i = 0;
  *more = false;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i >= line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (count == max) {
      *more = true;
      break;
    }
    out[count++] = Field{line.substr(start, i - start), static_cast<std::uint32_t>(start)};
  }
  return count;
}

// Whether the n bytes at a and b are the same, for sizeof(Word) <= n <= 2 * sizeof(Word): their
// first and their last sizeof(Word) bytes, which may overlap.
template <class Word>
__attribute__((always_inline)) inline bool same_words(const char* a, const char* b, std::size_t n) {
  constexpr std::size_t w = sizeof(Word);
  Word a0, a1, b0, b1;
  std::memcpy(&a0, a, w);
  std::memcpy(&b0, b, w);
  std::memcpy(&a1, a + n - w, w);
  std::memcpy(&b1, b + n - w, w);
  return a0 == b0 && a1 == b1;
}

// Whether two texts are the same, for a line's query id and run tag against the line before's:
// inline rather than a call to memcmp on every line. Up to 16 bytes, two loads of a fixed size
// from each, which may overlap (the first and the last 8, 4 or 2 bytes): a byte at a time, a
// three-byte id took about 25 instructions. (A function of its own for each size, always
// inlined: as a generic lambda, the profile-guided build called the one of 4 bytes, 5 % of the
// native program's samples.)
__attribute__((always_inline)) inline bool same_text(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (n > 16) return a == b;
  if (n >= 8) return same_words<std::uint64_t>(a.data(), b.data(), n);
  if (n >= 4) return same_words<std::uint32_t>(a.data(), b.data(), n);
  if (n >= 2) return same_words<std::uint16_t>(a.data(), b.data(), n);
  return n == 0 || a[0] == b[0];
}

NDCG_COLD void report_docno_length(const Field& docno, std::string_view text, std::uint32_t number,
                                   Source source, DiagnosticList& errors) {
  errors.add(source, number, column_of(text, docno.offset),
             "the docno is " + std::to_string(docno.text.size()) +
                 " bytes long; docnos are limited to " + std::to_string(kMaxDocIdBytes) + " bytes");
}

// Whether a docno is too long, reported if so: the check inline, as it is asked for every
// judgment, and the report out of the way.
inline bool report_long_docno(const Field& docno, std::string_view text, std::uint32_t number,
                              Source source, DiagnosticList& errors) {
  if (docno.text.size() <= kMaxDocIdBytes) return false;
  report_docno_length(docno, text, number, source, errors);
  return true;
}

bool is_ascii_blank_line(std::string_view text) {
  return trim_ascii(text).empty();
}

// Splits `text` into exactly N fields, or reports how many it found against `layout`.
template <std::size_t N>
bool split_exactly(std::string_view text, std::uint32_t number, Source source,
                   std::string_view layout, Field (&out)[N], DiagnosticList& errors) {
  bool more = false;
  const std::size_t count = split_blank(text, out, N, &more);
  if (count == N && !more) return true;
  errors.add(source, number, 1,
             "expected " + std::string(layout) + ", found " + (more ? "more than " : "") +
                 std::to_string(count) + " field" + (count == 1 && !more ? "" : "s"));
  return false;
}

// The first line of a qrels file that has a run's shape (6 fields, numeric rank and score), or
// the first line of a run with a qrels' shape (4 fields, numeric iteration and grade): the two
// files were most likely given the other way round. Said once, instead of an error a line.
NDCG_COLD bool has_shape_of_other_file(std::string_view text, Source reading) {
  Field f[6];
  bool more = false;
  const std::size_t count = split_blank(text, f, 6, &more);
  if (more) return false;
  if (reading == Source::qrels) {
    return count == 6 && parse_integer(f[3].text) && parse_decimal(f[4].text) &&
           !parse_integer(f[1].text);
  }
  return count == 4 && parse_integer(f[1].text) && parse_integer(f[3].text);
}

// A run's score as C's atof reads it, less its silent readings: a decimal number, or an
// infinity ("inf", "-Infinity", or a number too large for a double, as atof gives them). NaN
// and text with trailing characters are refused: atof would read "12abc" as 12 and "abc" as 0.
std::optional<double> read_score(std::string_view text) {
  bool out_of_range = false;
  if (const auto value = parse_decimal(text, &out_of_range)) return value;
  const bool negative = !text.empty() && text.front() == '-';
  if (out_of_range) return negative ? -HUGE_VAL : HUGE_VAL;
  std::string_view word = text;
  if (!word.empty() && (word.front() == '-' || word.front() == '+')) word.remove_prefix(1);
  std::string lower;
  for (char c : word) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "inf" || lower == "infinity") return negative ? -HUGE_VAL : HUGE_VAL;
  return std::nullopt;
}

NDCG_COLD void report_swapped(Source reading, std::uint32_t number, DiagnosticList& errors) {
  errors.add(Diagnostic{
      reading, number, 1,
      reading == Source::qrels
          ? "this looks like a run line 'query Q0 docno rank score tag', not a qrels line "
            "'query iteration docno grade': were the qrels and run files swapped?"
          : "this looks like a qrels line 'query iteration docno grade', not a run line "
            "'query Q0 docno rank score tag': were the qrels and run files swapped?",
      "files-swapped"});
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Fields found a word at a time

namespace {

// The bounds of a line's first six fields, split on runs of spaces and tabs (as split_blank splits
// them), how many fields there are, and whether any byte is 0x80 or more (a column in code points
// then differs from a byte offset).
struct Fields {
  static constexpr std::size_t N = 6;
  std::uint32_t begin[N];  // set before they are read, so left uninitialised
  std::uint32_t end[N];
  std::size_t count = 0;
  bool high = false;
  Field field(std::string_view text, std::size_t k) const {
    // Bounds set by scan_fields from this text: no check needed (substr would check each one).
    return Field{std::string_view(text.data() + begin[k], end[k] - begin[k]), begin[k]};
  }
};

// Splits `text` into `out`, 64 bytes at a time: a bit per byte says whether it is a blank
// (detail::classify16, 16 bytes a step), and fields start where a set bit is followed by a clear
// one, so a line costs a few vector operations and one step per field rather than a branch per
// byte. False when the line holds a control character other than a tab, for the general path to
// report.
bool scan_fields(std::string_view text, Fields& out) {
  constexpr std::size_t N = Fields::N;
  const char* p = text.data();
  const std::size_t n = text.size();
  std::uint32_t high = 0;
  bool open = false;  // whether the byte before this block is in a field
  std::size_t field_start = 0;
  std::size_t count = 0;
  for (std::size_t block = 0; block < n; block += 64) {
    std::uint64_t blanks = 0;  // bit j: byte block + j is a space or a tab (or past the end)
    for (std::size_t w = 0; w < 4; ++w) {
      const std::size_t at = block + 16 * w;
      if (at >= n) {
        blanks |= ~std::uint64_t{0} << (16 * w);
        break;
      }
      const detail::ByteMasks m = n - at >= 16 ? detail::classify16(p + at)
                                               : detail::classify_tail(p + at, n - at, n >= 16);
      if (m.control != 0) return false;
      high |= m.high;
      blanks |= std::uint64_t{m.blank} << (16 * w);
    }
    // Field starts: a byte not blank after a blank; ends: a blank after a byte that is not.
    // Starts and ends alternate, an end first when a field is open from the block before, so
    // each step takes one of each (no branch on which comes first, which a line's field widths
    // make unpredictable).
    const std::uint64_t before = (blanks << 1) | (open ? 0 : 1);  // bit j: byte j - 1 is blank
    std::uint64_t starts = ~blanks & before;
    std::uint64_t ends = blanks & ~before;
    const auto close = [&](std::size_t end) {
      if (count < N) {
        out.begin[count] = static_cast<std::uint32_t>(field_start);
        out.end[count] = static_cast<std::uint32_t>(end);
      }
      ++count;
    };
    if (open && ends != 0) {
      close(block + static_cast<std::size_t>(std::countr_zero(ends)));
      ends &= ends - 1;
    }
    while (starts != 0) {
      field_start = block + static_cast<std::size_t>(std::countr_zero(starts));
      starts &= starts - 1;
      if (ends == 0) break;  // the field goes on into the next block
      close(block + static_cast<std::size_t>(std::countr_zero(ends)));
      ends &= ends - 1;
    }
    open = (blanks >> 63) == 0;
  }
  if (open) {  // a field that ends with the line (the line fills its last block)
    if (count < N) {
      out.begin[count] = static_cast<std::uint32_t>(field_start);
      out.end[count] = static_cast<std::uint32_t>(n);
    }
    ++count;
  }
  out.count = count;
  out.high = high != 0;
  return true;
}

// The fields of a line that LineSplitter classified (a short line): as scan_fields finds them,
// from the blank bits alone. Every bit past the line is a blank, so each start has its end
// within the 64 bits, and the k-th end closes the k-th start. (Written into `out` in place: a
// Fields returned and copied is stored a word at a time and read back a vector at a time,
// which the CPU cannot forward.)
void fields_of(const LineSplitter::ShortLine& classes, Fields& out) {
  constexpr std::size_t N = Fields::N;
  const std::uint64_t before = (classes.blanks << 1) | 1;  // bit j: byte j - 1 is blank
  std::uint64_t starts = ~classes.blanks & before;
  std::uint64_t ends = classes.blanks & ~before;
  std::size_t count = 0;
  for (; starts != 0 && count < N; ++count) {
    out.begin[count] = static_cast<std::uint32_t>(std::countr_zero(starts));
    out.end[count] = static_cast<std::uint32_t>(std::countr_zero(ends));
    starts &= starts - 1;
    ends &= ends - 1;
  }
  for (; starts != 0; ++count) starts &= starts - 1;  // fields past the sixth: counted only
  out.count = count;
  out.high = classes.high;
}

// The line's fields: from LineSplitter's classes when it gives them, else read here. False
// when the line holds a control character other than a tab.
bool fields_of_line(std::string_view text, const LineSplitter::ShortLine* classes, Fields& out) {
  if (classes != nullptr) {
    fields_of(*classes, out);
    return true;
  }
  return scan_fields(text, out);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Docno hashes and the judged documents of a query

std::uint64_t docno_hash(std::string_view docno) {
  const char* p = docno.data();
  const std::size_t n = docno.size();
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ (n * 0xFF51AFD7ED558CCDull);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p + i, 8);
    h = (h ^ word) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  if (i < n) {
    // The last 1 to 7 bytes, in the word's low bytes in order: from the word that ends with them
    // when the docno has 8 bytes or more (one load, not a copy of unknown length); else from two
    // loads of 4 bytes that may overlap (4 to 7 bytes), or the first, middle and last bytes (1 to
    // 3), each byte placed at its own position (where loads overlap, the same byte twice).
    std::uint64_t word = 0;
    if (n >= 8) {
      std::memcpy(&word, p + n - 8, 8);
      word >>= 8 * (8 - (n - i));
    } else if (n >= 4) {
      std::uint32_t first = 0;
      std::uint32_t last = 0;
      std::memcpy(&first, p, 4);
      std::memcpy(&last, p + n - 4, 4);
      word = std::uint64_t{first} | (std::uint64_t{last} << (8 * (n - 4)));
    } else {
      const auto byte = [&](std::size_t k) {
        return std::uint64_t{static_cast<unsigned char>(p[k])} << (8 * k);
      };
      word = byte(0) | byte(n / 2) | byte(n - 1);
    }
    h = (h ^ word) * 0x94D049BB133111EBull;
    h ^= h >> 29;
  }
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 32);
}

// Past the filter (find): the entries scanned while they are few, else the slots probed.
const JudgedDocs::Entry* JudgedDocs::find_in_table(std::string_view docno,
                                                   std::uint64_t hash) const {
  if (slots_.empty()) {
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      if (docno_at(k) == docno) return &entries_[k];
    }
    return nullptr;
  }
  const std::size_t slot = slot_at(probe(docno, hash));
  return slot == 0 ? nullptr : &entries_[slot - 1];
}

std::size_t JudgedDocs::probe(std::string_view docno, std::uint64_t hash) const {
  const std::size_t mask = slot_count() - 1;
  for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
    const std::size_t slot = slot_at(i);
    if (slot == 0 || docno_at(slot - 1) == docno) return i;
  }
}

const JudgedDocs::Entry* JudgedDocs::insert(std::string_view docno, std::uint64_t hash,
                                            std::int64_t grade, std::uint32_t line) {
  if (slots_.empty() && entries_.size() < kScanned) {
    if (const Entry* e = find(docno, hash)) return e;
    append(docno, grade, line);
    return nullptr;
  }
  if ((entries_.size() + 1) * 2 > slot_count()) grow();
  const std::size_t at = probe(docno, hash);
  if (const std::size_t slot = slot_at(at); slot != 0) return &entries_[slot - 1];
  append(docno, grade, line);
  set_slot(at, entries_.size());
  filter(hash);
  return nullptr;
}

void JudgedDocs::append(std::string_view docno, std::int64_t grade, std::uint32_t line) {
  entries_.push_back(Entry{grade, line, static_cast<std::uint32_t>(docnos_.size())});
  docnos_.insert(docnos_.end(), docno.begin(), docno.end());
}

namespace {

// `to` as a copy of `from`, in storage of its size: a function of its own for each type, as
// settle() runs for every query and a wasm engine optimises it in a time that grows with its
// size (with four copies inline, 2.3 KB of wasm).
template <class T>
NDCG_OUT_OF_LINE void copy_exact(std::vector<T>& to, const std::vector<T>& from) {
  to.assign(from.begin(), from.end());
}

}  // namespace

void JudgedDocs::settle(JudgedDocs& building) {
  copy_exact(entries_, building.entries_);
  copy_exact(docnos_, building.docnos_);
  const std::size_t size = table_size(entries_.size());
  if (size == building.slot_count()) {
    copy_exact(slots_, building.slots_);
    copy_exact(filter_, building.filter_);
    filter_mask_ = building.filter_mask_;
  } else if (size > 0) {
    place_all(size);
  }
  building.entries_.clear();
  building.docnos_.clear();
  building.zero_slots(size);
  building.size_filter();
}

std::size_t JudgedDocs::table_size(std::size_t count) {
  if (count <= kScanned) return 0;
  std::size_t size = 4 * kScanned;
  while (size < 2 * count) size *= 2;
  return size;
}

void JudgedDocs::place_all(std::size_t size) {
  zero_slots(size);
  size_filter();
  const std::size_t mask = size - 1;
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    const std::uint64_t hash = docno_hash(docno_at(k));
    std::size_t i = static_cast<std::size_t>(hash) & mask;
    while (slot_at(i) != 0) i = (i + 1) & mask;
    set_slot(i, k + 1);
    filter(hash);
  }
}

// Kept at most half full: doubles the table (from four times kScanned, when the entries outgrow
// their linear scan) and places every entry again.
void JudgedDocs::grow() {
  place_all(std::max<std::size_t>(4 * kScanned, slot_count() * 2));
}

// ---------------------------------------------------------------------------------------------
// QrelsReader

void QrelsReader::feed(std::string_view chunk) {
  lines_.feed(
      chunk, [this](std::string_view text, std::uint32_t n) { line(text, n); },
      [this](std::string_view text, std::uint32_t n, const LineSplitter::ShortLine& classes) {
        line(text, n, &classes);
      });
}

NDCG_COLD void QrelsReader::finish() {
  lines_.finish([this](std::string_view text, std::uint32_t n) { line(text, n); });
  spans_.end(lines_.bytes_fed());
  if (judgments_ == 0 && errors_.empty()) {
    errors_.add(Source::qrels, 0, 0,
                "the qrels file has no judgments; expected lines 'query iteration docno grade'");
  }
  if (last_query_ != nullptr && last_query_new_) settle(*last_query_);
  last_query_new_ = false;
  complete_queries();
}

// Out of finish(), which is built for size: this visits every judgment.
void QrelsReader::complete_queries() {
  std::vector<std::int64_t> grades;  // for count_grades
  for (auto& [qid, query] : queries_) {
    shrink(query);
    if (!query.preferences.empty()) check_preferences(qid, query.preferences);
    count_grades(query, grades);
    // Most qrels have no judgment groups; a sort called for every query, even of nothing, is a
    // function the wasm engine optimises (2.6 KB).
    if (query.groups.size() > 1) {
      std::sort(query.groups.begin(), query.groups.end(),
                [](const JudgmentGroup& a, const JudgmentGroup& b) { return a.id < b.id; });
    }
    for (JudgmentGroup& group : query.groups) count_grades(group.judged, grades);
  }
}

// A query's judged documents per grade >= 0, best grade first. Most queries have a few grades,
// counted in a short list sorted once; one with more sorts its grades (in `grades`). Sorting
// every query's grades was a tenth of reading the qrels.
void QrelsReader::count_grades(QueryQrels& query, std::vector<std::int64_t>& grades) {
  constexpr std::size_t kFewGrades = 16;
  auto& counts = query.grade_counts;
  counts.clear();
  bool few = true;
  for (const JudgedDocs::Entry& j : query.by_doc.entries()) {
    if (j.grade < 0) continue;
    auto at = std::find_if(
        counts.begin(), counts.end(),
        [&](const std::pair<std::int64_t, std::int64_t>& c) { return c.first == j.grade; });
    if (at != counts.end()) {
      ++at->second;
    } else if (counts.size() < kFewGrades) {
      counts.emplace_back(j.grade, 1);
    } else {
      few = false;
      break;
    }
  }
  if (few) {
    // At most 16 distinct grades: an insertion sort, best grade first.
    for (std::size_t i = 1; i < counts.size(); ++i) {
      const auto c = counts[i];
      std::size_t at = i;
      for (; at > 0 && counts[at - 1].first < c.first; --at) counts[at] = counts[at - 1];
      counts[at] = c;
    }
    return;
  }
  grades.clear();
  for (const JudgedDocs::Entry& j : query.by_doc.entries()) {
    if (j.grade >= 0) grades.push_back(j.grade);
  }
  std::sort(grades.begin(), grades.end(), std::greater<>());
  counts.clear();
  for (std::int64_t g : grades) {
    if (counts.empty() || counts.back().first != g) counts.emplace_back(g, 0);
    ++counts.back().second;
  }
}

void QrelsReader::line(std::string_view text, std::uint32_t number,
                       const LineSplitter::ShortLine* classes) {
  if (stopped_) return;
  // The common line, after the first judgment: four fields, no control character, in a qrels
  // file (preferences take the general path).
  Fields fields;
  if (judgments_ > 0 && !careful_ && !text.empty() && text.front() != '#' &&
      (format_ == RelFormat::qrels || format_ == RelFormat::qrels_jg) &&
      fields_of_line(text, classes, fields) && fields.count == 4) {
    const Field f[4] = {fields.field(text, 0), fields.field(text, 1), fields.field(text, 2),
                        fields.field(text, 3)};
    judgment(text, number, f);
    return;
  }
  general_line(text, number);
}

NDCG_COLD void QrelsReader::general_line(std::string_view text, std::uint32_t number) {
  if (is_ascii_blank_line(text)) {
    if (blank_lines_++ == 0) first_blank_line_ = number;
    return;
  }
  // trec_eval skips a qrels line that starts with '#' (in its first column only).
  if (text.front() == '#') return;
  if (report_control_character(text, Source::qrels, number, errors_)) return;
  if (judgments_ == 0 && errors_.empty() && has_shape_of_other_file(text, Source::qrels)) {
    report_swapped(Source::qrels, number, errors_);
    stopped_ = true;
    return;
  }
  if (format_ == RelFormat::prefs || format_ == RelFormat::qrels_prefs) {
    preference_line(text, number);
    return;
  }
  Field f[4];
  if (judgments_ == 0 && errors_.empty()) {
    Field five[5];
    bool more = false;
    if (split_blank(text, five, 5, &more) == 5 && !more && parse_decimal(five[4].text)) {
      errors_.add(Source::qrels, number, 0,
                  "expected 4 fields 'query iteration docno grade', found 5 ending in a number: "
                  "is this a preferences file ('query group subgroup docno level')? Read it "
                  "with -R prefs");
      stopped_ = true;
      return;
    }
  }
  if (!split_exactly(text, number, Source::qrels, "4 fields 'query iteration docno grade'", f,
                     errors_)) {
    return;
  }
  judgment(text, number, f);
}

// A judgment line's four fields, split. What is rare (an error, judgment groups) is a function
// of its own: in wasm this one is optimised once hot, in a time that grows with its size.
void QrelsReader::judgment(std::string_view text, std::uint32_t number, const Field* f) {
  bool out_of_range = false;
  const auto grade = parse_integer(f[3].text, &out_of_range);
  if (!grade) {
    report_grade(text, number, f[3], out_of_range);
    return;
  }
  if (report_long_docno(f[2], text, number, Source::qrels, errors_)) return;
  bool new_query = false;
  QueryQrels& query = query_of(f[0].text, &new_query);
  JudgedDocs* into = format_ == RelFormat::qrels_jg ? &group_of(query, f[1].text)
                     : last_query_new_              ? &building_
                                                    : &query.by_doc;
  const std::size_t bytes_before = into->bytes();
  const JudgedDocs::Entry* judged_before =
      into->insert(f[2].text, docno_hash(f[2].text), *grade, number);
  if (judged_before != nullptr) {
    report_judged_again(text, number, f, judged_before->line);
    return;
  }
  ++judgments_;
  kept_ += into->bytes() - bytes_before + (new_query ? f[0].text.size() + kQueryOverhead : 0);
  check_memory(number);
}

NDCG_COLD void QrelsReader::report_grade(std::string_view text, std::uint32_t number,
                                         const Field& grade, bool out_of_range) {
  errors_.add(Source::qrels, number, column_of(text, grade.offset),
              "grade " + quote(grade.text) +
                  (out_of_range ? " does not fit a 64-bit integer; grades are small whole "
                                  "numbers such as 0, 1, 2"
                                : " is not a whole number written in digits; trec_eval reads "
                                  "qrels grades as integers"));
}

NDCG_COLD void QrelsReader::report_judged_again(std::string_view text, std::uint32_t number,
                                                const Field* f, std::uint32_t first_line) {
  const bool judgment_groups = format_ == RelFormat::qrels_jg;
  errors_.add(Source::qrels, number, column_of(text, f[2].offset),
              "document " + quote(f[2].text) + " is judged again for query " + quote(f[0].text) +
                  (judgment_groups ? " in judgment group " + quote(f[1].text) : "") +
                  " (first on line " + std::to_string(first_line) +
                  "); trec_eval rejects this, keep one line");
}

// The judged documents of `query`'s judgment group `id` (-R qrels_jg), made when it is new.
NDCG_COLD JudgedDocs& QrelsReader::group_of(QueryQrels& query, std::string_view id) {
  auto& groups = query.groups;
  auto group = std::find_if(groups.begin(), groups.end(),
                            [&](const JudgmentGroup& g) { return g.id == id; });
  if (group == groups.end()) {
    groups.push_back(JudgmentGroup{std::string(id), QueryQrels{}});
    group = groups.end() - 1;
    kept_ += id.size() + kQueryOverhead;
  }
  return group->judged.by_doc;
}

// The query a line is about: the previous line's, most often, found without a lookup.
QueryQrels& QrelsReader::query_of(std::string_view qid, bool* created) {
  *created = false;
  if (last_query_ != nullptr && same_text(qid, last_qid_)) return *last_query_;
  return next_query(qid, created);
}

// A line about another query than the line before's: once a query, in qrels grouped by query.
QueryQrels& QrelsReader::next_query(std::string_view qid, bool* created) {
  // The query of the lines before is most often complete (qrels grouped by query): its
  // judgments settle into a table of their size. A query whose lines are apart takes the later
  // ones in its own table, left as it is until finish, so that reading them costs no copy per
  // stretch.
  if (last_query_ != nullptr && last_query_new_) settle(*last_query_);
  spans_.begin(qid, lines_.line_start());
  last_qid_.assign(qid);
  // Once a query is met again, queries are found by hash: in qrels whose queries are apart,
  // every line may start a stretch, and the map's search compares ids a dozen times. Grouped
  // qrels never build the index.
  if (!query_index_.empty()) {
    if (QueryQrels* known = indexed_query()) {
      last_query_new_ = false;
      last_query_ = known;
      if (known->dropped) dropped_met_again_ = true;
      return *known;
    }
  }
  // Placed at the end at once when it sorts last, as the queries of sorted qrels do, else where
  // the map's search puts it.
  const std::size_t before = queries_.size();
  const auto it = queries_.try_emplace(queries_.end(), std::string(qid));
  const bool inserted = queries_.size() != before;
  if (!query_index_.empty() || !inserted) index_query(*it);
  if (inserted) {
    it->second.dropped = filter_ != nullptr && !filter_->keeps(qid);
  } else if (it->second.dropped) {
    dropped_met_again_ = true;
  }
  *created = inserted;
  last_query_new_ = inserted;
  last_query_ = &it->second;
  return it->second;
}

// The query last_qid_ names, found by the index (once a query was met again), or null.
QueryQrels* QrelsReader::indexed_query() {
  const auto known = query_index_.find(last_qid_);
  return known == query_index_.end() ? nullptr : indexed_queries_[known->second];
}

// `query` indexed by its id; the first time a query is met again, every query so far. A map's
// elements stay where they are. (Keyed by copies of the ids: that kind of table is in the core
// already, and the page's module does not grow by another.)
void QrelsReader::index_query(std::pair<const std::string, QueryQrels>& query) {
  if (!query_index_.empty()) {
    query_index_.emplace(query.first, indexed_queries_.size());
    indexed_queries_.push_back(&query.second);
    return;
  }
  query_index_.reserve(queries_.size() * 2);
  for (auto& [id, known] : queries_) {
    query_index_.emplace(id, indexed_queries_.size());
    indexed_queries_.push_back(&known);
  }
}

void QrelsReader::settle(QueryQrels& query) {
  const std::size_t before = building_.bytes();
  // A dropped query's judgments (keep_only) are settled as any, to count what they would hold,
  // and let go.
  JudgedDocs dropped;
  JudgedDocs& into = query.dropped ? dropped : query.by_doc;
  into.settle(building_);
  kept_ += into.bytes() + building_.bytes();
  kept_ -= std::min(kept_, before);
  for (JudgmentGroup& group : query.groups) shrink(group.judged.by_doc);
}

void QrelsReader::shrink(QueryQrels& query) {
  shrink(query.by_doc);
  for (JudgmentGroup& group : query.groups) shrink(group.judged.by_doc);
}

void QrelsReader::shrink(JudgedDocs& docs) {
  const std::size_t before = docs.bytes();
  docs.shrink();
  kept_ -= std::min(kept_, before - docs.bytes());
}

NDCG_COLD void QrelsReader::stop_at_memory_limit(std::uint32_t number) {
  errors_.add(Source::qrels, number, 0,
              "the qrels need more than " + megabytes(memory_limit_) + " of memory by this line (" +
                  std::to_string(judgments_) +
                  " judgments); the evaluator holds at most that much of them. Split the "
                  "qrels by query and evaluate the parts");
  stopped_ = true;
}

// Preferences: "qid group subgroup docno level" (prefs), or "qid group docno level" (a qrels
// file read as preferences, one subgroup per group), as trec_eval's get_prefs.c and
// get_qrels_prefs.c read them, except that a level must be a number >= 0: atof would read
// "abc" as 0, and a negative level makes trec_eval read outside its arrays for
// prefs_avgjg_Rnonrel.
NDCG_COLD void QrelsReader::preference_line(std::string_view text, std::uint32_t number) {
  const bool prefs = format_ == RelFormat::prefs;
  Field f[5];
  bool split = false;
  if (prefs) {
    split = split_exactly(text, number, Source::qrels,
                          "5 fields 'query group subgroup docno level' (-R prefs)", f, errors_);
  } else {
    Field g[4];
    split = split_exactly(text, number, Source::qrels,
                          "4 fields 'query group docno level' (-R qrels_prefs)", g, errors_);
    f[0] = g[0];
    f[1] = g[1];
    f[2] = Field{"0", g[1].offset};  // the one subgroup
    f[3] = g[2];
    f[4] = g[3];
  }
  if (!split) return;
  const auto level = parse_decimal(f[4].text);
  if (!level || *level < 0) {
    errors_.add(Source::qrels, number, column_of(text, f[4].offset),
                "preference level " + quote(f[4].text) +
                    " is not a number 0 or more; levels rank the documents of a subgroup, "
                    "highest preferred, and 0 means not relevant");
    return;
  }
  if (report_long_docno(f[3], text, number, Source::qrels, errors_)) return;
  bool new_query = false;
  query_of(f[0].text, &new_query)
      .preferences.push_back(Preference{std::string(f[1].text), std::string(f[2].text),
                                        std::string(f[3].text), *level, number});
  ++judgments_;
  kept_ += f[1].text.size() + f[2].text.size() + f[3].text.size() + kJudgmentOverhead +
           (new_query ? f[0].text.size() + kQueryOverhead : 0);
  check_memory(number);
}

// Sorts one query's preferences by group, subgroup and docno, and refuses what trec_eval
// refuses or cannot read consistently: a document twice in one subgroup (at two levels
// trec_eval stops, at one it counts its preferences twice), and, in a group of several
// subgroups, a document relevant (level > 0) in one and not (0) in another.
NDCG_COLD void QrelsReader::check_preferences(const std::string& qid,
                                              std::vector<Preference>& prefs) {
  std::sort(prefs.begin(), prefs.end(), [](const Preference& a, const Preference& b) {
    if (a.group != b.group) return a.group < b.group;
    if (a.subgroup != b.subgroup) return a.subgroup < b.subgroup;
    if (a.docno != b.docno) return a.docno < b.docno;
    return a.line < b.line;
  });
  const bool prefs_file = format_ == RelFormat::prefs;
  const auto where = [&](const Preference& p, bool subgroup) {
    return " for query " + quote(qid) + " in judgment group " + quote(p.group) +
           (subgroup && prefs_file ? ", subgroup " + quote(p.subgroup) : std::string());
  };
  for (std::size_t i = 1; i < prefs.size(); ++i) {
    const Preference& a = prefs[i - 1];
    const Preference& b = prefs[i];
    if (a.group == b.group && a.subgroup == b.subgroup && a.docno == b.docno) {
      const Preference& later = a.line < b.line ? b : a;
      errors_.add(Source::qrels, later.line, 0,
                  "document " + quote(b.docno) + " is judged again" + where(b, true) +
                      " (first on line " + std::to_string(std::min(a.line, b.line)) +
                      "); a document has one level in a subgroup: keep one line" +
                      (prefs_file ? ", or put the other in a subgroup of its own" : ""));
    }
  }
  // Relevant in one subgroup, not relevant in another of the same group.
  std::size_t start = 0;
  while (start < prefs.size()) {
    std::size_t end = start;
    bool several = false;
    while (end < prefs.size() && prefs[end].group == prefs[start].group) {
      several = several || prefs[end].subgroup != prefs[start].subgroup;
      ++end;
    }
    if (several) {
      std::vector<const Preference*> by_doc;
      for (std::size_t i = start; i < end; ++i) by_doc.push_back(&prefs[i]);
      std::stable_sort(by_doc.begin(), by_doc.end(), [](const Preference* a, const Preference* b) {
        return a->docno < b->docno;
      });
      for (std::size_t i = 1; i < by_doc.size(); ++i) {
        const Preference& a = *by_doc[i - 1];
        const Preference& b = *by_doc[i];
        if (a.docno != b.docno || (a.level > 0) == (b.level > 0)) continue;
        const Preference& later = a.line < b.line ? b : a;
        errors_.add(Source::qrels, later.line, 0,
                    "document " + quote(b.docno) +
                        " is relevant (level > 0) in one subgroup and "
                        "not relevant (0) in another" +
                        where(b, false) + " (lines " + std::to_string(std::min(a.line, b.line)) +
                        " and " + std::to_string(later.line) + "); trec_eval rejects this");
      }
    }
    start = end;
  }
}

// ---------------------------------------------------------------------------------------------
// SpanRecorder

void SpanRecorder::begin(std::string_view qid, std::uint64_t offset) {
  if (!on_ || dropped_) return;
  if (!spans_.empty()) spans_.back().end = offset;
  if (spans_.size() == kMaxSpans) {
    dropped_ = true;
    spans_ = {};
    return;
  }
  spans_.push_back(QuerySpan{std::string(qid), offset, offset});
}

void SpanRecorder::end(std::uint64_t offset) {
  if (on_ && !dropped_ && !spans_.empty()) spans_.back().end = offset;
}

void SpanRecorder::append(const std::vector<QuerySpan>& later, bool given_up) {
  if (!on_ || dropped_) return;
  if (given_up || spans_.size() + later.size() > kMaxSpans) {
    dropped_ = true;
    spans_ = {};
    return;
  }
  spans_.insert(spans_.end(), later.begin(), later.end());
}

// ---------------------------------------------------------------------------------------------
// RunReader

void RunReader::feed(std::string_view chunk) {
  // A run whose queries are apart is read again from its start (regroup_needed()).
  if (regroup_needed_) return;
  lines_.feed(
      chunk, [this](std::string_view text, std::uint32_t n) { line(text, n); },
      [this](std::string_view text, std::uint32_t n, const LineSplitter::ShortLine& classes) {
        line(text, n, &classes);
      });
}

NDCG_COLD void RunReader::finish() {
  lines_.finish([this](std::string_view text, std::uint32_t n) { line(text, n); });
  spans_.end(lines_.bytes_fed());
  close_current();
  if (buffer_all_) {
    // In trec_eval's order (byte order of the ids), as a sorted run's queries come.
    std::vector<std::string_view> ids;
    ids.reserve(buffered_.size());
    for (const QueryRun& run : buffered_) ids.emplace_back(run.qid);
    std::sort(ids.begin(), ids.end());
    for (const std::string_view id : ids) {
      on_query_(buffered_[buffered_index_.find(std::string(id))->second]);
    }
    buffered_.clear();
    buffered_index_.clear();
  }
  if (!any_line_ && errors_.empty()) {
    errors_.add(Source::run, 0, 0,
                "the run file has no results; expected lines 'query Q0 docno rank score tag'");
  }
}

namespace {

// A query id's 64-bit hash for RunReader's table of closed queries: docno_hash's, never 0 (the
// empty slot).
std::uint64_t query_hash(std::string_view qid) {
  const std::uint64_t h = docno_hash(qid);
  return h == 0 ? 1 : h;
}

}  // namespace

bool RunReader::closed_contains(std::uint64_t hash) const {
  if (closed_.empty()) return false;
  const std::size_t mask = closed_.size() - 1;
  for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
    if (closed_[i] == hash) return true;
    if (closed_[i] == 0) return false;
  }
}

bool RunReader::closed_insert(std::uint64_t hash) {
  if ((closed_count_ + 1) * 2 > closed_.size()) {
    // Kept at most half full: double it and place the hashes again.
    std::vector<std::uint64_t> old = std::move(closed_);
    closed_.assign(std::max<std::size_t>(64, old.size() * 2), 0);
    closed_count_ = 0;
    for (const std::uint64_t h : old) {
      if (h != 0) closed_insert(h);
    }
  }
  const std::size_t mask = closed_.size() - 1;
  for (std::size_t i = static_cast<std::size_t>(hash) & mask;; i = (i + 1) & mask) {
    if (closed_[i] == hash) return false;
    if (closed_[i] == 0) {
      closed_[i] = hash;
      ++closed_count_;
      return true;
    }
  }
}

void RunReader::continue_from_line(std::uint32_t first_line, std::uint64_t first_byte) {
  lines_.start_at_line(first_line, first_byte);
  any_line_ = true;  // the file's first line, and whether it has any, are the first part's
}

bool RunReader::shares_query_with(const RunPart& later) const {
  for (const std::uint64_t h : later.queries) {
    if (closed_contains(h)) return true;
  }
  return false;
}

void RunReader::part(RunPart& out) const {
  out.regroup_needed = regroup_needed_;
  out.stopped = stopped_;
  out.run_tag = run_tag_;
  out.queries.clear();
  for (const std::uint64_t h : closed_) {
    if (h != 0) out.queries.push_back(h);
  }
  const std::vector<QuerySpan>* spans = spans_.spans();
  out.spans = spans != nullptr ? *spans : std::vector<QuerySpan>{};
  out.spans_given_up = spans_.given_up();
  out.reader_errors = errors_.items();
  out.reader_errors_whole = errors_.size() == errors_.items().size();
}

void RunReader::absorb(const RunPart& later) {
  for (const Diagnostic& d : later.reader_errors) errors_.add(d);
  if (!later.run_tag.empty()) run_tag_ = later.run_tag;
  for (const std::uint64_t h : later.queries) closed_insert(h);
  spans_.append(later.spans, later.spans_given_up);
}

void RunReader::close_current() {
  if (current_.qid.empty() && current_.docs.empty()) return;
  if (buffer_all_) {
    if (!keep_buffered()) return;
  } else {
    // The open query's documents leave with it; its id stays, to notice a query seen twice.
    kept_ -= std::min(kept_, current_.docs.size() * kRunDocOverhead + current_.docnos.size());
    kept_ += current_.qid.size() + kQueryOverhead;
    closed_insert(query_hash(current_.qid));
    if (errors_.empty() && !regroup_needed_) on_query_(current_);
  }
  // Emptied, not replaced: the next query reuses the buffers.
  current_.qid.clear();
  current_.docs.clear();
  current_.docnos.clear();
}

// A run read again, grouped (buffer_all_): the open query kept whole, joined to its earlier
// stretches. False when it was kept as it is (current_ is then a new, empty query).
bool RunReader::keep_buffered() {
  const auto [at, added] = buffered_index_.try_emplace(current_.qid, buffered_.size());
  if (added) {
    buffered_.push_back(std::move(current_));
    current_ = QueryRun{};
    return false;
  }
  QueryRun& into = buffered_[at->second];
  for (QueryRun::Doc d : current_.docs) {
    const std::string_view docno = current_.docno(d);
    d.offset = static_cast<std::uint32_t>(into.docnos.size());
    into.add_docno(docno);
    into.docs.push_back(d);
  }
  return true;
}

// The common line read in one pass: fields split on spaces and tabs, no control character, six
// fields or more, a decimal score, a docno of an allowed length. Anything else (and the first
// line, which may belong to a qrels file) returns false, for line() to read and report.
bool RunReader::fast_line(std::string_view text, std::uint32_t number,
                          const LineSplitter::ShortLine* classes) {
  Fields fields;
  if (!fields_of_line(text, classes, fields)) return false;
  if (fields.count == 0 || text[fields.begin[0]] == '#') return true;  // blank, or a comment
  if (fields.count < 6) return false;
  // The fields read: the query, the docno, the score and the tag (not "Q0" nor the rank).
  const Field docno = fields.field(text, 2);
  if (docno.text.size() > kMaxDocIdBytes) return false;
  double score = 0;
  if (!parse_decimal(fields.field(text, 4).text, score)) return false;
  const std::uint32_t column = fields.high ? column_of(text, docno.offset) : docno.offset + 1;
  accept(fields.field(text, 0).text, docno.text, score, fields.field(text, 5).text, column, number);
  return true;
}

void RunReader::line(std::string_view text, std::uint32_t number,
                     const LineSplitter::ShortLine* classes) {
  if (any_line_ && !careful_ && !stopped_ && fast_line(text, number, classes)) return;
  general_line(text, number);
}

NDCG_COLD void RunReader::general_line(std::string_view text, std::uint32_t number) {
  if (stopped_) return;
  // trec_eval skips a run line whose first non-blank character is '#'.
  if (is_ascii_blank_line(text) || trim_ascii(text).front() == '#') return;
  const bool first = !any_line_;
  any_line_ = true;
  if (report_control_character(text, Source::run, number, errors_)) return;
  if (first && has_shape_of_other_file(text, Source::run)) {
    report_swapped(Source::run, number, errors_);
    stopped_ = true;
    return;
  }
  // Fields after the tag are ignored, as in trec_eval ("Any field following run_id is ignored").
  Field f[6];
  bool more = false;
  const std::size_t count = split_blank(text, f, 6, &more);
  if (count < 6) {
    errors_.add(Source::run, number, 1,
                "expected 6 fields 'query Q0 docno rank score tag', found " +
                    std::to_string(count) + " field" + (count == 1 ? "" : "s"));
    return;
  }
  const auto score = read_score(f[4].text);
  if (!score) {
    errors_.add(Source::run, number, column_of(text, f[4].offset),
                "score " + quote(f[4].text) +
                    " is not a number; scores are decimal numbers such as 12.5, -3 or 1e-4 "
                    "(inf and -inf are read too)");
    return;
  }
  if (report_long_docno(f[2], text, number, Source::run, errors_)) return;
  accept(f[0].text, f[2].text, *score, f[5].text, column_of(text, f[2].offset), number);
}

void RunReader::accept(std::string_view qid, std::string_view docno, double score,
                       std::string_view tag, std::uint32_t column, std::uint32_t number) {
  // trec_eval's runid is the tag of the last line.
  if (!same_text(tag, run_tag_)) run_tag_.assign(tag);
  if (!same_text(qid, current_.qid) && !start_query(qid)) return;
  // Made in place, a field at a time: a Doc made first and copied in is stored a word at a time
  // and read back a vector at a time, which the CPU cannot forward.
  QueryRun::Doc& doc = current_.docs.emplace_back();
  doc.score = score;
  doc.line = number;
  doc.column = column;
  doc.offset = static_cast<std::uint32_t>(current_.docnos.size());
  doc.length = static_cast<std::uint32_t>(docno.size());
  doc.hash = docno_hash(docno);
  current_.add_docno(docno);
  kept_ += kRunDocOverhead + docno.size();
  if (kept_ > memory_limit_) stop_at_memory_limit(number);
}

// A line of another query than the line before's: the query before is closed, and this one
// begins. False when the run must be read again, grouped (the reading stops).
bool RunReader::start_query(std::string_view qid) {
  spans_.begin(qid, lines_.line_start());
  close_current();
  current_.qid.assign(qid);
  if (!buffer_all_ && closed_contains(query_hash(current_.qid))) {
    // The run is read again, every query kept until its end: the rest of this reading, and
    // evaluating what it hands over, would be thrown away (for a run in no order of query,
    // every line a query's stretch of its own).
    regroup_needed_ = true;
    stopped_ = true;
    return false;
  }
  return true;
}

NDCG_COLD void RunReader::stop_at_memory_limit(std::uint32_t number) {
  errors_.add(Source::run, number, 0,
              buffer_all_
                  ? "this run is not grouped by query, and holding all of it needs more than " +
                        megabytes(memory_limit_) +
                        " of memory by this line; sort the run by query (sort -s -k1,1) and "
                        "evaluate it again"
                  : "query " + quote(current_.qid) + " has more documents than fit in " +
                        megabytes(memory_limit_) + " of memory by this line (" +
                        std::to_string(current_.docs.size()) + " documents)");
  stopped_ = true;
}

// ---------------------------------------------------------------------------------------------
// -Z: "qid measure mean stddev" lines

NDCG_COLD std::optional<Zscores> read_zscores(std::string_view text, DiagnosticList& errors) {
  Zscores z;
  LineSplitter lines;
  const std::size_t errors_before = errors.size();
  const auto on_line = [&](std::string_view line, std::uint32_t number) {
    if (is_ascii_blank_line(line)) return;
    if (report_control_character(line, Source::options, number, errors)) return;
    Field f[4];
    if (!split_exactly(line, number, Source::options,
                       "4 fields 'query measure mean stddev' in the -Z file", f, errors)) {
      return;
    }
    const auto mean = parse_decimal(f[2].text);
    const auto stddev = parse_decimal(f[3].text);
    if (!mean || !stddev) {
      const Field& bad = mean ? f[3] : f[2];
      errors.add(Source::options, number, column_of(line, bad.offset),
                 "in the -Z file, " + quote(bad.text) + " is not a number");
      return;
    }
    auto [it, inserted] =
        z.table.try_emplace({std::string(f[0].text), std::string(f[1].text)}, *mean, *stddev);
    if (!inserted) {
      errors.add(Source::options, number, 1,
                 "the -Z file gives query " + quote(f[0].text) + " and measure " +
                     quote(f[1].text) + " a mean and deviation twice; keep one line");
    }
  };
  lines.feed(text, on_line);
  lines.finish(on_line);
  if (errors.size() != errors_before) return std::nullopt;
  return z;
}

// ---------------------------------------------------------------------------------------------
// Splitting a run

namespace {

// The first field of a run line (its query id), as RunReader splits it; empty for a blank or
// comment line.
std::string_view query_of_line(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (is_blank(line[i]) || line[i] == '\r')) ++i;
  if (i == line.size() || line[i] == '#') return {};
  std::size_t end = i;
  while (end < line.size() && !is_blank(line[end]) && line[end] != '\r') ++end;
  return line.substr(i, end - i);
}

}  // namespace

std::optional<std::size_t> query_boundary(std::string_view window) {
  std::size_t at = window.find('\n');
  if (at == std::string_view::npos) return std::nullopt;
  ++at;  // past the partial first line
  std::string_view previous;
  while (at < window.size()) {
    const std::size_t end = window.find('\n', at);
    if (end == std::string_view::npos) return std::nullopt;  // the last line may be cut short
    const std::string_view qid = query_of_line(window.substr(at, end - at));
    if (!qid.empty()) {
      if (!previous.empty() && qid != previous) return at;
      previous = qid;
    }
    at = end + 1;
  }
  return std::nullopt;
}

namespace {

// -1, 0 or 1 as the number `a` is below, equal to or above the number `b` (both all_digits).
int compare_numbers(std::string_view a, std::string_view b) {
  const auto digits = [](std::string_view n) {
    const std::size_t first = n.find_first_not_of('0');
    return first == std::string_view::npos ? std::string_view{} : n.substr(first);
  };
  a = digits(a);
  b = digits(b);
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

int compare_bytes(std::string_view a, std::string_view b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

// The query ids of `lines`' run lines, in order (blank and comment lines have none).
void sampled_queries(std::string_view lines, std::vector<std::string_view>& out) {
  std::size_t at = 0;
  while (at < lines.size()) {
    std::size_t end = lines.find('\n', at);
    if (end == std::string_view::npos) end = lines.size();
    const std::string_view qid = query_of_line(lines.substr(at, end - at));
    if (!qid.empty()) out.push_back(qid);
    at = end + 1;
  }
}

}  // namespace

PartQueries::PartQueries(std::string_view first, std::string_view later, bool later_part)
    : later_(later_part) {
  std::vector<std::string_view> before;
  std::vector<std::string_view> after;
  sampled_queries(first, before);
  sampled_queries(later, after);
  if (after.empty()) return;
  boundary_.assign(after.front());
  orders_ = kByteOrder | kNumberOrder;
  // Each order in which the samples go up, with the boundary after every query before it.
  const auto check = [&](std::uint8_t order, int (*compare)(std::string_view, std::string_view)) {
    const auto fits = [&](const std::vector<std::string_view>& ids) {
      for (std::size_t i = 1; i < ids.size(); ++i) {
        if (compare(ids[i - 1], ids[i]) > 0) return false;
      }
      return true;
    };
    if (!fits(before) || !fits(after) ||
        (!before.empty() && compare(before.back(), boundary_) >= 0)) {
      orders_ &= static_cast<std::uint8_t>(~order);
    }
  };
  check(kByteOrder, compare_bytes);
  const bool numbers = std::all_of(before.begin(), before.end(), all_digits) &&
                       std::all_of(after.begin(), after.end(), all_digits);
  if (numbers) {
    check(kNumberOrder, compare_numbers);
  } else {
    orders_ &= static_cast<std::uint8_t>(~kNumberOrder);
  }
}

bool PartQueries::keeps(std::string_view qid) const {
  if (all()) return true;
  // In this part by an order that fits: before the boundary for the first part, else not.
  const auto in_part = [&](int compared) { return later_ ? compared >= 0 : compared < 0; };
  if ((orders_ & kByteOrder) != 0 && in_part(compare_bytes(qid, boundary_))) return true;
  if ((orders_ & kNumberOrder) != 0) {
    // An id that is not a number has no place in that order: kept.
    if (!all_digits(qid) || in_part(compare_numbers(qid, boundary_))) return true;
  }
  return false;
}

}  // namespace ndcg::trec
