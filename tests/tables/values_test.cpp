// The value encoding and the value rule (tables/values.hpp) that the
// solver, the verifier and the probe share: better() and
// value_from_children() must tell the same story, and symbols must decode
// to what was encoded.
#include "tables/values.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace dtb {
namespace {

TEST(Values, WdlAndParity) {
    EXPECT_EQ(wdl_of(kDraw), 0);
    EXPECT_EQ(wdl_of(0), -1);
    EXPECT_EQ(wdl_of(1), 1);
    EXPECT_EQ(wdl_of(40), -1);
    EXPECT_TRUE(is_win(3) && !is_loss(3));
    EXPECT_TRUE(is_loss(0) && !is_win(0));
    EXPECT_FALSE(is_win(kDraw) || is_loss(kDraw));
    EXPECT_EQ(value_before(kDraw), kDraw);
    EXPECT_EQ(value_before(0), 1);
    EXPECT_EQ(value_before(7), 8);
}

TEST(Values, BetterOrdersFastestWinThenDrawThenLongestLoss) {
    const std::vector<int> best_first = {1, 3, 5, 99, kDraw, 100, 40, 2, 0};
    for (std::size_t i = 0; i < best_first.size(); ++i)
        for (std::size_t j = 0; j < best_first.size(); ++j)
            EXPECT_EQ(better(best_first[i], best_first[j]), i < j) << best_first[i] << " vs " << best_first[j];
}

// The ranks a windowed search compares (probe/search.hpp): the order of
// better(), value_before across a move, the window bounds swapped.
TEST(Values, RanksFollowBetterAndValueBefore) {
    std::vector<int> values = {kDraw};
    for (int v = 0; v <= 300; ++v) values.push_back(v);
    for (const int a : values) {
        EXPECT_EQ(value_of_rank(value_rank(a)), a) << a;
        EXPECT_EQ(rank_after(value_rank(value_before(a))), value_rank(a)) << a;
        EXPECT_LT(-kValueRankBound, value_rank(a));
        EXPECT_LT(value_rank(a), kValueRankBound);
        for (const int b : {kDraw, 0, 1, 2, 7, 40, 41, 300}) {
            EXPECT_EQ(value_rank(a) > value_rank(b), better(a, b)) << a << " vs " << b;
            // A window for the mover, turned for the position after the
            // move: its value is inside exactly when the mover's is.
            const int low = value_rank(b);
            for (const int high : {value_rank(kDraw), value_rank(1), value_rank(2), kValueRankBound}) {
                if (low >= high) continue;
                const int mover = value_rank(value_before(a));
                const bool mover_inside = low < mover && mover < high;
                const bool after_inside = rank_after(high) < value_rank(a) && value_rank(a) < rank_after(low);
                EXPECT_EQ(mover_inside, after_inside) << a << " in (" << low << ", " << high << ")";
            }
        }
    }
    EXPECT_EQ(rank_after(kValueRankBound), -kValueRankBound);
    EXPECT_EQ(rank_after(-kValueRankBound), kValueRankBound);
}

// The rule as a choice: the best of value_before(child) by better().
int best_by_better(const std::vector<int>& children) {
    if (children.empty()) return 0;
    int best = value_before(children.front());
    for (int c : children)
        if (better(value_before(c), best)) best = value_before(c);
    return best;
}

TEST(Values, ValueFromChildrenIsTheBestMoveByBetter) {
    EXPECT_EQ(value_from_children(std::vector<int>{}), 0);  // no move: lost now
    EXPECT_EQ(value_from_children(std::vector<int>{0}), 1);
    EXPECT_EQ(value_from_children(std::vector<int>{5, 2, 4}), 3);  // least loss + 1
    EXPECT_EQ(value_from_children(std::vector<int>{5, kDraw, 7}), kDraw);
    EXPECT_EQ(value_from_children(std::vector<int>{5, 9, 1}), 10);  // longest loss: greatest win + 1
    // Every list of up to three children from a small alphabet.
    const std::vector<int> alphabet = {kDraw, 0, 1, 2, 3, 6, 9};
    std::vector<std::vector<int>> lists{{}};
    for (int length = 1; length <= 3; ++length) {
        std::vector<std::vector<int>> longer;
        for (const auto& list : lists)
            if (int(list.size()) == length - 1)
                for (int v : alphabet) {
                    longer.push_back(list);
                    longer.back().push_back(v);
                }
        lists.insert(lists.end(), longer.begin(), longer.end());
    }
    for (const auto& list : lists) {
        ChildValues folded;
        for (int v : list) folded.add(v);
        EXPECT_EQ(folded.empty(), list.empty());
        EXPECT_EQ(value_from_children(list), best_by_better(list)) << ::testing::PrintToString(list);
    }
}

template <class T>
void expect_symbols_round_trip() {
    using Codec = ValueCodec<T>;
    EXPECT_EQ(decode_value(encode_value<T>(kDraw)), kDraw);
    EXPECT_EQ(encode_value<T>(kDraw), Codec::kDrawSymbol);
    for (int d : {0, 1, 2, 77, Codec::kMaxDistance}) EXPECT_EQ(decode_value(encode_value<T>(d)), d);
    EXPECT_NE(Codec::kDrawSymbol, Codec::kUnknown);
    EXPECT_LT(Codec::kMaxDistance, int(Codec::kDrawSymbol));
}

TEST(Values, SymbolsRoundTrip) {
    expect_symbols_round_trip<std::uint8_t>();
    expect_symbols_round_trip<std::uint16_t>();
}

}  // namespace
}  // namespace dtb
