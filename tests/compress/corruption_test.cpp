// Damaged files: every damage is reported as an error that names the file,
// and no read ever returns a wrong value. These run under ASan and UBSan in
// the test script, so "never a crash" is checked as well.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "compress/table_file.hpp"
#include "tests/compress/synthetic.hpp"
#include "tests/compress/test_util.hpp"

namespace dtb::compress {
namespace {

using testing::ScratchDir;

// A small DTW table with many small blocks: 2-byte symbols, don't-cares,
// a short last block.
struct Fixture {
    ScratchDir dir;
    std::filesystem::path good = dir / "good.dtb";
    std::filesystem::path bad = dir / "bad.dtb";
    synthetic::Table table = synthetic::make(64 * 40 + 17, true);
    std::vector<std::uint8_t> bytes;
    Header header;

    Fixture() {
        WriterOptions options;
        options.positions_per_block = 64;
        header = write_table(good, testing::sample_description(Metric::dtw), std::span(table.values),
                             DontCare::bytes(table.dont_care), options);
        bytes = testing::read_bytes(good);
    }

    // Writes `damaged` as bad.dtb and expects open() to fail, naming the file.
    Error expect_open_fails(const std::vector<std::uint8_t>& damaged) {
        testing::write_bytes(bad, damaged);
        auto t = TableFile::open(bad, nullptr);
        if (t.ok()) {
            ADD_FAILURE() << "opened a damaged file";
            return Error{ErrorCode::io, ""};
        }
        EXPECT_NE(t.error().message.find(bad.string()), std::string::npos) << t.error().message;
        return t.error();
    }
};

std::uint64_t get64(const std::vector<std::uint8_t>& b, std::size_t offset) {
    std::uint64_t v;
    std::memcpy(&v, b.data() + offset, 8);
    return v;
}

void put64(std::vector<std::uint8_t>& b, std::size_t offset, std::uint64_t v) { std::memcpy(b.data() + offset, &v, 8); }

// After editing header bytes on purpose: a valid header checksum again, so
// that the test reaches the field checks behind it.
void reseal_header(std::vector<std::uint8_t>& b) { put64(b, 120, section_checksum({b.data(), 120})); }

TEST(Corruption, TruncatedAtEveryLength) {
    Fixture f;
    for (std::size_t length = 0; length < f.bytes.size(); ++length) {
        const std::vector<std::uint8_t> cut(f.bytes.begin(), f.bytes.begin() + static_cast<std::ptrdiff_t>(length));
        const Error e = f.expect_open_fails(cut);
        EXPECT_EQ(e.code, ErrorCode::corrupt_header) << "length " << length << ": " << e.message;
    }
    // Extended by a byte is as wrong as truncated.
    auto longer = f.bytes;
    longer.push_back(0);
    EXPECT_EQ(f.expect_open_fails(longer).code, ErrorCode::corrupt_header);
}

TEST(Corruption, EveryBitOfTheHeader) {
    Fixture f;
    for (std::size_t bit = 0; bit < kHeaderSize * 8; ++bit) {
        auto damaged = f.bytes;
        damaged[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        const Error e = f.expect_open_fails(damaged);
        // The magic, the version field (unless the flip makes another
        // version this build reads), or else the checksum catches it.
        const std::uint32_t version = f.header.format_version ^ (bit >= 64 && bit < 96 ? 1u << (bit - 64) : 0u);
        const bool readable = version >= kOldestFormatVersion && version <= kFormatVersion;
        const ErrorCode expected = bit < 64                ? ErrorCode::bad_magic
                                   : bit < 96 && !readable ? ErrorCode::unsupported_version
                                                           : ErrorCode::corrupt_header;
        EXPECT_EQ(e.code, expected) << "bit " << bit << ": " << e.message;
    }
}

TEST(Corruption, EveryBitOfTheBlockIndex) {
    Fixture f;
    const std::size_t begin = f.header.index_offset * 8, end = (f.header.index_offset + f.header.index_size) * 8;
    for (std::size_t bit = begin; bit < end; ++bit) {
        auto damaged = f.bytes;
        damaged[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        EXPECT_EQ(f.expect_open_fails(damaged).code, ErrorCode::corrupt_index) << "bit " << bit;
    }
}

// Bit flips in the blocks: the file opens (header and index are intact), a
// read in a damaged block fails, a read elsewhere gives the right value, and
// verify() finds the damage.
TEST(Corruption, BitsInTheBlocks) {
    Fixture f;
    const std::size_t begin = f.header.data_offset * 8, end = f.header.file_size * 8;
    int checked = 0;
    for (std::size_t bit = begin; bit < end; bit += 7) {  // 7: coprime to 8, so every bit position in a byte
        auto damaged = f.bytes;
        damaged[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        testing::write_bytes(f.bad, damaged);
        auto t = TableFile::open(f.bad, std::make_shared<BlockCache>(1 << 16));
        ASSERT_TRUE(t.ok()) << t.error().message;
        const auto verdict = (*t)->verify();
        ASSERT_TRUE(verdict.has_value()) << "bit " << bit;
        EXPECT_NE(verdict->message.find(f.bad.string()), std::string::npos);

        // The block that holds the damaged byte.
        const std::uint64_t offset = bit / 8 - f.header.data_offset;
        std::uint64_t damaged_block = 0;
        while (get64(f.bytes, f.header.index_offset + 8 * (damaged_block + 1)) <= offset) ++damaged_block;
        for (std::uint64_t i = 0; i < f.table.values.size(); ++i) {
            const auto v = (*t)->read(i);
            if (i / 64 == damaged_block) {
                ASSERT_FALSE(v.ok()) << "bit " << bit << " position " << i;
                EXPECT_EQ(v.error().code, ErrorCode::corrupt_block);
                EXPECT_NE(v.error().message.find(f.bad.string()), std::string::npos);
            } else {
                ASSERT_TRUE(v.ok()) << v.error().message;
                if (!f.table.dont_care[i]) {
                    ASSERT_EQ(*v, f.table.values[i]) << "position " << i;
                }
            }
        }
        ++checked;
    }
    EXPECT_GT(checked, 100);
}

TEST(Corruption, WrongMagic) {
    Fixture f;
    auto damaged = f.bytes;
    std::memcpy(damaged.data(), "PK\x03\x04zip!", 8);
    EXPECT_EQ(f.expect_open_fails(damaged).code, ErrorCode::bad_magic);
    EXPECT_EQ(f.expect_open_fails(std::vector<std::uint8_t>(500, 0)).code, ErrorCode::bad_magic);
}

TEST(Corruption, UnknownVersion) {
    Fixture f;
    Header h = f.header;
    for (const std::uint32_t version : {0u, kFormatVersion + 1}) {
        h.format_version = version;
        auto damaged = f.bytes;
        const auto encoded = encode_header(h);  // a valid checksum: the version alone must stop the reader
        std::copy(encoded.begin(), encoded.end(), damaged.begin());
        const Error e = f.expect_open_fails(damaged);
        EXPECT_EQ(e.code, ErrorCode::unsupported_version);
        EXPECT_NE(e.message.find("version " + std::to_string(version)), std::string::npos) << e.message;
    }
}

// Fields that are wrong although the header checksum matches (a buggy or
// newer writer): each is rejected by its own check.
TEST(Corruption, FieldsOutOfRangeWithAValidChecksum) {
    Fixture f;
    const auto with = [&](auto edit) {
        Header h = f.header;
        edit(h);
        auto damaged = f.bytes;
        const auto encoded = encode_header(h);
        std::copy(encoded.begin(), encoded.end(), damaged.begin());
        return f.expect_open_fails(damaged);
    };
    const auto expect_header_error = [](const Error& e, const char* what) {
        EXPECT_EQ(e.code, ErrorCode::corrupt_header) << e.message;
        EXPECT_NE(e.message.find(what), std::string::npos) << e.message;
    };
    // Bits 0 (captures not stored) and 1 (threats not stored, version 3
    // only) are known; every other bit is refused.
    expect_header_error(with([](Header& h) {
                            h.format_version = 2;
                            h.flags = kFlagThreatsNotStored;
                        }),
                        "reserved flag");
    expect_header_error(with([](Header& h) { h.flags = kFlagCapturesNotStored | 4; }), "reserved flag");
    expect_header_error(with([](Header& h) { h.flags = 0x80000000u; }), "reserved flag");
    expect_header_error(with([](Header& h) { h.symbol_bits = 3; }), "symbol size");
    expect_header_error(with([](Header& h) { h.table.metric = static_cast<Metric>(4); }), "metric");
    // The variant and the material are opaque here: the table layer checks
    // them against the file's name (probe/tablebase.cpp, header_mismatch).
    expect_header_error(with([](Header& h) { h.table.longest_win = -2; }), "longest win or loss");
    expect_header_error(with([](Header& h) { h.table.longest_loss = -7; }), "longest win or loss");
    expect_header_error(with([](Header& h) { h.positions_per_block = 96; }), "positions per block");
    expect_header_error(with([](Header& h) { h.positions_per_block = 32; }), "positions per block");
    expect_header_error(with([](Header& h) { h.position_count += 64; }), "block count");
    expect_header_error(with([](Header& h) { h.block_count += 1; }), "block count");
    expect_header_error(with([](Header& h) { h.index_offset += 8; }), "index offset");
    expect_header_error(with([](Header& h) { h.index_size += 8; }), "index size");
    expect_header_error(with([](Header& h) { h.data_offset += 8; }), "data offset");
    expect_header_error(with([](Header& h) { h.data_size += 1; }), "file size");
    expect_header_error(with([](Header& h) { h.data_size = ~std::uint64_t{0} - 100; }), "file size");
    expect_header_error(with([](Header& h) { h.file_size += 1; }), "file size");
    expect_header_error(with([](Header& h) { h.max_symbol = 70000; }), "max symbol");

    // Reserved bytes are not in Header: set them directly, then reseal.
    for (const std::size_t offset : {std::size_t{19}, std::size_t{116}, std::size_t{119}}) {
        auto damaged = f.bytes;
        damaged[offset] = 1;
        reseal_header(damaged);
        expect_header_error(f.expect_open_fails(damaged), "reserved bytes");
    }
}

// Both flags open in version 3, bit 0 alone in version 2.
TEST(Corruption, FlagsOfEachVersion) {
    Fixture f;
    const auto opens = [&](std::uint32_t version, std::uint32_t flags) {
        Header h = f.header;
        h.format_version = version;
        h.flags = flags;
        auto edited = f.bytes;
        const auto encoded = encode_header(h);
        std::copy(encoded.begin(), encoded.end(), edited.begin());
        testing::write_bytes(f.bad, edited);
        auto t = TableFile::open(f.bad, nullptr);
        return t.ok() && (*t)->header().flags == flags && (*t)->header().format_version == version;
    };
    EXPECT_TRUE(opens(3, kFlagCapturesNotStored | kFlagThreatsNotStored));
    EXPECT_TRUE(opens(3, kFlagThreatsNotStored));
    EXPECT_TRUE(opens(2, kFlagCapturesNotStored));
    EXPECT_TRUE(opens(2, 0));
    EXPECT_FALSE(opens(2, kFlagThreatsNotStored));
    EXPECT_FALSE(opens(1, kFlagThreatsNotStored));
}

// The writer writes version 2 on request, and refuses a flag that version
// does not have.
TEST(Corruption, WriterWritesVersionTwoOnRequest) {
    Fixture f;
    WriterOptions options;
    options.positions_per_block = 64;
    options.format_version = 2;
    TableDescription d = testing::sample_description(Metric::wdl);
    const Header h = write_table(f.bad, d, std::span(f.table.values), DontCare::bytes(f.table.dont_care), options);
    auto t = TableFile::open(f.bad, nullptr);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ((*t)->header().format_version, 2u);
    EXPECT_EQ(h.format_version, 2u);
    d.flags = kFlagThreatsNotStored;
    EXPECT_THROW(write_table(f.bad, d, std::span(f.table.values), DontCare::bytes(f.table.dont_care), options),
                 std::invalid_argument);
    options.format_version = 1;
    d.flags = 0;
    EXPECT_THROW(write_table(f.bad, d, std::span(f.table.values), DontCare::bytes(f.table.dont_care), options),
                 std::invalid_argument);
}

// Version 1 files (before the longest win and loss) still open, with those
// fields not recorded; their bytes 108 to 119 are reserved and must be zero.
TEST(Corruption, VersionOneHeaders) {
    Fixture f;
    Header h = f.header;
    h.format_version = 1;
    auto old = f.bytes;
    const auto encoded = encode_header(h);
    std::copy(encoded.begin(), encoded.end(), old.begin());
    EXPECT_EQ(get64(old, 108), 0u) << "a version 1 header keeps the longest win and loss out";
    testing::write_bytes(f.bad, old);
    auto t = TableFile::open(f.bad, nullptr);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ((*t)->header().format_version, 1u);
    EXPECT_EQ((*t)->header().table.longest_win, kNotRecorded);
    EXPECT_EQ((*t)->header().table.longest_loss, kNotRecorded);
    EXPECT_FALSE((*t)->verify().has_value());
    for (const std::size_t offset : {std::size_t{108}, std::size_t{112}}) {
        auto damaged = old;
        damaged[offset] = 1;
        reseal_header(damaged);
        const Error e = f.expect_open_fails(damaged);
        EXPECT_EQ(e.code, ErrorCode::corrupt_header) << e.message;
        EXPECT_NE(e.message.find("reserved bytes"), std::string::npos) << e.message;
    }
}

// Offsets that do not add up although the index checksum matches.
TEST(Corruption, OffsetsThatDoNotAddUpWithValidChecksums) {
    Fixture f;
    const std::size_t index = f.header.index_offset;
    const auto with = [&](auto edit) {
        auto damaged = f.bytes;
        edit(damaged);
        Header h = f.header;
        h.index_checksum = section_checksum({damaged.data() + index, f.header.index_size});
        const auto encoded = encode_header(h);
        std::copy(encoded.begin(), encoded.end(), damaged.begin());
        const Error e = f.expect_open_fails(damaged);
        EXPECT_EQ(e.code, ErrorCode::corrupt_index) << e.message;
        return e;
    };
    const std::size_t last = index + 8 * f.header.block_count;
    with([&](auto& b) { put64(b, index, 1); });                              // first block not at 0
    with([&](auto& b) { put64(b, last, get64(b, last) - 1); });              // end short of data_size
    with([&](auto& b) { put64(b, index + 16, get64(b, index + 8)); });       // an empty block
    with([&](auto& b) { put64(b, index + 16, get64(b, index + 24) + 1); });  // going backwards
    with([&](auto& b) { put64(b, index + 8, ~std::uint64_t{0}); });          // far outside the file
    with([&](auto& b) { b[index + f.header.index_size - 1] = 1; });          // padding not zero
}

TEST(Corruption, MissingFileAndDirectory) {
    ScratchDir dir;
    auto t = TableFile::open(dir / "nothing.dtb", nullptr);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error().code, ErrorCode::io);
    EXPECT_NE(t.error().message.find("nothing.dtb"), std::string::npos);
    auto d = TableFile::open(dir.path(), nullptr);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().code, ErrorCode::io);
}

}  // namespace
}  // namespace dtb::compress
