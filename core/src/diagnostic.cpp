#include "ndcg/diagnostic.hpp"

#include <utility>

namespace ndcg {

std::string_view source_name(Source source) {
  switch (source) {
    case Source::ranking: return "ranking";
    case Source::judgments: return "judgments";
    case Source::options: return "options";
    case Source::qrels: return "qrels";
    case Source::run: return "run";
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
    ++dropped_;
  }
}

void DiagnosticList::append(const DiagnosticList& other) {
  for (const Diagnostic& d : other.items_) add(d);
  dropped_ += other.dropped_;
}

std::vector<Diagnostic> DiagnosticList::finish(Source summary_source) const {
  std::vector<Diagnostic> out = items_;
  if (dropped_ > 0) {
    out.push_back(Diagnostic{summary_source, 0, 0,
                             "… and " + std::to_string(dropped_) +
                                 " more like these, not listed; fix the ones above first."});
  }
  return out;
}

}  // namespace ndcg
