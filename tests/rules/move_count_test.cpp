// MoveGenerator::count, perft's last ply, against the moves generate()
// lists. count() takes short cuts (a popcount of the plain moves; the men's
// single jumps counted for all the men at once, only the pieces that could
// go on searched), so it is checked here on positions made to reach each of
// them, in both variants, and on pseudo-random positions of every kind.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/variant.hpp"

namespace dtb {
namespace {

template <class V>
int generated(const Position<V>& pos) {
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    return static_cast<int>(moves.size());
}

template <class V>
void expect_count(const std::string& fen, int expected) {
    const Position<V> pos = parse_fen<V>(fen);
    EXPECT_EQ(generated(pos), expected) << fen;
    EXPECT_EQ(MoveGenerator<V>::count(pos), expected) << fen;
}

// Men that take one piece each and cannot go on: one move per jump.
TEST(MoveCount, SingleJumps) {
    // d4 takes c5 or e5 (d4:b6, d4:f6); f2 takes g3 (f2:h4).
    expect_count<Russian>("W:Wd4,f2:Bc5,e5,g3", 3);
    // 28 takes 22 or 23 (28:17, 28:19); 37 takes 31 (37:26).
    expect_count<International>("W:W28,37:B22,23,31", 3);
}

// Under the majority rule (international) a man that goes on takes two, so
// another man's single jump is not legal; in Russian every capture is.
TEST(MoveCount, AJumpThatGoesOnBesideASingleJump) {
    // 32 takes 28 and 19 (32:14); 50 could take 44 alone (50:39).
    expect_count<International>("W:W32,50:B28,19,44", 1);
    // c3 takes d4 and f6 (c3:g7); h2 takes g3 (h2:f4).
    expect_count<Russian>("W:Wc3,h2:Bd4,f6,g3", 2);
}

// A man that lands on the crowning row during a capture goes on as a king
// in Russian (2.1.5.15) and as a man in international (3.4.2.1; crowned
// only where the capture ends, 3.4.2.2).
TEST(MoveCount, AManOnTheCrowningRowDuringACapture) {
    // b6 takes c7, is crowned on d8 and takes f6 as a king, from afar,
    // landing on g5 or h4: as a man it could not go on.
    expect_count<Russian>("W:Wb6:Bc7,f6", 2);
    // 13 takes 8, lands on 2 and takes 7 as a man (13:11).
    expect_count<International>("W:W13:B8,7", 1);
}

// A king of the side to move is always searched; its captures and the men's
// single jumps are counted together.
TEST(MoveCount, AKingBesideAMan) {
    // The king a1 takes d4, landing on e5, f6, g7 or h8; h2 takes g3.
    expect_count<Russian>("W:WKa1,h2:Bd4,g3", 5);
}

// A position with `men` and `kings` pieces of each colour on random squares
// (men never on their crowning row) and a random side to move.
template <class V>
Position<V> random_position(std::mt19937_64& rng, int white, int black, int king_percent) {
    using Board = typename V::Board;
    std::vector<int> squares;
    for (int b : bits_of{Board::all}) squares.push_back(b);
    std::shuffle(squares.begin(), squares.end(), rng);
    Position<V> pos;
    std::uniform_int_distribution<int> percent(0, 99);
    std::size_t next = 0;
    for (const auto& [color, n] : {std::pair{White, white}, std::pair{Black, black}}) {
        for (int i = 0; i < n && next < squares.size(); ++next) {
            const int sq = squares[next];
            const bool king = percent(rng) < king_percent;
            if (!king && (bit(sq) & Board::promotion_row(color))) continue;
            pos.put(color, king ? Piece::King : Piece::Man, BitIndex{sq});
            ++i;
        }
    }
    pos.side_to_move = percent(rng) < 50 ? White : Black;
    return pos;
}

// What a random position exercised, so that the test can tell it reached
// every short cut of count().
struct Reached {
    int single_jumps_only = 0;  // men only, each capture a single jump
    int men_going_on = 0;       // a man's route takes two pieces or more
    int kings_capturing = 0;    // a king of the side to move can capture
    int crowned_capturing = 0;  // a man's capture crowns it (Russian)
    int quiet = 0;
};

template <class V>
void count_random_positions(std::uint64_t seed, int positions, Reached& reached) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> pieces(1, V::Board::squares / 3);
    std::uniform_int_distribution<int> kings(0, 3);
    for (int i = 0; i < positions; ++i) {
        const int king_percent = std::array{0, 0, 10, 40}[std::size_t(kings(rng))];
        const Position<V> pos = random_position<V>(rng, pieces(rng), pieces(rng), king_percent);
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        ASSERT_EQ(MoveGenerator<V>::count(pos), int(moves.size())) << to_fen(pos);
        if (moves.empty() || !moves[0].is_capture()) {
            ++reached.quiet;
            continue;
        }
        const Bitboard kings_to_move = pos.kings_of(pos.side_to_move);
        bool king = false, long_route = false, crowned = false;
        for (const Move& m : moves) {
            king |= (kings_to_move & bit(m.from)) != 0;
            long_route |= !(kings_to_move & bit(m.from)) && popcount(m.captured) > 1;
            crowned |= !(kings_to_move & bit(m.from)) && m.crowns;
        }
        reached.kings_capturing += king;
        reached.men_going_on += long_route;
        reached.crowned_capturing += crowned;
        reached.single_jumps_only += !king && !long_route;
    }
}

// Counts `positions` random positions of V and checks that they reached
// every case of count() often enough to tell.
template <class V>
void expect_counts_agree(std::uint64_t seed, int positions, int crowned_at_least) {
    Reached reached;
    count_random_positions<V>(seed, positions, reached);
    EXPECT_GT(reached.single_jumps_only, 1000);
    EXPECT_GT(reached.men_going_on, 1000);
    EXPECT_GT(reached.kings_capturing, 1000);
    EXPECT_GT(reached.crowned_capturing, crowned_at_least);
    EXPECT_GT(reached.quiet, 1000);
}

TEST(MoveCount, AgreesWithTheGeneratorOnRandomPositionsRussian) {
    expect_counts_agree<Russian>(20261125, 200000, 1000);
}

TEST(MoveCount, AgreesWithTheGeneratorOnRandomPositionsInternational) {
    expect_counts_agree<International>(20261126, 200000, 100);
}

}  // namespace
}  // namespace dtb
