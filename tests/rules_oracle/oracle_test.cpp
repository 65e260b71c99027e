// The count oracle (count_oracle.hpp) on positions worked out by hand from
// docs/RULES.md section 4, and its counting against the game's
// (rules/draw_tracker.hpp) along pseudo-random games. No table is read: the
// oracle answers from the rules alone.
#include <gtest/gtest.h>

#include <string>

#include "rules/draw_tracker.hpp"
#include "rules/notation.hpp"
#include "tables/signatures.hpp"
#include "tests/rules_oracle/count_oracle.hpp"

namespace dtb::oracle_test {
namespace {

using oracle::CountOracle;
using oracle::CountState;
using oracle::GameCounts;
using oracle::RuleResult;

std::string describe(const CountState& c) {
    return "moves " + std::to_string(c.lone_moves) + ", plies since a conversion " +
           std::to_string(c.conversion_plies) + ", plies of king moves " + std::to_string(c.king_plies);
}

// The oracle's value of `fen` under `counts`, by the full search and by the
// search for a win alone, which must agree.
template <class V>
void expect_value(const std::string& fen, const CountState& counts, const RuleResult& expected) {
    CountOracle<V> oracle;
    const Position<V> pos = parse_fen<V>(fen);
    EXPECT_EQ(oracle.solve(pos, counts), expected) << fen << ", " << describe(counts);
    EXPECT_EQ(oracle.wdl(pos, counts), expected.wdl) << fen << ", " << describe(counts);
}

const RuleResult kDrawn{0, 0};

TEST(CountOracle, MainRoadIsTheLongDiagonal) {
    const auto russian = parse_fen<Russian>("W:WKa1,Kb2,Kc3,Kd4,Ke5,Kf6,Kg7,Kh8:BKa3");
    EXPECT_EQ(oracle::detail::main_road<Russian>(), russian.pieces[White]);
    const auto international = parse_fen<International>("W:WK46,K41,K37,K32,K28,K23,K19,K14,K10,K5:BK36");
    EXPECT_EQ(oracle::detail::main_road<International>(), international.pieces[White]);
}

// 2.1.9.1.4: three kings against a lone king, 15 moves. Neither king on the
// main road (2.1.9.1.3, .7 do not apply). White's capture c1:e3 wins at
// once: as its 15th move too, since a move that wins wins whatever count
// it completes; after the 15th move the count has run out.
TEST(CountOracle, RussianLoneKingCountWinOnItsLastMove) {
    const std::string fen = "W:WKc1,Kg1,Kh2:BKd2";
    expect_value<Russian>(fen, {0, 0, 0}, {1, 1});
    expect_value<Russian>(fen, {14, 28, 28}, {1, 1});
    expect_value<Russian>(fen, {15, 30, 30}, kDrawn);
    expect_value<Russian>(fen, {15, 0, 0}, kDrawn);
}

// 2.1.9.1.5 (2-3 pieces: 5 moves of each side, 10 plies) and 2.1.9.1.8
// (15 king moves, 30 plies). White wins in 3 plies and no sooner: 1. c7-h2
// leaves the black king b8 only squares on the diagonal b8-h2, where h2
// takes it (the a7 king on the edge cannot be taken). The winning capture
// may be the 10th ply since the last conversion (or the 30th of kings),
// not the 11th.
TEST(CountOracle, RussianConversionCountWinAtTheLimitPly) {
    const std::string fen = "W:WKa7,Kc7:BKb8";
    expect_value<Russian>(fen, {0, 0, 0}, {1, 3});
    expect_value<Russian>(fen, {0, 7, 0}, {1, 3});
    expect_value<Russian>(fen, {0, 8, 0}, kDrawn);
    expect_value<Russian>(fen, {0, 9, 0}, kDrawn);
    expect_value<Russian>(fen, {0, 10, 0}, kDrawn);
    expect_value<Russian>(fen, {0, 0, 27}, {1, 3});
    expect_value<Russian>(fen, {0, 0, 28}, kDrawn);
}

// A crowning starts 2.1.9.1.5 again (and, as a man move, 2.1.9.1.8): one
// ply is left of both counts, yet 1. a7-b8 crowns and 2. h8 must step onto
// the main road, where a1 takes it. A king move instead would end the game.
TEST(CountOracle, RussianCrowningStartsTheConversionCountAgain) {
    const std::string fen = "W:Wa7,Ka1:BKh8";
    expect_value<Russian>(fen, {0, 0, 0}, {1, 3});
    expect_value<Russian>(fen, {0, 9, 0}, {1, 3});
    expect_value<Russian>(fen, {0, 9, 29}, {1, 3});
    expect_value<Russian>(fen, {0, 10, 0}, kDrawn);
}

// 2.1.9.1.4 runs until the lone king is captured: losing a king does not
// start it again. White's only move c7:a5 takes b6; then a7-b6 forces
// a5:c7 and d8:b6 takes the last white piece at ply 4 (a5, on the edge,
// cannot be taken at ply 2). Black's 14th and 15th moves are plies 2 and 4:
// with 13 made Black wins, with 14 its 15th move (ply 2) cannot win and the
// game is drawn, though the capture started 2.1.9.1.5 afresh.
TEST(CountOracle, RussianCaptureDoesNotStartTheLoneKingCountAgain) {
    const std::string fen = "W:WKc7:BKd8,Ka7,Kb6";
    expect_value<Russian>(fen, {0, 0, 0}, {-1, 4});
    expect_value<Russian>(fen, {13, 26, 26}, {-1, 4});
    expect_value<Russian>(fen, {14, 28, 28}, kDrawn);
}

// Two kings: 2.1.9.1.5 (2-3 pieces) and 2.1.9.1.8; no lone-king rule
// covers a single king.
TEST(CountOracle, RussianKingAgainstKing) {
    const std::string fen = "W:WKc1:BKd2";
    expect_value<Russian>(fen, {0, 0, 0}, {1, 1});
    expect_value<Russian>(fen, {0, 9, 0}, {1, 1});
    expect_value<Russian>(fen, {0, 10, 0}, kDrawn);
    expect_value<Russian>(fen, {0, 0, 30}, kDrawn);
}

// 3.5's 5 moves cover a king against a lone king; with both lone, the side
// to move is the stronger. 46:37 takes 41 at once, as its 5th move too.
TEST(CountOracle, InternationalKingAgainstKingFiveMoves) {
    const std::string fen = "W:WK46:BK41";
    expect_value<International>(fen, {0, 0, 0}, {1, 1});
    expect_value<International>(fen, {4, 0, 0}, {1, 1});
    expect_value<International>(fen, {5, 0, 0}, kDrawn);
}

// A man move starts 3.5's 25 king moves again, not its 5 moves against a
// lone king. 1. 6-1 crowns; the king on 5 can only step down the main road,
// where 46 takes it. With 49 plies of king moves made, a king move would
// end the game; the man move does not. With 4 of the 5 moves made, the
// crowning is White's 5th move and does not win: drawn.
TEST(CountOracle, InternationalManMoveStartsOnlyTheKingMoveCountAgain) {
    const std::string fen = "W:W6,K46:BK5";
    expect_value<International>(fen, {0, 0, 0}, {1, 3});
    expect_value<International>(fen, {0, 0, 49}, {1, 3});
    expect_value<International>(fen, {0, 0, 50}, kDrawn);
    expect_value<International>(fen, {3, 0, 0}, {1, 3});
    expect_value<International>(fen, {4, 0, 0}, kDrawn);
}

// 3.5: two kings and a man against a lone king, 16 moves; when the lone king
// takes a king, a king and a man remain: 5 moves, counted from then, while
// the 16 run on. White's only move 12:1 takes 7; the tables give Black the
// win in 9 more plies, its 5th move (1. 12:1 35-40 2. 1-6 45-50 3. 6-1
// 40-45 4. 1-6 45-1 5. 6-11 50:6). So Black wins exactly within the 5
// moves, and within the 16 while 11 or fewer are made; with 12 made, only 4
// are left.
TEST(CountOracle, InternationalSixteenMovesThenFive) {
    const std::string fen = "W:WK12:BK7,K35,45";
    expect_value<International>(fen, {0, 0, 0}, {-1, 10});
    expect_value<International>(fen, {11, 22, 22}, {-1, 10});
    expect_value<International>(fen, {12, 24, 24}, kDrawn);
}

// The counts themselves, move by move (docs/RULES.md 4.4).
TEST(CountOracle, CountsStepAsTheRulesSay) {
    using C = GameCounts<International>;
    const auto pos = parse_fen<International>("W:WK12:BK7,K35,45");
    C c = oracle::resumed_counts(pos, {2, 5, 4});
    ASSERT_EQ(c.stronger, int(Black));
    constexpr std::size_t sixteen = 0, five = 1;  // in kInternationalDrawRules
    EXPECT_EQ(c.lone[sixteen], 2);
    EXPECT_EQ(c.lone[five], C::kUndecided);
    const Move capture = parse_move(pos, "12:1");
    c = oracle::detail::after_move(pos, capture, c);
    EXPECT_EQ(c.lone[sixteen], 2);  // the lone king's moves do not count
    EXPECT_EQ(c.lone[five], 0);     // its material stands now
    EXPECT_EQ(c.conversion_plies, 0);
    EXPECT_EQ(c.king_plies, 0);
    const auto after = pos.after(capture);
    const Move king_move = parse_move(after, "35-40");
    c = oracle::detail::after_move(after, king_move, c);
    EXPECT_EQ(c.lone[sixteen], 3);
    EXPECT_EQ(c.lone[five], 1);
    EXPECT_EQ(c.conversion_plies, 1);
    EXPECT_EQ(c.king_plies, 1);
    const auto later = after.after(king_move);
    const Move white_move = parse_move(later, "1-6");
    c = oracle::detail::after_move(later, white_move, c);
    const Move man_move = parse_move(later.after(white_move), "45-50");
    c = oracle::detail::after_move(later.after(white_move), man_move, c);
    EXPECT_EQ(c.lone[sixteen], 4);
    EXPECT_EQ(c.lone[five], 2);
    EXPECT_EQ(c.conversion_plies, 0);  // a crowning
    EXPECT_EQ(c.king_plies, 0);        // a man move
}

// The oracle's counting against DrawCounts (rules/draw_tracker.hpp), which
// replays games: along pseudo-random games from positions of the tables up
// to 4 pieces, both say the same ply ends the game by a count.
template <class V>
void counting_agrees_with_games(std::uint64_t stride) {
    std::uint64_t x = 12345, plies = 0, ended = 0;
    const auto next = [&] {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        return x >> 33;
    };
    for (const MaterialSignature& sig : all_signatures(V::id, 4)) {
        const PositionIndex<V> index(sig);
        for (std::uint64_t i = next() % stride; i < index.size(); i += stride) {
            Position<V> pos = index.unrank(i);
            const int m = int(next() % 18), k = int(next() % (m + 1));
            DrawCounts<V> game = DrawCounts<V>::resumed(pos, m, k);
            GameCounts<V> ours = oracle::resumed_counts(pos, CountState{m, 2 * m, 2 * k});
            ASSERT_EQ(!game.reached_at(pos).empty(), oracle::detail::count_ended(pos, ours)) << to_fen(pos);
            for (int ply = 0; ply < 80 && !oracle::detail::lost(pos); ++ply) {
                MoveList moves;
                MoveGenerator<V>::generate(pos, moves);
                const Move mv = moves[next() % moves.size()];
                const bool game_ends = !game.play(pos, mv).empty();
                ours = oracle::detail::after_move(pos, mv, ours);
                const Position<V> after = pos.after(mv);
                const bool ours_ends = !oracle::detail::lost(after) && oracle::detail::count_ended(after, ours);
                ASSERT_EQ(game_ends, ours_ends) << to_fen(pos) << " then " << move_text(pos, mv) << ", counts " << m
                                                << " and " << k << " at the start";
                ++plies;
                if (game_ends) {
                    ++ended;
                    break;
                }
                pos = after;
            }
        }
    }
    EXPECT_GT(ended, 100u);
    std::cout << V::name << ": " << plies << " plies played, " << ended << " games ended by a count\n";
}

TEST(CountOracle, RussianCountingAgreesWithGames) { counting_agrees_with_games<Russian>(199); }
TEST(CountOracle, InternationalCountingAgreesWithGames) { counting_agrees_with_games<International>(1999); }

}  // namespace
}  // namespace dtb::oracle_test
