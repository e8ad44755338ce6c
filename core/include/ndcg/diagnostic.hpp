// Errors and warnings as values.
//
// Every function of the core that reads user input reports problems as Diagnostics instead of
// throwing: the core builds with -fno-exceptions, and an exception thrown through embind reaches
// JavaScript as a bare number. A diagnostic names the input it is about, a 1-based line and
// column (0 when it is about the input as a whole), and a sentence meant for a student.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ndcg {

enum class Source : std::uint8_t { ranking, judgments, options, qrels, run, working };

// "ranking", "judgments", "options", "qrels", "run" or "working": the names the JS API uses.
std::string_view source_name(Source source);

// `code` as a view of the core's own copy when it is a code the core gives
// ("judgments-unmatched", "files-swapped", ...), else empty: for diagnostics read back from
// bytes. A new code is added to its list in diagnostic.cpp.
std::string_view known_code(std::string_view code);

struct Diagnostic {
  Source source = Source::ranking;
  std::uint32_t line = 0;    // 1-based; 0 = not tied to one line
  std::uint32_t column = 0;  // 1-based, counted in Unicode code points; 0 = whole line/input
  std::string message;
  // Empty, or a stable name for a situation a user interface can offer to fix, such as
  // "judgments-unmatched": judgments given, none of them about a ranked document.
  std::string_view code = {};
};

// Collects diagnostics up to a limit, so that a million bad lines cost a hundred messages, not a
// million. Once the limit is reached, further reports are counted by source; finish() appends one
// summary diagnostic ("… and N more") for each source that had some dropped.
class DiagnosticList {
 public:
  static constexpr std::size_t kDefaultLimit = 100;

  explicit DiagnosticList(std::size_t limit = kDefaultLimit) : limit_(limit) {}

  void add(Source source, std::uint32_t line, std::uint32_t column, std::string message);
  void add(Diagnostic diagnostic);
  // add(source, line, column, message()), where the message is built only when the list has
  // room for it: past the limit a note is only counted, and a ranking of 100,000 repeats built
  // 100,000 sentences to keep a hundred of them.
  template <class Message>
  void add_made(Source source, std::uint32_t line, std::uint32_t column, Message&& message) {
    if (full()) {
      ++dropped_[static_cast<std::size_t>(source)];
    } else {
      add(source, line, column, message());
    }
  }
  // Appends every item of `other` (respecting this list's limit) and its dropped count.
  void append(const DiagnosticList& other);

  bool empty() const { return items_.empty() && dropped_total() == 0; }
  std::size_t size() const { return items_.size() + dropped_total(); }
  bool full() const { return items_.size() >= limit_; }
  const std::vector<Diagnostic>& items() const { return items_; }

  // The collected diagnostics, with a closing "… and N more" note per source that lost some.
  std::vector<Diagnostic> finish() const;

 private:
  static constexpr std::size_t kSources = 6;
  std::size_t dropped_total() const;

  std::size_t limit_;
  std::array<std::size_t, kSources> dropped_{};
  std::vector<Diagnostic> items_;
};

}  // namespace ndcg
