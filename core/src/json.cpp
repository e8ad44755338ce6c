#include "ndcg/json.hpp"

#include "ndcg/text.hpp"

namespace ndcg::json {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  Document run() {
    Document out;
    skip_space();
    Value value;
    if (!read_value(value, 0)) {
      out.error = error_;
      return out;
    }
    skip_space();
    if (at_ < text_.size()) {
      out.error = Error{static_cast<std::uint32_t>(at_),
                        "text after the end of the JSON value; a JSON paste holds one value"};
      return out;
    }
    out.value = std::move(value);
    return out;
  }

 private:
  bool fail(std::string message) {
    if (!error_.message.empty()) return false;
    error_ = Error{static_cast<std::uint32_t>(at_), std::move(message)};
    return false;
  }

  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
      ++at_;
    }
  }

  bool read_value(Value& v, std::size_t depth) {
    if (depth >= kMaxJsonDepth) {
      return fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
    if (at_ >= text_.size()) return fail("the JSON ends where a value was expected");
    v.offset = static_cast<std::uint32_t>(at_);
    const char c = text_[at_];
    if (c == '{') return read_object(v, depth);
    if (c == '[') return read_array(v, depth);
    if (c == '"') {
      v.kind = Value::Kind::string;
      return read_string(v.text);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return read_number(v);
    struct Literal {
      std::string_view word;
      Value::Kind kind;
      bool truth;
    };
    static constexpr Literal kLiterals[] = {{"true", Value::Kind::boolean, true},
                                            {"false", Value::Kind::boolean, false},
                                            {"null", Value::Kind::null, false}};
    for (const Literal& literal : kLiterals) {
      if (text_.substr(at_, literal.word.size()) == literal.word) {
        v.kind = literal.kind;
        v.boolean = literal.truth;
        at_ += literal.word.size();
        return true;
      }
    }
    return fail(
        "expected a JSON value (a string in double quotes, a number, an object or an "
        "array) here");
  }

  bool read_object(Value& v, std::size_t depth) {
    v.kind = Value::Kind::object;
    ++at_;
    skip_space();
    if (at_ < text_.size() && text_[at_] == '}') {
      ++at_;
      return true;
    }
    while (true) {
      skip_space();
      if (at_ >= text_.size() || text_[at_] != '"') {
        return fail("expected a key in double quotes, such as \"d1\"");
      }
      std::string key;
      if (!read_string(key)) return false;
      skip_space();
      if (at_ >= text_.size() || text_[at_] != ':') return fail("expected ':' after the key");
      ++at_;
      skip_space();
      Value member;
      if (!read_value(member, depth + 1)) return false;
      v.members.push_back(Member{std::move(key), std::move(member)});
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return true;
      }
      return fail("expected ',' or '}' in this object");
    }
  }

  bool read_array(Value& v, std::size_t depth) {
    v.kind = Value::Kind::array;
    ++at_;
    skip_space();
    if (at_ < text_.size() && text_[at_] == ']') {
      ++at_;
      return true;
    }
    while (true) {
      skip_space();
      Value item;
      if (!read_value(item, depth + 1)) return false;
      v.items.push_back(std::move(item));
      skip_space();
      if (at_ < text_.size() && text_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return true;
      }
      return fail("expected ',' or ']' in this array");
    }
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool read_hex4(std::uint32_t& out) {
    if (at_ + 4 > text_.size()) return fail("a \\u escape needs four hex digits");
    out = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      const char c = text_[at_ + i];
      out <<= 4;
      if (c >= '0' && c <= '9') {
        out |= static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        out |= static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        out |= static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        return fail("a \\u escape needs four hex digits");
      }
    }
    at_ += 4;
    return true;
  }

  bool read_string(std::string& out) {
    ++at_;  // the opening quote
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '"') {
        ++at_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return fail("a line break or control character inside a JSON string; write it as \\n");
      }
      if (c != '\\') {
        out += c;
        ++at_;
        continue;
      }
      ++at_;
      if (at_ >= text_.size()) break;
      const char e = text_[at_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!read_hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && text_.substr(at_, 2) == "\\u") {
            at_ += 2;
            std::uint32_t low = 0;
            if (!read_hex4(low)) return false;
            cp = (low >= 0xDC00 && low <= 0xDFFF) ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                                                  : 0xFFFD;
          } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;  // a lone surrogate, as a browser decodes it
          }
          append_utf8(out, cp);
          break;
        }
        default:
          --at_;
          return fail("unknown escape in a JSON string");
      }
    }
    return fail("this JSON string has no closing '\"'");
  }

  bool read_number(Value& v) {
    const std::size_t start = at_;
    if (text_[at_] == '-') ++at_;
    while (at_ < text_.size() &&
           ((text_[at_] >= '0' && text_[at_] <= '9') || text_[at_] == '.' || text_[at_] == 'e' ||
            text_[at_] == 'E' || text_[at_] == '+' || text_[at_] == '-')) {
      ++at_;
    }
    v.kind = Value::Kind::number;
    v.text.assign(text_.substr(start, at_ - start));
    bool out_of_range = false;
    const auto number = parse_decimal(v.text, &out_of_range);
    if (!number) {
      at_ = start;
      return fail(out_of_range ? "this number is too large to compute with"
                               : "this is not a JSON number");
    }
    v.number = *number;
    return true;
  }

  std::string_view text_;
  std::size_t at_ = 0;
  Error error_;
};

}  // namespace

Document parse(std::string_view text) {
  std::size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  Document d = Reader(text.substr(bom)).run();
  if (d.error) d.error->offset += static_cast<std::uint32_t>(bom);
  if (d.value) {
    // Offsets of the tree are relative to the text after the BOM.
    struct Shift {
      static void apply(Value& v, std::uint32_t by) {
        v.offset += by;
        for (Value& item : v.items) apply(item, by);
        for (Member& m : v.members) apply(m.value, by);
      }
    };
    if (bom) Shift::apply(*d.value, static_cast<std::uint32_t>(bom));
  }
  return d;
}

bool looks_like_json(std::string_view text) {
  std::size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  const auto next = [&]() {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) {
      ++i;
    }
    return i < text.size() ? text[i++] : '\0';
  };
  const char first = next();
  if (first == '{') {
    const char c = next();
    return c == '"' || c == '}';
  }
  if (first != '[') return false;
  const char c = next();
  if (c == '{' || c == '"' || c == ']') return true;
  return c == '[' && next() == '"';
}

}  // namespace ndcg::json
