// Where the commands that read tables look for them, decided in one place
// (table_dirs), as chess engines find their tables through SyzygyPath:
//   1. the --dir options given, in order;
//   2. else the directories of the environment variable DTB_PATH,
//      separated by ':' (empty entries are skipped);
//   3. else `tablebases` in the current directory, if it is one (where
//      scripts/demo.sh and a plain dtb gen write);
//   4. else bad input (exit status 2), naming the ways to give them.
// A directory named by 1 or 2 that does not exist is not skipped: opening
// it fails and names it (exit status 1), so a typing error is never hidden.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "rules/errors.hpp"

namespace dtb {

// The environment variable, and the directory tried after it.
inline constexpr const char* kTablePathVariable = "DTB_PATH";
inline constexpr const char* kDefaultTableDir = "tablebases";

// The --dir text of every command that reads tables.
inline constexpr const char* kTableDirsHelp =
    "Directory holding the tables (repeat for several). Default: the directories of the environment variable "
    "DTB_PATH, separated by ':' (DTB_PATH=/data/russian:/data/international), else ./tablebases if it exists";

// "a:b::c" -> {"a", "b", "c"}.
inline std::vector<std::string> split_table_path(std::string_view path) {
    std::vector<std::string> dirs;
    for (std::size_t start = 0; start <= path.size();) {
        const std::size_t end = std::min(path.find(':', start), path.size());
        if (end > start) dirs.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return dirs;
}

// The directories to read the tables from (see the top of this file).
inline std::vector<std::string> table_dirs(const std::vector<std::string>& given) {
    if (!given.empty()) return given;
    if (const char* path = std::getenv(kTablePathVariable)) {
        std::vector<std::string> dirs = split_table_path(path);
        if (!dirs.empty()) return dirs;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(kDefaultTableDir, ec)) return {kDefaultTableDir};
    throw InputError(
        "no tables to read: give --dir DIR (repeat for several), or set DTB_PATH to the directories "
        "separated by ':' (export DTB_PATH=/path/to/tablebases); without either, dtb reads ./tablebases, "
        "which is not a directory here");
}

}  // namespace dtb
