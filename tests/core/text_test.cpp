#include "ndcg/text.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "byte_masks.hpp"

using namespace ndcg;

namespace {
std::vector<std::pair<std::string, std::uint32_t>> split_in_chunks(std::string_view text,
                                                                   std::size_t chunk) {
  std::vector<std::pair<std::string, std::uint32_t>> lines;
  LineSplitter splitter;
  auto on_line = [&](std::string_view line, std::uint32_t n) { lines.emplace_back(line, n); };
  for (std::size_t i = 0; i < text.size(); i += chunk)
    splitter.feed(text.substr(i, chunk), on_line);
  splitter.finish(on_line);
  return lines;
}
}  // namespace

TEST_CASE("LineSplitter gives the same lines whatever the chunk size") {
  const std::string text =
      "\xEF\xBB\xBF"
      "first\r\nsecond\rthird\n\nlast";
  const std::vector<std::pair<std::string, std::uint32_t>> expected = {
      {"first", 1}, {"second", 2}, {"third", 3}, {"", 4}, {"last", 5}};
  for (std::size_t chunk = 1; chunk <= text.size(); ++chunk) {
    CAPTURE(chunk);
    CHECK(split_in_chunks(text, chunk) == expected);
  }
}

TEST_CASE("a CR at the end of one chunk and LF at the start of the next end one line") {
  CHECK(split_in_chunks("a\r\nb", 2) ==
        std::vector<std::pair<std::string, std::uint32_t>>{{"a", 1}, {"b", 2}});
}

TEST_CASE("LineSplitter says where each line starts in the whole text, whatever the chunks") {
  // A byte order mark, every line end, an empty line, a last line with no end: each line's
  // offset is where its first byte is.
  const std::string text =
      "\xEF\xBB\xBF"
      "first\r\nsecond\rthird\n\nlast";
  const std::vector<std::uint64_t> expected = {3, 10, 17, 23, 24};
  for (std::size_t chunk = 1; chunk <= text.size(); ++chunk) {
    CAPTURE(chunk);
    LineSplitter splitter;
    std::vector<std::uint64_t> starts;
    const auto on_line = [&](std::string_view line, std::uint32_t) {
      starts.push_back(splitter.line_start());
      CHECK(text.substr(splitter.line_start(), line.size()) == line);
    };
    for (std::size_t i = 0; i < text.size(); i += chunk) {
      splitter.feed(std::string_view(text).substr(i, chunk), on_line);
    }
    splitter.finish(on_line);
    CHECK(starts == expected);
    CHECK(splitter.bytes_fed() == text.size());
  }
  // The start of a byte order mark that is not one belongs to the first line, at 0.
  LineSplitter splitter;
  std::vector<std::uint64_t> starts;
  const auto on_line = [&](std::string_view, std::uint32_t) {
    starts.push_back(splitter.line_start());
  };
  splitter.feed("\xEF", on_line);
  splitter.feed("x\ny", on_line);
  splitter.finish(on_line);
  CHECK(starts == std::vector<std::uint64_t>{0, 3});
}

TEST_CASE("parse_decimal accepts plain decimals and nothing else") {
  CHECK(parse_decimal("3") == 3.0);
  CHECK(parse_decimal("-0.5") == -0.5);
  CHECK(parse_decimal(".5") == 0.5);
  CHECK(parse_decimal("2.") == 2.0);
  CHECK(parse_decimal("1e3") == 1000.0);
  CHECK(parse_decimal("+1E-2") == doctest::Approx(0.01));
  for (const char* bad :
       {"", "-", ".", "e3", "1e", "0x10", "inf", "nan", "1,5", "1.5.2", " 1", "1 "}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_decimal(bad).has_value());
  }
  bool out_of_range = false;
  CHECK_FALSE(parse_decimal("1e400", &out_of_range).has_value());
  CHECK(out_of_range);
}

namespace {
TEST_CASE("LineSplitter's classified lines are its lines, with the classes of their bytes") {
  // Lines short and long, with tabs, control characters, bytes over 0x7F and every line end.
  std::uint64_t x = 20261126;
  const auto next = [&](std::uint64_t bound) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % bound;
  };
  const std::string pieces[] = {"a",    "301",  " ",  "\t", "  ", "doc-0001", "12.5", "\xC3\xA9",
                                "\x7F", "\x01", "\n", "\n", "\n", "\r\n",     "\r"};
  std::string text;
  while (text.size() < 20000) text += pieces[next(std::size(pieces))];
  std::size_t classified = 0;
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{63}, std::size_t{64},
                                  std::size_t{100}, std::size_t{4096}, text.size()}) {
    CAPTURE(chunk);
    const std::vector<std::pair<std::string, std::uint32_t>> expected =
        split_in_chunks(text, chunk);
    std::vector<std::pair<std::string, std::uint32_t>> lines;
    std::vector<std::uint64_t> starts;
    LineSplitter splitter;
    const auto on_line = [&](std::string_view line, std::uint32_t n) {
      lines.emplace_back(line, n);
      starts.push_back(splitter.line_start());
    };
    const auto on_short_line = [&](std::string_view line, std::uint32_t n,
                                   const LineSplitter::ShortLine& classes) {
      on_line(line, n);
      ++classified;
      REQUIRE(line.size() <= 63);
      std::uint64_t blanks = ~std::uint64_t{0} << line.size();
      bool high = false;
      for (std::size_t k = 0; k < line.size(); ++k) {
        const auto c = static_cast<unsigned char>(line[k]);
        REQUIRE((c >= 0x20 || c == '\t'));
        REQUIRE(c != 0x7F);
        if (c == ' ' || c == '\t') blanks |= std::uint64_t{1} << k;
        high = high || c >= 0x80;
      }
      CHECK(classes.blanks == blanks);
      CHECK(classes.high == high);
    };
    for (std::size_t i = 0; i < text.size(); i += chunk) {
      splitter.feed(std::string_view(text).substr(i, chunk), on_line, on_short_line);
    }
    splitter.finish(on_line);
    CHECK(lines == expected);
    for (std::size_t k = 0; k < lines.size(); ++k) {
      CHECK(text.substr(starts[k], lines[k].first.size()) == lines[k].first);
    }
  }
  CHECK(classified > 1000);
}

// What parse_decimal accepts, written out as a grammar, with strtod rounding: the reading it must
// agree with bit for bit.
std::optional<double> reference_decimal(const std::string& text) {
  std::size_t i = 0;
  const auto digits = [&] {
    std::size_t count = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i, ++count;
    return count;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  std::size_t mantissa = digits();
  if (i < text.size() && text[i] == '.') ++i, mantissa += digits();
  if (mantissa == 0) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  const double value = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}
}  // namespace

TEST_CASE("parse_decimal reads what strtod reads, rounded the same, for random decimal text") {
  // Text built from the characters of numbers, and long digit strings near a double's limits:
  // halfway cases, subnormals, 20-digit mantissas, exponents out of range.
  std::uint64_t x = 20261124;
  const auto next = [&](std::uint64_t bound) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % bound;
  };
  const std::string alphabet = "0123456789012345678901234567890123456789+-.eE.i";
  int numbers = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string text;
    const std::size_t length = 1 + next(n % 4 == 0 ? 40 : 12);
    for (std::size_t k = 0; k < length; ++k) text += alphabet[next(alphabet.size())];
    if (n % 3 == 0) text = std::to_string(next(1000000)) + "." + text;
    if (n % 7 == 0) text = std::to_string(next(100)) + "e" + std::to_string(int(next(700)) - 350);
    CAPTURE(text);
    const auto expected = reference_decimal(text);
    const auto got = parse_decimal(text);
    REQUIRE(got.has_value() == expected.has_value());
    if (got) REQUIRE(std::memcmp(&*got, &*expected, sizeof(double)) == 0);
    numbers += got ? 1 : 0;
  }
  CHECK(numbers > 50000);  // both readings are exercised
  CHECK(numbers < 190000);
  // Scores as runs write them, up to 19 digits with a point anywhere: the fast path's domain
  // (a whole number up to 2^53 over a power of ten) and just past it.
  for (int n = 0; n < 200000; ++n) {
    const std::uint64_t whole = (x = x * 6364136223846793005ull + 1442695040888963407ull) >>
                                (11 + next(53));  // up to 2^53, and small ones as often
    std::string digits = std::to_string(whole + (n % 50 == 0 ? (std::uint64_t{1} << 53) : 0));
    const std::size_t point = next(digits.size() + 1);
    std::string text =
        (n % 2 == 0 ? "-" : "") + digits.substr(0, point) + "." + digits.substr(point);
    if (n % 5 == 0) text.pop_back();  // a digit fewer, or the point last
    if (text == "-" || text == "." || text == "-.") continue;
    CAPTURE(text);
    const auto expected = reference_decimal(text);
    const auto got = parse_decimal(text);
    REQUIRE(got.has_value() == expected.has_value());
    if (got) REQUIRE(std::memcmp(&*got, &*expected, sizeof(double)) == 0);
  }
  for (const char* edge :
       {"2.2250738585072011e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308",
        "9007199254740993", "0.1000000000000000055511151231257827", "-0", "+.0e-0"}) {
    CAPTURE(edge);
    const auto expected = reference_decimal(edge);
    const auto got = parse_decimal(edge);
    REQUIRE(got.has_value() == expected.has_value());
    if (got) CHECK(std::memcmp(&*got, &*expected, sizeof(double)) == 0);
  }
}

TEST_CASE("slide notations of a document id normalise to one id") {
  for (const char* id : {"d3", "d_3", "d_{3}", "$d_{3}$", "d₃", "d ₃", "d _{3}", " d3 "}) {
    CAPTURE(id);
    CHECK(normalise_doc_id(id) == "d3");
  }
  CHECK(normalise_doc_id("d ₁₂₃") == "d123");
  CHECK(normalise_doc_id("d_{511}") == "d511");
  SUBCASE("ids that are not slide notation are kept") {
    CHECK(normalise_doc_id("clueweb09-en0000-00-00000") == "clueweb09-en0000-00-00000");
    CHECK(normalise_doc_id("588") == "588");
    CHECK(normalise_doc_id("d0012") == "d0012");
    CHECK(normalise_doc_id("iPhone") == "iPhone");
    CHECK(normalise_doc_id("d 3") == "d 3");
    CHECK(normalise_doc_id("d_{3") == "d_{3");
    CHECK(normalise_doc_id("<img src=x onerror=alert(1)>") == "<img src=x onerror=alert(1)>");
  }
}

TEST_CASE("trim takes white space off both ends, ASCII and Unicode alike") {
  const std::string nbsp = "\xC2\xA0";  // U+00A0
  const std::string cut = "\xE2\x80";   // the first two bytes of U+2000..U+202F
  CHECK(trim("  d3\t") == "d3");
  CHECK(trim(nbsp + "d3\xE3\x80\x80") == "d3");                     // U+3000
  CHECK(trim("\xE2\x80\xAF d3 \xE2\x80\x8B\xEF\xBB\xBF") == "d3");  // U+202F, U+200B, U+FEFF
  CHECK(trim(" " + nbsp + " \xE2\x81\xA0 ").empty());               // nothing but spaces
  CHECK(trim("") == "");
  // A last byte that ends a code point but no space, and bytes that only look like a space's end.
  CHECK(trim("d\xC3\xA9 ") == "d\xC3\xA9");            // é
  CHECK(trim("d\xA0") == "d\xA0");                     // a lone continuation byte
  CHECK(trim(nbsp + "\xA0") == "\xA0");                // U+00A0, then that byte again
  CHECK(trim("\x80\x80 \xE2\x80\x80") == "\x80\x80");  // U+2000 after stray bytes
  // A cut-off sequence before an ASCII byte is no space: the byte is kept.
  CHECK(space_length(cut + "d", 0) == 0);
  CHECK(trim("x" + cut + "d") == "x" + cut + "d");
  CHECK(trim(cut + "d3") == cut + "d3");
  SUBCASE("the same as taking off whole space code points, one at a time, for random text") {
    // Each end taken apart by the longest white-space code point that ends (or starts) it.
    const auto reference = [](std::string_view text) {
      std::size_t b = 0;
      while (b < text.size() && space_length(text, b) > 0) b += space_length(text, b);
      std::size_t e = text.size();
      while (e > b) {
        std::size_t n = 0;
        for (std::size_t len = 1; len <= 3 && n == 0; ++len)
          if (e - b >= len && space_length(text, e - len) == len) n = len;
        if (n == 0) break;
        e -= n;
      }
      return text.substr(b, e - b);
    };
    const char* const pieces[] = {" ",    "\t",      "\xC2\xA0", "\xE3\x80\x80", "\xE2\x80\x8B",
                                  "d",    "3",       "\xA0",     "\x80",         "\xC2",
                                  "\xE2", "\xC3\xA9"};
    std::mt19937 random(11);
    for (int i = 0; i < 20000; ++i) {
      std::string text;
      for (int k = static_cast<int>(random() % 7); k > 0; --k) text += pieces[random() % 12];
      CAPTURE(text);
      CHECK(trim(text) == reference(text));
    }
  }
}

TEST_CASE("split_fields picks the separator of the line") {
  auto texts = [](std::string_view line) {
    std::vector<std::string> out;
    for (const Field& f : split_fields(line)) out.emplace_back(f.text);
    return out;
  };
  CHECK(texts("d1 3") == std::vector<std::string>{"d1", "3"});
  CHECK(texts("d1,3") == std::vector<std::string>{"d1", "3"});
  CHECK(texts("d1 x\t3") == std::vector<std::string>{"d1 x", "3"});
  CHECK(texts("| 1 | d ₁₂₃ (r: 1) | 1 |") == std::vector<std::string>{"1", "d ₁₂₃ (r: 1)", "1"});
  CHECK(texts("d ₁₂₃ 1") == std::vector<std::string>{"d ₁₂₃", "1"});
  CHECK(texts("d _{12} 2") == std::vector<std::string>{"d _{12}", "2"});
  CHECK(texts("d 3") == std::vector<std::string>{"d", "3"});
  CHECK(texts("d9 (r: 3) 3") == std::vector<std::string>{"d9", "(r: 3)", "3"});
  SUBCASE("offsets point at the field in the line") {
    const auto fields = split_fields("  ab   cd");
    REQUIRE(fields.size() == 2);
    CHECK(fields[1].offset == 7);
    CHECK(column_of("  ab   cd", fields[1].offset) == 8);
  }
}

TEST_CASE("columns count code points, not bytes") {
  CHECK(column_of("d₁₂ x", 7) == 4);       // 'd' + two 3-byte subscripts + space
  CHECK(column_of("\xFF\xFE x", 3) == 4);  // invalid bytes count one column each
}

TEST_CASE("grade notes are taken off a document field") {
  std::string_view field = "d ₁₂₃ (r: 1)";
  CHECK(take_grade_note(field) == std::optional<std::string_view>("1"));
  CHECK(field == "d ₁₂₃");
  std::string_view plain = "d84";
  CHECK_FALSE(take_grade_note(plain).has_value());
}

TEST_CASE("quote makes any bytes printable and short") {
  CHECK(quote("x") == "'x'");
  CHECK(quote("a\x01"
              "b") ==
        "'a\xEF\xBF\xBD"
        "b'");
  CHECK(quote("\xC3") == "'\xEF\xBF\xBD'");
  CHECK(quote(std::string(100, 'a'), 5) == "'aaaaa…'");
}

TEST_CASE("the readers' byte classes: vector code, words and one byte at a time agree") {
  // What each class means, byte by byte (byte_masks.hpp); the vector code (SSE2 natively, SIMD128
  // in wasm) and the portable 8-byte words must give exactly these bits, whatever the neighbours.
  const auto expected = [](const unsigned char* p, std::size_t count) {
    detail::ByteMasks m{0, 0, 0};
    for (std::size_t k = 0; k < count; ++k) {
      const unsigned char c = p[k];
      const bool blank = c == ' ' || c == '\t';
      if (blank) m.blank |= 1u << k;
      if (!blank && (c < 0x20 || c == 0x7F)) m.control |= 1u << k;
      if (c >= 0x80) m.high |= 1u << k;
    }
    return m;
  };
  const auto line_ends = [](const unsigned char* p) {
    std::uint32_t m = 0;
    for (std::size_t k = 0; k < 16; ++k) m |= (p[k] == '\n' || p[k] == '\r' ? 1u : 0u) << k;
    return m;
  };
  // The classes of `count` bytes followed by blanks.
  const auto padded = [&](const unsigned char* p, std::size_t count) {
    detail::ByteMasks m = expected(p, count);
    m.blank |= (0xFFFFu << count) & 0xFFFFu;
    return m;
  };
  const auto same = [](const detail::ByteMasks& a, const detail::ByteMasks& b) {
    return a.blank == b.blank && a.control == b.control && a.high == b.high;
  };
  int checked = 0;
  for (const int filler : {int{'a'}, int{' '}, int{'\t'}, int{'\n'}, 0x00, 0x7F, 0x80, 0xFF}) {
    for (std::size_t at = 0; at < 16; ++at) {
      for (int value = 0; value < 256; ++value) {
        unsigned char p[16];
        std::memset(p, filler, sizeof p);
        p[at] = static_cast<unsigned char>(value);
        const char* text = reinterpret_cast<const char*>(p);
        CAPTURE(filler);
        CAPTURE(at);
        CAPTURE(value);
        const detail::ByteMasks want = expected(p, 16);
        REQUIRE(same(detail::classify16(text), want));
        REQUIRE(same(detail::swar::classify16(text), want));
        REQUIRE(detail::line_ends16(text) == line_ends(p));
        REQUIRE(detail::swar::line_ends16(text) == line_ends(p));
        // A line's last 1 to 15 bytes, read from the 16 bytes that end with them (the last ones
        // of these 16) or from a copy (the first ones): the bytes past them are blanks.
        for (std::size_t count = at + 1; count < 16; ++count) {
          REQUIRE(same(detail::classify_tail(text + 16 - count, count, true),
                       padded(p + 16 - count, count)));
          REQUIRE(same(detail::classify_tail(text, count, false), padded(p, count)));
        }
        ++checked;
      }
    }
  }
  CHECK(checked == 8 * 16 * 256);
}

TEST_CASE("write_fixed writes what printf's %.*f writes, or declines") {
  // Values of every kind: uniform in [0, 1) as measures are, ties of every number of decimals
  // (k / 2^j, exact in binary), values a hair either side of a decimal tie, whole numbers,
  // negatives and zeros, tiny and large magnitudes, and any bit pattern.
  std::mt19937_64 random(20261126);
  const auto check = [](double value, unsigned decimals) {
    char fixed[kFixedBytes];
    const char* end = write_fixed(fixed, value, decimals);
    const bool written = end != nullptr;
    const std::string ours =
        "x" + std::string(fixed, written ? static_cast<std::size_t>(end - fixed) : 0);
    char buffer[400];
    std::snprintf(buffer, sizeof buffer, "%.*f", static_cast<int>(decimals), value);
    const bool should = decimals <= 8 && std::isfinite(value) && std::fabs(value) < 1e10;
    if (should) REQUIRE(written);  // every value a report prints (below 10^10) is written here
    if (written) {
      CAPTURE(value);
      CAPTURE(decimals);
      REQUIRE(ours == "x" + std::string(buffer));
    } else {
      REQUIRE(ours == "x");
    }
  };
  for (const double v : {0.0,
                         -0.0,
                         1.0,
                         -1.0,
                         0.5,
                         0.00005,
                         -0.00005,
                         0.03125,
                         0.15625,
                         2.5,
                         9.99995,
                         999999.99995,
                         1e-300,
                         -1e-300,
                         5e-324,
                         1e15,
                         1e16,
                         9.2e18,
                         std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()}) {
    for (unsigned d = 0; d <= 9; ++d) check(v, d);
  }
  for (int i = 0; i < 400000; ++i) {
    const unsigned decimals = static_cast<unsigned>(random() % 10);
    double v = 0;
    switch (i % 6) {
      case 0:
        v = std::ldexp(static_cast<double>(random() >> 11), -53);
        break;
      case 1:
        v = std::ldexp(static_cast<double>(random() % 4096), -static_cast<int>(random() % 16));
        break;
      case 2: {
        const double tie = (static_cast<double>(random() % 1000000) + 0.5) / 10000.0;
        v = random() % 2 ? std::nextafter(tie, 0.0) : std::nextafter(tie, 1e9);
        break;
      }
      case 3:
        v = static_cast<double>(static_cast<std::int64_t>(random() % 2000000) - 1000000) / 16.0;
        break;
      case 4:
        v = std::ldexp(static_cast<double>(random() >> 11), static_cast<int>(random() % 160) - 120);
        break;
      default: {
        const std::uint64_t bits = random();
        std::memcpy(&v, &bits, sizeof v);
        break;
      }
    }
    check(random() % 2 ? v : -v, decimals);
  }
}

TEST_CASE("well_formed_utf8 reads bytes as WHATWG's decoder does, and names_id matches by it") {
  using ndcg::well_formed_utf8;
  const std::string r = "\xEF\xBF\xBD";  // U+FFFD
  // Unicode's example of maximal subparts (chapter 3, "U+FFFD Substitution of Maximal Subparts").
  CHECK(well_formed_utf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64") ==
        "a" + r + r + r + "b" + r + "c" + r + r + "d");
  CHECK(well_formed_utf8("d\xE9") == "d" + r);                   // Latin-1
  CHECK(well_formed_utf8("\xE9\xE8x") == r + r + "x");           // a lead byte cut short, twice
  CHECK(well_formed_utf8("\xE0\x80\x80") == r + r + r);          // overlong
  CHECK(well_formed_utf8("\xED\xA0\x80") == r + r + r);          // a surrogate
  CHECK(well_formed_utf8("\xF4\x90\x80\x80") == r + r + r + r);  // past U+10FFFF
  CHECK(well_formed_utf8("\xC0\xAF") == r + r);
  CHECK(well_formed_utf8("ab\xE2\x82") == "ab" + r);  // cut short by the end
  CHECK(well_formed_utf8("\xE2\x82\xACx\xF0\x9F\x98\x80") == "\xE2\x82\xACx\xF0\x9F\x98\x80");
  CHECK(well_formed_utf8("") == "");
  CHECK(well_formed_utf8("301") == "301");

  CHECK(ndcg::names_id("301", "301"));
  CHECK_FALSE(ndcg::names_id("301", "30"));
  CHECK(ndcg::names_id("q\xE9", "q" + r));
  CHECK(ndcg::names_id("q\xE9", "q\xE9"));
  CHECK_FALSE(ndcg::names_id("q\xE9", "q\xC3\xA9"));  // "qé" is another id
  CHECK_FALSE(ndcg::names_id("q" + r, "q"));
}

TEST_CASE("printf_fixed writes what printf's %.*f writes, for any double and any decimals") {
  const auto check = [](double v, unsigned decimals) {
    static char expected[2048];
    std::snprintf(expected, sizeof expected, "%.*f", static_cast<int>(decimals), v);
    const std::string got = ndcg::printf_fixed(v, decimals);
    INFO("value bits " << std::bit_cast<std::uint64_t>(v) << ", " << decimals << " decimals");
    REQUIRE(got == expected);
  };
  const double specials[] = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             0.5,
                             1.5,
                             2.5,
                             -2.5,
                             0.125,
                             0.375,
                             1e15,
                             1e16,
                             9.2e18,
                             1e22,
                             1e300,
                             -1e308,
                             1.7976931348623157e308,
                             5e-324,
                             -5e-324,
                             2.2250738585072014e-308,
                             0.1,
                             0.3,
                             123456789.987654321,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             -std::numeric_limits<double>::quiet_NaN()};
  for (const double v : specials) {
    for (unsigned decimals : {0U, 1U, 2U, 4U, 6U, 8U, 9U, 12U, 17U, 20U, 30U, 330U})
      check(v, decimals);
  }
  // Shortened: no zeros ending the decimals, no point left alone, and the zeros of a whole
  // number written without decimals kept.
  CHECK(ndcg::printf_fixed_short(2.5, 6) == "2.5");
  CHECK(ndcg::printf_fixed_short(3.0, 6) == "3");
  CHECK(ndcg::printf_fixed_short(100.0, 0) == "100");
  CHECK(ndcg::printf_fixed_short(-0.0, 6) == "-0");
  CHECK(ndcg::printf_fixed_short(1e22, 6) == "10000000000000000000000");
  CHECK(ndcg::printf_fixed_short(-std::numeric_limits<double>::infinity(), 6) == "-inf");
  // Past the 1,074 places a double's exact value can have: zeros, as printf writes them.
  for (const double v : {0.1, -5e-324, 1e300, 2.2250738585072014e-308}) {
    std::vector<char> expected(4000);
    std::snprintf(expected.data(), expected.size(), "%.3000f", v);
    CHECK(ndcg::printf_fixed(v, 3000) == expected.data());
  }
  CHECK(ndcg::printf_fixed(0.5, 1000000).size() == 1000002);
  // Ties at the last place, above what write_fixed writes: k + 1/2 at 0 decimals, and halves
  // of 2^-n at n - 1 decimals.
  for (double k = 1e15; k < 1e15 + 8; k += 1) check(k + 0.5, 0);
  for (unsigned n = 9; n < 40; ++n) check(std::ldexp(3.0, -static_cast<int>(n)), n - 1);
  std::uint64_t state = 20261127;
  const auto random = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state;
  };
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = random();
    const double v = std::bit_cast<double>(bits);
    const unsigned decimals = static_cast<unsigned>(random() % 24);
    // Every exponent is as likely: most are huge or tiny, whose digits are printf's to write.
    check(v, decimals);
    // And values a person types or a measure gives.
    check(static_cast<double>(random() % 100000000) / 1e4 * (random() % 2 ? 1 : -1), decimals);
  }
}
