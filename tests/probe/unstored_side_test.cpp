// Format 3 leaves one side of each pair of tables out: its files store no
// position, and the probe searches each one ply into the mirror table
// (docs/FORMAT.md, "Positions not stored"). Every position of the small set
// (format 3) must probe as its raw value, those of the sides left out
// above all; and a set where both sides of a pair leave their positions out
// must be refused, not searched round the pair for ever.
#include <gtest/gtest.h>

#include "gen/child_tables.hpp"
#include "gen/table_writer.hpp"
#include "tables/signatures.hpp"
#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {
namespace {

template <class V>
void every_position_as_raw(int pieces) {
    const auto dir = small_tables();
    Handle tb(dir);
    std::uint64_t unstored_positions = 0, failures = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, pieces)) {
        const bool stores = stores_positions(dir, V::id, sig);
        // A table that is its own mirror stores its positions; of two
        // mirrors, exactly one does.
        if (sig.is_symmetric())
            EXPECT_TRUE(stores) << sig.name();
        else
            EXPECT_NE(stores, stores_positions(dir, V::id, sig.mirror())) << sig.name();
        const RawTable raw = read_raw_table(raw_table_path(dir, V::id, sig));
        const PositionIndex<V> index(sig);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position<V> pos = index.unrank(i);
            const dtb_value expected = expected_value(raw.value(i));
            if (!stores && !MoveGenerator<V>::has_capture(pos)) ++unstored_positions;
            for (const Position<V>& asked : {pos, flip(pos)}) {
                const dtb_position c = c_position(asked);
                dtb_value wdl{}, dtw{};
                const bool right = dtb_probe_wdl(tb, &c, &wdl) == DTB_OK && wdl.wdl == expected.wdl &&
                                   dtb_probe_dtw(tb, &c, &dtw) == DTB_OK && same(dtw, expected);
                if (!right && ++failures <= 10)
                    ADD_FAILURE() << sig.name() << " " << to_fen(asked) << ": " << show(wdl) << " / " << show(dtw)
                                  << ", raw " << show(expected) << " " << tb.error();
            }
        }
    }
    EXPECT_EQ(failures, 0u);
    EXPECT_GT(unstored_positions, 0u) << "no position of a side left out was probed";
}

TEST(UnstoredSide, EveryRussianPositionProbesAsItsRawValue) { every_position_as_raw<Russian>(4); }
TEST(UnstoredSide, EveryInternationalPositionProbesAsItsRawValue) { every_position_as_raw<International>(3); }
TEST(UnstoredSide, EveryBrazilianPositionProbesAsItsRawValue) { every_position_as_raw<Brazilian>(3); }

// Both sides of KKvK / KvKK storing nothing: the probe answers
// corrupt_table naming a file, the generator's and verifier's reader
// refuses the set.
TEST(UnstoredSide, BothSidesLeftOutIsRefused) {
    ScratchDir dir;
    for (const auto& entry : std::filesystem::directory_iterator(small_tables())) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("russian-") && (name.ends_with(".wdl") || name.ends_with(".dtw")))
            std::filesystem::copy_file(entry.path(), dir / name);
    }
    const MaterialSignature kept = stored_side(small_tables(), VariantId::Russian, *MaterialSignature::parse("KKvK"));
    TableLayout layout;
    layout.variant = VariantId::Russian;
    layout.signature = kept;
    layout.positions = PositionIndex<Russian>(kept).size();
    layout.index_version = PositionIndex<Russian>::kVersion;
    layout.format_version = 3;
    write_unstored_tables(dir.path(), layout);
    ASSERT_FALSE(stores_positions(dir.path(), VariantId::Russian, kept));

    Handle tb(dir.path());
    const PositionIndex<Russian> index(kept);
    std::uint64_t refused = 0;
    for (std::uint64_t i = 0; i < index.size(); i += 7) {
        const Position<Russian> pos = index.unrank(i);
        if (MoveGenerator<Russian>::has_capture(pos)) continue;
        const dtb_position c = c_position(pos);
        dtb_value v{};
        ASSERT_EQ(dtb_probe_wdl(tb, &c, &v), DTB_CORRUPT_TABLE) << to_fen(pos);
        EXPECT_NE(tb.error().find("nor does its mirror table store all of its own"), std::string::npos) << tb.error();
        EXPECT_EQ(dtb_probe_dtw(tb, &c, &v), DTB_CORRUPT_TABLE) << to_fen(pos);
        ++refused;
    }
    EXPECT_GT(refused, 0u);
    EXPECT_THROW(ChildTables<Russian>(dir.path(), VariantId::Russian, {kept, kept.mirror()}), std::runtime_error);
}

}  // namespace
}  // namespace dtb::probe_test
