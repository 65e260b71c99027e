// What the move-count draw rules change, table by table (docs/VALUES.md 3):
// the rule-aware value of every position (solved in memory by the solver,
// gen/rule_solver.hpp, or read from the store, the .dtc tables through
// probe/dtc_tables.hpp) beside its value with unlimited moves (the WDL
// tables, through the probe's search). The values behind `dtb rule-report`,
// which words and formats them. It rules on no position (that is the
// judge's, adjudication/): it tallies the solver's or the store's values,
// and so stays beside the command rather than in a library an engine links.
#pragma once

#include <omp.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gen/rule_solver.hpp"
#include "probe/dtc_tables.hpp"
#include "probe/search.hpp"

namespace dtb {

struct RuleReportRow {
    MaterialSignature table;                        // the side to move first
    std::uint64_t positions = 0;                    // legal positions with a move
    std::uint64_t wins = 0, draws = 0, losses = 0;  // with unlimited moves
    std::uint64_t rule_wins = 0, rule_losses = 0;   // under the counts, each fresh
    std::uint64_t count_drawn_wins = 0;             // won without the counts, drawn under them
    std::uint64_t count_saved_losses = 0;           // lost without the counts, drawn under them
    int longest_rule_win_dtc = -1;                  // the most plies to conversion of a win under the counts
    // A position that takes them (White to move, in the table's index): the
    // first in index order, so that the answer does not depend on threads.
    std::optional<std::uint64_t> longest_rule_win_index;

    // Keeps the win of `index` where it is longer, or as long and earlier.
    void take_longest(int dtc, std::uint64_t index) {
        if (dtc > longest_rule_win_dtc ||
            (dtc == longest_rule_win_dtc && longest_rule_win_index && index < *longest_rule_win_index)) {
            longest_rule_win_dtc = dtc;
            longest_rule_win_index = index;
        }
    }
};

// The .dtc tables as rule_report's source of values; throws what the
// probe cannot read.
template <class V>
struct RuleFiles {
    probe::DtcTables<V> tables;
    int fresh_wdl(const Position<V>& pos) const { return take(tables.fresh_wdl(pos)); }
    Timed dtc(const Position<V>& pos) const { return take(tables.dtc(pos)); }
    bool win_within(const Position<V>& pos, int plies) const { return take(tables.win_within(pos, plies)); }
    template <class T>
    static T take(probe::Outcome<T> v) {
        if (!v) throw std::runtime_error(v.error().message);
        return *v;
    }
};

// One row per table of `tables`, in their order, each told to `progress`
// as it is done; `rules` gives fresh_wdl(pos), dtc(pos) and
// win_within(pos, plies) (RuleSolver or RuleFiles). Throws if the two values contradict each
// other (a win under the counts that is no win without them): that is a
// bug.
template <class V, class Rules>
std::vector<RuleReportRow> rule_report(
    const Rules& solver, const probe::Tablebase& tb, const std::vector<MaterialSignature>& tables,
    const std::function<void(const RuleReportRow&, std::size_t done, std::size_t total)>& progress = {}) {
    std::vector<RuleReportRow> rows;
    for (const MaterialSignature& sig : tables) {
        const PositionIndex<V> index(sig);
        RuleReportRow row;
        row.table = sig;
        std::string failure;
        const std::int64_t n = std::int64_t(index.size());
#pragma omp parallel
        {
            RuleReportRow mine;
            probe::Search<V> search(tb);
#pragma omp for schedule(dynamic, 4096)
            for (std::int64_t i = 0; i < n; ++i) {
                const Position<V> pos = index.unrank(std::uint64_t(i));
                if (game_over(pos)) continue;
                const auto unlimited = search.wdl(pos);
                if (!unlimited) {
#pragma omp critical
                    failure = unlimited.error().message;
                    continue;
                }
                int rule = 0;
                try {
                    rule = solver.fresh_wdl(pos);
                    // Only a win longer than this thread's longest so far
                    // needs its DTC (a thread meets its positions in index
                    // order, so one as long comes later and is not kept);
                    // where a lone-king count starts, DTC is searched, and
                    // proving it no longer is the cheaper search.
                    if (rule > 0 && !solver.win_within(pos, mine.longest_rule_win_dtc))
                        mine.take_longest(solver.dtc(pos).plies, std::uint64_t(i));
                } catch (const std::exception& e) {
#pragma omp critical
                    failure = e.what();
                    continue;
                }
                ++mine.positions;
                mine.wins += *unlimited > 0;
                mine.draws += *unlimited == 0;
                mine.losses += *unlimited < 0;
                mine.rule_wins += rule > 0;
                mine.rule_losses += rule < 0;
                mine.count_drawn_wins += *unlimited > 0 && rule == 0;
                mine.count_saved_losses += *unlimited < 0 && rule == 0;
                if ((rule > 0 && *unlimited <= 0) || (rule < 0 && *unlimited >= 0)) {
#pragma omp critical
                    failure = sig.name() + " position " + std::to_string(i) + ": value " + std::to_string(rule) +
                              " under the counts but " + std::to_string(*unlimited) + " without them";
                }
            }
#pragma omp critical
            {
                row.positions += mine.positions;
                row.wins += mine.wins;
                row.draws += mine.draws;
                row.losses += mine.losses;
                row.rule_wins += mine.rule_wins;
                row.rule_losses += mine.rule_losses;
                row.count_drawn_wins += mine.count_drawn_wins;
                row.count_saved_losses += mine.count_saved_losses;
                if (mine.longest_rule_win_index)
                    row.take_longest(mine.longest_rule_win_dtc, *mine.longest_rule_win_index);
            }
        }
        if (!failure.empty()) throw std::runtime_error(failure);
        rows.push_back(row);
        if (progress) progress(row, rows.size(), tables.size());
    }
    return rows;
}

}  // namespace dtb
