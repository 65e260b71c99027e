// Exact tables (the generator's `.raw` files) and the whole-table reader:
// every symbol comes back, the header records what it was given, and any
// damage is reported with the file's name rather than read as values.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "compress/little_endian.hpp"
#include "compress/table_file.hpp"
#include "tests/compress/test_util.hpp"

namespace dtb::compress {
namespace {

using testing::ScratchDir;

TableDescription exact_description() {
    TableDescription d = testing::sample_description(Metric::exact);
    d.variant = 200;  // opaque: any byte goes through
    d.longest_win = 41;
    d.longest_loss = -1;
    return d;
}

// The generator's settings for exact tables: large blocks, a fast level.
WriterOptions fast_options(std::uint32_t per_block) {
    WriterOptions o;
    o.positions_per_block = per_block;
    o.zstd_level = 1;
    return o;
}

template <class Symbol>
std::vector<Symbol> random_symbols(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::vector<Symbol> v(n);
    // Runs, as in real tables, with random values between them.
    for (std::size_t i = 0; i < n; ++i) v[i] = i % 97 < 60 ? static_cast<Symbol>(i / 97) : static_cast<Symbol>(rng());
    return v;
}

TEST(WholeTable, ExactTablesRoundTripInBothWidths) {
    ScratchDir dir;
    const std::size_t n = 3 * 4096 + 5;  // several blocks, a short last one
    const auto narrow = random_symbols<std::uint8_t>(n, 1);
    const auto wide = random_symbols<std::uint16_t>(n, 2);
    write_table(dir / "a.raw", exact_description(), narrow, {}, fast_options(4096));
    write_table(dir / "b.raw", exact_description(), wide, {}, fast_options(4096));
    for (const int threads : {0, 1, 3}) {
        auto a = read_whole_table(dir / "a.raw", threads);
        auto b = read_whole_table(dir / "b.raw", threads);
        ASSERT_TRUE(a.ok()) << a.error().message;
        ASSERT_TRUE(b.ok()) << b.error().message;
        EXPECT_EQ(a->bytes, narrow);
        EXPECT_TRUE(a->words.empty());
        EXPECT_EQ(b->words, wide);
        EXPECT_TRUE(b->bytes.empty());
        const TableDescription& d = b->header.table;
        EXPECT_EQ(d.metric, Metric::exact);
        EXPECT_EQ(d.variant, 200);
        EXPECT_EQ(d.material, exact_description().material);
        EXPECT_EQ(d.longest_win, 41);
        EXPECT_EQ(d.longest_loss, -1);
        EXPECT_EQ(b->header.format_version, kDefaultFormatVersion);
    }
    // The probe's reader reads the same files.
    auto t = TableFile::open(dir / "b.raw", nullptr);
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(*(*t)->read(n - 1), wide[n - 1]);
    EXPECT_FALSE((*t)->verify().has_value());
}

// The largest blocks the format allows, in both widths (2 MiB of 16-bit
// symbols is exactly kMaxBlockBytes), and the fast negative levels.
TEST(WholeTable, LargestBlocksAndFastLevels) {
    ScratchDir dir;
    const std::size_t n = kMaxPositionsPerBlock + 100;
    const auto wide = random_symbols<std::uint16_t>(n, 3);
    WriterOptions options = fast_options(kMaxPositionsPerBlock);
    options.zstd_level = -5;
    const Header h = write_table(dir / "w.raw", exact_description(), wide, {}, options);
    EXPECT_EQ(h.block_count, 2u);
    auto w = read_whole_table(dir / "w.raw");
    ASSERT_TRUE(w.ok()) << w.error().message;
    EXPECT_EQ(w->words, wide);
}

// Two-bit tables unpack to one byte a symbol.
TEST(WholeTable, TwoBitTablesUnpack) {
    ScratchDir dir;
    std::vector<std::uint8_t> values(1000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint8_t>((i * 7) % 3);
    WriterOptions options;
    options.symbol_bits = 2;
    options.positions_per_block = 256;
    write_table(dir / "t.wdl", testing::sample_description(), values, {}, options);
    auto t = read_whole_table(dir / "t.wdl");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->bytes, values);
}

// A flipped bit anywhere after the header: the whole-table reader refuses
// the file and names it, whether the data checksum or (with that one made
// to match again) a block's own checksum catches it.
TEST(WholeTable, DamageInAnExactTableIsDetectedAndNamed) {
    ScratchDir dir;
    const auto values = random_symbols<std::uint8_t>(5000, 4);
    const Header h = write_table(dir / "good.raw", exact_description(), values, {}, fast_options(1024));
    const auto bytes = testing::read_bytes(dir / "good.raw");
    const auto bad = dir / "russian-KKvK.raw";
    for (std::size_t at = h.data_offset; at < bytes.size(); at += 13) {
        auto damaged = bytes;
        damaged[at] ^= 0x10;
        testing::write_bytes(bad, damaged);
        auto t = read_whole_table(bad);
        ASSERT_FALSE(t.ok()) << "byte " << at;
        EXPECT_EQ(t.error().code, ErrorCode::corrupt_data);
        EXPECT_NE(t.error().message.find(bad.string()), std::string::npos) << t.error().message;
        EXPECT_NE(t.error().message.find("checksum"), std::string::npos) << t.error().message;

        // The data checksum made to match: the block's checksum still catches it.
        Header resealed = h;
        resealed.data_checksum = section_checksum({damaged.data() + h.data_offset, h.data_size});
        const auto header = encode_header(resealed);
        std::copy(header.begin(), header.end(), damaged.begin());
        testing::write_bytes(bad, damaged);
        auto u = read_whole_table(bad);
        ASSERT_FALSE(u.ok()) << "byte " << at;
        EXPECT_EQ(u.error().code, ErrorCode::corrupt_block);
        EXPECT_NE(u.error().message.find(bad.string()), std::string::npos) << u.error().message;
    }
    // Truncated: the header check stops it.
    auto cut = bytes;
    cut.resize(bytes.size() - 1);
    testing::write_bytes(bad, cut);
    auto t = read_whole_table(bad);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error().code, ErrorCode::corrupt_header);
}

TEST(LittleEndian, PutAndGet) {
    std::uint8_t b[8] = {};
    put_u32(b, 0x01020304u);
    EXPECT_EQ(b[0], 4);
    EXPECT_EQ(b[3], 1);
    EXPECT_EQ(get_u32(b), 0x01020304u);
    put_u64(b, 0x1122334455667788ull);
    EXPECT_EQ(b[0], 0x88);
    EXPECT_EQ(get_u64(b), 0x1122334455667788ull);
    put_u16(b, 0xBEEF);
    EXPECT_EQ(get_u16(b), 0xBEEF);
}

TEST(AtomicFile, WritesWholeFilesAndLeavesNoTemporary) {
    ScratchDir dir;
    write_file_atomically(dir / "m.json", std::string_view("{}\n"));
    write_file_atomically(dir / "m.json", std::string_view("{\"a\": 1}\n"));
    EXPECT_FALSE(std::filesystem::exists(dir / "m.json.tmp"));
    const auto text = testing::read_bytes(dir / "m.json");
    EXPECT_EQ(std::string(text.begin(), text.end()), "{\"a\": 1}\n");
    EXPECT_THROW(write_file_atomically(dir / "no" / "m.json", std::string_view("x")), WriteError);
    {
        AtomicFile f(dir / "never.bin");  // not committed: nothing is left
        const std::uint8_t byte = 1;
        f.write_at(0, {&byte, 1});
    }
    EXPECT_FALSE(std::filesystem::exists(dir / "never.bin"));
    EXPECT_FALSE(std::filesystem::exists(dir / "never.bin.tmp"));
}

}  // namespace
}  // namespace dtb::compress
