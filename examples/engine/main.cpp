// dtb-engine: a small alpha-beta draughts engine that uses the dtb tables
// in its search, written only against <dtb/probe.h>. See --help.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "game.hpp"
#include "report.hpp"

namespace {

// The variants' names as "a, b or c", from the library's list.
std::string variant_choices() {
    std::string text;
    for (int v = 0; v < DTB_VARIANT_COUNT; ++v)
        text += std::string(v == 0 ? "" : v + 1 == DTB_VARIANT_COUNT ? " or " : ", ") + dtb_variant_name(v);
    return text;
}

constexpr int kExitOk = 0, kExitFailure = 1, kExitBadInput = 2;

const char* kHelp = R"(dtb-engine: an alpha-beta draughts engine that probes the dtb tables.

  dtb-engine [--variant V] [--dir DIR]... [--fen FEN]
             [--play] [--no-tables] [--nodes N | --depth D | --movetime MS]
             [--max-plies N] [--hash MB] [--cache MB] [--json]
  dtb-engine --bench [--variant V] [--dir DIR]... [--nodes N] [--json]

Searches the position (default: the start position) and prints the best
move, or with --play plays the game out against itself and prints every
move and the result. Inside the search, a position whose material is in the
tables (no more pieces than the largest table) gets its win/draw/loss from
them; at the root, a position in the tables is played by its distance to
win (DTW), so a won ending is won by the shortest way.

  --variant V      the rules to play by, as dtb names them (dtb variants
                   lists them); default: russian
  --dir DIR        a folder of tables (repeat for several)
  --fen FEN        the position, a PDN FEN: "W:Wc3,Ka1:BKh8" or "B:W31,32:B19"
  --play           play the game to its end: a side with no move loses; a
                   position seen three times or --max-plies plies draws
  --no-tables      search without probing (the tables are still opened if
                   --dir is given, but never asked)
  --nodes N        nodes per move (default 100000; deterministic)
  --depth D        depth per move instead
  --movetime MS    milliseconds per move instead (depends on the machine)
  --max-plies N    the game's ply limit (default 300)
  --hash MB        transposition table size (default 16)
  --cache MB       dtb's cache of decompressed table blocks (default 256)
  --json           one JSON object instead of text
  --bench          nodes per second with and without probing and probes per
                   second on a fixed set of positions (--nodes per position,
                   default 1000000)

Example:
  dtb-engine --dir tables --fen "W:WKa1,Kc3,Ke1:BKh8,Kg7" --play
Exit status: 0 ok, 1 a table could not be opened, 2 bad input.
)";

struct BadInput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Options {
    int variant = DTB_RUSSIAN;
    std::vector<std::string> dirs;
    std::string fen;
    bool play = false, tables = true, json = false, bench = false;
    engine::Limits limits;
    int max_plies = 300;
    std::size_t hash_mb = 16;
    std::size_t cache_mb = 256;
};

long number(const std::string& option, const char* text) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || value < 0) throw BadInput(option + " takes a number, not \"" + text + "\"");
    return value;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) throw BadInput(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            std::cout << kHelp;
            std::exit(kExitOk);
        } else if (arg == "--variant") {
            const std::string v = value();
            o.variant = dtb_variant_from_name(v.c_str());
            if (o.variant < 0) throw BadInput("--variant: " + variant_choices() + ", not \"" + v + "\"");
        } else if (arg == "--dir") {
            o.dirs.emplace_back(value());
        } else if (arg == "--fen") {
            o.fen = value();
        } else if (arg == "--play") {
            o.play = true;
        } else if (arg == "--no-tables") {
            o.tables = false;
        } else if (arg == "--json") {
            o.json = true;
        } else if (arg == "--bench") {
            o.bench = true;
        } else if (arg == "--nodes") {
            o.limits.nodes = static_cast<std::uint64_t>(number(arg, value()));
        } else if (arg == "--depth") {
            o.limits.depth = static_cast<int>(number(arg, value()));
        } else if (arg == "--movetime") {
            o.limits.movetime_ms = static_cast<int>(number(arg, value()));
        } else if (arg == "--max-plies") {
            o.max_plies = static_cast<int>(number(arg, value()));
        } else if (arg == "--hash") {
            o.hash_mb = static_cast<std::size_t>(number(arg, value()));
        } else if (arg == "--cache") {
            o.cache_mb = static_cast<std::size_t>(number(arg, value()));
        } else {
            throw BadInput("unknown option " + arg + " (see --help)");
        }
    }
    if (!o.limits.nodes && !o.limits.depth && !o.limits.movetime_ms) o.limits.nodes = o.bench ? 1000000 : 100000;
    return o;
}

engine::Position read_fen(const Options& o) {
    const std::string fen = o.fen.empty() ? engine::start_fen(o.variant) : o.fen;
    dtb_position pos;
    char err[256];
    if (dtb_position_from_fen(o.variant, fen.c_str(), &pos, err, sizeof err) != DTB_OK)
        throw BadInput("--fen \"" + fen + "\": " + err);
    return engine::from_dtb(pos);
}

int run(const Options& o) {
    std::unique_ptr<engine::Tables> tables;
    if (!o.dirs.empty()) {
        try {
            tables = std::make_unique<engine::Tables>(o.dirs, o.cache_mb << 20);
        } catch (const std::runtime_error& e) {
            std::cerr << "dtb-engine: " << e.what() << '\n';
            return kExitFailure;
        }
    }
    if (o.bench) {
        const engine::BenchReport report = engine::run_bench(o.variant, tables.get(), o.limits, o.hash_mb << 20);
        engine::print_bench(std::cout, report, o.json);
        return kExitOk;
    }
    const engine::Position start = read_fen(o);
    engine::Engine searcher(o.variant, o.tables ? tables.get() : nullptr, o.hash_mb << 20);
    if (o.play) {
        const engine::Game game = engine::play_game(searcher, searcher, start, o.limits, o.max_plies);
        engine::print_game(std::cout, o.variant, start, game, o.json);
    } else {
        const engine::SearchResult result = searcher.think(start, o.limits);
        engine::print_search(std::cout, o.variant, start, result, o.json);
    }
    return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(parse(argc, argv));
    } catch (const BadInput& e) {
        std::cerr << "dtb-engine: " << e.what() << '\n';
        return kExitBadInput;
    }
}
