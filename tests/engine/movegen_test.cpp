// The example engine's move generator against dtb's (rules/perft.hpp):
// two generators written apart, counted on the start positions and on
// random positions of both variants. An error in either shows here.
#include "movegen.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "board.hpp"
#include "rules/notation.hpp"
#include "rules/perft.hpp"

namespace {

std::string fen_of(const engine::Position& pos, int variant) {
    const dtb_position p = engine::to_dtb(pos, variant);
    char buf[512];
    EXPECT_EQ(dtb_position_to_fen(&p, buf, sizeof buf), DTB_OK);
    return buf;
}

template <class V>
std::uint64_t dtb_perft(const std::string& fen, int depth) {
    return dtb::perft(dtb::parse_fen<V>(fen), depth);
}

std::uint64_t dtb_perft(int variant, const std::string& fen, int depth) {
    return variant == DTB_RUSSIAN ? dtb_perft<dtb::Russian>(fen, depth) : dtb_perft<dtb::International>(fen, depth);
}

engine::Position from_fen(int variant, const char* fen) {
    dtb_position p;
    char err[256];
    EXPECT_EQ(dtb_position_from_fen(variant, fen, &p, err, sizeof err), DTB_OK) << err;
    return engine::from_dtb(p);
}

// Men never stand on their own crowning row; kings anywhere. Many pieces
// and many kings make long captures, the Turkish strike and crowning
// mid-capture likely.
engine::Position random_position(const engine::Geometry& g, std::mt19937_64& rng) {
    engine::Position pos;
    const int pieces = std::uniform_int_distribution<int>(2, g.variant == DTB_RUSSIAN ? 14 : 18)(rng);
    std::uniform_int_distribution<int> square(0, g.squares - 1);
    std::bernoulli_distribution king(0.3), side(0.5);
    for (int placed = 0; placed < pieces;) {
        const int sq = square(rng);
        if (pos.occupied() & engine::bit(sq)) continue;
        const int s = side(rng) ? engine::White : engine::Black;
        const bool is_king = king(rng);
        if (!is_king && (g.crown_row[s] & engine::bit(sq))) continue;
        pos.pieces[s] |= engine::bit(sq);
        if (is_king) pos.kings |= engine::bit(sq);
        ++placed;
    }
    pos.side = side(rng) ? engine::White : engine::Black;
    return pos;
}

TEST(EngineMovegen, StartPositionsMatchDtbPerft) {
    const struct {
        int variant;
        const char* fen;
        int depth;
    } cases[] = {
        {DTB_RUSSIAN, "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", 7},
        {DTB_INTERNATIONAL, "W:W31-50:B1-20", 5},
    };
    for (const auto& c : cases) {
        const engine::Geometry& g = engine::Geometry::of(c.variant);
        const engine::Position pos = from_fen(c.variant, c.fen);
        for (int depth = 1; depth <= c.depth; ++depth)
            EXPECT_EQ(engine::perft(g, pos, depth), dtb_perft(c.variant, c.fen, depth)) << c.fen << " depth " << depth;
    }
}

// Positions where the rules differ most: kings crossing captured pieces,
// a Russian man crowned mid-capture, the majority rule.
TEST(EngineMovegen, TacticalPositionsMatchDtbPerft) {
    const struct {
        int variant;
        const char* fen;
    } cases[] = {
        {DTB_RUSSIAN, "W:Wc3,Ka1:Bb6,d6,f6,b4,d4,f4"},
        {DTB_RUSSIAN, "W:We5:Bf6,f4,d4,b4,d6"},
        {DTB_RUSSIAN, "W:Wc5:Bd6,e7,b6,f4,h6,g3"},
        {DTB_RUSSIAN, "B:WKh8,a3,c3,e3,g3,d2:Bb4,Kd8"},
        {DTB_INTERNATIONAL, "W:W28,K46:B7,8,9,12,13,17,19,22,23,32,33"},
        {DTB_INTERNATIONAL, "W:W6,7,K50:B2,3,12,13,22,24,34,44"},
        {DTB_INTERNATIONAL, "B:W17,18,28,29,38,39,K49:B11,K1,K5"},
    };
    for (const auto& c : cases) {
        const engine::Geometry& g = engine::Geometry::of(c.variant);
        const engine::Position pos = from_fen(c.variant, c.fen);
        for (int depth = 1; depth <= 5; ++depth)
            EXPECT_EQ(engine::perft(g, pos, depth), dtb_perft(c.variant, c.fen, depth)) << c.fen << " depth " << depth;
    }
}

TEST(EngineMovegen, RandomPositionsMatchDtbPerft) {
    std::mt19937_64 rng(14);
    for (int variant : {DTB_RUSSIAN, DTB_INTERNATIONAL}) {
        const engine::Geometry& g = engine::Geometry::of(variant);
        int checked = 0, with_captures = 0;
        for (int i = 0; i < 400; ++i) {
            const engine::Position pos = random_position(g, rng);
            const std::string fen = fen_of(pos, variant);
            engine::MoveList moves;
            engine::generate_moves(g, pos, moves);
            if (moves.size && moves[0].is_capture()) ++with_captures;
            // Deeper where the tree is small: up to depth 6, a few million leaves.
            std::uint64_t leaves = 1;
            for (int depth = 1; depth <= 6 && leaves < 300000; ++depth) {
                leaves = engine::perft(g, pos, depth);
                ASSERT_EQ(leaves, dtb_perft(variant, fen, depth)) << fen << " depth " << depth;
            }
            ++checked;
        }
        EXPECT_EQ(checked, 400);
        EXPECT_GT(with_captures, 40) << "the sample should hold many captures";
    }
}

}  // namespace
