// The search-time API: conditional probes (dtb_probe_wdl_cached,
// dtb_probe_dtw_cached), dtb_preload and dtb_cache_stats. A conditional
// probe must answer DTB_NOT_CACHED rather than touch a file, and whenever it
// answers DTB_OK, exactly what the blocking probe answers; a damaged file is
// never answered from.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>

#include "tables/signatures.hpp"
#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {
namespace {

// Random positions of every table of a variant up to `pieces`, either side
// to move (capture positions included: they are searched, through the
// tables of what they capture into).
template <class V>
std::vector<Position<V>> sample(int pieces, std::size_t n, std::uint64_t seed) {
    const auto signatures = all_signatures(V::id, pieces);
    std::mt19937_64 rng(seed);
    std::vector<Position<V>> out;
    while (out.size() < n) {
        const PositionIndex<V> index(signatures[rng() % signatures.size()]);
        const Position<V> pos = index.unrank(rng() % index.size());
        out.push_back(rng() % 2 ? flip(pos) : pos);
    }
    return out;
}

using ProbeFn = int (*)(dtb_tablebase*, const dtb_position*, dtb_value*);

struct Pair {
    ProbeFn blocking, cached;
    const char* name;
};
const Pair kWdl{dtb_probe_wdl, dtb_probe_wdl_cached, "wdl"};
const Pair kDtw{dtb_probe_dtw, dtb_probe_dtw_cached, "dtw"};

// On a fresh handle: conditional probes miss (no table is open, no block
// cached) without a message, except where the captures alone decide; then
// a blocking probe fills the cache and the conditional probe answers the
// same value.
template <class V>
void cold_then_warm(int pieces) {
    const auto positions = sample<V>(pieces, 3000, 7);
    for (const Pair& probe : {kWdl, kDtw}) {
        Handle tb(small_tables());
        std::size_t missed = 0;
        for (const Position<V>& position : positions) {
            const dtb_position pos = c_position(position);
            dtb_value before{}, blocking{}, after{};
            const int cold = probe.cached(tb, &pos, &before);
            ASSERT_EQ(probe.blocking(tb, &pos, &blocking), DTB_OK) << to_fen(position) << ": " << tb.error();
            if (cold == DTB_NOT_CACHED) {
                ++missed;
            } else {
                ASSERT_EQ(cold, DTB_OK) << to_fen(position) << ": " << dtb_status_name(cold);
                EXPECT_TRUE(same(before, blocking))
                    << to_fen(position) << ": " << show(before) << ", blocking " << show(blocking);
            }
            ASSERT_EQ(probe.cached(tb, &pos, &after), DTB_OK) << probe.name << " " << to_fen(position);
            EXPECT_TRUE(same(after, blocking))
                << to_fen(position) << ": " << show(after) << ", blocking " << show(blocking);
        }
        EXPECT_EQ(tb.error(), "") << "a miss must leave no message";
        // The first probe of every table misses; the tables are few, so
        // most positions after are hits: only bounds are certain.
        EXPECT_GT(missed, 0u) << probe.name;
        EXPECT_LT(missed, positions.size()) << probe.name;
    }
}

TEST(ConditionalProbe, RussianColdMissesThenAgreesWithTheBlockingProbe) { cold_then_warm<Russian>(4); }
TEST(ConditionalProbe, InternationalColdMissesThenAgreesWithTheBlockingProbe) { cold_then_warm<International>(3); }

TEST(ConditionalProbe, AColdHandleMissesAQuietPositionAndLeavesNoMessage) {
    Handle tb(small_tables());
    const dtb_position pos = c_position<Russian>("W:WKa1,Kc3:BKh8");
    dtb_value v{};
    EXPECT_EQ(dtb_probe_wdl_cached(tb, &pos, &v), DTB_NOT_CACHED);
    EXPECT_EQ(dtb_probe_dtw_cached(tb, &pos, &v), DTB_NOT_CACHED);
    EXPECT_EQ(tb.error(), "");
    EXPECT_STREQ(dtb_status_name(DTB_NOT_CACHED), "not cached");
    ASSERT_EQ(dtb_probe_dtw(tb, &pos, &v), DTB_OK);
    dtb_value cached{};
    ASSERT_EQ(dtb_probe_dtw_cached(tb, &pos, &cached), DTB_OK);
    EXPECT_TRUE(same(cached, v));
    EXPECT_TRUE(same(cached, {DTB_WIN, 3}));
}

TEST(ConditionalProbe, ArgumentsAndErrorsAreTheBlockingProbes) {
    Handle tb(small_tables());
    dtb_value v{};
    const dtb_position pos = c_position<Russian>("W:WKa1,Kc3:BKh8");
    EXPECT_EQ(dtb_probe_wdl_cached(nullptr, &pos, &v), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_probe_wdl_cached(tb, nullptr, &v), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_probe_dtw_cached(tb, &pos, nullptr), DTB_BAD_ARGUMENT);
    dtb_position bad = pos;
    bad.kings |= std::uint64_t{1} << 20;  // a king on an empty square
    EXPECT_EQ(dtb_probe_wdl_cached(tb, &bad, &v), DTB_BAD_POSITION);
    const dtb_position too_big = c_position<Russian>("W:Wa1,c1,e1:Bb8,d8,f8");
    EXPECT_EQ(dtb_probe_wdl_cached(tb, &too_big, &v), DTB_TOO_MANY_PIECES);
    EXPECT_NE(tb.error().find("6 pieces"), std::string::npos) << tb.error();
}

// After dtb_preload of everything, every conditional probe hits.
template <class V>
void preload_then_all_hit(int pieces) {
    Handle tb(small_tables(), std::size_t{64} << 20);
    dtb_preload_report r{};
    const int variant = dtb_variant_from_name(std::string(V::name).c_str());
    ASSERT_EQ(dtb_preload(tb, variant, pieces, DTB_PRELOAD_WDL | DTB_PRELOAD_DTW, &r), DTB_OK) << tb.error();
    EXPECT_EQ(r.complete, 1);
    EXPECT_STREQ(r.first_incomplete, "");
    EXPECT_EQ(r.tables, 2 * all_signatures(V::id, pieces).size());
    EXPECT_EQ(r.blocks_cached, r.blocks);
    EXPECT_EQ(r.bytes_cached, r.bytes);
    EXPECT_GT(r.bytes, 0u);
    dtb_cache_info info{};
    ASSERT_EQ(dtb_cache_stats(tb, &info), DTB_OK);
    EXPECT_EQ(info.blocks, r.blocks);
    EXPECT_EQ(info.capacity, std::size_t{64} << 20);
    EXPECT_LE(info.bytes, info.capacity);
    EXPECT_EQ(info.evictions, 0u);

    Handle reference(small_tables());
    for (const Position<V>& position : sample<V>(pieces, 3000, 11)) {
        const dtb_position pos = c_position(position);
        for (const Pair& probe : {kWdl, kDtw}) {
            dtb_value cached{}, blocking{};
            ASSERT_EQ(probe.cached(tb, &pos, &cached), DTB_OK) << probe.name << " " << to_fen(position);
            ASSERT_EQ(probe.blocking(reference, &pos, &blocking), DTB_OK) << reference.error();
            EXPECT_TRUE(same(cached, blocking))
                << probe.name << " " << to_fen(position) << ": " << show(cached) << ", blocking " << show(blocking);
        }
    }
    dtb_cache_info after{};
    ASSERT_EQ(dtb_cache_stats(tb, &after), DTB_OK);
    EXPECT_GT(after.hits, info.hits);
    EXPECT_EQ(after.blocks, info.blocks) << "conditional probes load nothing";
}

TEST(Preload, RussianThenEveryConditionalProbeHits) { preload_then_all_hit<Russian>(4); }
TEST(Preload, InternationalThenEveryConditionalProbeHits) { preload_then_all_hit<International>(3); }

TEST(Preload, ACacheTooSmallKeepsWhatFitsAndSaysWhatDidNot) {
    const std::size_t capacity = 64 << 10;
    Handle tb(small_tables(), capacity);
    dtb_preload_report r{};
    ASSERT_EQ(dtb_preload(tb, DTB_RUSSIAN, 4, DTB_PRELOAD_WDL | DTB_PRELOAD_DTW, &r), DTB_OK) << tb.error();
    EXPECT_EQ(r.complete, 0);
    EXPECT_GT(r.blocks_cached, 0u);
    EXPECT_LT(r.blocks_cached, r.blocks);
    EXPECT_LE(r.bytes_cached, capacity);
    EXPECT_NE(std::string(r.first_incomplete), "");
    dtb_cache_info info{};
    ASSERT_EQ(dtb_cache_stats(tb, &info), DTB_OK);
    EXPECT_EQ(info.blocks, r.blocks_cached);
    EXPECT_EQ(info.evictions, 0u) << "preloading never evicts";
    EXPECT_LE(info.bytes, capacity);
    // Whatever the conditional probes answer is the blocking probe's value.
    Handle reference(small_tables());
    std::size_t hits = 0;
    for (const Position<Russian>& position : sample<Russian>(4, 2000, 3)) {
        const dtb_position pos = c_position(position);
        dtb_value cached{}, blocking{};
        const int status = dtb_probe_wdl_cached(tb, &pos, &cached);
        ASSERT_TRUE(status == DTB_OK || status == DTB_NOT_CACHED) << dtb_status_name(status);
        if (status != DTB_OK) continue;
        ++hits;
        ASSERT_EQ(dtb_probe_wdl(reference, &pos, &blocking), DTB_OK);
        EXPECT_EQ(cached.wdl, blocking.wdl) << to_fen(position);
    }
    EXPECT_GT(hits, 0u);
}

TEST(Preload, BadArguments) {
    Handle tb(small_tables());
    dtb_preload_report r{};
    EXPECT_EQ(dtb_preload(nullptr, DTB_RUSSIAN, 4, DTB_PRELOAD_WDL, &r), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_preload(tb, 7, 4, DTB_PRELOAD_WDL, &r), DTB_BAD_ARGUMENT);
    EXPECT_NE(tb.error().find("unknown variant 7"), std::string::npos) << tb.error();
    EXPECT_EQ(dtb_preload(tb, DTB_RUSSIAN, 4, 0, &r), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_preload(tb, DTB_RUSSIAN, 4, 8, &r), DTB_BAD_ARGUMENT);
    // No report, and a piece count with no table: nothing to do.
    EXPECT_EQ(dtb_preload(tb, DTB_RUSSIAN, 1, DTB_PRELOAD_WDL, nullptr), DTB_OK);
    ASSERT_EQ(dtb_preload(tb, DTB_RUSSIAN, 1, DTB_PRELOAD_WDL, &r), DTB_OK);
    EXPECT_EQ(r.tables, 0u);
    EXPECT_EQ(r.complete, 1);
    dtb_cache_info info{};
    EXPECT_EQ(dtb_cache_stats(nullptr, &info), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_cache_stats(tb, nullptr), DTB_BAD_ARGUMENT);
}

// A copy of the small Russian tables with one file damaged.
class DamagedForSearch : public ::testing::Test {
protected:
    ScratchDir dir;
    // Two kings against one: whichever side of the pair stores its
    // positions (format 3 leaves the other out).
    const MaterialSignature side = stored_side(small_tables(), VariantId::Russian, *MaterialSignature::parse("KKvK"));
    const std::string wdl = "russian-" + side.name() + ".wdl";
    RawTable raw = read_raw_table(small_tables() / ("russian-" + side.name() + ".raw"));
    PositionIndex<Russian> index{raw.header.signature};

    void SetUp() override {
        for (const auto& entry : std::filesystem::directory_iterator(small_tables())) {
            const std::string name = entry.path().filename().string();
            if (name.starts_with("russian-") && (name.ends_with(".wdl") || name.ends_with(".dtw")))
                std::filesystem::copy_file(entry.path(), dir / name);
        }
    }

    // Flips one bit at `offset` of `name` (the header is bytes 0..127; the
    // data starts at the little-endian offset stored at byte 64).
    void damage(const std::string& name, bool in_data) {
        const auto path = dir / name;
        std::vector<char> bytes(std::filesystem::file_size(path));
        std::ifstream(path, std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        std::uint64_t data_offset;
        std::memcpy(&data_offset, bytes.data() + 64, 8);
        bytes[in_data ? data_offset + 3 : 20] ^= 0x10;
        std::ofstream(path, std::ios::binary | std::ios::trunc)
            .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }

    // Every position of the side, conditional then blocking then conditional:
    // a conditional answer is always the raw value; a position that needs
    // the damaged table is never answered.
    void probe_all(dtb_tablebase* tb, int damaged_status) {
        std::size_t refused = 0;
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position<Russian> position = index.unrank(i);
            const bool needs_table = stored_in_its_table(position, small_tables());
            const dtb_position pos = c_position(position);
            const dtb_value expected = expected_value(raw.value(i));
            dtb_value v{};
            for (int round = 0; round < 2; ++round) {
                const int status = dtb_probe_wdl_cached(tb, &pos, &v);
                if (status == DTB_OK) {
                    EXPECT_FALSE(needs_table) << "answered from a damaged table at " << i;
                    EXPECT_EQ(v.wdl, expected.wdl) << "position " << i;
                } else {
                    ASSERT_TRUE(status == DTB_NOT_CACHED || status == damaged_status)
                        << i << ": " << dtb_status_name(status);
                    ++refused;
                }
                if (round == 0 && dtb_probe_wdl(tb, &pos, &v) == DTB_OK) {
                    EXPECT_FALSE(needs_table) << "blocking probe answered from a damaged table at " << i;
                    EXPECT_EQ(v.wdl, expected.wdl) << "position " << i;
                }
            }
        }
        EXPECT_GT(refused, 0u);
    }
};

TEST_F(DamagedForSearch, ABlockThatFailsItsChecksIsNeverAnswered) {
    damage(wdl, true);
    Handle tb(dir.path());
    dtb_preload_report r{};
    EXPECT_EQ(dtb_preload(tb, DTB_RUSSIAN, 4, DTB_PRELOAD_WDL, &r), DTB_CORRUPT_TABLE);
    EXPECT_NE(tb.error().find(wdl), std::string::npos) << tb.error();
    EXPECT_EQ(r.complete, 0);
    // The side has one WDL block: it stays out of the cache.
    probe_all(tb, DTB_NOT_CACHED);
}

TEST_F(DamagedForSearch, AFileThatFailsItsChecksAnswersItsError) {
    damage(wdl, false);
    Handle tb(dir.path());
    std::uint64_t quiet = 0;
    while (!stored_in_its_table(index.unrank(quiet), small_tables())) ++quiet;
    const dtb_position pos = c_position(index.unrank(quiet));
    dtb_value v{};
    EXPECT_EQ(dtb_probe_wdl_cached(tb, &pos, &v), DTB_NOT_CACHED) << "not opened yet";
    EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_CORRUPT_TABLE);
    EXPECT_EQ(dtb_probe_wdl_cached(tb, &pos, &v), DTB_CORRUPT_TABLE) << "rejected: known without the disk";
    EXPECT_NE(tb.error().find(wdl), std::string::npos) << tb.error();
    probe_all(tb, DTB_CORRUPT_TABLE);
    dtb_preload_report r{};
    EXPECT_EQ(dtb_preload(tb, DTB_RUSSIAN, 4, DTB_PRELOAD_WDL, &r), DTB_CORRUPT_TABLE);
}

}  // namespace
}  // namespace dtb::probe_test
