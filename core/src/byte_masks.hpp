// Sixteen bytes classified at a time, one bit per byte (bit k for byte k): for the readers' fast
// paths (LineSplitter's line ends, the TREC readers' fields), which meet a line's bytes a vector
// at a time instead of a branch per byte. With SSE2 (every x86-64) or WebAssembly's SIMD128
// (em++ -msimd128) a vector compare and a mask; elsewhere, two 8-byte words (SWAR), giving
// exactly the same bits: no byte's flag depends on its neighbours.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#define NDCG_BYTE_MASKS_SSE2 1
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define NDCG_BYTE_MASKS_WASM 1
#endif
#include <bit>

namespace ndcg::detail {

struct ByteMasks {
  std::uint32_t blank;    // a space or a tab
  std::uint32_t control;  // below 0x20 or 0x7F, a blank aside
  std::uint32_t high;     // 0x80 or more
};

// The portable way (also what the tests hold the vector code to).
namespace swar {
constexpr std::uint64_t kOnes = 0x0101010101010101ull;
constexpr std::uint64_t kHigh = 0x8080808080808080ull;
constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;

inline std::uint64_t load(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
}
// The top bit of each byte of `w` that is zero.
constexpr std::uint64_t zero_bytes(std::uint64_t w) {
  return ~(((w & kLow7) + kLow7) | w) & kHigh;
}
constexpr std::uint64_t bytes_equal(std::uint64_t w, unsigned char c) {
  return zero_bytes(w ^ (kOnes * c));
}
// One bit per byte (bit k for byte k) from flags in the bytes' top bits.
constexpr std::uint32_t bits(std::uint64_t top_bits) {
  return static_cast<std::uint32_t>(((top_bits >> 7) * 0x0102040810204080ull) >> 56);
}
inline ByteMasks classify8(std::uint64_t w) {
  const std::uint64_t blank = bytes_equal(w, ' ') | bytes_equal(w, '\t');
  const std::uint64_t low7 = w & kLow7;
  const std::uint64_t control =
      (~(low7 + kOnes * (0x80 - 0x20)) | (low7 + kOnes)) & ~w & kHigh & ~blank;
  return ByteMasks{bits(blank), bits(control), bits(w & kHigh)};
}
inline ByteMasks classify16(const char* p) {
  const ByteMasks a = classify8(load(p));
  const ByteMasks b = classify8(load(p + 8));
  return ByteMasks{a.blank | (b.blank << 8), a.control | (b.control << 8), a.high | (b.high << 8)};
}
inline std::uint32_t line_ends16(const char* p) {
  const auto ends8 = [](std::uint64_t w) {
    return bits(bytes_equal(w, '\n') | bytes_equal(w, '\r'));
  };
  return ends8(load(p)) | (ends8(load(p + 8)) << 8);
}
}  // namespace swar

// The classes of p[0..16).
inline ByteMasks classify16(const char* p) {
#if defined(NDCG_BYTE_MASKS_SSE2)
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i blank =
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
  // v <= 0x1F as unsigned bytes, or 0x7F.
  const __m128i control = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v),
                                       _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
  const auto blank_bits = static_cast<std::uint32_t>(_mm_movemask_epi8(blank));
  return ByteMasks{blank_bits, static_cast<std::uint32_t>(_mm_movemask_epi8(control)) & ~blank_bits,
                   static_cast<std::uint32_t>(_mm_movemask_epi8(v))};
#elif defined(NDCG_BYTE_MASKS_WASM)
  const v128_t v = wasm_v128_load(p);
  const v128_t blank = wasm_v128_or(wasm_i8x16_eq(v, wasm_i8x16_splat(' ')),
                                    wasm_i8x16_eq(v, wasm_i8x16_splat('\t')));
  const v128_t control = wasm_v128_or(wasm_u8x16_lt(v, wasm_i8x16_splat(0x20)),
                                      wasm_i8x16_eq(v, wasm_i8x16_splat(0x7F)));
  const auto blank_bits = static_cast<std::uint32_t>(wasm_i8x16_bitmask(blank));
  return ByteMasks{blank_bits,
                   static_cast<std::uint32_t>(wasm_i8x16_bitmask(control)) & ~blank_bits,
                   static_cast<std::uint32_t>(wasm_i8x16_bitmask(v))};
#else
  return swar::classify16(p);
#endif
}

// The classes of the `count` bytes at p (1 to 15) when `from_end_ok`, that is when the 16 bytes
// that end where they end may be read (p + count - 16 is still inside the text); otherwise from
// a copy. Bytes past `count` are blanks, never control characters or high.
inline ByteMasks classify_tail(const char* p, std::size_t count, bool from_end_ok) {
  ByteMasks m;
  if (from_end_ok) {
    m = classify16(p + count - 16);
    const unsigned shift = 16 - static_cast<unsigned>(count);
    m.blank >>= shift;
    m.control >>= shift;
    m.high >>= shift;
  } else {
    char padded[16];
    std::memset(padded, ' ', sizeof padded);
    std::memcpy(padded, p, count);
    m = classify16(padded);
  }
  m.blank |= (0xFFFFu << count) & 0xFFFFu;
  return m;
}

// Bit k set where p[k] is '\n' or '\r', for p[0..16).
inline std::uint32_t line_ends16(const char* p) {
#if defined(NDCG_BYTE_MASKS_SSE2)
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(
      _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')))));
#elif defined(NDCG_BYTE_MASKS_WASM)
  const v128_t v = wasm_v128_load(p);
  return static_cast<std::uint32_t>(wasm_i8x16_bitmask(wasm_v128_or(
      wasm_i8x16_eq(v, wasm_i8x16_splat('\n')), wasm_i8x16_eq(v, wasm_i8x16_splat('\r')))));
#else
  return swar::line_ends16(p);
#endif
}

}  // namespace ndcg::detail
