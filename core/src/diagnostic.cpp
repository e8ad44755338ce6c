#include "ndcg/diagnostic.hpp"

#include <utility>

namespace ndcg {

std::string_view known_code(std::string_view code) {
  static constexpr std::string_view kCodes[] = {
      "files-swapped",     "first-parameters",    "fraction-cutoff",
      "gain-order",        "judgments-unmatched", "merged-cutoffs",
      "rbp-uninitialised", "scores-tied",         "shared-gains"};
  for (const std::string_view known : kCodes) {
    if (code == known) return known;
  }
  return {};
}

std::string_view source_name(Source source) {
  switch (source) {
    case Source::ranking:
      return "ranking";
    case Source::judgments:
      return "judgments";
    case Source::options:
      return "options";
    case Source::qrels:
      return "qrels";
    case Source::run:
      return "run";
    case Source::working:
      return "working";
  }
  return "ranking";
}

void DiagnosticList::add(Source source, std::uint32_t line, std::uint32_t column,
                         std::string message) {
  add(Diagnostic{source, line, column, std::move(message)});
}

void DiagnosticList::add(Diagnostic diagnostic) {
  if (items_.size() < limit_) {
    items_.push_back(std::move(diagnostic));
  } else {
    ++dropped_[static_cast<std::size_t>(diagnostic.source)];
  }
}

void DiagnosticList::append(const DiagnosticList& other) {
  for (const Diagnostic& d : other.items_) add(d);
  for (std::size_t s = 0; s < kSources; ++s) dropped_[s] += other.dropped_[s];
}

std::size_t DiagnosticList::dropped_total() const {
  std::size_t total = 0;
  for (std::size_t n : dropped_) total += n;
  return total;
}

std::vector<Diagnostic> DiagnosticList::finish() const {
  std::vector<Diagnostic> out = items_;
  for (std::size_t s = 0; s < kSources; ++s) {
    if (dropped_[s] == 0) continue;
    out.push_back(Diagnostic{static_cast<Source>(s), 0, 0,
                             "… and " + std::to_string(dropped_[s]) +
                                 " more like these, not listed; fix the ones above first."});
  }
  return out;
}

}  // namespace ndcg
