// Shared plumbing for the subcommands of the dtb program. Each module adds
// its own subcommands (add_*_commands); main.cpp turns errors into exit
// codes: 0 success, 1 failure, 2 bad input or usage, message on stderr.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "rules/errors.hpp"
#include "rules/variant.hpp"

namespace dtb {

// JSON objects keep their fields in the documented order.
using Json = nlohmann::ordered_json;

// --variant russian|international, required.
inline CLI::Option* add_variant_option(CLI::App* command, std::string& variant) {
    return command
        ->add_option("--variant", variant, "Rules to play by: russian (8x8) or international (10x10)")
        ->required()
        ->check(CLI::IsMember({std::string(Russian::name), std::string(International::name)}));
}

inline VariantId variant_from_option(const std::string& text) {
    const auto id = parse_variant(text);
    if (!id) throw InputError("unknown variant '" + text + "': use russian or international");
    return *id;
}

inline void print_json(const Json& j) { std::cout << j.dump() << '\n'; }

void add_rules_commands(CLI::App& app);

}  // namespace dtb
