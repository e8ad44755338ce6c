// A small JSON reader for the pasted boxes: rankings and judgments may come as JSON, the way
// Python and JavaScript tools print them ({"d1": 3}, ["d1", "d2"], [{"doc": "d1", "score": 0.5}]).
//
// Reads RFC 8259 JSON into a tree whose every value knows its byte offset, so that errors point
// at the place. Never fails as a whole: a syntax error is a diagnostic. Nesting is limited to
// kMaxJsonDepth levels (an error beyond it), so no input can exhaust the stack.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ndcg::json {

inline constexpr std::size_t kMaxJsonDepth = 64;

struct Member;

struct Value {
  enum class Kind : std::uint8_t { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string text;             // a string, or a number as written
  std::vector<Value> items;     // an array's
  std::vector<Member> members;  // an object's, in the order written
  std::uint32_t offset = 0;     // byte offset of the value in the text
};

struct Member {
  std::string key;
  Value value;
};

struct Error {
  std::uint32_t offset = 0;
  std::string message;
};

struct Document {
  std::optional<Value> value;  // absent when there is an error
  std::optional<Error> error;
};

Document parse(std::string_view text);

// True when the text opens the way JSON of a ranking or judgments does: an object with a quoted
// key, or an array of strings, objects or arrays. ("[3, 2, 3]" and set notation "{ [d1, 3] }"
// are read by the other parsers, which give them the same meaning.)
bool looks_like_json(std::string_view text);

}  // namespace ndcg::json
