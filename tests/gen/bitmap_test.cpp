// gen/bitmap.hpp: match_mask's vector paths (AVX-512 or AVX2, as the build
// targets) against a plain comparison, for every count and every value.
#include "gen/bitmap.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>

namespace dtb {
namespace {

template <class T>
std::uint64_t plain_mask(const T* values, int count, T v) {
    std::uint64_t mask = 0;
    for (int j = 0; j < count; ++j)
        if (values[j] == v) mask |= std::uint64_t{1} << j;
    return mask;
}

template <class T>
void expect_masks_agree() {
    std::mt19937 random(7);
    // Few distinct values, so that every bit position matches often; the
    // extremes, where a signed and an unsigned compare would differ.
    const std::array<T, 5> palette{T(0), T(1), T(-1), T(127), T(-128)};
    std::array<T, 64> values{};
    for (int round = 0; round < 200; ++round) {
        for (T& x : values) x = palette[random() % palette.size()];
        for (int count = 0; count <= 64; ++count)
            for (const T v : palette)
                ASSERT_EQ(match_mask(values.data(), count, v), plain_mask(values.data(), count, v))
                    << "count " << count << ", value " << int(v);
    }
}

TEST(MatchMask, AgreesWithAPlainComparison) {
    expect_masks_agree<std::int8_t>();
    expect_masks_agree<std::uint8_t>();
    expect_masks_agree<std::uint16_t>();
}

TEST(MatchMask, FindsEachBitOfAWholeWord) {
    std::array<std::int8_t, 64> values{};
    for (int j = 0; j < 64; ++j) {
        values.fill(3);
        values[std::size_t(j)] = -5;
        EXPECT_EQ(match_mask(values.data(), 64, std::int8_t(-5)), std::uint64_t{1} << j);
        EXPECT_EQ(match_mask(values.data(), 64, std::int8_t(3)), ~(std::uint64_t{1} << j));
    }
}

}  // namespace
}  // namespace dtb
