// The example engine plays endings by the values under the move-count
// rules (the .dtc tables of every table up to 4 pieces of both variants,
// DTB_ENGINE_DTC_TABLES; the positions are Russian, below). From positions won under the counts whose fastest
// win by DTW lets a count end the game in a draw (found by probing: the DTW
// best move is no win under the counts), it wins every game, and dtb's own
// count keeping (rules/draw_tracker.hpp, as dtb adjudicate --pdn keeps the
// counts of a game) sees no count end the game on the way.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "game.hpp"
#include "random_position.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/notation.hpp"
#include "search.hpp"

namespace {

std::string fen_of(const engine::Position& pos, int variant) {
    const dtb_position p = engine::to_dtb(pos, variant);
    char buf[256];
    dtb_position_to_fen(&p, buf, sizeof buf);
    return buf;
}

// Whether the DTW best move of `p` is no win under the counts, every count
// fresh, though the position is won under them.
bool dtw_move_runs_a_count_out(dtb_tablebase* tb, const dtb_position& p) {
    int rule_wdl = 0, dtc = 0;
    if (dtb_probe_dtc(tb, &p, &rule_wdl, &dtc) != DTB_OK || rule_wdl != DTB_WIN) return false;
    dtb_move best;
    dtb_value value;
    if (dtb_best_move(tb, &p, &best, &value) != DTB_OK) return false;
    dtb_rule_move moves[256];
    std::size_t n = 0;
    if (dtb_rule_root(tb, &p, 0, -1, -1, moves, 256, &n) != DTB_OK) {
        ADD_FAILURE() << dtb_error_message(tb);
        return false;
    }
    for (std::size_t i = 0; i < n; ++i)
        if (std::string(moves[i].move.text) == best.text) return moves[i].rule_wdl != DTB_WIN;
    ADD_FAILURE() << "the DTW best move " << best.text << " is not among the moves under the counts";
    return false;
}

template <class V>
void wins_in_time(std::uint64_t seed) {
    const int variant = int(V::id);
    engine::Tables tables({DTB_ENGINE_DTC_TABLES}, 64 << 20);
    // Materials of 4 pieces (strong kings, weak kings, strong men, weak men)
    // where the counts and DTW part: crowning into a lone-king count, king
    // moves without a man move.
    const int materials[][4] = {{1, 1, 2, 0}, {2, 1, 1, 0}, {1, 1, 1, 1}, {2, 1, 0, 1}, {1, 0, 2, 1}};
    std::mt19937_64 rng(seed);
    std::vector<engine::Position> starts;
    for (int tries = 0; tries < 400000 && starts.size() < 6; ++tries) {
        const int* m = materials[tries % 5];
        const engine::Position pos = engine_test::random_position(rng, variant, m[0], m[1], m[2], m[3]);
        if (dtw_move_runs_a_count_out(tables.handle(), engine::to_dtb(pos, variant))) starts.push_back(pos);
    }
    ASSERT_GE(starts.size(), 3u) << "too few positions whose DTW move runs a count out";
    engine::Engine searcher(variant, &tables, 1 << 20);
    engine::Limits limits;
    limits.nodes = 2000;
    for (const engine::Position& start : starts) {
        const std::string fen = fen_of(start, variant);
        searcher.clear();
        const engine::Game game = engine::play_game(searcher, searcher, start, limits, 400);
        EXPECT_EQ(game.winner, start.side) << fen << ": " << game.reason;
        dtb::Position<V> pos = dtb::parse_fen<V>(fen);
        dtb::DrawTracker<V> tracker(pos);
        for (const engine::Ply& ply : game.plies) {
            const dtb::Move m = dtb::parse_move(pos, engine::move_text(variant, ply.search.best));
            const auto draw = tracker.play(m);
            ASSERT_FALSE(draw && V::draw_rules[draw->rule].count != dtb::DrawCount::repetitions)
                << fen << ": rule " << V::draw_rules[draw->rule].id << " ended the game";
            pos = pos.after(m);
        }
    }
    std::cout << V::name << ": " << starts.size() << " endings won in time under the counts" << std::endl;
}

// International endings of up to 4 pieces have no such position (none in
// two million random ones of ten materials): their counts part from DTW
// from 5 pieces on, beyond the .dtc tables the suite builds.
TEST(EngineRules, RussianWinsUnderTheCounts) { wins_in_time<dtb::Russian>(1); }

}  // namespace
