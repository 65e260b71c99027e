// The rule solver (gen/rule_solver.hpp) against a plain minimax over moves
// and DrawCounts (rules/draw_tracker.hpp, the counting a game replay uses),
// with no table: the fresh value of every position of the small tables,
// and the distance to conversion read back as values at every count.
#include "gen/rule_solver.hpp"

#include <gtest/gtest.h>

#include <unordered_map>

#include "rules/notation.hpp"
#include "tests/draw_counts_key.hpp"

namespace dtb {
namespace {

// The value for the side to move under the counts, by minimax. The game
// with counts is finite (counts end it), so the recursion ends.
template <class V>
class CountMinimax {
public:
    int value(const Position<V>& pos, const DrawCounts<V>& counts) {
        if (!counts.reached_at(pos).empty()) return 0;
        const Key key{pos, counts.key()};
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        int best = -1;
        for (const Move& m : moves) {
            DrawCounts<V> next = counts;
            const bool drawn = !next.play(pos, m).empty();
            const Position<V> after = pos.after(m);
            const int v = game_over(after) ? 1 : drawn ? 0 : -value(after, next);
            best = std::max(best, v);
            if (best == 1) break;
        }
        memo_.emplace(key, best);
        return best;
    }

private:
    using Key = CountedPosition<V>;
    std::unordered_map<Key, int, CountedPositionHash> memo_;
};

// One solver per variant for every test (solving takes a while).
template <class V>
const RuleSolver<V>& solved_up_to_three() {
    static const RuleSolver<V> solver(3);
    return solver;
}

template <class V>
void fresh_values_agree(int max_pieces, std::uint64_t stride) {
    const RuleSolver<V>& solver = solved_up_to_three<V>();
    CountMinimax<V> minimax;
    std::uint64_t checked = 0, drawn_by_counts = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, max_pieces)) {
        const PositionIndex<V> index(sig);
        for (std::uint64_t i = 0; i < index.size(); i += stride) {
            const Position<V> pos = index.unrank(i);
            if (game_over(pos)) continue;
            const int truth = minimax.value(pos, DrawCounts<V>(pos));
            ASSERT_EQ(solver.fresh_wdl(pos), truth) << sig.name() << " " << to_fen(pos);
            ++checked;
            drawn_by_counts += truth == 0;
        }
    }
    std::cout << checked << " positions agree, " << drawn_by_counts << " drawn\n";
    EXPECT_GT(checked, 1000u);
}

// Every count from 0 to past the longest limit: the exact value (stored
// values and a search in the material) is the minimax's.
template <class V>
void counted_values_agree(int max_pieces, std::uint64_t stride) {
    const RuleSolver<V>& solver = solved_up_to_three<V>();
    CountMinimax<V> minimax;
    std::uint64_t checked = 0, decided = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, max_pieces)) {
        const PositionIndex<V> index(sig);
        for (std::uint64_t i = 0; i < index.size(); i += stride) {
            const Position<V> pos = index.unrank(i);
            if (game_over(pos)) continue;
            for (int moves = 0; moves <= 31; moves += 1 + moves / 8)
                for (int king_moves = 0; king_moves <= moves; king_moves += 1 + king_moves / 4) {
                    ++checked;
                    const int truth = minimax.value(pos, DrawCounts<V>::resumed(pos, moves, king_moves));
                    const int exact = solver.exact_value(pos, {moves, 2 * moves, 2 * king_moves});
                    ASSERT_EQ(exact, truth)
                        << sig.name() << " " << to_fen(pos) << " moves " << moves << " king moves " << king_moves;
                    decided += truth != 0;
                }
        }
    }
    std::cout << checked << " answers agree, " << decided << " of them won or lost\n";
    EXPECT_GT(checked, 1000u);
    EXPECT_GT(decided, checked / 20);
}

TEST(RuleSolver, RussianThreePiecesCounted) { counted_values_agree<Russian>(3, 97); }
TEST(RuleSolver, InternationalThreePiecesCounted) { counted_values_agree<International>(3, 601); }

TEST(RuleSolver, RussianThreePiecesFresh) { fresh_values_agree<Russian>(3, 5); }
TEST(RuleSolver, InternationalThreePiecesFresh) { fresh_values_agree<International>(3, 701); }

}  // namespace
}  // namespace dtb
