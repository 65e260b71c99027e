// The rule solver (gen/rule_solver.hpp) against a plain minimax over moves
// and DrawCounts (rules/draw_tracker.hpp, the counting a game replay uses),
// with no table: the fresh value of every position of the small tables,
// and the distance to conversion read back as values at every count.
#include "gen/rule_solver.hpp"

#include <gtest/gtest.h>

#include <set>
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

// Where a lone-king count can run (lone_count_can_run), against a search
// over materials: from every material a rule counting the stronger side's
// moves covers, down through the stronger side's losses and crownings (the
// count runs on until the lone king is captured).
template <class V>
std::set<std::pair<int, int>> reached_by_a_lone_king_count() {
    constexpr int most = V::max_pieces_per_side;
    std::set<std::pair<int, int>> reached;  // (kings, men) of the stronger side
    std::vector<std::pair<int, int>> todo;
    for (const DrawRule& r : V::draw_rules)
        if (counts_stronger_side(r))
            for (int k = 0; k <= most; ++k)
                for (int m = 0; k + m <= most; ++m)
                    if (k + m > 0 && r.kings.contains(k) && r.men.contains(m) && r.pieces.contains(k + m))
                        todo.emplace_back(k, m);
    while (!todo.empty()) {
        const auto [k, m] = todo.back();
        todo.pop_back();
        if (k + m == 0 || !reached.insert({k, m}).second) continue;
        if (k > 0) todo.emplace_back(k - 1, m);      // a king captured
        if (m > 0) todo.emplace_back(k, m - 1);      // a man captured
        if (m > 0) todo.emplace_back(k + 1, m - 1);  // a man crowned
    }
    return reached;
}

template <class V>
void lone_counts_run_where_reached(int pieces) {
    const auto reached = reached_by_a_lone_king_count<V>();
    int lone = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, pieces)) {
        bool want = false;
        for (const int s : {0, 1})
            if (sig.kings[1 - s] == 1 && sig.men[1 - s] == 0 && sig.pieces(s) > 0)
                want = want || reached.contains({sig.kings[s], sig.men[s]});
        EXPECT_EQ(lone_count_can_run<V>(sig), want) << sig.name();
        EXPECT_EQ(has_lone_values<V>(sig), want || both_lone_kings(sig)) << sig.name();
        lone += lone_king_material(sig);
    }
    EXPECT_GT(lone, 0);
}

TEST(RuleSolver, WhereALoneKingCountCanRun) {
    lone_counts_run_where_reached<Russian>(6);
    lone_counts_run_where_reached<International>(6);
    lone_counts_run_where_reached<Brazilian>(5);
    // From the rules texts: international 3.5 counts three pieces with a
    // king, and two or one with a king; four pieces against a lone king
    // never count, nor three men (they never had a king).
    const auto runs = [](auto variant, const char* name) {
        return lone_count_can_run<decltype(variant)>(*MaterialSignature::parse(name));
    };
    EXPECT_TRUE(runs(International{}, "KKKvK"));
    EXPECT_TRUE(runs(International{}, "KvMM"));  // from KMMvK, its king captured
    EXPECT_FALSE(runs(International{}, "MMMvK"));
    EXPECT_FALSE(runs(International{}, "KKKMvK"));
    EXPECT_FALSE(runs(International{}, "KvKKMMM"));
    // Russian 2.1.9.1.4 counts three kings or more with any men: every
    // lone-king ending can come from one.
    EXPECT_TRUE(runs(Russian{}, "KKMMvK"));
    EXPECT_TRUE(runs(Russian{}, "MMMMvK"));
    // Brazilian rule 16 has no lone-king count.
    EXPECT_FALSE(runs(Brazilian{}, "KKKvK"));
    EXPECT_TRUE(has_lone_values<Brazilian>(*MaterialSignature::parse("KvK")));
}

}  // namespace
}  // namespace dtb
