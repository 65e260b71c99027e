// perft against the published series: the depths small enough for every
// test run (see quick_perft_limit). perft_slow_test.cpp runs the rest.
#include "rules/perft.hpp"

#include <gtest/gtest.h>

#include "rules/notation.hpp"
#include "tests/rules/perft_series.hpp"

namespace dtb {
namespace {

using test::PerftSeries;

template <class V>
void expect_quick_depths(const PerftSeries& s) {
    const Position<V> pos = s.fen ? parse_fen<V>(s.fen) : initial_position<V>();
    int checked = 0;
    for (std::size_t i = 0; i < s.counts.size(); ++i) {
        if (s.counts[i] > test::quick_perft_limit) break;
        const int depth = s.first_depth + static_cast<int>(i);
        EXPECT_EQ(perft(pos, depth, s.duplicates), s.counts[i]) << s.name << ", depth " << depth;
        ++checked;
    }
    EXPECT_GT(checked, 0) << s.name << ": no depth is quick enough";
}

TEST(Perft, DepthZeroIsOneNode) {
    EXPECT_EQ(perft(initial_position<Russian>(), 0), 1u);
    EXPECT_EQ(perft(initial_position<International>(), 0), 1u);
    EXPECT_EQ(perft(initial_position<Brazilian>(), 0), 1u);
}

TEST(Perft, NoMoveMeansNoLeaves) {
    EXPECT_EQ(perft(parse_fen<Russian>("W:W:Bb8"), 1), 0u);
    EXPECT_EQ(perft(parse_fen<International>("W:W6:B1"), 3), 0u);
}

class RussianPerft : public testing::TestWithParam<PerftSeries> {};
TEST_P(RussianPerft, QuickDepths) { expect_quick_depths<Russian>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Series, RussianPerft, testing::ValuesIn(test::russian_series()), test::SeriesName());

class InternationalPerft : public testing::TestWithParam<PerftSeries> {};
TEST_P(InternationalPerft, QuickDepths) { expect_quick_depths<International>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Series, InternationalPerft, testing::ValuesIn(test::international_series()),
                         test::SeriesName());

class BrazilianPerft : public testing::TestWithParam<PerftSeries> {};
TEST_P(BrazilianPerft, QuickDepths) { expect_quick_depths<Brazilian>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Series, BrazilianPerft, testing::ValuesIn(test::brazilian_series()), test::SeriesName());

}  // namespace
}  // namespace dtb
