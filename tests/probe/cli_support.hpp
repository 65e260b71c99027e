// Running the built `dtb` program from a test: its exit status, standard
// output and standard error, each through a file of a scratch directory
// (DTB_BINARY is set by CMake).
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
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

// Runs `dtb ARGS` with `input` on standard input.
inline Output dtb(const std::string& args, const std::string& input = "") {
    const ScratchDir io;
    std::ofstream(io / "in") << input;
    const std::string command = std::string(DTB_BINARY) + " " + args + " < " + quote((io / "in").string()) + " > " +
                                quote((io / "out").string()) + " 2> " + quote((io / "err").string());
    const int raw = std::system(command.c_str());
    Output r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(io / "out");
    r.err = slurp(io / "err");
    return r;
}

}  // namespace dtb::probe_test
