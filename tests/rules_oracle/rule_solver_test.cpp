// The count oracle against the rule solver (gen/rule_solver.hpp): the
// rule-aware value of every sampled position (every count fresh) and the
// exact value at many combinations of counts, on every table up to 4
// pieces of both variants. The two share only the move generator and the
// rule table: the solver works by distance to conversion over whole
// tables, the oracle by plain minimax over position x counts.
#include "gen/rule_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>

#include "tests/rules_oracle/adjudicate_sweep.hpp"

namespace dtb::oracle_test {
namespace {

template <class V>
void solver_agrees_with_oracle(std::uint64_t stride, std::uint64_t floor) {
    const auto start = std::chrono::steady_clock::now();
    const RuleSolver<V> solver(4);
    const auto tb = open_tables<V>();
    const auto unlimited = values_from<V>(*tb);
    CountOracle<V> oracle({.unlimited = unlimited, .merge_equivalent = true});
    std::uint64_t positions = 0, answers = 0, count_drawn = 0, decided = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, 4)) {
        const PositionIndex<V> index(sig);
        // Every table gets a few positions even where it is smaller than the stride.
        const std::uint64_t step = std::max<std::uint64_t>(1, std::min(stride, index.size() / 8));
        for (std::uint64_t i = 0; i < index.size(); i += step) {
            const Position<V> pos = index.unrank(i);
            if (game_over(pos)) continue;
            ++positions;
            const int fresh = oracle.wdl(pos, CountState{});
            ASSERT_EQ(solver.fresh_wdl(pos), fresh) << to_fen(pos) << " with fresh counts";
            count_drawn += fresh == 0 && unlimited(pos) >= 0;
            for (int m = 0; m <= 31; m += 5)
                for (int k = 0; k <= m; k += 7) {
                    const int want = oracle.wdl(pos, CountState{m, 2 * m, 2 * k});
                    const int got = solver.exact_value(pos, {m, 2 * m, 2 * k});
                    ASSERT_EQ(got, want) << to_fen(pos) << " after " << m << " moves, " << k << " of kings only";
                    ++answers;
                    decided += want != 0;
                }
        }
    }
    EXPECT_GE(positions, floor);
    EXPECT_GT(decided, answers / 20);  // the sample is not all draws
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << V::name << " up to 4 pieces: " << positions << " positions (" << count_drawn
              << " won or lost without counts, drawn with fresh counts), " << answers
              << " answers at other counts, all alike; " << seconds << " s" << std::endl;
}

// The oracle takes some 0.2 s a Russian 4-piece position (2.1.9.1.5 counts
// 30 moves there), a tenth of that an international one.
TEST(RuleSolverOracle, RussianUpToFourPieces) { solver_agrees_with_oracle<Russian>(20011, 400); }
TEST(RuleSolverOracle, InternationalUpToFourPieces) { solver_agrees_with_oracle<International>(40009, 1000); }

}  // namespace
}  // namespace dtb::oracle_test
