// dtb rule-report: what the move-count draw rules change, table by table
// (docs/VALUES.md): the rule-aware values of every position, solved in
// memory (gen/rule_solver.hpp), beside the values with unlimited moves read
// from the WDL tables. The counting is cli/rule_report.hpp's; this file
// words it and writes JSON.
#include <omp.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli/options.hpp"
#include "cli/rule_report.hpp"
#include "cli/table_dirs.hpp"
#include "probe/tablebase.hpp"

namespace dtb {

namespace {

struct RuleReportOptions {
    std::string variant;
    int pieces = 3;
    std::vector<std::string> dirs;
    int threads = 0;
    bool json = false;
};

Json row_json(const RuleReportRow& r) {
    return Json{{"table", r.table.name()},
                {"positions", r.positions},
                {"wins", r.wins},
                {"draws", r.draws},
                {"losses", r.losses},
                {"rule_wins", r.rule_wins},
                {"rule_losses", r.rule_losses},
                {"count_drawn_wins", r.count_drawn_wins},
                {"count_saved_losses", r.count_saved_losses},
                {"longest_rule_win_dtc", r.longest_rule_win_dtc}};
}

void print_rows(const std::vector<RuleReportRow>& rows) {
    std::cout << std::left << std::setw(12) << "table" << std::right << std::setw(14) << "positions" << std::setw(14)
              << "wins" << std::setw(14) << "rule wins" << std::setw(16) << "count-drawn" << std::setw(14)
              << "count-saved" << std::setw(12) << "max DTC\n";
    for (const RuleReportRow& r : rows)
        std::cout << std::left << std::setw(12) << r.table.name() << std::right << std::setw(14) << r.positions
                  << std::setw(14) << r.wins << std::setw(14) << r.rule_wins << std::setw(16) << r.count_drawn_wins
                  << std::setw(14) << r.count_saved_losses << std::setw(11) << r.longest_rule_win_dtc << '\n';
}

template <class V>
void run(const RuleReportOptions& o) {
    if (o.threads > 0) omp_set_num_threads(o.threads);
    const std::vector<std::string> names = table_dirs(o.dirs);
    const std::vector<std::filesystem::path> dirs(names.begin(), names.end());
    std::string where;
    for (const std::string& d : names) where += (where.empty() ? "" : ", ") + d;
    auto tb = probe::Tablebase::open(dirs, std::size_t{256} << 20);
    if (!tb) throw std::runtime_error(tb.error().message);
    // Every WDL table the report reads, before the long solve.
    for (const MaterialSignature& sig : all_signatures(V::id, o.pieces))
        if (auto t = (*tb)->table(V::id, sig, compress::Metric::wdl); !t) throw std::runtime_error(t.error().message);
    // The .dtc tables when every one is there (dtb gen --dtc), else a solve in memory.
    bool files = true;
    for (const MaterialSignature& sig : all_signatures(V::id, o.pieces))
        files = files && bool((*tb)->table(V::id, sig, compress::Metric::dtc));
    std::vector<RuleReportRow> rows;
    if (files) {
        std::cerr << "reading the values under the counts from the .dtc tables in " << where << "...\n";
        rows = rule_report<V>(RuleFiles<V>{probe::DtcTables<V>(**tb)}, **tb, o.pieces);
    } else {
        std::cerr << "solving the values under the counts of every table up to " << o.pieces << " pieces...\n";
        const RuleSolver<V> solver(o.pieces);
        std::cerr << "comparing with the tables in " << where << "...\n";
        rows = rule_report<V>(solver, **tb, o.pieces);
    }
    if (o.json) {
        Json tables = Json::array();
        for (const RuleReportRow& r : rows) tables.push_back(row_json(r));
        print_json(Json{{"variant", V::name}, {"pieces", o.pieces}, {"tables", tables}});
    } else {
        print_rows(rows);
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
        "Example: dtb rule-report --variant russian --pieces 4 --dir tablebases");
    add_variant_option(c, o->variant);
    c->add_option("--pieces", o->pieces, "Every table with up to this many pieces")->check(CLI::Range(2, 6));
    c->add_option("--dir", o->dirs, kTableDirsHelp);
    c->add_option("--threads", o->threads, "Threads to use (default: all cores)")->check(CLI::Range(1, 1024));
    c->add_flag("--json", o->json, "Print the report as JSON");
    c->callback([o] { with_variant(variant_from_option(o->variant), [&]<class V>() { run<V>(*o); }); });
}

}  // namespace dtb
