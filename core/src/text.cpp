#include "ndcg/text.hpp"

#include <fast_float.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <system_error>

#include "byte_masks.hpp"

namespace ndcg {
namespace {

struct CodePoint {
  char32_t value;
  std::uint32_t length;  // bytes consumed (1 for an invalid byte)
};

// Decodes the UTF-8 sequence at `i`; an invalid or truncated sequence decodes as U+FFFD of
// length 1, so that any byte string can be walked without ever reading out of bounds.
CodePoint decode(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return {b0, 1};
  std::uint32_t length = 0;
  char32_t value = 0;
  if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    value = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    value = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    value = b0 & 0x07;
  } else {
    return {0xFFFD, 1};
  }
  if (i + length > s.size()) return {0xFFFD, 1};
  for (std::uint32_t k = 1; k < length; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return {0xFFFD, 1};
    value = (value << 6) | (b & 0x3F);
  }
  const bool overlong = (length == 2 && value < 0x80) || (length == 3 && value < 0x800) ||
                        (length == 4 && value < 0x10000);
  if (overlong || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return {0xFFFD, 1};
  return {value, length};
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Length in bytes of a subscript digit (U+2080..U+2089) at `i`, or 0.
std::size_t subscript_digit_at(std::string_view s, std::size_t i) {
  if (i + 2 < s.size() && s[i] == '\xE2' && s[i + 1] == '\x82') {
    const auto b = static_cast<unsigned char>(s[i + 2]);
    if (b >= 0x80 && b <= 0x89) return 3;
  }
  return 0;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// True if `token` may continue a slide-style id begun by letters: "_{12}", "₁₂₃", "_3".
bool continues_id(std::string_view token, bool previous_open) {
  if (token.empty()) return false;
  if (token[0] == '_' || token[0] == '{' || subscript_digit_at(token, 0) > 0) return true;
  if (!previous_open) return false;
  for (char c : token) {
    if (!is_digit(c) && c != '}') return false;
  }
  return true;
}

bool all_letters(std::string_view token) {
  if (token.empty()) return false;
  for (char c : token) {
    if (!is_letter(c)) return false;
  }
  return true;
}

void split_on(std::string_view line, char separator, std::vector<Field>& out) {
  std::size_t start = 0;
  while (true) {
    const std::size_t end = line.find(separator, start);
    const std::size_t stop = end == std::string_view::npos ? line.size() : end;
    std::string_view piece = line.substr(start, stop - start);
    const std::string_view trimmed = trim(piece);
    const std::size_t lead =
        trimmed.empty() ? 0 : static_cast<std::size_t>(trimmed.data() - piece.data());
    out.push_back(Field{trimmed, static_cast<std::uint32_t>(start + lead)});
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

void split_on_space(std::string_view line, std::vector<Field>& out) {
  std::size_t i = 0;
  auto next_token = [&](std::size_t from) -> std::pair<std::size_t, std::size_t> {
    std::size_t s = from;
    while (s < line.size()) {
      const std::size_t n = space_length(line, s);
      if (n == 0) break;
      s += n;
    }
    std::size_t e = s;
    if (e < line.size() && line[e] == '(') {
      const std::size_t close = line.find(')', e);
      e = close == std::string_view::npos ? line.size() : close + 1;
    } else {
      while (e < line.size() && space_length(line, e) == 0) ++e;
    }
    return {s, e};
  };
  while (true) {
    auto [start, end] = next_token(i);
    if (start >= line.size()) break;
    if (all_letters(line.substr(start, end - start))) {
      // Join "d ₁₂₃" and "d _{12}" into one field.
      bool open = false;
      while (true) {
        auto [ns, ne] = next_token(end);
        if (ns >= line.size()) break;
        std::string_view token = line.substr(ns, ne - ns);
        if (!continues_id(token, open)) break;
        open = token.back() == '_' || token.back() == '{';
        end = ne;
      }
    }
    out.push_back(Field{line.substr(start, end - start), static_cast<std::uint32_t>(start)});
    i = end;
  }
}

}  // namespace

std::size_t space_length(std::string_view s, std::size_t i) {
  if (i >= s.size()) return 0;
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return is_space(static_cast<char>(b0)) ? 1 : 0;
  if (b0 == 0xC2) return i + 1 < s.size() && s[i + 1] == '\xA0' ? 2 : 0;  // U+00A0
  if (i + 2 >= s.size()) return 0;
  const auto b1 = static_cast<unsigned char>(s[i + 1]);
  const auto b2 = static_cast<unsigned char>(s[i + 2]);
  if (b0 == 0xE1) return b1 == 0x9A && b2 == 0x80 ? 3 : 0;  // U+1680 Ogham space mark
  if (b0 == 0xE2 && b1 == 0x80) {
    // U+2000..U+200B (fixed-width spaces, zero width space), U+202F narrow no-break space; the
    // third byte a continuation byte (0x80 up), not an ASCII one after a cut-off sequence.
    return (b2 >= 0x80 && b2 <= 0x8B) || b2 == 0xAF ? 3 : 0;
  }
  if (b0 == 0xE2 && b1 == 0x81) return b2 == 0x9F || b2 == 0xA0 ? 3 : 0;  // U+205F, U+2060
  if (b0 == 0xE3) return b1 == 0x80 && b2 == 0x80 ? 3 : 0;                // U+3000
  if (b0 == 0xEF) return b1 == 0xBB && b2 == 0xBF ? 3 : 0;                // U+FEFF
  return 0;
}

std::string_view trim(std::string_view text) {
  std::size_t b = 0;
  while (b < text.size()) {
    const std::size_t n = space_length(text, b);
    if (n == 0) break;
    b += n;
  }
  std::size_t e = text.size();
  while (e > b) {
    // An ASCII byte ends no code point of more than one byte: a space of its own, or nothing.
    const auto last = static_cast<unsigned char>(text[e - 1]);
    if (last < 0x80) {
      if (!is_space(static_cast<char>(last))) break;
      --e;
      continue;
    }
    // A byte of 0x80 or more: a white-space code point of 2 bytes (U+00A0) or 3 may end at e.
    std::size_t n = 0;
    for (std::size_t len : {std::size_t{2}, std::size_t{3}}) {
      if (e - b >= len && space_length(text, e - len) == len) {
        n = len;
        break;
      }
    }
    if (n == 0) break;
    e -= n;
  }
  return text.substr(b, e - b);
}

std::string_view trim_ascii(std::string_view text) {
  std::size_t b = 0;
  std::size_t e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  return text.substr(b, e - b);
}

// WHATWG's UTF-8 decoder (Encoding Standard, 4.1): a lead byte and the bytes that may follow it
// are kept when they make a whole sequence; else U+FFFD stands for the lead byte and those of them
// that could follow it, and reading goes on at the byte that could not (or at the next byte, for
// a byte that cannot lead).
std::string well_formed_utf8(std::string_view bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    constexpr std::size_t kCannotLead = 9;  // more bytes than any sequence has
    const std::size_t follow = b < 0x80   ? 0
                               : b < 0xC2 ? kCannotLead
                               : b < 0xE0 ? 1
                               : b < 0xF0 ? 2
                               : b < 0xF5 ? 3
                                          : kCannotLead;
    // The first byte after E0, ED, F0 and F4 has a narrower range (no overlong forms, surrogates,
    // or code points past U+10FFFF).
    unsigned lower = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
    unsigned upper = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
    std::size_t n = 1;
    for (; follow != kCannotLead && n <= follow && i + n < bytes.size(); ++n) {
      const auto c = static_cast<unsigned char>(bytes[i + n]);
      if (c < lower || c > upper) break;
      lower = 0x80;
      upper = 0xBF;
    }
    if (n == follow + 1) {
      out.append(bytes.substr(i, n));
    } else {
      out += "\xEF\xBF\xBD";
    }
    i += n;
  }
  return out;
}

bool names_id(std::string_view id, std::string_view named) {
  // Only an id that is not UTF-8 reads otherwise (runs once a query, when a query is named).
  return id == named || well_formed_utf8(id) == named;
}

std::size_t find_control(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7F) return i;
  }
  return std::string_view::npos;
}

ColumnCursor::Place ColumnCursor::at(std::size_t offset) {
  if (offset > text_.size()) offset = text_.size();
  if (offset < offset_) {
    // Parsers ask in increasing order; going back restarts from the top of the text.
    offset_ = 0;
    line_start_ = 0;
    line_ = 1;
    column_ = 1;
  }
  while (offset_ < offset) {
    if (text_[offset_] == '\n') {
      ++offset_;
      line_start_ = offset_;
      ++line_;
      column_ = 1;
      continue;
    }
    offset_ += decode(text_, offset_).length;
    ++column_;
  }
  return {line_, column_};
}

std::uint32_t column_of(std::string_view line, std::uint32_t offset) {
  std::uint32_t column = 1;
  std::size_t i = 0;
  while (i < offset && i < line.size()) {
    i += decode(line, i).length;
    ++column;
  }
  return column;
}

bool is_table_rule(std::string_view line) {
  line = trim(line);
  if (line.empty()) return false;
  bool has_dash = false;
  for (char c : line) {
    if (c == '-') {
      has_dash = true;
    } else if (c != '|' && c != ':' && !is_space(c)) {
      return false;
    }
  }
  return has_dash;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), is_digit);
}

std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> fields;
  if (line.find('|') != std::string_view::npos) {
    split_on(line, '|', fields);
    if (!fields.empty() && fields.front().text.empty()) fields.erase(fields.begin());
    if (!fields.empty() && fields.back().text.empty()) fields.pop_back();
  } else if (line.find('\t') != std::string_view::npos) {
    split_on(line, '\t', fields);
  } else if (line.find(',') != std::string_view::npos) {
    split_on(line, ',', fields);
  } else {
    split_on_space(line, fields);
  }
  return fields;
}

std::optional<std::int64_t> parse_integer_text(std::string_view text, bool* out_of_range) {
  if (out_of_range != nullptr) *out_of_range = false;
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  if (i == text.size()) return std::nullopt;
  // Accumulated as a negative number, whose range is one larger than the positive one.
  std::int64_t value = 0;
  constexpr std::int64_t kMin = INT64_MIN;
  bool overflow = false;
  for (; i < text.size(); ++i) {
    if (!is_digit(text[i])) return std::nullopt;
    const int digit = text[i] - '0';
    if (value < (kMin + digit) / 10) overflow = true;
    if (!overflow) value = value * 10 - digit;
  }
  if (!overflow && !negative && value == kMin) overflow = true;
  if (overflow) {
    if (out_of_range != nullptr) *out_of_range = true;
    return std::nullopt;
  }
  return negative ? value : -value;
}

// Sixteen bytes at a time (detail::line_ends16: a vector compare where the target has one), in
// one pass for both line ends, and without a call per line into memchr, whose setup costs more
// than a short line's scan. The last 1 to 15 bytes of a chunk of 16 bytes or more are read from
// the 16 that end with them.
std::size_t LineSplitter::line_end(std::string_view chunk, std::size_t from) {
  const char* p = chunk.data();
  const std::size_t n = chunk.size();
  std::size_t i = from;
  for (; i + 16 <= n; i += 16) {
    const std::uint32_t found = detail::line_ends16(p + i);
    if (found != 0) return i + static_cast<std::size_t>(std::countr_zero(found));
  }
  if (i < n && n >= 16) {
    const std::uint32_t found = detail::line_ends16(p + n - 16) >> (16 - (n - i));
    return found != 0 ? i + static_cast<std::size_t>(std::countr_zero(found))
                      : std::string_view::npos;
  }
  for (; i < n; ++i) {
    if (p[i] == '\n' || p[i] == '\r') return i;
  }
  return std::string_view::npos;
}

// Four vectors of 16 (detail::classify16) make the 64 bits; the line ends at the first control
// character when that is a '\n' or a '\r'.
std::size_t LineSplitter::short_line(const char* p, ShortLine& out) {
  const detail::ByteMasks a = detail::classify16(p);
  const detail::ByteMasks b = detail::classify16(p + 16);
  const detail::ByteMasks c = detail::classify16(p + 32);
  const detail::ByteMasks d = detail::classify16(p + 48);
  const auto join = [](std::uint32_t w, std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    return std::uint64_t{w} | (std::uint64_t{x} << 16) | (std::uint64_t{y} << 32) |
           (std::uint64_t{z} << 48);
  };
  const std::uint64_t control = join(a.control, b.control, c.control, d.control);
  if (control == 0) return kNotShort;
  const auto length = static_cast<std::size_t>(std::countr_zero(control));
  if (p[length] != '\n' && p[length] != '\r') return kNotShort;
  const std::uint64_t after = ~std::uint64_t{0} << length;  // the bytes past the line
  out.blanks = join(a.blank, b.blank, c.blank, d.blank) | after;
  out.high = (join(a.high, b.high, c.high, d.high) & ~after) != 0;
  return length;
}

std::optional<double> parse_decimal(std::string_view text, bool* out_of_range) {
  double value = 0;
  if (!parse_decimal(text, value, out_of_range)) return std::nullopt;
  return value;
}

// A 128-bit whole number (GCC's and Clang's, native and wasm alike).
__extension__ typedef unsigned __int128 Uint128;

namespace {

constexpr std::uint64_t kTens[] = {1ULL,  // 10^0 to 10^19
                                   10ULL,
                                   100ULL,
                                   1000ULL,
                                   10000ULL,
                                   100000ULL,
                                   1000000ULL,
                                   10000000ULL,
                                   100000000ULL,
                                   1000000000ULL,
                                   10000000000ULL,
                                   100000000000ULL,
                                   1000000000000ULL,
                                   10000000000000ULL,
                                   100000000000000ULL,
                                   1000000000000000ULL,
                                   10000000000000000ULL,
                                   100000000000000000ULL,
                                   1000000000000000000ULL,
                                   10000000000000000000ULL};

// product * 2^-shift (0 < shift < 128) rounded to the nearest whole number, ties to even, as
// printf rounds the exact binary value of a double to its last digit.
Uint128 to_nearest(Uint128 product, int shift) {
  const Uint128 whole = product >> shift;
  const Uint128 rest = product - (whole << shift);
  const Uint128 half = static_cast<Uint128>(1) << (shift - 1);
  return whole + ((rest > half || (rest == half && (whole & 1) != 0)) ? 1 : 0);
}

}  // namespace

bool seventeen_digits(double magnitude, char* digits, int& power) {
  if (!(magnitude >= 1e-6 && magnitude < 9007199254740992.0)) return false;
  // magnitude = m * 2^-shift exactly, m a whole number below 2^53.
  int exponent = 0;
  const auto m = static_cast<std::uint64_t>(std::ldexp(std::frexp(magnitude, &exponent), 53));
  const int shift = 53 - exponent;  // 1..72 here
  // The power of ten of the first digit: from the binary exponent (log10(2) = 0.30103), then
  // corrected by the digits' count, which the exact product tells.
  int first = static_cast<int>(std::floor((exponent - 1) * 0.30102999566398120));
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int d = 16 - first;  // 1..22: 10^22 * 2^53 < 2^127
    if (d < 0 || d > 22) return false;
    // One 64 x 64-bit product (m * 10^(d - 19) < 2^63 for d > 19): in wasm a 128-bit product
    // is a call.
    const Uint128 product = d <= 19 ? static_cast<Uint128>(m) * kTens[d]
                                    : static_cast<Uint128>(m * kTens[d - 19]) * kTens[19];
    const Uint128 whole = product >> shift;
    if (whole >= kTens[17]) {
      ++first;
      continue;
    }
    if (whole < kTens[16]) {
      --first;
      continue;
    }
    auto n = static_cast<std::uint64_t>(to_nearest(product, shift));
    if (n == kTens[17]) {  // 9.99...95 and up: 1.000... and one more power of ten
      n = kTens[16];
      ++first;
    }
    for (int i = 16; i >= 0; --i, n /= 10) digits[i] = static_cast<char>('0' + n % 10);
    power = first;
    return true;
  }
  return false;
}

char* write_fixed(char* out, double value, unsigned decimals) {
  if (decimals > 8 || !std::isfinite(value)) return nullptr;
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e15 || magnitude * static_cast<double>(kTens[decimals]) >= 9e18) return nullptr;
  // magnitude = m * 2^-shift exactly, m a whole number below 2^53 (shift > 0: magnitude < 2^50).
  int exponent = 0;
  const double fraction = std::frexp(magnitude, &exponent);
  const auto m = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  const int shift = 53 - exponent;
  // magnitude * 10^decimals = scaled * 2^-shift, scaled below 2^80.
  const Uint128 scaled = static_cast<Uint128>(m) * kTens[decimals];
  std::uint64_t units = 0;  // the value in units of 10^-decimals, rounded
  if (m != 0 && shift < 100) {
    units = static_cast<std::uint64_t>(to_nearest(scaled, shift));
  }  // else below 2^-19 units: rounds to 0
  char digits[32];
  char* end = digits + sizeof digits;
  char* p = end;
  std::uint64_t whole = units / kTens[decimals];
  std::uint64_t part = units % kTens[decimals];
  for (unsigned i = 0; i < decimals; ++i, part /= 10) *--p = static_cast<char>('0' + part % 10);
  if (decimals > 0) *--p = '.';
  do {
    *--p = static_cast<char>('0' + whole % 10);
    whole /= 10;
  } while (whole != 0);
  if (std::signbit(value)) *--p = '-';
  const auto length = static_cast<std::size_t>(end - p);
  std::memcpy(out, p, length);
  return out + length;
}

// A whole number of any size as 32-bit limbs, least significant first: what printf_fixed needs.
using Limbs = std::vector<std::uint32_t>;

std::string printf_fixed(double value, unsigned decimals) {
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char quick[kFixedBytes];
  if (char* end = write_fixed(quick, value, decimals)) return std::string(quick, end);
  // A double's exact value has at most 1,074 digits after the point: past that, printf writes
  // zeros, added at the end rather than worked out (a working may give a value a million places).
  constexpr unsigned kMostDigits = 1100;
  const unsigned zeros = decimals > kMostDigits ? decimals - kMostDigits : 0;
  decimals -= zeros;
  // |value| = m * 2^shift exactly, m below 2^53 (frexp normalises a subnormal too).
  int exponent = 0;
  const auto m =
      static_cast<std::uint64_t>(std::ldexp(std::frexp(std::fabs(value), &exponent), 53));
  const int shift = exponent - 53;
  Limbs n{static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(m >> 32)};
  const auto multiply = [&n](std::uint32_t k) {
    std::uint64_t carry = 0;
    for (std::uint32_t& limb : n) {
      carry += std::uint64_t{limb} * k;
      limb = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    if (carry != 0) n.push_back(static_cast<std::uint32_t>(carry));
  };
  for (unsigned d = 0; d < decimals; ++d) multiply(10);  // m * 10^decimals
  for (int left = shift; left > 0; left -= 31) multiply(1U << std::min(left, 31));  // n * 2^shift
  if (shift < 0) {
    // n * 2^shift rounded to the nearest whole number, ties to even.
    const auto s = static_cast<std::size_t>(-shift);
    const auto bit = [&n](std::size_t i) {
      return i / 32 < n.size() && ((n[i / 32] >> (i % 32)) & 1U) != 0;
    };
    const bool half = bit(s - 1);
    bool below = false;  // a bit set under the half
    for (std::size_t i = 0; i + 1 < s && i < n.size() * 32 && !below; ++i) below = bit(i);
    Limbs q(n.size(), 0);
    for (std::size_t i = s; i < n.size() * 32; ++i) {
      if (bit(i)) q[(i - s) / 32] |= 1U << ((i - s) % 32);
    }
    n = std::move(q);
    if (half && (below || (!n.empty() && (n[0] & 1U) != 0))) {
      for (std::uint32_t& limb : n) {
        if (++limb != 0) break;
      }
    }
  }
  // Its digits, nine at a time from the right.
  std::string digits;
  while (std::any_of(n.begin(), n.end(), [](std::uint32_t limb) { return limb != 0; })) {
    std::uint64_t rest = 0;
    for (std::size_t i = n.size(); i-- > 0;) {
      rest = (rest << 32) | n[i];
      n[i] = static_cast<std::uint32_t>(rest / 1000000000U);
      rest %= 1000000000U;
    }
    for (int k = 0; k < 9; ++k, rest /= 10) digits += static_cast<char>('0' + rest % 10);
  }
  while (digits.size() > decimals + 1 && digits.back() == '0') digits.pop_back();
  if (digits.size() < decimals + 1) digits.append(decimals + 1 - digits.size(), '0');
  std::string out = std::signbit(value) ? "-" : "";
  out.append(digits.rbegin(), digits.rend() - decimals);
  if (decimals > 0) out += '.';
  out.append(digits.rend() - decimals, digits.rend());
  out.append(zeros, '0');
  return out;
}

std::string printf_fixed_short(double value, unsigned decimals) {
  std::string s = printf_fixed(value, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

bool parse_decimal(std::string_view text, double& out, bool* out_of_range) {
  if (out_of_range != nullptr) *out_of_range = false;
  // Clinger's fast path, for the scores runs are mostly made of ("12.3456", "-0.25"): at most 19
  // digits and no exponent, a whole number m up to 2^53 and k <= 22 decimals. Both m and 10^k
  // are exact doubles, so m / 10^k is rounded once, correctly, as strtod would round it.
  {
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* p = text.data();
    const char* const end = p + text.size();
    const bool negative = p != end && *p == '-';
    if (negative) ++p;
    // Digits up to `limit`, at most 19 in all (m < 10^19 fits 64 bits): each loop tests one
    // bound and one byte, where testing the end, the byte and a count cost three times as many
    // instructions a digit.
    const auto read_digits = [&p](const char* limit, std::uint64_t m) {
      for (; p != limit; ++p) {
        const unsigned digit = static_cast<unsigned>(static_cast<unsigned char>(*p)) - '0';
        if (digit > 9) break;
        m = m * 10 + digit;
      }
      return m;
    };
    const auto within = [end](const char* from, std::size_t room) {
      return static_cast<std::size_t>(end - from) > room ? from + room : end;
    };
    const char* const whole = p;
    std::uint64_t m = read_digits(within(p, 19), 0);
    auto digits = static_cast<std::size_t>(p - whole);
    std::size_t decimals = 0;
    if (p != end && *p == '.') {
      const char* const fraction = ++p;
      m = read_digits(within(p, 19 - digits), m);
      decimals = static_cast<std::size_t>(p - fraction);
      digits += decimals;
    }
    if (p == end && digits > 0 && m <= (std::uint64_t{1} << 53)) {
      const double value = static_cast<double>(m) / kPow10[decimals];
      out = negative ? -value : value;
      return true;
    }
  }
  // The grammar: [+-] digits [. digits] [(e|E) [+-] digits], with a digit before or after the
  // point. Past the sign it is fast_float's, which rounds correctly, as strtod does in the "C"
  // locale; a digit or a point after the sign keeps out its "inf" and "nan", and it reads no '+'.
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  if (i == text.size() || !(is_digit(text[i]) || text[i] == '.')) return false;
  const char* first = text.data() + (text.front() == '+' ? 1 : 0);
  const char* last = text.data() + text.size();
  double value = 0;
  const auto read = fast_float::from_chars(first, last, value);
  if (read.ec != std::errc() || read.ptr != last) return false;
  if (!std::isfinite(value)) {
    if (out_of_range != nullptr) *out_of_range = true;
    return false;
  }
  out = value;
  return true;
}

std::string normalise_doc_id(std::string_view text) {
  std::string_view s = trim(text);
  while (s.size() >= 2 && s.front() == '$' && s.back() == '$') s = trim(s.substr(1, s.size() - 2));
  std::size_t i = 0;
  while (i < s.size() && is_letter(s[i])) ++i;
  const std::size_t prefix = i;
  if (prefix == 0 || prefix == s.size()) return std::string(s);
  // Letters, then ASCII digits to the end ("d12"), as most ids are: already as written.
  std::size_t end = prefix;
  while (end < s.size() && is_digit(s[end])) ++end;
  if (end == s.size()) return std::string(s);
  auto skip_spaces = [&] {
    while (i < s.size() && is_space(s[i])) ++i;
  };
  bool marked = false;  // "_", "{" or subscripts say this is slide notation, not "d 3"
  skip_spaces();
  if (i < s.size() && s[i] == '_') {
    ++i;
    marked = true;
    skip_spaces();
  }
  bool braced = false;
  if (i < s.size() && s[i] == '{') {
    ++i;
    braced = true;
    marked = true;
    skip_spaces();
  }
  std::string digits;
  while (i < s.size()) {
    if (is_digit(s[i])) {
      digits.push_back(s[i]);
      ++i;
    } else if (const std::size_t n = subscript_digit_at(s, i); n > 0) {
      digits.push_back(static_cast<char>('0' + (static_cast<unsigned char>(s[i + 2]) - 0x80)));
      marked = true;
      i += n;
    } else {
      break;
    }
  }
  skip_spaces();
  if (braced) {
    if (i >= s.size() || s[i] != '}') return std::string(s);
    ++i;
    skip_spaces();
  }
  const bool spaced = prefix < s.size() && is_space(s[prefix]);
  if (digits.empty() || i != s.size() || (spaced && !marked)) return std::string(s);
  return std::string(s.substr(0, prefix)) + digits;
}

std::optional<std::string_view> take_grade_note(std::string_view& field) {
  std::string_view s = trim(field);
  if (s.empty() || s.back() != ')') return std::nullopt;
  const std::size_t open = s.rfind('(');
  if (open == std::string_view::npos) return std::nullopt;
  std::string_view inside = trim(s.substr(open + 1, s.size() - open - 2));
  if (inside.empty() || (inside[0] != 'r' && inside[0] != 'R')) return std::nullopt;
  inside = trim(inside.substr(1));
  if (inside.empty() || (inside[0] != ':' && inside[0] != '=')) return std::nullopt;
  inside = trim(inside.substr(1));
  if (inside.empty()) return std::nullopt;
  field = trim(s.substr(0, open));
  return inside;
}

std::string quote(std::string_view text, std::size_t max_code_points) {
  std::string out = "'";
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (count == max_code_points) {
      out += "…";
      break;
    }
    const CodePoint cp = decode(text, i);
    const bool control =
        cp.value < 0x20 || cp.value == 0x7F || (cp.value >= 0x80 && cp.value < 0xA0);
    append_utf8(out, control ? char32_t{0xFFFD} : cp.value);
    i += cp.length;
    ++count;
  }
  out += "'";
  return out;
}

}  // namespace ndcg
