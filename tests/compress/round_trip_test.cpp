// Writing a table and reading it back gives back every cared-for value.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "compress/table_file.hpp"
#include "tests/compress/synthetic.hpp"
#include "tests/compress/test_util.hpp"

namespace dtb::compress {
namespace {

using testing::ScratchDir;

std::unique_ptr<TableFile> open_or_fail(const std::filesystem::path& path, std::shared_ptr<BlockCache> cache) {
    auto t = TableFile::open(path, std::move(cache));
    if (!t) ADD_FAILURE() << t.error().message;
    return t ? std::move(*t) : nullptr;
}

// Reads every position and compares the cared-for ones.
template <class Symbol>
void expect_same(const TableFile& t, const std::vector<Symbol>& values, const std::vector<std::uint8_t>* dont_care) {
    ASSERT_EQ(t.position_count(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const auto v = t.read(i);
        ASSERT_TRUE(v.ok()) << v.error().message;
        if (dont_care == nullptr || !(*dont_care)[i]) {
            ASSERT_EQ(*v, values[i]) << "position " << i;
        }
    }
    EXPECT_EQ(t.read(values.size()).error().code, ErrorCode::out_of_range);
}

struct SizeCase {
    std::size_t positions;
    std::uint32_t per_block;
};

class RoundTripSizes : public ::testing::TestWithParam<SizeCase> {};

// Random symbols: incompressible blocks, every byte value, every size edge.
TEST_P(RoundTripSizes, RandomOneAndTwoByteSymbols) {
    const auto [n, per_block] = GetParam();
    ScratchDir dir;
    std::mt19937_64 rng(n * 31 + per_block);
    std::vector<std::uint8_t> narrow(n);
    std::vector<std::uint16_t> wide(n);
    for (auto& v : narrow) v = static_cast<std::uint8_t>(rng());
    for (auto& v : wide) v = static_cast<std::uint16_t>(rng());
    WriterOptions options;
    options.positions_per_block = per_block;
    options.zstd_level = 3;  // speed: the level does not change what is read back

    const Header h1 = write_table(dir / "a.dtb", testing::sample_description(), narrow, {}, options);
    TableDescription flagged = testing::sample_description(Metric::dtw);
    flagged.flags = kFlagCapturesNotStored;
    const Header h2 = write_table(dir / "b.dtb", flagged, wide, {}, options);
    EXPECT_EQ(h1.block_count, block_count_for(n, per_block));
    EXPECT_EQ(h2.symbol_bits, 16);
    EXPECT_FALSE(std::filesystem::exists(dir / "a.dtb.tmp"));

    auto cache = std::make_shared<BlockCache>(1 << 20);
    auto a = open_or_fail(dir / "a.dtb", cache);
    auto b = open_or_fail(dir / "b.dtb", cache);
    ASSERT_TRUE(a && b);
    expect_same(*a, narrow, nullptr);
    expect_same(*b, wide, nullptr);
    EXPECT_FALSE(a->verify().has_value());
    EXPECT_FALSE(b->verify().has_value());
    // The header read back is the header written.
    EXPECT_EQ(a->header().file_size, std::filesystem::file_size(dir / "a.dtb"));
    EXPECT_EQ(b->header().table.material, testing::sample_description().material);
    EXPECT_EQ(b->header().table.metric, Metric::dtw);
    EXPECT_EQ(b->header().table.variant, 1);
    EXPECT_EQ(b->header().table.index_scheme, 7u);
    EXPECT_EQ(b->header().data_checksum, h2.data_checksum);
    EXPECT_EQ(a->header().flags, 0u);
    EXPECT_EQ(b->header().flags, kFlagCapturesNotStored);
    EXPECT_EQ(b->header().table.flags, kFlagCapturesNotStored);
}

// WDL tables store 2-bit symbols, four to a byte: every size edge again,
// including blocks whose last byte is partly used.
TEST_P(RoundTripSizes, RandomTwoBitSymbols) {
    const auto [n, per_block] = GetParam();
    ScratchDir dir;
    std::mt19937_64 rng(n * 17 + per_block);
    std::vector<std::uint8_t> values(n);
    std::vector<std::uint8_t> dont_care(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<std::uint8_t>(rng() % 3);
        dont_care[i] = rng() % 4 == 0;
    }
    WriterOptions options;
    options.positions_per_block = per_block;
    options.zstd_level = 3;
    options.symbol_bits = 2;
    const Header h =
        write_table(dir / "w.dtb", testing::sample_description(), values, DontCare::bytes(dont_care), options);
    EXPECT_EQ(h.symbol_bits, 2);
    auto t = open_or_fail(dir / "w.dtb", std::make_shared<BlockCache>(1 << 20));
    ASSERT_TRUE(t);
    expect_same(*t, values, &dont_care);
    EXPECT_FALSE(t->verify().has_value());
    auto uncached = open_or_fail(dir / "w.dtb", nullptr);
    ASSERT_TRUE(uncached);
    expect_same(*uncached, values, &dont_care);
}

TEST(RoundTrip, TwoBitSymbolsMustFit) {
    ScratchDir dir;
    const std::vector<std::uint8_t> values{0, 1, 2, 3, 4};
    WriterOptions options;
    options.symbol_bits = 2;
    EXPECT_THROW(write_table(dir / "w.dtb", testing::sample_description(), values, {}, options), std::invalid_argument);
    EXPECT_FALSE(std::filesystem::exists(dir / "w.dtb"));
    const std::vector<std::uint16_t> wide{1, 2};
    EXPECT_THROW(write_table(dir / "x.dtb", testing::sample_description(), wide, {}, options), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Sizes, RoundTripSizes,
                         ::testing::Values(SizeCase{0, 64}, SizeCase{1, 64}, SizeCase{63, 64}, SizeCase{64, 64},
                                           SizeCase{65, 64}, SizeCase{64 * 3 - 1, 64}, SizeCase{10'000, 256},
                                           SizeCase{10'000, 4096}, SizeCase{100'003, 1024}),
                         [](const auto& info) {
                             return std::to_string(info.param.positions) + "_positions_" +
                                    std::to_string(info.param.per_block) + "_per_block";
                         });

// Structured data as a generator would produce it, with don't-care
// positions holding garbage: every cared-for value comes back, and the
// table is much smaller than one byte per position.
TEST(RoundTrip, SyntheticTablesWithDontCare) {
    ScratchDir dir;
    const std::size_t n = 200'000;
    for (const bool dtw : {false, true}) {
        const auto t = synthetic::make(n, dtw);
        const auto path = dir / (dtw ? "dtw.dtb" : "wdl.dtb");
        Header h;
        if (dtw) {
            h = write_table(path, testing::sample_description(Metric::dtw), std::span(t.values),
                            DontCare::bytes(t.dont_care));
        } else {
            const std::vector<std::uint8_t> narrow(t.values.begin(), t.values.end());
            h = write_table(path, testing::sample_description(), std::span(narrow), DontCare::bytes(t.dont_care));
        }
        EXPECT_LT(h.file_size * 8.0 / n, 1.5) << "bits per position, dtw=" << dtw;
        std::uint32_t max_cared = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (!t.dont_care[i]) max_cared = std::max<std::uint32_t>(max_cared, t.values[i]);
        EXPECT_EQ(h.max_symbol, max_cared);
        auto table = open_or_fail(path, std::make_shared<BlockCache>(1 << 20));
        ASSERT_TRUE(table);
        expect_same(*table, t.values, &t.dont_care);
        EXPECT_FALSE(table->verify().has_value());
    }
}

// Strided fills are chosen per block; cared-for values still come back, and
// on the synthetic index (period 32) the file shrinks.
TEST(RoundTrip, FillStrides) {
    ScratchDir dir;
    const auto t = synthetic::make(100'000, false);
    const std::vector<std::uint8_t> values(t.values.begin(), t.values.end());
    WriterOptions options;
    const Header plain =
        write_table(dir / "plain.dtb", testing::sample_description(), values, DontCare::bytes(t.dont_care), options);
    options.fill_strides = {32, 1024};
    const Header strided =
        write_table(dir / "strided.dtb", testing::sample_description(), values, DontCare::bytes(t.dont_care), options);
    EXPECT_LT(strided.file_size, plain.file_size);
    EXPECT_EQ(strided.max_symbol, plain.max_symbol);
    auto table = open_or_fail(dir / "strided.dtb", nullptr);
    ASSERT_TRUE(table);
    expect_same(*table, values, &t.dont_care);
    EXPECT_FALSE(table->verify().has_value());

    options.fill_strides = {4096};  // not shorter than a block
    EXPECT_THROW(write_table(dir / "bad.dtb", testing::sample_description(), values, {}, options),
                 std::invalid_argument);
}

// Whatever the don't-care positions hold, the file is the same: the fill
// depends on cared-for values only.
TEST(RoundTrip, DontCareValuesDoNotMatter) {
    ScratchDir dir;
    const auto t = synthetic::make(50'000, false);
    std::vector<std::uint8_t> a(t.values.begin(), t.values.end()), b = a;
    std::mt19937 rng(5);
    for (std::size_t i = 0; i < b.size(); ++i)
        if (t.dont_care[i]) b[i] = static_cast<std::uint8_t>(rng());
    WriterOptions options;
    options.positions_per_block = 1024;
    write_table(dir / "a.dtb", testing::sample_description(), a, DontCare::bytes(t.dont_care), options);
    write_table(dir / "b.dtb", testing::sample_description(), b, DontCare::bytes(t.dont_care), options);
    EXPECT_EQ(testing::read_bytes(dir / "a.dtb"), testing::read_bytes(dir / "b.dtb"));
}

// The three ways to say "don't care" give the same file.
TEST(RoundTrip, BitmapBytesAndPredicateAgree) {
    ScratchDir dir;
    const auto t = synthetic::make(20'000, true);
    std::vector<std::uint64_t> bits((t.dont_care.size() + 63) / 64);
    for (std::size_t i = 0; i < t.dont_care.size(); ++i)
        if (t.dont_care[i]) bits[i / 64] |= std::uint64_t{1} << (i % 64);
    const auto d = testing::sample_description(Metric::dtw);
    write_table(dir / "bytes.dtb", d, std::span(t.values), DontCare::bytes(t.dont_care));
    write_table(dir / "bits.dtb", d, std::span(t.values), DontCare::bitmap(bits));
    write_table(dir / "pred.dtb", d, std::span(t.values),
                DontCare::predicate([&](std::uint64_t i) { return t.dont_care[i] != 0; }));
    const auto bytes = testing::read_bytes(dir / "bytes.dtb");
    EXPECT_EQ(bytes, testing::read_bytes(dir / "bits.dtb"));
    EXPECT_EQ(bytes, testing::read_bytes(dir / "pred.dtb"));
}

// A block of don't-cares only, and a table of them only, read back as 0
// and do not raise max_symbol.
TEST(RoundTrip, AllDontCare) {
    ScratchDir dir;
    std::vector<std::uint16_t> values(300, 999);
    std::vector<std::uint8_t> dont_care(300, 1);
    for (std::size_t i = 200; i < 300; ++i) dont_care[i] = 0, values[i] = static_cast<std::uint16_t>(i);
    WriterOptions options;
    options.positions_per_block = 64;
    const Header h = write_table(dir / "t.dtb", testing::sample_description(Metric::dtw), std::span(values),
                                 DontCare::bytes(dont_care), options);
    EXPECT_EQ(h.max_symbol, 299u);
    auto t = open_or_fail(dir / "t.dtb", nullptr);
    ASSERT_TRUE(t);
    EXPECT_EQ(*t->read(0), 0);      // block 0: nothing cared for
    EXPECT_EQ(*t->read(192), 200);  // block 3 starts with don't-cares: the first cared value
    EXPECT_EQ(*t->read(299), 299);
    EXPECT_FALSE(t->verify().has_value());
}

// Without the fill the don't-care garbage is stored as is (the baseline
// the fill is measured against), and max_symbol covers it.
TEST(RoundTrip, FillOffStoresEverything) {
    ScratchDir dir;
    const auto t = synthetic::make(10'000, true);
    WriterOptions options;
    options.fill_dont_care = false;
    write_table(dir / "t.dtb", testing::sample_description(Metric::dtw), std::span(t.values),
                DontCare::bytes(t.dont_care), options);
    auto table = open_or_fail(dir / "t.dtb", nullptr);
    ASSERT_TRUE(table);
    expect_same(*table, t.values, nullptr);
    EXPECT_FALSE(table->verify().has_value());
}

// Blocks are compressed independently, so the file does not depend on the
// number of threads (several batches of blocks here).
TEST(RoundTrip, SameBytesForAnyThreadCount) {
    ScratchDir dir;
    const auto t = synthetic::make(64 * 1500, true);
    WriterOptions options;
    options.positions_per_block = 64;
    options.zstd_level = 3;
    options.fill_strides = {32};
    options.threads = 1;
    write_table(dir / "1.dtb", testing::sample_description(Metric::dtw), std::span(t.values),
                DontCare::bytes(t.dont_care), options);
    options.threads = 3;
    write_table(dir / "3.dtb", testing::sample_description(Metric::dtw), std::span(t.values),
                DontCare::bytes(t.dont_care), options);
    EXPECT_EQ(testing::read_bytes(dir / "1.dtb"), testing::read_bytes(dir / "3.dtb"));
}

TEST(Writer, ReplacesAnExistingFileAndLeavesNoTemporary) {
    ScratchDir dir;
    const std::vector<std::uint8_t> first(100, 1), second(200, 2);
    write_table(dir / "t.dtb", testing::sample_description(), first);
    write_table(dir / "t.dtb", testing::sample_description(), second);
    EXPECT_FALSE(std::filesystem::exists(dir / "t.dtb.tmp"));
    auto t = open_or_fail(dir / "t.dtb", nullptr);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->position_count(), 200u);
    EXPECT_EQ(*t->read(150), 2);
}

TEST(Writer, ReportsTheFileItCannotWrite) {
    ScratchDir dir;
    const std::vector<std::uint8_t> values(10, 1);
    const auto path = dir / "missing" / "t.dtb";
    try {
        write_table(path, testing::sample_description(), values);
        FAIL() << "no error";
    } catch (const WriteError& e) {
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    }
}

TEST(Writer, RejectsBadOptions) {
    ScratchDir dir;
    const std::vector<std::uint8_t> values(10, 1);
    WriterOptions options;
    options.positions_per_block = 1000;  // not a power of two
    EXPECT_THROW(write_table(dir / "t.dtb", testing::sample_description(), values, {}, options), std::invalid_argument);
    options.positions_per_block = 32;  // too small
    EXPECT_THROW(write_table(dir / "t.dtb", testing::sample_description(), values, {}, options), std::invalid_argument);
    options = {};
    options.zstd_level = 0;
    EXPECT_THROW(write_table(dir / "t.dtb", testing::sample_description(), values, {}, options), std::invalid_argument);
    options = {};
    const std::vector<std::uint8_t> short_flags(9, 0);
    const std::vector<std::uint64_t> no_bits;
    EXPECT_THROW(write_table(dir / "t.dtb", testing::sample_description(), values, DontCare::bytes(short_flags)),
                 std::invalid_argument);
    EXPECT_THROW(write_table(dir / "t.dtb", testing::sample_description(), values, DontCare::bitmap(no_bits)),
                 std::invalid_argument);
    EXPECT_FALSE(std::filesystem::exists(dir / "t.dtb"));
}

}  // namespace
}  // namespace dtb::compress
