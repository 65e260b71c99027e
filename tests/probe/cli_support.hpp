// Running the built `dtb` program from a test: its exit status, standard
// output and standard error, each through a file of a scratch directory
// (DTB_BINARY is set by CMake); dtb_at in a chosen directory and DTB_PATH.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {

struct Output {
    int status = -1;
    std::string out, err;

    std::vector<std::string> lines() const {
        std::vector<std::string> v;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);) v.push_back(line);
        return v;
    }
};

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string quote(const std::string& s) { return "'" + s + "'"; }

// Runs `prefix dtb ARGS` with `input` on standard input.
inline Output run_dtb(const std::string& prefix, const std::string& args, const std::string& input) {
    const ScratchDir io;
    std::ofstream(io / "in") << input;
    const std::string command = prefix + std::string(DTB_BINARY) + " " + args + " < " + quote((io / "in").string()) +
                                " > " + quote((io / "out").string()) + " 2> " + quote((io / "err").string());
    const int raw = std::system(command.c_str());
    Output r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(io / "out");
    r.err = slurp(io / "err");
    return r;
}

// Runs `dtb ARGS` with `input` on standard input.
inline Output dtb(const std::string& args, const std::string& input = "") { return run_dtb("", args, input); }

// Runs `dtb ARGS` in the directory `cwd` with the environment variable
// DTB_PATH set to `dtb_path`, or unset when it is nullopt: where the
// commands look for tables without --dir (cli/table_dirs.hpp), whatever
// the environment the tests run in.
inline Output dtb_at(const std::filesystem::path& cwd, const std::optional<std::string>& dtb_path,
                     const std::string& args, const std::string& input = "") {
    const std::string env = dtb_path ? "DTB_PATH=" + quote(*dtb_path) + " " : "";
    return run_dtb("cd " + quote(cwd.string()) + " && env -u DTB_PATH " + env, args, input);
}

}  // namespace dtb::probe_test
