#include "report.hpp"

#include <iomanip>
#include <string>

namespace engine {
namespace {

std::string fen_of(int variant, const Position& pos) {
    const dtb_position p = to_dtb(pos, variant);
    char buf[512];
    return dtb_position_to_fen(&p, buf, sizeof buf) == DTB_OK ? buf : "?";
}

const char* variant_name(int variant) { return dtb_variant_name(variant); }

const char* side_name(int side) { return side == White ? "white" : "black"; }

std::string score_text(const SearchResult& r) {
    if (r.from_tables) {
        if (r.table_value.wdl == DTB_DRAW) return "tables: draw";
        std::string text = std::string("tables: ") + (r.table_value.wdl == DTB_WIN ? "win" : "loss") + " in " +
                           std::to_string(r.table_value.dtw) + " plies";
        if (r.by_rules) text += std::string(", ") + (r.rule_wdl == DTB_WIN ? "won" : "lost") + " under the counts";
        return text;
    }
    if (r.score >= kMate - kMaxPly) return "mate in " + std::to_string(kMate - r.score) + " plies";
    if (r.score <= -(kMate - kMaxPly)) return "mated in " + std::to_string(kMate + r.score) + " plies";
    if (r.score >= kTbWin - kMaxPly) return "table win";
    if (r.score <= -(kTbWin - kMaxPly)) return "table loss";
    return "score " + std::to_string(r.score);
}

void json_move(std::ostream& out, int variant, const SearchResult& r) {
    out << "{\"move\":\"" << move_text(variant, r.best) << "\",\"from\":" << r.best.from + 1
        << ",\"to\":" << r.best.to + 1 << ",\"captured\":[";
    bool first = true;
    for (Bitboard b = r.best.captured; b; b &= b - 1) {
        out << (first ? "" : ",") << lowest(b) + 1;
        first = false;
    }
    out << "],\"score\":" << r.score << ",\"depth\":" << r.depth << ",\"nodes\":" << r.nodes
        << ",\"probes\":" << r.probes.probes << ",\"probe_hits\":" << r.probes.hits
        << ",\"from_tables\":" << (r.from_tables ? "true" : "false");
    if (r.from_tables)
        out << ",\"wdl\":" << r.table_value.wdl << ",\"dtw\":" << r.table_value.dtw
            << ",\"by_rules\":" << (r.by_rules ? "true" : "false");
    if (r.by_rules) out << ",\"rule_wdl\":" << r.rule_wdl;
    out << '}';
}

double per_second(double count, double seconds) { return seconds > 0 ? count / seconds : 0; }

}  // namespace

void print_search(std::ostream& out, int variant, const Position& pos, const SearchResult& r, bool json) {
    if (json) {
        out << "{\"variant\":\"" << variant_name(variant) << "\",\"fen\":\"" << fen_of(variant, pos)
            << "\",\"has_move\":" << (r.has_move ? "true" : "false");
        if (r.has_move) {
            out << ",\"best\":";
            json_move(out, variant, r);
        }
        out << "}\n";
        return;
    }
    if (!r.has_move) {
        out << side_name(pos.side) << " has no move: it has lost\n";
        return;
    }
    out << "best move " << move_text(variant, r.best) << "  (" << score_text(r) << ", depth " << r.depth << ", "
        << r.nodes << " nodes, " << r.probes.probes << " probes)\n";
}

void print_game(std::ostream& out, int variant, const Position& start, const Game& game, bool json) {
    const char* result = game.winner == White ? "1-0" : game.winner == Black ? "0-1" : "draw";
    if (json) {
        out << "{\"variant\":\"" << variant_name(variant) << "\",\"fen\":\"" << fen_of(variant, start)
            << "\",\"moves\":[";
        for (std::size_t i = 0; i < game.plies.size(); ++i) {
            out << (i ? "," : "");
            json_move(out, variant, game.plies[i].search);
        }
        out << "],\"plies\":" << game.plies.size() << ",\"result\":\"" << result << "\",\"reason\":\"" << game.reason
            << "\"}\n";
        return;
    }
    out << "start " << fen_of(variant, start) << '\n';
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        const Ply& p = game.plies[i];
        out << std::setw(4) << i + 1 << ". " << std::left << std::setw(6) << side_name(p.before.side) << std::setw(12)
            << move_text(variant, p.search.best) << std::right << score_text(p.search) << '\n';
    }
    out << "result " << result << " after " << game.plies.size() << " plies (";
    if (game.winner >= 0)
        out << side_name(game.winner ^ 1) << " has no move";
    else
        out << game.reason;
    out << ")\n";
}

void print_bench(std::ostream& out, const BenchReport& r, bool json) {
    const BenchRun& off = r.without_tables;
    const BenchRun& on = r.with_tables;
    const double nps_off = per_second(double(off.nodes), off.seconds);
    const double nps_on = per_second(double(on.nodes), on.seconds);
    const double probes_per_s = per_second(double(on.probes.probes), on.seconds);
    const double answered = on.probes.probes ? double(on.probes.hits) / double(on.probes.probes) : 0;
    const double in_memory = on.probes.probes ? double(on.probes.from_memory) / double(on.probes.probes) : 0;
    if (json) {
        out << "{\"variant\":\"" << variant_name(r.variant) << "\",\"positions\":" << r.positions
            << ",\"nodes_per_position\":" << r.nodes_per_position << ",\"max_pieces\":" << r.max_pieces
            << ",\"without_tables\":{\"nodes\":" << off.nodes << ",\"seconds\":" << off.seconds
            << ",\"nodes_per_second\":" << nps_off << "}";
        if (r.max_pieces > 0)
            out << ",\"with_tables\":{\"nodes\":" << on.nodes << ",\"seconds\":" << on.seconds
                << ",\"nodes_per_second\":" << nps_on << ",\"probes\":" << on.probes.probes
                << ",\"probes_answered\":" << on.probes.hits << ",\"probes_from_memory\":" << on.probes.from_memory
                << ",\"probes_per_second\":" << probes_per_s << "}";
        out << "}\n";
        return;
    }
    out << std::fixed << std::setprecision(0);
    out << r.positions << " positions, " << r.nodes_per_position << " nodes each\n";
    out << "without tables: " << off.nodes << " nodes in " << std::setprecision(2) << off.seconds << " s, "
        << std::setprecision(0) << nps_off << " nodes/s\n";
    if (r.max_pieces == 0) {
        out << "with tables:    no tables of this variant (--dir)\n";
        return;
    }
    out << "with tables:    " << on.nodes << " nodes in " << std::setprecision(2) << on.seconds << " s, "
        << std::setprecision(0) << nps_on << " nodes/s (tables up to " << r.max_pieces << " pieces)\n";
    out << "probes:         " << on.probes.probes << " WDL probes, " << probes_per_s << " probes/s, "
        << std::setprecision(1) << 100 * answered << "% answered, " << 100 * in_memory
        << "% of them from memory at once\n";
}

}  // namespace engine
