// Text primitives shared by every parser: chunked line splitting, fields with their columns,
// strict number parsing, and the normalisation of document ids pasted from slides.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// A function kept out of the functions that call it, whatever the compiler would rather do (see
// ndcg/trec.hpp).
#if defined(__GNUC__)
#define NDCG_OUT_OF_LINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define NDCG_OUT_OF_LINE __declspec(noinline)
#else
#define NDCG_OUT_OF_LINE
#endif

namespace ndcg {

// Splits text that arrives in chunks into lines. A line may span any number of chunks; "\n",
// "\r\n" and a lone "\r" all end a line. A UTF-8 byte order mark at the very start is dropped.
// Memory held between calls is at most one partial line.
//
//   LineSplitter lines;
//   lines.feed(chunk, [](std::string_view line, std::uint32_t number) { ... });
//   lines.finish([](std::string_view line, std::uint32_t number) { ... });
class LineSplitter {
 public:
  // A line read whole from a chunk, at most 63 bytes long and free of control characters (tabs
  // aside), with the classes of its bytes that feed's classifying form found while looking for
  // its end: bit k of `blanks` is set when byte k is a space or a tab, and every bit from the
  // line's length up is set too (as if blanks followed it); `high` says whether a byte is 0x80
  // or more.
  struct ShortLine {
    std::uint64_t blanks;
    bool high;
  };

  template <class OnLine>
  void feed(std::string_view chunk, OnLine&& on_line) {
    using Unclassified = void(std::string_view, std::uint32_t, const ShortLine&);
    feed_lines(chunk, on_line, static_cast<Unclassified*>(nullptr));
  }

  // The same lines, but a line that is a ShortLine goes to on_short_line(line, number, classes)
  // instead: a reader's fields are then found from the classes (their starts are where a byte
  // that is not blank follows a blank) without reading its bytes again. The classes of a line
  // are read 64 bytes at a time from its start, so a line within 63 bytes of the chunk's end
  // goes to on_line.
  template <class OnLine, class OnShortLine>
  void feed(std::string_view chunk, OnLine&& on_line, OnShortLine&& on_short_line) {
    feed_lines(chunk, on_line, &on_short_line);
  }

 private:
  template <class OnLine, class OnShortLine>
  void feed_lines(std::string_view chunk, OnLine& on_line, OnShortLine* on_short_line) {
    std::size_t start = 0;
    base_ = fed_;
    fed_ += chunk.size();
    // The byte order mark may itself arrive split over chunks.
    while (bom_matched_ < kBomDone && start < chunk.size()) {
      if (chunk[start] == kBom[bom_matched_]) {
        ++bom_matched_;
        ++start;
      } else {
        partial_.append(kBom, bom_matched_);  // the text's first bytes: its first line starts at 0
        partial_start_ = 0;
        bom_matched_ = kBomDone;
      }
    }
    if (pending_cr_ && start < chunk.size()) {
      pending_cr_ = false;
      if (chunk[start] == '\n') ++start;
    }
    while (start < chunk.size()) {
      if (on_short_line != nullptr && partial_.empty() && chunk.size() - start >= 64) {
        ShortLine classes;
        const std::size_t length = short_line(chunk.data() + start, classes);
        if (length != kNotShort) {
          line_start_ = base_ + start;
          (*on_short_line)(chunk.substr(start, length), ++line_number_, classes);
          std::size_t next = start + length + 1;  // past the '\n' or '\r' that ends it
          if (chunk[start + length] == '\r') {
            if (next < chunk.size()) {
              if (chunk[next] == '\n') ++next;
            } else {
              pending_cr_ = true;
            }
          }
          start = next;
          continue;
        }
      }
      const std::size_t end = line_end(chunk, start);
      if (end == std::string_view::npos) break;
      emit(chunk.substr(start, end - start), start, on_line);
      std::size_t last = end;  // the line end's last byte
      if (chunk[end] == '\r') {
        if (end + 1 < chunk.size()) {
          if (chunk[end + 1] == '\n') ++last;
        } else {
          pending_cr_ = true;
        }
      }
      start = last + 1;
    }
    if (start < chunk.size()) {
      if (partial_.empty()) partial_start_ = base_ + start;
      partial_.append(chunk.substr(start));
    }
  }

 public:
  // Emits the last line if the text did not end with a line break.
  template <class OnLine>
  void finish(OnLine&& on_line) {
    if (bom_matched_ < kBomDone) {
      partial_.append(kBom, bom_matched_);  // a text that is only the start of a BOM
      bom_matched_ = kBomDone;
    }
    if (!partial_.empty()) {
      std::string last;
      last.swap(partial_);
      line_start_ = partial_start_;
      on_line(std::string_view(last), ++line_number_);
    }
  }

  std::uint32_t lines_emitted() const { return line_number_; }
  // For a part of a text that starts at a line other than its first: the first line emitted is
  // numbered `first_line`, its first byte is byte `first_byte` of the whole text, and no byte
  // order mark is looked for. Before the first feed.
  void start_at_line(std::uint32_t first_line, std::uint64_t first_byte = 0) {
    line_number_ = first_line - 1;
    fed_ = first_byte;  // offsets (line_start, bytes_fed) are the whole text's
    bom_matched_ = kBomDone;
  }
  // While a line is handed over: the byte offset of its first byte in the whole text (a byte
  // order mark counts, as the bytes of a file do).
  std::uint64_t line_start() const { return line_start_; }
  // The bytes fed so far.
  std::uint64_t bytes_fed() const { return fed_; }

 private:
  // The offset of the first '\n' or '\r' of `chunk` from `from`, or npos (text.cpp).
  static std::size_t line_end(std::string_view chunk, std::size_t from);
  // The length of the line that starts at p, from the classes of p[0..64) (text.cpp): the offset
  // of its '\n' or '\r', with its classes in `out`; kNotShort when the line is longer than 63
  // bytes or holds another control character.
  static constexpr std::size_t kNotShort = ~std::size_t{0};
  static std::size_t short_line(const char* p, ShortLine& out);

  template <class OnLine>
  void emit(std::string_view piece, std::size_t start, OnLine& on_line) {
    if (partial_.empty()) {
      line_start_ = base_ + start;
      on_line(piece, ++line_number_);
    } else {
      line_start_ = partial_start_;
      partial_.append(piece);
      std::string line;
      line.swap(partial_);
      on_line(std::string_view(line), ++line_number_);
    }
  }

  static constexpr char kBom[] = "\xEF\xBB\xBF";
  static constexpr std::size_t kBomDone = 3;

  std::string partial_;
  std::uint64_t fed_ = 0;            // bytes fed before and with the current chunk
  std::uint64_t base_ = 0;           // offset of the current chunk's first byte
  std::uint64_t partial_start_ = 0;  // offset of partial_'s first byte
  std::uint64_t line_start_ = 0;
  std::uint32_t line_number_ = 0;
  std::size_t bom_matched_ = 0;
  bool pending_cr_ = false;
};

// A piece of a line and where it starts (byte offset within the line).
struct Field {
  std::string_view text;
  std::uint32_t offset = 0;
};

// 1-based column, in code points, of byte `offset` of `line`. Linear in `offset`: a parser that
// locates many places on one line uses ColumnCursor instead.
std::uint32_t column_of(std::string_view line, std::uint32_t offset);

// Line and column of byte offsets within one text, found by walking forward from the last place
// asked for, so that locating every token of a long line costs one pass over it, not one pass per
// token. Asking for an earlier offset starts again from the top of the text.
class ColumnCursor {
 public:
  explicit ColumnCursor(std::string_view text) : text_(text) {}

  struct Place {
    std::uint32_t line;
    std::uint32_t column;
  };
  Place at(std::size_t offset);

 private:
  std::string_view text_;
  std::size_t offset_ = 0;
  std::size_t line_start_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

// Bytes taken by a white-space code point at byte `i` of `text`, or 0. White space here is what
// a paste from a slide, a PDF or a word processor may contain between fields: ASCII space, tab,
// form feed and vertical tab, and Unicode spaces (no-break, en/em and other fixed-width spaces,
// ideographic space) and the invisible U+200B, U+2060 and U+FEFF.
std::size_t space_length(std::string_view text, std::size_t i);

// The first control character of `text` (U+0000-U+001F except tab, U+007F), as the byte offset,
// or npos. Line breaks never reach a parser's line, so any control character there is binary
// data or text in another encoding.
std::size_t find_control(std::string_view text);

// Splits one line into trimmed fields. The separator is chosen per line: '|' (a Markdown table
// row; the empty cells before the first and after the last bar are dropped), else a tab, else a
// comma, else runs of white space. When splitting on white space, a slide-style document id
// such as "d ₁₂₃" or "d _{12}" stays one field, and so does a parenthesised note such as "(r: 1)".
std::vector<Field> split_fields(std::string_view line);

// True for a line that is a Markdown table rule such as "|----|:---:|".
bool is_table_rule(std::string_view line);

// Whether `text` is one or more ASCII digits and nothing else: a whole number written plainly,
// with no sign, point or blank ("007" is; "", "+7" and "7 " are not).
bool all_digits(std::string_view text);

// Parses a whole number written in digits, with an optional sign: "3", "-1", "+2". Returns
// nullopt for anything else ("1.0", "1e2", "0x10", " 3"); `out_of_range` is set when the digits
// do not fit a signed 64-bit integer. A single digit, as most qrels grades are, is read inline:
// the call and the general checks were a tenth of reading a judgment.
std::optional<std::int64_t> parse_integer_text(std::string_view text, bool* out_of_range);
inline std::optional<std::int64_t> parse_integer(std::string_view text,
                                                 bool* out_of_range = nullptr) {
  if (text.size() == 1 && text[0] >= '0' && text[0] <= '9') {
    if (out_of_range != nullptr) *out_of_range = false;
    return text[0] - '0';
  }
  return parse_integer_text(text, out_of_range);
}

// Parses a decimal number: optional sign, digits with an optional fraction, optional exponent.
// Rejects everything else (hex, "inf", "nan", "1,5", trailing text). Returns nullopt when the
// text is not such a number; `out_of_range` is set when it is one but does not fit a finite
// double (e.g. "1e400").
std::optional<double> parse_decimal(std::string_view text, bool* out_of_range = nullptr);
// The same, the value into `out` and true when it is read: for the readers' loops. (An optional
// double comes back from a call through memory, the flag stored as one byte and loaded as eight,
// which the processor cannot forward: natively it cost a third of reading a run's scores.)
bool parse_decimal(std::string_view text, double& out, bool* out_of_range = nullptr);

// Writes `value` into `out` (room for kFixedBytes) with `decimals` digits after the point (at
// most 8), as printf's "%.*f" writes it: the exact binary value rounded to the nearest, ties to
// even, the sign kept for a value that rounds to zero ("-0.0000"). Returns the end of what it
// wrote, or null, writing nothing, for what it does not write (a value that is not finite or is
// 10^15 or more, more decimals): the caller's printf writes those. For reports of many values,
// where printf was most of the time taken to write them in wasm; a report builds each line in a
// buffer of its own and appends it once (in wasm each append is a call into libc++).
constexpr std::size_t kFixedBytes = 32;
char* write_fixed(char* out, double value, unsigned decimals);

// The 17 significant digits of `magnitude` (> 0) into digits[0..16], rounded as printf's "%.16e"
// rounds them (to nearest, ties to even), and the power of ten of the first: magnitude is about
// d0.d1...d16 × 10^power. Worked out exactly in 128 bits, for 1e-6 <= magnitude < 2^53 (every
// measure's value but the tiniest); false outside that range, writing nothing.
bool seventeen_digits(double magnitude, char* digits, int& power);

// printf's "%.*f" for any double and any number of decimals, exactly as C's printf writes it:
// write_fixed's rounding of the exact binary value, with every digit of a large one, and "inf",
// "-inf", "nan" and "-nan" as glibc and musl write them. The core uses no printf: in the page's
// wasm it was 8 KB of code for these few numbers.
std::string printf_fixed(double value, unsigned decimals);

// printf_fixed without the zeros that end its decimals, nor a point left alone: "2.5" for 2.5 at
// 6 decimals, "3" for 3; "inf" and "nan" as printf_fixed writes them.
std::string printf_fixed_short(double value, unsigned decimals);

// Normalises a document id pasted from slides or LaTeX: "d_3", "d_{3}", "$d_{3}$", "d₃" and
// "d ₁₂₃" become "d3" and "d123". Only the pattern letters + optional "_"/"{}" + digits (ASCII or
// Unicode subscripts) is rewritten; any other id is returned trimmed but otherwise unchanged, so
// TREC-style ids such as "clueweb09-en0000-00-00000" are left alone.
std::string normalise_doc_id(std::string_view text);

// Removes and returns a grade note "(r: 2)" written after a document id in the lecture's tables.
// `field` is shortened to the text before the note. Returns nullopt if there is no note.
std::optional<std::string_view> take_grade_note(std::string_view& field);

// `text` without leading and trailing white space (space_length: ASCII and Unicode spaces).
std::string_view trim(std::string_view text);

// `text` without leading and trailing ASCII blanks (space, tab, form feed, vertical tab): the
// white space of TREC files, which trec_eval splits on.
std::string_view trim_ascii(std::string_view text);

// `bytes` as WHATWG's UTF-8 decoder reads them (TextDecoder, and so the page and the API), as
// UTF-8 again: each maximal invalid subpart becomes U+FFFD, the rest is kept as it is. Text that
// is already UTF-8 comes back the same.
std::string well_formed_utf8(std::string_view bytes);

// Whether an id read from a file is the one a caller named: the same bytes, or, for an id that is
// not UTF-8, the text a caller that decoded it holds (well_formed_utf8), so that the page and the
// API can name a query whose id they only ever saw decoded. Out of line: it is called where a
// query is read, for the rare run that names one.
NDCG_OUT_OF_LINE bool names_id(std::string_view id, std::string_view named);

// Quotes user text for a message, shortening it to at most `max_code_points` code points and
// replacing control characters and invalid UTF-8 with U+FFFD so a message is always printable.
std::string quote(std::string_view text, std::size_t max_code_points = 40);

}  // namespace ndcg
