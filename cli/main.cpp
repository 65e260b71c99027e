// The dtb program: each module adds its subcommands; this file turns what
// they throw into the exit status every command keeps (kExitStatus, in
// every --help):
//   0  success;
//   1  failure: a check that found a problem (VerificationFailed), a missing
//      or corrupt file or directory, tables that cannot answer (any other
//      exception);
//   2  bad input or usage: an option CLI11 refuses, a FEN, a signature, a
//      PDN text or a position that is not one (InputError).
#include <iostream>

#include "cli/options.hpp"

namespace dtb {
void add_gen_commands(CLI::App& app);
void add_probe_commands(CLI::App& app);
void add_adjudicate_commands(CLI::App& app);
void add_analyze_commands(CLI::App& app);
void add_serve_commands(CLI::App& app);
void add_rule_report_command(CLI::App& app);
}  // namespace dtb

int main(int argc, char** argv) {
    CLI::App app{"dtb: draughts endgame tablebases for " + dtb::choice_list(dtb::kVariantNames, " and ") +
                 " draughts ('dtb variants' says how each is played).\n"
                 "Run 'dtb <command> --help' for one command's options."};
    app.require_subcommand(1);
    app.set_version_flag("--version", "dtb " DTB_VERSION);  // project(VERSION), as the Python module
    dtb::add_rules_commands(app);
    dtb::add_gen_commands(app);
    dtb::add_probe_commands(app);
    dtb::add_adjudicate_commands(app);
    dtb::add_rule_report_command(app);
    dtb::add_analyze_commands(app);
    dtb::add_serve_commands(app);
    app.footer(dtb::kExitStatus);
    for (CLI::App* command : app.get_subcommands({})) command->footer(dtb::kExitStatus);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    } catch (const dtb::VerificationFailed&) {
        return 1;
    } catch (const dtb::InputError& e) {
        std::cerr << "dtb: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "dtb: error: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
