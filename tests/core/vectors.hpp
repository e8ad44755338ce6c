// Loads tests/vectors/*.json: the cases that doctest, node:test and the browser tests share.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ndcg/explain.hpp"

namespace ndcg::test {

struct VectorCase {
  std::string file;
  nlohmann::json data;
};

inline std::vector<VectorCase> load_vector_cases() {
  std::vector<VectorCase> cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(NDCG_VECTORS_DIR)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const auto json = nlohmann::json::parse(text.str());
    if (!json.contains("cases")) continue;  // presets.json has its own tests
    for (const auto& c : json.at("cases")) cases.push_back({path.filename().string(), c});
  }
  return cases;
}

// The options object of a vector as the text values the core takes; the JS API converts its
// options object the same way (numbers as written, a gain map as "grade=gain,...").
inline std::vector<OptionValue> option_values(const nlohmann::json& options) {
  std::vector<OptionValue> values;
  for (const auto& [name, value] : options.items()) {
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
    } else if (value.is_object()) {
      for (const auto& [grade, gain] : value.items()) {
        if (!text.empty()) text += ",";
        text += grade + "=" + gain.dump();
      }
    } else if (!value.is_null()) {
      text = value.dump();
    }
    values.push_back({name, text});
  }
  return values;
}

}  // namespace ndcg::test
