// The coordinate types (rules/square.hpp) and the variant traits
// (rules/variant.hpp): conversions that agree, mix-ups that do not compile,
// and one dispatch from a runtime variant to its traits.
#include <gtest/gtest.h>

#include <type_traits>

#include "rules/notation.hpp"
#include "rules/variant.hpp"

namespace dtb {
namespace {

// A bit index, a 0-based square and a PDN number are different things: none
// converts to another by itself.
static_assert(!std::is_convertible_v<int, BitIndex> && !std::is_convertible_v<int, Square>);
static_assert(!std::is_convertible_v<Square, BitIndex> && !std::is_convertible_v<BitIndex, Square>);
static_assert(!std::is_convertible_v<BitIndex, int> && !std::is_convertible_v<Square, int>);

template <class T>
constexpr bool names_a_square = requires(T t) {
    square_name<Russian>(t);
};
static_assert(names_a_square<BitIndex>);
static_assert(!names_a_square<int> && !names_a_square<Square>);

template <class T>
constexpr bool places_a_bit = requires(T t) {
    Board8::square_of(t);
};
static_assert(places_a_bit<BitIndex>);
static_assert(!places_a_bit<int> && !places_a_bit<Square>);

// The layout of rules/geometry.hpp: one ghost bit after every two rows.
static_assert(Board8::bit_of(Square{7}) == BitIndex{7} && Board8::bit_of(Square{8}) == BitIndex{9});
static_assert(Board10::bit_of(Square{10}) == BitIndex{11} && Board10::bit_of(Square{49}) == BitIndex{53});
static_assert(Board8::pdn_number(Square{0}) == 1 && Board10::pdn_number(Square{49}) == 50);
static_assert(!Board8::square_numbered(0) && !Board8::square_numbered(33) &&
              *Board8::square_numbered(32) == Square{31});
static_assert(*Board8::square_at(0, 1) == Square{28});  // a1 = 29
static_assert(!Board8::square_at(0, 2) && !Board10::square_at(10, 1));

template <class Board>
void expect_round_trips() {
    int bits = 0;
    for (int s = 0; s < Board::squares; ++s) {
        const Square sq{s};
        const BitIndex b = Board::bit_of(sq);
        EXPECT_EQ(Board::square_of(b), sq) << s;
        EXPECT_TRUE(Board::all & bit(b)) << s;
        EXPECT_EQ(Board::square_numbered(Board::pdn_number(sq)), sq) << s;
        EXPECT_EQ(Board::square_at(Board::file_of(sq), Board::rank_of(sq)), sq) << s;
        ++bits;
    }
    EXPECT_EQ(bits, popcount(Board::all));
}

TEST(Geometry, CoordinatesRoundTrip) {
    expect_round_trips<Board8>();
    expect_round_trips<Board10>();
}

TEST(Geometry, NotationNamesBitIndexes) {
    // a1 is PDN 29 on 8x8, square 28, bit 28 + 28 / 8 = 31.
    EXPECT_EQ(parse_square<Russian>("a1"), BitIndex{31});
    EXPECT_EQ(square_name<Russian>(BitIndex{31}), "a1");
    EXPECT_EQ(square_number<Russian>(BitIndex{31}), 29);
    EXPECT_EQ(parse_square<International>("50"), BitIndex{53});
    EXPECT_EQ(square_number<International>(BitIndex{53}), 50);
}

// The traits carry their id; with_variant turns the id back into them.
static_assert(Russian::id == VariantId::Russian && International::id == VariantId::International);
static_assert(Russian::max_pieces_per_side == 12 && International::max_pieces_per_side == 20);

TEST(Variant, OneDispatchFromIdToTraits) {
    for (VariantId id : {VariantId::Russian, VariantId::International}) {
        EXPECT_EQ(with_variant(id, []<class V>() { return V::id; }), id);
        EXPECT_EQ(parse_variant(variant_name(id)), id);
    }
}

}  // namespace
}  // namespace dtb
