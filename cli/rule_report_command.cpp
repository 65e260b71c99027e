// dtb rule-report: what the move-count draw rules change, table by table
// (docs/VALUES.md): the rule-aware values of every position, solved in
// memory (gen/rule_solver.hpp), beside the values with unlimited moves read
// from the WDL tables. The counting is cli/rule_report.hpp's; this file
// words it and writes JSON.
#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/options.hpp"
#include "cli/rule_report.hpp"
#include "cli/table_dirs.hpp"
#include "probe/tablebase.hpp"
#include "rules/notation.hpp"

namespace dtb {

namespace {

// The most pieces the report covers (Russian <= 7 is the largest set built),
// and the most it solves in memory where the .dtc tables are not there.
constexpr int kMostReportPieces = 7;
constexpr int kMostSolvedPieces = 6;

struct RuleReportOptions {
    std::string variant;
    int pieces = 0;  // 0: not given (3, or the most of --only's tables)
    std::vector<std::string> only;
    std::vector<std::string> dirs;
    int threads = 0;
    bool json = false;
};

// The position of a row's longest win under the counts, as PDN FEN.
template <class V>
std::optional<std::string> longest_win_fen(const RuleReportRow& r) {
    if (!r.longest_rule_win_index) return std::nullopt;
    return to_fen(PositionIndex<V>(r.table).unrank(*r.longest_rule_win_index));
}

template <class V>
Json row_json(const RuleReportRow& r) {
    const std::optional<std::string> fen = longest_win_fen<V>(r);
    return Json{{"table", r.table.name()},
                {"positions", r.positions},
                {"wins", r.wins},
                {"draws", r.draws},
                {"losses", r.losses},
                {"rule_wins", r.rule_wins},
                {"rule_losses", r.rule_losses},
                {"count_drawn_wins", r.count_drawn_wins},
                {"count_saved_losses", r.count_saved_losses},
                {"longest_rule_win_dtc", r.longest_rule_win_dtc},
                {"longest_rule_win_fen", fen ? Json(*fen) : Json(nullptr)}};
}

template <class V>
void print_rows(const std::vector<RuleReportRow>& rows) {
    std::cout << std::left << std::setw(12) << "table" << std::right << std::setw(14) << "positions" << std::setw(14)
              << "wins" << std::setw(14) << "rule wins" << std::setw(16) << "count-drawn" << std::setw(14)
              << "count-saved" << std::setw(12) << "max DTC\n";
    for (const RuleReportRow& r : rows)
        std::cout << std::left << std::setw(12) << r.table.name() << std::right << std::setw(14) << r.positions
                  << std::setw(14) << r.wins << std::setw(14) << r.rule_wins << std::setw(16) << r.count_drawn_wins
                  << std::setw(14) << r.count_saved_losses << std::setw(11) << r.longest_rule_win_dtc << '\n';
    std::cout << "\nThe longest win under the counts of each table (the first in index order):\n";
    for (const RuleReportRow& r : rows)
        if (const std::optional<std::string> fen = longest_win_fen<V>(r))
            std::cout << std::left << std::setw(12) << r.table.name() << std::right << std::setw(4)
                      << r.longest_rule_win_dtc << " plies  " << *fen << '\n';
}

// The tables of --only, checked against the variant and --pieces.
std::vector<MaterialSignature> only_tables(const RuleReportOptions& o, VariantId variant) {
    std::vector<MaterialSignature> only;
    for (const std::string& name : o.only) {
        const std::optional<MaterialSignature> sig = MaterialSignature::parse(name);
        if (!sig) throw InputError("bad signature '" + name + "' (--only): write it as KKMvK, the side to move first");
        if (sig->pieces(0) > max_pieces_per_side(variant) || sig->pieces(1) > max_pieces_per_side(variant))
            throw InputError("--only " + name + " has more pieces on a side than the board holds");
        if (sig->pieces(0) == 0 || sig->pieces(1) == 0)
            throw InputError("--only " + name + ": each side needs a piece");
        if (o.pieces > 0 && sig->total() > o.pieces)
            throw InputError("--only " + name + " has " + std::to_string(sig->total()) +
                             " pieces, more than --pieces " + std::to_string(o.pieces));
        if (sig->total() > kMostReportPieces)
            throw InputError("--only " + name + " has " + std::to_string(sig->total()) +
                             " pieces; the report goes up to " + std::to_string(kMostReportPieces));
        only.push_back(*sig);
    }
    return only;
}

template <class V>
void run(RuleReportOptions o) {
    if (o.threads > 0) omp_set_num_threads(o.threads);
    const std::vector<MaterialSignature> only = only_tables(o, V::id);
    if (o.pieces == 0) {
        o.pieces = only.empty() ? 3 : 2;
        for (const MaterialSignature& sig : only) o.pieces = std::max(o.pieces, sig.total());
    }
    // The tables reported: every one up to --pieces, or those of --only.
    std::vector<MaterialSignature> reported;
    for (const MaterialSignature& sig : all_signatures(V::id, o.pieces))
        if (only.empty() || std::find(only.begin(), only.end(), sig) != only.end()) reported.push_back(sig);
    const std::vector<std::string> names = table_dirs(o.dirs);
    const std::vector<std::filesystem::path> dirs(names.begin(), names.end());
    std::string where;
    for (const std::string& d : names) where += (where.empty() ? "" : ", ") + d;
    auto tb = probe::Tablebase::open(dirs, std::size_t{256} << 20);
    if (!tb) throw std::runtime_error(tb.error().message);
    // Every WDL table the report reads, before the long solve (the
    // smaller tables a capture leads into are read as the report meets them).
    for (const MaterialSignature& sig : reported)
        if (auto t = (*tb)->table(V::id, sig, compress::Metric::wdl); !t) throw std::runtime_error(t.error().message);
    // The .dtc tables when every one is there (dtb gen --dtc), else a solve in memory.
    bool files = true;
    for (const MaterialSignature& sig : reported)
        files = files && bool((*tb)->table(V::id, sig, compress::Metric::dtc));
    // A line a table on stderr: a whole report reads every position.
    const auto progress = [](const RuleReportRow& r, std::size_t done, std::size_t total) {
        std::cerr << "  " << r.table.name() << ": " << r.positions << " positions (" << done << " of " << total
                  << " tables)\n";
    };
    std::vector<RuleReportRow> rows;
    if (files) {
        std::cerr << "reading the values under the counts from the .dtc tables in " << where << "...\n";
        rows = rule_report<V>(RuleFiles<V>{probe::DtcTables<V>(**tb)}, **tb, reported, progress);
    } else {
        if (o.pieces > kMostSolvedPieces)
            throw std::runtime_error("the .dtc tables of " + std::to_string(o.pieces) + "-piece " +
                                     std::string(V::name) + " endings are not all in " + where +
                                     ": build them with dtb gen --dtc (beyond " + std::to_string(kMostSolvedPieces) +
                                     " pieces the report does not solve them in memory)");
        std::cerr << "solving the values under the counts of every table up to " << o.pieces << " pieces...\n";
        const RuleSolver<V> solver(o.pieces);
        std::cerr << "comparing with the tables in " << where << "...\n";
        rows = rule_report<V>(solver, **tb, reported, progress);
    }
    if (o.json) {
        Json tables = Json::array();
        for (const RuleReportRow& r : rows) tables.push_back(row_json<V>(r));
        print_json(Json{{"variant", V::name}, {"pieces", o.pieces}, {"tables", tables}});
    } else {
        print_rows<V>(rows);
    }
}

}  // namespace

void add_rule_report_command(CLI::App& app) {
    auto o = std::make_shared<RuleReportOptions>();
    CLI::App* c = app.add_subcommand(
        "rule-report",
        "For every table up to a number of pieces, the values under the move-count draw rules (each count\n"
        "starting afresh) against the values without them: the positions won with unlimited moves but drawn\n"
        "under the counts (count-drawn wins), the losses the counts save, and the longest distance to\n"
        "conversion of a win under the counts (docs/VALUES.md). Needs the WDL tables of the same pieces in\n"
        "--dir (default: the directories of DTB_PATH, separated by ':', else ./tablebases). Reads the .dtc\n"
        "tables when every one is there (dtb gen --dtc); otherwise solves the tables\n"
        "in memory, which takes minutes for Russian 5 pieces or international 4.\n"
        "With each table, the position of its longest win under the counts (the first in index order).\n"
        "Example: dtb rule-report --variant russian --pieces 4 --dir tablebases\n"
        "         dtb rule-report --variant russian --only KKKMvKK --only KKMMvKK --json");
    add_variant_option(c, o->variant);
    c->add_option("--pieces", o->pieces, "Every table with up to this many pieces (default 3, or the most of --only's)")
        ->check(CLI::Range(2, kMostReportPieces));
    c->add_option("--only", o->only,
                  "Report just these tables (repeat for several), e.g. KKKMvKK; the tables they convert into must be "
                  "there too");
    c->add_option("--dir", o->dirs, kTableDirsHelp);
    c->add_option("--threads", o->threads, "Threads to use (default: all cores)")->check(CLI::Range(1, 1024));
    c->add_flag("--json", o->json, "Print the report as JSON");
    c->callback([o] { with_variant(variant_from_option(o->variant), [&]<class V>() { run<V>(*o); }); });
}

}  // namespace dtb
