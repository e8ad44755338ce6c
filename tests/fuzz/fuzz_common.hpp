// Shared by the libFuzzer targets: splitting one input into the pieces an entry point takes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ndcg/options.hpp"

namespace ndcg::fuzz {

// Splits the fuzzer's bytes at NUL into up to `count` pieces (missing pieces are empty), so one
// input can hold a ranking and judgments, or measures, qrels and a run. The last piece keeps
// any further NULs, so control characters still reach the parsers.
inline std::vector<std::string_view> pieces(const std::uint8_t* data, std::size_t size,
                                            std::size_t count) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> out;
  while (out.size() + 1 < count) {
    const std::size_t nul = rest.find('\0');
    if (nul == std::string_view::npos) break;
    out.push_back(rest.substr(0, nul));
    rest.remove_prefix(nul + 1);
  }
  out.push_back(rest);
  out.resize(count);
  return out;
}

// Options written "name=value" a line (lines without '=' are left out).
inline std::vector<OptionValue> option_lines(std::string_view lines) {
  std::vector<OptionValue> options;
  while (!lines.empty()) {
    const std::size_t end = lines.find('\n');
    const std::string_view line = lines.substr(0, end);
    const std::size_t eq = line.find('=');
    if (eq != std::string_view::npos) {
      options.push_back({std::string(line.substr(0, eq)), std::string(line.substr(eq + 1))});
    }
    if (end == std::string_view::npos) break;
    lines.remove_prefix(end + 1);
  }
  return options;
}

// Feeds `text` to a reader in chunks whose sizes come from the text itself, so that lines split
// at every possible place across chunks.
template <class Feed>
void feed_in_chunks(std::string_view text, Feed&& feed) {
  std::size_t at = 0;
  std::size_t step = 1;
  while (at < text.size()) {
    const std::size_t n = step < text.size() - at ? step : text.size() - at;
    feed(text.substr(at, n));
    at += n;
    step = 1 + static_cast<unsigned char>(text[at - 1]) % 97;
  }
}

}  // namespace ndcg::fuzz
