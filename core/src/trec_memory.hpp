// What the TREC evaluator (trec.cpp) and its readers (trec_read.cpp) both count against a memory
// limit, and how they say a limit.
#pragma once

#include <cstddef>
#include <string>

namespace ndcg::trec {

// Estimated bytes held per kept query beyond its text and values: hash node, string and vector
// slack.
inline constexpr std::size_t kQueryOverhead = 96;
// Estimated bytes held per document of a run's query beyond its docno (QueryRun::Doc).
inline constexpr std::size_t kRunDocOverhead = 32;

// A limit in the units a person reads it in: "64 MB", or "512 KB" below a megabyte.
std::string megabytes(std::size_t bytes);

}  // namespace ndcg::trec
