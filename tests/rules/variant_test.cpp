// The one list of variants (rules/variant.hpp): names and ids agree both
// ways, dispatch reaches every variant and refuses a number outside the
// list, and what is derived from the list (GameType numbers, choices)
// covers every variant.
#include "rules/variant.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace dtb {
namespace {

TEST(VariantList, NamesAndIdsRoundTrip) {
    ASSERT_EQ(kVariantIds.size(), Variants::size);
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < kVariantIds.size(); ++i) {
        const VariantId id = kVariantIds[i];
        EXPECT_EQ(static_cast<std::size_t>(id), i) << "ids are positions in the list";
        EXPECT_EQ(variant_from_number(static_cast<int>(i)), id);
        EXPECT_EQ(parse_variant(variant_name(id)), id);
        names.insert(variant_name(id));
    }
    EXPECT_EQ(names.size(), kVariantIds.size()) << "names are unique";
}

TEST(VariantList, IdsNeverChange) {
    // Written into every table file's header and used as the C API's codes.
    EXPECT_EQ(static_cast<int>(VariantId::Russian), 0);
    EXPECT_EQ(static_cast<int>(VariantId::International), 1);
    EXPECT_EQ(static_cast<int>(VariantId::Brazilian), 2);
}

TEST(VariantList, UnknownNumbersAndNamesAreRefused) {
    EXPECT_EQ(variant_from_number(-1), std::nullopt);
    EXPECT_EQ(variant_from_number(static_cast<int>(kVariantIds.size())), std::nullopt);
    EXPECT_EQ(parse_variant("Russian"), std::nullopt);  // names are exact
    EXPECT_EQ(parse_variant(""), std::nullopt);
    const auto unchecked = static_cast<VariantId>(kVariantIds.size());
    EXPECT_THROW(with_variant(unchecked, []<class V>() { return 0; }), UnknownVariant);
    EXPECT_THROW(variant_name(unchecked), UnknownVariant);
}

TEST(VariantList, DispatchReachesEveryVariant) {
    for (const VariantId id : kVariantIds) EXPECT_EQ(with_variant(id, []<class V>() { return V::id; }), id);
    int visited = 0;
    for_each_variant([&]<class V>() { EXPECT_EQ(V::id, kVariantIds[static_cast<std::size_t>(visited++)]); });
    EXPECT_EQ(visited, static_cast<int>(kVariantIds.size()));
}

TEST(VariantList, DerivedLists) {
    EXPECT_EQ(variant_choices(), "russian, international or brazilian");
    EXPECT_EQ(game_types_text(), "25 russian, 20 international, 26 brazilian");
    for_each_variant([]<class V>() { EXPECT_EQ(variant_of_game_type(V::pdn_game_type), V::id); });
    EXPECT_EQ(variant_of_game_type(21), std::nullopt);
}

TEST(VariantList, BrazilianIsInternationalOnTheRussianBoard) {
    static_assert(std::is_same_v<Brazilian::Board, Russian::Board>);
    static_assert(Brazilian::majority_capture == International::majority_capture);
    static_assert(Brazilian::crowns_during_capture == International::crowns_during_capture);
    static_assert(Brazilian::initial_fen == Russian::initial_fen);
    EXPECT_EQ(Brazilian::draw_rules.size(), 1u);
    EXPECT_EQ(Brazilian::draw_rules[0].limit, 20);
}

}  // namespace
}  // namespace dtb
