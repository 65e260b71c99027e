// Notation round trips over thousands of positions: random legal games
// (fixed seed) from the initial positions and from king-rich ones. In every
// position: the FEN reads back to the same position, every legal move's
// text reads back to that move, and every capture route's text reads back
// to its move.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "tests/rules/rules_test_support.hpp"

namespace dtb {
namespace {

struct Seen {
    int positions = 0;
    int moves = 0;
    int routes = 0;
    int king_captures = 0;
    int failures = 0;
};

// Checks one position; records a failure (and its FEN) for each mismatch.
template <class V>
void check_round_trips(const Position<V>& pos, Seen& seen) {
    auto fail = [&](const std::string& what) {
        ++seen.failures;
        ADD_FAILURE() << what << " in " << to_fen(pos);
    };
    ++seen.positions;
    const std::string fen = to_fen(pos);
    if (!(parse_fen<V>(fen) == pos)) fail("FEN '" + fen + "' does not read back");

    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    for (const Move& m : moves) {
        ++seen.moves;
        if (m.is_capture() && (pos.kings & bit(m.from))) ++seen.king_captures;
        const std::string text = move_text(pos, m);
        try {
            if (!(parse_move(pos, text) == m)) fail("move text '" + text + "' reads back as another move");
        } catch (const InputError& e) {
            fail("move text '" + text + "' does not read back: " + e.what());
        }
    }
    for (const CaptureRoute& route : MoveGenerator<V>::capture_routes(pos)) {
        ++seen.routes;
        const std::string text = route_text<V>(route);
        try {
            if (!(parse_move(pos, text) == route.move)) fail("route text '" + text + "' reads back as another move");
        } catch (const InputError& e) {
            fail("route text '" + text + "' does not read back: " + e.what());
        }
    }
}

// Plays `games` random games of at most `max_plies` from `start`, checking
// every position on the way. Stops early after a few failures.
template <class V>
Seen walk_random_games(std::string_view start, int games, int max_plies) {
    std::mt19937_64 rng(20240611);  // mt19937_64's output is fixed by the standard
    Seen seen;
    for (int g = 0; g < games && seen.failures < 5; ++g) {
        Position<V> pos = parse_fen<V>(start);
        for (int ply = 0; ply < max_plies && seen.failures < 5; ++ply) {
            check_round_trips(pos, seen);
            MoveList moves;
            MoveGenerator<V>::generate(pos, moves);
            if (moves.empty()) break;
            pos = pos.after(moves[static_cast<std::size_t>(rng() % moves.size())]);
        }
    }
    return seen;
}

TEST(NotationRoundTrip, RussianRandomGames) {
    const Seen a = walk_random_games<Russian>("W:W21-32:B1-12", 100, 200);
    const Seen b = walk_random_games<Russian>("W:WKa1,Kc1,e1,g1,b2,d2:BKh8,Kf8,d8,b8,g7,e7", 60, 120);
    EXPECT_GT(a.positions + b.positions, 5000);
    EXPECT_GT(a.king_captures + b.king_captures, 500);  // the walk reaches what it is meant to test
}

TEST(NotationRoundTrip, InternationalRandomGames) {
    const Seen a = walk_random_games<International>("W:W31-50:B1-20", 50, 300);
    // Few games from here: its positions have up to hundreds of king routes.
    const Seen b = walk_random_games<International>("B:W6,9-11,20-23,30,K31,33,37,41-44,46:BK17,K24", 3, 150);
    const Seen c = walk_random_games<International>("W:WK46,K47,K48,38-45:BK1,K2,K3,6-13", 30, 120);
    EXPECT_GT(a.positions + b.positions + c.positions, 5000);
    EXPECT_GT(a.king_captures + b.king_captures + c.king_captures, 500);
}

}  // namespace
}  // namespace dtb
