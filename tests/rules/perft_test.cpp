#include <gtest/gtest.h>

#include "rules/notation.hpp"
#include "rules/perft.hpp"

namespace dtb {
namespace {

TEST(Perft, RussianInitialShallow) {
    const auto pos = initial_position<Russian>();
    const std::uint64_t expected[] = {1, 7, 49, 302, 1469, 7482, 37986, 190146, 929899};
    for (int d = 0; d <= 8; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << "depth " << d;
}

TEST(Perft, InternationalInitialShallow) {
    const auto pos = initial_position<International>();
    const std::uint64_t expected[] = {1, 9, 81, 658, 4265, 27117, 167140, 1049442};
    for (int d = 0; d <= 7; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << "depth " << d;
}

}  // namespace
}  // namespace dtb
