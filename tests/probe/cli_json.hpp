// Reading the JSON lines of a command's output in the CLI tests.
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace dtb::probe_test {

using Json = nlohmann::ordered_json;

// One JSON value per line of `text` (what --json prints for many inputs).
inline std::vector<Json> json_lines(const std::string& text) {
    std::vector<Json> v;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) v.push_back(Json::parse(line));
    return v;
}

}  // namespace dtb::probe_test
