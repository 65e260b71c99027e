// Shared plumbing for the subcommands of the dtb program. Each module adds
// its own subcommands (add_*_commands); main.cpp turns errors into exit
// codes (kExitStatus): InputError is bad input (2), VerificationFailed and
// any other exception a failure (1).
#pragma once

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "rules/errors.hpp"
#include "rules/variant.hpp"

namespace dtb {

// The exit status contract of every command, for --help (main.cpp keeps it).
inline constexpr const char* kExitStatus =
    "Exit status: 0 success; 1 failure (a check that found a problem, a missing or corrupt file or directory,\n"
    "tables that cannot answer); 2 bad input or usage (the message on stderr says what and where).";

// JSON objects keep their fields in the documented order.
using Json = nlohmann::ordered_json;

// The variants with their boards: "russian (8x8), international (10x10), ...".
inline std::string variant_choices_with_boards() {
    std::vector<std::string> choices;
    for_each_variant(
        [&]<class V>() { choices.push_back(std::string(V::name) + " (" + std::string(V::board_text) + ")"); });
    return choice_list(choices);
}

// --variant NAME: one of the variants' names (rules/variant.hpp); required
// unless the command finds the variant elsewhere (a PDN file's GameType
// tag), which `help_more` then says.
inline CLI::Option* add_variant_option(CLI::App* command, std::string& variant, bool required = true,
                                       const std::string& help_more = "") {
    CLI::Option* option =
        command->add_option("--variant", variant, "Rules to play by: " + variant_choices_with_boards() + help_more)
            ->check(CLI::IsMember(std::vector<std::string>(kVariantNames.begin(), kVariantNames.end())));
    return required ? option->required() : option;
}

inline VariantId variant_from_option(const std::string& text) {
    const auto id = parse_variant(text);
    if (!id) throw InputError("unknown variant '" + text + "': use " + variant_choices());
    return *id;
}

inline void print_json(const Json& j) { std::cout << j.dump() << '\n'; }

// ": No such file or directory": why the last call of the system failed,
// in its words, for a message that names the file; empty when it did not say.
inline std::string os_reason() {
    const int e = errno;
    return e ? ": " + std::string(std::strerror(e)) : std::string();
}

// "1 move", "13 moves": a count and its noun.
inline std::string count_text(long long n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}
inline std::string moves_text(long long n) { return count_text(n, "move", "moves"); }
inline std::string plies_text(long long n) { return count_text(n, "ply", "plies"); }

// "1. c3-d4 h8-g7 2. d4-e5", or "1... h8-g7 2. c3-d4" with Black to move.
inline std::string numbered_line(const std::vector<std::string>& moves, bool white_first) {
    std::ostringstream out;
    int number = 1;
    bool white = white_first;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (i > 0) out << ' ';
        if (white)
            out << number << ". ";
        else if (i == 0)
            out << number << "... ";
        out << moves[i];
        if (!white) ++number;
        white = !white;
    }
    return out.str();
}

inline const char* side_name(Color c) { return c == White ? "White" : "Black"; }

void add_rules_commands(CLI::App& app);

}  // namespace dtb
