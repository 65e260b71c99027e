// The example engine plays endings with and without the tables (Russian
// kings-only tables of 5 and 6 pieces and every table of 3 pieces of both
// variants, DTB_ENGINE_TABLES): with them it
// wins every won position within its DTW and never loses a drawn one;
// without them, at a modest node limit, it does not always win in time.
// Fixed seeds and node limits: the games are the same on every machine.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "game.hpp"
#include "random_position.hpp"
#include "search.hpp"

namespace {

constexpr int kVariant = DTB_RUSSIAN;

struct Sampled {
    engine::Position pos;
    int dtw;
    std::string fen;
};

class EnginePlay : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        tables_ = std::make_unique<engine::Tables>(std::vector<std::string>{DTB_ENGINE_TABLES}, 64 << 20);
    }
    static void TearDownTestSuite() { tables_.reset(); }

    static std::string fen_of(const engine::Position& pos, int variant = kVariant) {
        const dtb_position p = engine::to_dtb(pos, variant);
        char buf[256];
        dtb_position_to_fen(&p, buf, sizeof buf);
        return buf;
    }

    static engine::Position random_position(std::mt19937_64& rng, int variant, int strong, int weak, int strong_men = 0,
                                            int weak_men = 0) {
        return engine_test::random_position(rng, variant, strong, weak, strong_men, weak_men);
    }
    static engine::Position random_kings(std::mt19937_64& rng, int strong, int weak) {
        return random_position(rng, kVariant, strong, weak);
    }

    // `n` positions of the material whose value for the side to move is
    // `wdl` (wins at least min_dtw plies long), found by probing random ones.
    static std::vector<Sampled> sample(std::uint64_t seed, int strong, int weak, int wdl, int min_dtw, int n,
                                       int variant = kVariant, int strong_men = 0, int weak_men = 0) {
        std::mt19937_64 rng(seed);
        std::vector<Sampled> out;
        for (int tries = 0; tries < 100000 && static_cast<int>(out.size()) < n; ++tries) {
            const engine::Position pos = random_position(rng, variant, strong, weak, strong_men, weak_men);
            const dtb_position p = engine::to_dtb(pos, variant);
            dtb_value v;
            if (dtb_probe_dtw(tables_->handle(), &p, &v) != DTB_OK) {
                ADD_FAILURE() << fen_of(pos, variant) << ": " << dtb_error_message(tables_->handle());
                break;
            }
            if (v.wdl == wdl && (wdl != DTB_WIN || v.dtw >= min_dtw)) out.push_back({pos, v.dtw, fen_of(pos, variant)});
        }
        EXPECT_EQ(static_cast<int>(out.size()), n) << "not enough positions in the sample";
        return out;
    }

    // Whether the side to move at the start won within `plies` plies.
    static bool won_within(const engine::Game& game, const engine::Position& start, int plies) {
        return game.winner == start.side && static_cast<int>(game.plies.size()) <= plies;
    }

    static inline std::unique_ptr<engine::Tables> tables_;
};

TEST_F(EnginePlay, WithTablesWinsEveryWonPositionWithinItsDtw) {
    std::vector<Sampled> won = sample(1, 3, 2, DTB_WIN, 15, 12);
    const std::vector<Sampled> six = sample(2, 3, 3, DTB_WIN, 9, 12);
    won.insert(won.end(), six.begin(), six.end());
    engine::Engine player(kVariant, tables_.get(), 8 << 20);
    engine::Limits limits;
    limits.nodes = 5000;
    for (const Sampled& s : won) {
        const engine::Game game = engine::play_game(player, player, s.pos, limits, s.dtw + 10);
        EXPECT_TRUE(won_within(game, s.pos, s.dtw))
            << s.fen << ": DTW " << s.dtw << ", game of " << game.plies.size() << " plies, " << game.reason;
        for (const engine::Ply& ply : game.plies) EXPECT_TRUE(ply.search.from_tables) << s.fen;
    }
}

TEST_F(EnginePlay, WithoutTablesSometimesMissesTheWinWithinTheDtw) {
    std::vector<Sampled> won = sample(1, 3, 2, DTB_WIN, 15, 12);
    const std::vector<Sampled> six = sample(2, 3, 3, DTB_WIN, 9, 12);
    won.insert(won.end(), six.begin(), six.end());
    engine::Engine player(kVariant, nullptr, 8 << 20);
    engine::Limits limits;
    limits.nodes = 5000;
    int missed = 0;
    for (const Sampled& s : won) {
        player.clear();
        const engine::Game game = engine::play_game(player, player, s.pos, limits, s.dtw);
        if (!won_within(game, s.pos, s.dtw)) ++missed;
    }
    EXPECT_GE(missed, 1) << "the sample is too easy to show what the tables add";
    std::cout << "without tables: " << missed << " of " << won.size() << " won positions not won within DTW\n";
}

TEST_F(EnginePlay, WithTablesNeverLosesADrawnPosition) {
    std::vector<Sampled> drawn = sample(3, 3, 2, DTB_DRAW, 0, 8);
    const std::vector<Sampled> six = sample(4, 3, 3, DTB_DRAW, 0, 8);
    drawn.insert(drawn.end(), six.begin(), six.end());
    engine::Engine with(kVariant, tables_.get(), 8 << 20);
    engine::Engine without(kVariant, nullptr, 8 << 20);
    engine::Limits limits;
    limits.nodes = 5000;
    for (const Sampled& s : drawn) {
        // The side with the tables plays either side against the engine without.
        for (int tables_side : {engine::White, engine::Black}) {
            without.clear();
            engine::Engine& white = tables_side == engine::White ? with : without;
            engine::Engine& black = tables_side == engine::White ? without : with;
            const engine::Game game = engine::play_game(white, black, s.pos, limits, 60);
            EXPECT_NE(game.winner, tables_side ^ 1) << s.fen << ": the side with the tables lost";
        }
    }
}

// International, with the 3-piece tables: the same engine, the other board.
TEST_F(EnginePlay, InternationalWithTablesWinsWithinTheDtw) {
    std::vector<Sampled> won = sample(6, 1, 1, DTB_WIN, 5, 8, DTB_INTERNATIONAL, 1, 0);
    const std::vector<Sampled> men = sample(7, 0, 1, DTB_WIN, 5, 8, DTB_INTERNATIONAL, 2, 0);
    won.insert(won.end(), men.begin(), men.end());
    engine::Engine player(DTB_INTERNATIONAL, tables_.get(), 8 << 20);
    engine::Limits limits;
    limits.nodes = 5000;
    for (const Sampled& s : won) {
        const engine::Game game = engine::play_game(player, player, s.pos, limits, s.dtw + 10);
        EXPECT_TRUE(won_within(game, s.pos, s.dtw))
            << s.fen << ": DTW " << s.dtw << ", game of " << game.plies.size() << " plies, " << game.reason;
    }
}

// Seven kings, the side to move having to capture into the 6-piece tables:
// the root's score must be the best of the children's WDL values, which
// the search reads by probing.
TEST_F(EnginePlay, SearchScoresCapturesIntoTheTables) {
    std::mt19937_64 rng(5);
    const engine::Geometry& g = engine::Geometry::of(kVariant);
    engine::Engine player(kVariant, tables_.get(), 8 << 20);
    engine::Limits limits;
    limits.depth = 2;
    int checked = 0, wins = 0;
    for (int tries = 0; tries < 20000 && checked < 40; ++tries) {
        const engine::Position pos = random_kings(rng, 3, 4);
        engine::MoveList moves;
        engine::generate_moves(g, pos, moves);
        if (moves.size < 2 || !moves[0].is_capture() || engine::count(moves[0].captured) != 1) continue;
        int expected = DTB_LOSS;
        for (const engine::Move& m : moves) {
            const dtb_position child = engine::to_dtb(engine::after(pos, m), kVariant);
            dtb_value v;
            ASSERT_EQ(dtb_probe_wdl(tables_->handle(), &child, &v), DTB_OK) << fen_of(pos);
            expected = std::max(expected, -v.wdl);
        }
        player.clear();
        const engine::SearchResult r = player.think(pos, limits);
        ASSERT_FALSE(r.from_tables);
        EXPECT_GT(r.probes.hits, 0u);
        const int got = r.score >= engine::kTbWin - engine::kMaxPly      ? DTB_WIN
                        : r.score <= -(engine::kTbWin - engine::kMaxPly) ? DTB_LOSS
                        : r.score == 0                                   ? DTB_DRAW
                                                                         : 99;
        EXPECT_EQ(got, expected) << fen_of(pos) << " score " << r.score;
        if (expected == DTB_WIN) ++wins;
        ++checked;
    }
    EXPECT_EQ(checked, 40);
    EXPECT_GT(wins, 0);
}

}  // namespace
