// perft against the published series, the deep end: every depth above
// quick_perft_limit (seconds to minutes each). Labelled "slow": run by
// scripts/slow-tests.sh, not by the everyday test command.
#include <gtest/gtest.h>

#include "rules/notation.hpp"
#include "rules/perft.hpp"
#include "tests/rules/perft_series.hpp"

namespace dtb {
namespace {

using test::PerftSeries;

template <class V>
void expect_deep_depths(const PerftSeries& s) {
    const Position<V> pos = s.fen ? parse_fen<V>(s.fen) : initial_position<V>();
    for (std::size_t i = 0; i < s.counts.size(); ++i) {
        if (s.counts[i] <= test::quick_perft_limit) continue;
        const int depth = s.first_depth + static_cast<int>(i);
        EXPECT_EQ(perft(pos, depth, s.duplicates), s.counts[i]) << s.name << ", depth " << depth;
    }
}

class RussianPerftDeep : public testing::TestWithParam<PerftSeries> {};
TEST_P(RussianPerftDeep, DeepDepths) { expect_deep_depths<Russian>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Series, RussianPerftDeep, testing::ValuesIn(test::with_deep_depths(test::russian_series())),
                         test::SeriesName());

class InternationalPerftDeep : public testing::TestWithParam<PerftSeries> {};
TEST_P(InternationalPerftDeep, DeepDepths) { expect_deep_depths<International>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Series, InternationalPerftDeep,
                         testing::ValuesIn(test::with_deep_depths(test::international_series())), test::SeriesName());

class BrazilianPerftDeep : public testing::TestWithParam<PerftSeries> {};
TEST_P(BrazilianPerftDeep, DeepDepths) { expect_deep_depths<Brazilian>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Series, BrazilianPerftDeep,
                         testing::ValuesIn(test::with_deep_depths(test::brazilian_series())), test::SeriesName());

}  // namespace
}  // namespace dtb
