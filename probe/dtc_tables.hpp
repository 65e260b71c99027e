// The .dtc tables (docs/VALUES.md), read: the store RuleJudge
// (tables/rule_values.hpp) reads, through the Tablebase's files and block
// cache. gen/dtc_tables.hpp writes them; this reads them: the rule-aware
// value of a position with every count fresh, its distance to conversion,
// its exact value under any counts, and best play under them to the next
// conversion. Values of the tables, as DTW is: which rule ends a game and
// whether the stronger side can still win within it is the judge's
// (adjudication/judge.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probe/status.hpp"
#include "probe/tablebase.hpp"
#include "rules/position.hpp"
#include "tables/rule_values.hpp"

namespace dtb::probe {

template <class V>
class DtcTables {
public:
    explicit DtcTables(const Tablebase& tb) : tb_(tb) {}

    // With every count fresh at `pos`: the rule-aware value for the side to
    // move (1 win, 0 draw, -1 loss; a count-drawn win is 0).
    Outcome<int> fresh_wdl(const Position<V>& pos) const {
        return guarded([&] { return game_over(pos) ? -1 : RuleJudge<V, DtcTables>(*this).fresh_wdl(pos); });
    }

    // DTC: who wins with every count fresh and in how many plies the next
    // conversion comes, best play under the counts (docs/VALUES.md 2;
    // RuleJudge::fresh_dtc).
    Outcome<Timed> dtc(const Position<V>& pos) const {
        return guarded([&] { return RuleJudge<V, DtcTables>(*this).fresh_dtc(pos); });
    }

    // Whether, with every count fresh, the side to move wins with a DTC of
    // at most `plies` (RuleJudge::fresh_win_within).
    Outcome<bool> win_within(const Position<V>& pos, int plies) const {
        return guarded([&] { return RuleJudge<V, DtcTables>(*this).fresh_win_within(pos, plies); });
    }

    // The value for the side to move under the counts `c` (RuleCounts, or a
    // game's DrawCounts), exactly.
    template <class Counts>
    Outcome<int> exact_value(const Position<V>& pos, const Counts& c) const {
        return guarded([&] { return RuleJudge<V, DtcTables>(*this).exact_value(pos, c); });
    }

    // Best play under the counts `c` to the next conversion
    // (RuleJudge::line_to_conversion); empty for a draw under the counts.
    template <class Counts>
    Outcome<std::vector<Move>> line(const Position<V>& pos, const Counts& c) const {
        return guarded([&] { return RuleJudge<V, DtcTables>(*this).line_to_conversion(pos, c); });
    }

    // Every legal move under the counts `c`: its value for the side playing
    // it and the plies to the conversion it leads to
    // (RuleJudge::moves_under_counts).
    template <class Counts>
    Outcome<std::vector<typename RuleJudge<V, DtcTables>::MoveUnderCounts>> moves(const Position<V>& pos,
                                                                                  const Counts& c) const {
        return guarded([&] { return RuleJudge<V, DtcTables>(*this).moves_under_counts(pos, c); });
    }

    // The store's king blocks solved by earlier questions (RuleJudge).
    SolvedKingBlocks& kept_blocks() const { return tb_.kept_king_blocks(); }

    // The store: the entry of a normalized position. Throws Unavailable.
    RuleEntry entry(const Position<V>& n, bool stronger_to_move) const {
        // Not stored (docs/FORMAT.md): from the captures, every one a conversion.
        if (MoveGenerator<V>::has_capture(n)) return RuleJudge<V, DtcTables>(*this).capture_entry(n, stronger_to_move);
        const MaterialSignature sig = signature_of(n);
        auto table = tb_.table(V::id, sig, compress::Metric::dtc);
        if (!table) throw Unavailable{table.take_error()};
        const std::uint64_t i = (*table)->template index_for<V>().rank(n);
        auto symbol = (*table)->file->read(i);
        if (!symbol)
            throw Unavailable{
                Failure{symbol.error().code == compress::ErrorCode::io ? Status::io_error : Status::corrupt_table,
                        symbol.error().message}};
        const std::optional<RuleEntry> e = rule_entry(*symbol);
        if (!e)
            throw Unavailable{Failure{Status::corrupt_table, (*table)->file->path().string() + ": position " +
                                                                 std::to_string(i) + " holds symbol " +
                                                                 std::to_string(*symbol) + ", no .dtc value"}};
        return both_lone_kings(sig) ? king_against_king_entry(e->dtc, stronger_to_move) : *e;
    }

private:
    // A table the judge needs is missing or damaged.
    struct Unavailable {
        Failure failure;
    };

    template <class F>
    static auto guarded(F&& f) -> Outcome<decltype(f())> {
        try {
            return f();
        } catch (const Unavailable& u) {
            return u.failure;
        }
    }

    const Tablebase& tb_;
};

}  // namespace dtb::probe
