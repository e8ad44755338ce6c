// Values as bytes, for handing evaluations between instances of the core (workers): numbers in
// the machine's order (the core runs on little-endian machines: wasm, x86, ARM), texts with their
// length first. The Unpacker checks every read: bytes cut short or malformed make ok() false,
// never a read past the end. Internal to the core (compare.cpp, trec.cpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ndcg/diagnostic.hpp"

namespace ndcg::detail {

class Packer {
 public:
  void bytes(const void* data, std::size_t size) {
    out_.append(static_cast<const char*>(data), size);
  }
  template <class T>
  void number(T value) {
    static_assert(std::is_arithmetic_v<T>);
    bytes(&value, sizeof value);  // the core runs on little-endian machines (wasm, x86, ARM)
  }
  void flag(bool b) { number<std::uint8_t>(b ? 1 : 0); }
  // The numbers of `list` one after the other, as number() writes each, in one copy.
  template <class T>
  void numbers(const std::vector<T>& list) {
    static_assert(std::is_arithmetic_v<T>);
    bytes(list.data(), list.size() * sizeof(T));
  }
  void text(std::string_view s) {
    number(static_cast<std::uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }
  void texts(const std::vector<std::string>& list) {
    number(static_cast<std::uint32_t>(list.size()));
    for (const std::string& t : list) text(t);
  }
  void diagnostics(const std::vector<Diagnostic>& list) {
    number(static_cast<std::uint32_t>(list.size()));
    for (const Diagnostic& d : list) {
      number(static_cast<std::uint8_t>(d.source));
      number(d.line);
      number(d.column);
      text(d.message);
      text(d.code);
    }
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Unpacker {
 public:
  explicit Unpacker(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool at_end() const { return at_ == in_.size(); }
  std::size_t left() const { return in_.size() - at_; }
  std::string_view bytes(std::size_t size) {
    if (!ok_ || size > left()) {
      ok_ = false;
      return {};
    }
    const std::string_view b = in_.substr(at_, size);
    at_ += size;
    return b;
  }
  template <class T>
  T number() {
    T value{};
    const std::string_view b = bytes(sizeof value);
    if (ok_) std::memcpy(&value, b.data(), sizeof value);
    return value;
  }
  bool flag() { return number<std::uint8_t>() == 1; }
  // `count` numbers written by Packer::numbers (or number() each), appended to `out`.
  template <class T>
  void numbers(std::size_t count, std::vector<T>& out) {
    static_assert(std::is_arithmetic_v<T>);
    if (!ok_ || count > left() / sizeof(T)) {
      ok_ = false;
      return;
    }
    const std::string_view b = bytes(count * sizeof(T));
    const std::size_t before = out.size();
    out.resize(before + count);
    if (count > 0) std::memcpy(out.data() + before, b.data(), b.size());
  }
  std::string text() { return std::string(bytes(number<std::uint32_t>())); }
  // A 64-bit count of items that take `least_bytes` each at least: 0, and failed, when the bytes
  // left cannot hold that many (a damaged count, not a reason to allocate).
  std::size_t count(std::size_t least_bytes) {
    const auto n = number<std::uint64_t>();
    if (ok_ && n <= left() / least_bytes) return static_cast<std::size_t>(n);
    ok_ = false;
    return 0;
  }
  std::vector<std::string> texts() {
    std::vector<std::string> list;
    const auto n = number<std::uint32_t>();
    if (!ok_ || n > left() / 4) {  // each takes 4 bytes or more
      ok_ = false;
      return list;
    }
    for (std::uint32_t i = 0; i < n && ok_; ++i) list.push_back(text());
    return list;
  }
  // A list of diagnostics; a code is kept when it is one the core gives (known_code).
  std::vector<Diagnostic> diagnostics() {
    std::vector<Diagnostic> list;
    const auto count = number<std::uint32_t>();
    if (!ok_ || count > left() / 17) {  // each takes 17 bytes or more
      ok_ = false;
      return list;
    }
    for (std::uint32_t i = 0; i < count && ok_; ++i) {
      Diagnostic d;
      d.source = choice(Source::working);
      d.line = number<std::uint32_t>();
      d.column = number<std::uint32_t>();
      d.message = text();
      d.code = known_code(text());
      list.push_back(std::move(d));
    }
    return list;
  }
  // An enum stored as a byte, checked against its last value.
  template <class E>
  E choice(E last) {
    const auto v = number<std::uint8_t>();
    if (v > static_cast<std::uint8_t>(last)) ok_ = false;
    return static_cast<E>(v);
  }

 private:
  std::string_view in_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace ndcg::detail
