// dtb probe, dtb info.
//
// dtb probe goes through the C API of dtb/probe.h, the same calls an engine
// makes, so that what the program prints is what engines get.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "cli/c_api.hpp"
#include "cli/options.hpp"
#include "cli/position_json.hpp"
#include "cli/position_query.hpp"
#include "cli/table_dirs.hpp"
#include "dtb/probe.h"
#include "probe/convert.hpp"
#include "probe/table_inventory.hpp"
#include "rules/notation.hpp"
#include "tables/table_names.hpp"

namespace dtb {

namespace {

// --------------------------------------------------------------------------
// dtb probe

struct ProbeOptions {
    std::string variant;
    std::vector<std::string> dirs;
    std::string fen;
    bool json = false;
};

// Answers FENs from tables opened once (position_query.hpp asks, through
// the C API).
class Prober {
public:
    Prober(const std::string& variant, const std::vector<std::string>& dirs)
        : tables_(table_dirs(dirs)), variant_(c_variant(variant)) {}

    // The report of one FEN, or why there is none.
    Answer<ProbeReport> probe(const std::string& fen) {
        const auto pos = position_from_fen(variant_, fen);
        if (const auto* e = std::get_if<QueryError>(&pos)) return *e;
        return probe_report(tables_.get(), std::get<dtb_position>(pos));
    }

private:
    Tables tables_;
    int variant_;
};

void print_report(const ProbeReport& r) {
    const bool white = r.position.side_to_move == DTB_WHITE;
    const char* side = white ? "White" : "Black";
    const char* other = white ? "Black" : "White";
    with_variant(*probe::variant_from_c(r.position.variant),
                 [&]<class V>() { std::cout << board_diagram(parse_fen<V>(r.fen)); });
    std::cout << "FEN:       " << r.fen << '\n';
    if (r.value.wdl == DTB_DRAW) {
        std::cout << "Value:     draw\n";
    } else if (r.value.dtw == 0) {
        const std::uint64_t own = white ? r.position.white : r.position.black;
        std::cout << "Value:     " << side << " has lost: no " << (own ? "legal move" : "piece left") << '\n';
    } else if (r.value.wdl == DTB_WIN) {
        std::cout << "Value:     " << side << " wins in " << plies_text(r.value.dtw) << " (" << side << " needs "
                  << moves_text((r.value.dtw + 1) / 2) << ")\n";
    } else {
        std::cout << "Value:     " << side << " loses in " << plies_text(r.value.dtw) << " (" << other << " needs "
                  << moves_text(r.value.dtw / 2) << ")\n";
    }
    if (r.rule_wdl) {
        std::cout << "Counts:    " << rule_class_word(r.value.wdl, *r.rule_wdl)
                  << " under the move-count rules, every count fresh";
        if (r.dtc >= 0) std::cout << " (DTC " << plies_text(r.dtc) << " to the next conversion)";
        std::cout << '\n';
        if (!r.rule_line.empty())
            std::cout << "Counted:   " << numbered_line(r.rule_line, white) << " (best play under the counts to "
                      << "the conversion)\n";
    }
    std::cout << "Best move: " << (r.best_move ? *r.best_move : "none") << '\n';
    if (r.value.wdl == DTB_DRAW)
        std::cout << "Line:      none: a draw has no line to the end of the game\n";
    else if (!r.pv.empty())
        std::cout << "Line:      " << numbered_line(r.pv, white) << '\n';
}

// One line of the standard-input mode.
void print_report_line(const ProbeReport& r) {
    std::cout << r.fen << "  " << wdl_word(r.value.wdl);
    if (r.value.wdl != DTB_DRAW) std::cout << " in " << r.value.dtw;
    std::cout << "  best " << (r.best_move ? *r.best_move : "none");
    if (!r.pv.empty()) {
        std::cout << "  pv";
        for (const std::string& m : r.pv) std::cout << ' ' << m;
    }
    std::cout << '\n';
}

void run_probe(const ProbeOptions& o) {
    Prober prober(o.variant, o.dirs);
    if (!o.fen.empty()) {
        auto result = prober.probe(o.fen);
        if (const auto* e = std::get_if<QueryError>(&result)) {
            if (e->bad_input()) throw InputError(e->message);
            throw std::runtime_error(e->message);
        }
        const auto& r = std::get<ProbeReport>(result);
        if (o.json)
            print_json(report_json(r));
        else
            print_report(r);
        return;
    }
    // One FEN per line; blank lines are skipped. Every other line gets one
    // line of output, so results stay in step with the input.
    if (::isatty(STDIN_FILENO))
        std::cerr << "dtb probe: reading FENs from standard input, one per line (end with Ctrl-D; or use --fen)\n";
    bool bad_input = false, failed = false;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto result = prober.probe(line);
        if (const auto* e = std::get_if<QueryError>(&result)) {
            (e->bad_input() ? bad_input : failed) = true;
            if (o.json)
                print_json(Json{{"fen", line}, {"error", e->message}});
            else
                std::cout << line << "  error: " << e->message << '\n';
            continue;
        }
        if (o.json)
            print_json(report_json(std::get<ProbeReport>(result)));
        else
            print_report_line(std::get<ProbeReport>(result));
        std::cout.flush();  // a program on the other end of a pipe waits for each line
    }
    if (bad_input) throw InputError("some lines could not be probed: bad FEN or position");
    if (failed) throw std::runtime_error("some lines could not be probed: see their errors");
}

// --------------------------------------------------------------------------
// dtb info

struct InfoOptions {
    std::vector<std::string> dirs;
    bool json = false;
    bool quick = false;
};

double bits_per_position(std::uint64_t bytes, std::uint64_t positions) {
    return positions == 0 ? 0.0 : 8.0 * double(bytes) / double(positions);
}

// The metric as its files' extension names it: "wdl", "dtw", "dtc".
std::string metric_name(compress::Metric m) { return std::string(metric_extension(m)); }

Json inventory_json(const InfoOptions& o, const std::vector<std::string>& dirs,
                    const probe::TableInventory& inventory) {
    Json list = Json::array();
    for (const probe::TableInfo& t : inventory.tables)
        list.push_back(Json{{"file", t.path.string()},
                            {"variant", variant_name(t.name.variant)},
                            {"signature", t.name.signature.name()},
                            {"metric", metric_name(t.name.metric)},
                            {"pieces", t.name.signature.total()},
                            {"positions", t.positions},
                            {"bytes", t.bytes},
                            {"bits_per_position", bits_per_position(t.bytes, t.positions)},
                            {"stores_positions", t.stores_positions},
                            {"valid", t.problem.empty()},
                            {"checked", o.quick ? "header and index" : "every checksum"},
                            {"error", t.problem.empty() ? Json(nullptr) : Json(t.problem)}});
    Json sums = Json::array();
    for (const auto& [key, total] : inventory.totals)
        sums.push_back(Json{{"variant", variant_name(key.first)},
                            {"metric", metric_name(key.second)},
                            {"tables", total.tables},
                            {"invalid", total.invalid},
                            {"positions", total.positions},
                            {"bytes", total.bytes},
                            {"bits_per_position", bits_per_position(total.bytes, total.positions)}});
    const probe::TableTotal& all = inventory.all;
    return Json{{"dirs", dirs},
                {"tables", list},
                {"totals", sums},
                {"all", Json{{"tables", all.tables}, {"invalid", all.invalid}, {"bytes", all.bytes}}}};
}

void print_inventory(bool quick, const probe::TableInventory& inventory) {
    std::cout << std::left << std::setw(15) << "variant" << std::setw(12) << "signature" << std::setw(7) << "metric"
              << std::right << std::setw(14) << "positions" << std::setw(14) << "bytes" << std::setw(10) << "bits/pos"
              << "  " << (quick ? "header" : "checksums") << '\n';
    for (const probe::TableInfo& t : inventory.tables)
        std::cout << std::left << std::setw(15) << variant_name(t.name.variant) << std::setw(12)
                  << t.name.signature.name() << std::setw(7) << metric_name(t.name.metric) << std::right
                  << std::setw(14) << t.positions << std::setw(14) << t.bytes << std::setw(10) << std::fixed
                  << std::setprecision(3) << bits_per_position(t.bytes, t.positions) << "  "
                  << (t.problem.empty() ? "ok" : "BAD: " + t.problem)
                  << (t.stores_positions ? "" : "  (stores none: searched from its mirror)") << '\n';
    std::cout << '\n';
    for (const auto& [key, total] : inventory.totals)
        std::cout << "total " << std::left << std::setw(14) << variant_name(key.first) << std::setw(4)
                  << metric_name(key.second) << std::right << std::setw(5) << total.tables << " tables" << std::setw(14)
                  << total.positions << " positions" << std::setw(14) << total.bytes << " bytes" << std::setw(8)
                  << std::setprecision(3) << bits_per_position(total.bytes, total.positions) << " bits/position"
                  << (total.invalid ? "  " + std::to_string(total.invalid) + " BAD" : "") << '\n';
}

void run_info(const InfoOptions& o) {
    const std::vector<std::string> names = table_dirs(o.dirs);
    const std::vector<std::filesystem::path> dirs(names.begin(), names.end());
    const auto inventory = probe::take_inventory(dirs, o.quick);
    if (!inventory) throw std::runtime_error(inventory.error().message);  // a missing directory or table: exit 1
    if (o.json)
        print_json(inventory_json(o, names, *inventory));
    else
        print_inventory(o.quick, *inventory);
    if (const probe::TableTotal& all = inventory->all; all.invalid > 0) {
        std::cerr << "dtb info: " << all.invalid << " of " << all.tables << " table files failed their checks\n";
        throw VerificationFailed();
    }
}

}  // namespace

void add_probe_commands(CLI::App& app) {
    auto p = std::make_shared<ProbeOptions>();
    CLI::App* probe = app.add_subcommand(
        "probe",
        "Look positions up in the tables: the value for the side to move (win, draw or loss), the distance\n"
        "to the end of the game in plies (DTW: wins odd, losses even; the winner needs (DTW+1)/2 moves), the\n"
        "best move and the line to the end. With --fen, one position with a board diagram; without, one FEN\n"
        "per line on standard input and one result per line on standard output; the exit status then\n"
        "covers every line: 2 if any was a bad FEN or position, else 1 if any could not be answered.\n"
        "The tables: --dir, else the directories of DTB_PATH (separated by ':'), else ./tablebases.\n"
        "Examples:\n"
        "  dtb probe --variant russian --dir tablebases --fen W:WKa1,Kc3,Ke1:BKh8\n"
        "  export DTB_PATH=$HOME/tablebases; dtb probe --variant russian --fen W:WKa1,Kc3,Ke1:BKh8\n"
        "  printf 'W:WKa1:Bh8\\nB:WKc3:Bh8\\n' | dtb probe --variant russian --dir tablebases --json");
    add_variant_option(probe, p->variant);
    probe->add_option("--dir", p->dirs, kTableDirsHelp);
    probe->add_option("--fen", p->fen,
                      "Position in PDN FEN, side to move first: W:W31,32,K46:B1,2,K5 or, for Russian, "
                      "W:Wa1,c3,Kh2:Bb8");
    probe->add_flag("--json", p->json,
                    "One JSON object per position: fen, wdl (\"win\", \"draw\", \"loss\"), dtw (plies, null for a "
                    "draw), best_move (null if none), pv (moves); or fen, error");
    probe->callback([p] { run_probe(*p); });

    auto i = std::make_shared<InfoOptions>();
    CLI::App* info = app.add_subcommand(
        "info",
        "List the table files in directories (every variant): signature, metric, positions, size, bits per\n"
        "position, and whether every checksum holds (this reads each file in full; --quick checks only the\n"
        "header and the block index). Totals per variant and metric. A damaged file fails the check (exit\n"
        "status 1), as does a directory that is missing or holds no table file.\n"
        "The tables: --dir, else the directories of DTB_PATH (separated by ':'), else ./tablebases.\n"
        "Example: dtb info --dir tablebases");
    info->add_option("--dir", i->dirs, kTableDirsHelp);
    info->add_flag("--json", i->json, "One JSON object: tables, totals");
    info->add_flag("--quick", i->quick, "Check headers and block indexes only, not every block");
    info->callback([i] { run_info(*i); });
}

}  // namespace dtb
