// Damaged table files through the C API: truncated files, flipped bits in
// the header, the block index and the blocks, a wrong magic or version, a
// file under another table's name. Every probe must give either the right
// value (checked against the generator's raw table) or an error naming the
// damaged file: never a crash (these run under ASan and UBSan), never a
// wrong value.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "compress/format.hpp"
#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {
namespace {

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::uint64_t get64(const std::vector<std::uint8_t>& b, std::size_t offset) {
    std::uint64_t v;
    std::memcpy(&v, b.data() + offset, 8);
    return v;
}

// What a run of probes over a damaged table saw.
struct Tally {
    std::uint64_t right = 0;            // the raw table's value
    std::uint64_t quiet_right = 0;      // ... at a position that needs the table (no capture to search)
    std::uint64_t quiet_dtw_right = 0;  // ... of those, DTW probes
    std::uint64_t errors = 0;           // an error naming the damaged file
};

// A copy of the small set's Russian tables, in which one file is damaged
// at a time: a file of two kings against one, whichever side of the pair
// stores its positions (the other stores none). Each side has 14880
// positions: one WDL block (32768 positions a block) and two DTW blocks
// (8192).
class Damaged : public ::testing::Test {
protected:
    const MaterialSignature side = stored_side(small_tables(), VariantId::Russian, *MaterialSignature::parse("KKvK"));
    const std::string base = "russian-" + side.name();
    const std::string target = base + ".wdl";
    ScratchDir dir;
    RawTable raw = read_raw_table(small_tables() / (base + ".raw"));
    PositionIndex<Russian> index{raw.header.signature};

    void SetUp() override {
        for (const auto& entry : std::filesystem::directory_iterator(small_tables())) {
            const std::string name = entry.path().filename().string();
            if (name.starts_with("russian-") && (name.ends_with(".wdl") || name.ends_with(".dtw")))
                std::filesystem::copy_file(entry.path(), dir / name);
        }
    }

    std::vector<std::uint8_t> pristine(const std::string& name) const { return read_bytes(small_tables() / name); }

    // Probes the side's positions (every one, or every `step`th) with a fresh
    // handle, WDL and DTW. Anything but a right value or an error naming
    // `damaged` fails the test.
    Tally probe_all(const std::string& damaged, std::uint64_t step = 1) {
        Handle tb(dir.path());
        Tally t;
        const std::string path = (dir / damaged).string();
        for (std::uint64_t i = 0; i < index.size(); i += step) {
            const Position<Russian> position = index.unrank(i);
            const bool quiet = stored_in_its_table(position, small_tables());
            const dtb_position pos = c_position(position);
            const dtb_value expected = expected_value(raw.value(i));
            dtb_value v{};
            for (const bool dtw : {false, true}) {
                const int status = dtw ? dtb_probe_dtw(tb, &pos, &v) : dtb_probe_wdl(tb, &pos, &v);
                if (status == DTB_OK) {
                    const bool right = dtw ? same(v, expected) : v.wdl == expected.wdl;
                    if (!right) {
                        ADD_FAILURE() << "wrong value at position " << i << ": " << show(v) << ", raw "
                                      << show(expected);
                        return t;
                    }
                    ++t.right;
                    t.quiet_right += quiet ? 1 : 0;
                    t.quiet_dtw_right += quiet && dtw ? 1 : 0;
                } else {
                    const std::string message = tb.error();
                    if ((status != DTB_CORRUPT_TABLE && status != DTB_IO_ERROR) ||
                        message.find(path) == std::string::npos) {
                        ADD_FAILURE() << "position " << i << ": status " << dtb_status_name(status) << ": " << message;
                        return t;
                    }
                    ++t.errors;
                }
            }
        }
        return t;
    }

    void write_damaged(const std::string& name, const std::vector<std::uint8_t>& bytes) {
        write_bytes(dir / name, bytes);
    }

    // A position of the side that the probe must read from the file.
    dtb_position quiet_position() const {
        for (std::uint64_t i = 0;; ++i)
            if (stored_in_its_table(index.unrank(i), small_tables())) return c_position(index.unrank(i));
    }
};

TEST_F(Damaged, IntactFilesGiveEveryValue) {
    const Tally t = probe_all(target);
    EXPECT_EQ(t.errors, 0u);
    EXPECT_EQ(t.right, 2 * index.size());
}

TEST_F(Damaged, TruncatedAtEveryLength) {
    const auto bytes = pristine(target);
    for (std::size_t length = 0; length < bytes.size(); ++length) {
        write_damaged(target, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(length)));
        const Tally t = probe_all(target, 997);
        // Only capture positions, which the probe searches without the file, get values.
        EXPECT_EQ(t.quiet_right, 0u) << "length " << length;
        EXPECT_GT(t.errors, 0u) << "length " << length;
        if (HasFailure()) return;
    }
}

TEST_F(Damaged, EveryBitOfTheHeader) {
    const auto bytes = pristine(target);
    for (std::size_t b = 0; b < compress::kHeaderSize * 8; ++b) {
        auto damaged = bytes;
        damaged[b / 8] ^= std::uint8_t(1u << (b % 8));
        write_damaged(target, damaged);
        const Tally t = probe_all(target, 1499);
        EXPECT_EQ(t.quiet_right, 0u) << "bit " << b;
        EXPECT_GT(t.errors, 0u) << "bit " << b;
        if (HasFailure()) return;
    }
}

TEST_F(Damaged, EveryBitOfTheBlockIndex) {
    const auto bytes = pristine(target);
    const std::uint64_t index_offset = get64(bytes, 48), index_size = get64(bytes, 56);
    ASSERT_GT(index_size, 0u);
    for (std::uint64_t b = index_offset * 8; b < (index_offset + index_size) * 8; ++b) {
        auto damaged = bytes;
        damaged[b / 8] ^= std::uint8_t(1u << (b % 8));
        write_damaged(target, damaged);
        const Tally t = probe_all(target, 1499);
        EXPECT_EQ(t.quiet_right, 0u) << "bit " << b;
        EXPECT_GT(t.errors, 0u) << "bit " << b;
        if (HasFailure()) return;
    }
}

// A flipped bit in a block spoils that block only: its positions get
// errors, the other blocks' positions their right values. The DTW file is
// the one with several blocks.
TEST_F(Damaged, BitsInTheBlocks) {
    const std::string target = base + ".dtw";
    const auto bytes = pristine(target);
    const std::uint64_t data_offset = get64(bytes, 64), data_size = get64(bytes, 72);
    ASSERT_EQ(data_offset + data_size, bytes.size());
    int spoiled_and_spared = 0;
    // Every 13th bit: all blocks, all kinds of bytes (frame headers, data).
    for (std::uint64_t b = data_offset * 8; b < bytes.size() * 8; b += 13) {
        auto damaged = bytes;
        damaged[b / 8] ^= std::uint8_t(1u << (b % 8));
        write_damaged(target, damaged);
        const Tally t = probe_all(target, 7);
        EXPECT_GT(t.errors, 0u) << "bit " << b << " went unnoticed";
        if (t.quiet_dtw_right > 0 && t.errors > 0) ++spoiled_and_spared;
        if (HasFailure()) return;
    }
    EXPECT_GT(spoiled_and_spared, 0) << "no damaged block left the others readable";
}

TEST_F(Damaged, DamagedDtwFileLeavesWdlProbesAlone) {
    const std::string dtw = base + ".dtw";
    auto bytes = pristine(dtw);
    const std::uint64_t data_offset = get64(bytes, 64);
    bytes[data_offset + 3] ^= 0x10;  // inside block 0
    write_damaged(dtw, bytes);
    Handle tb(dir.path());
    std::uint64_t wdl_right = 0, dtw_errors = 0;
    for (std::uint64_t i = 0; i < index.size(); i += 5) {
        if (!stored_in_its_table(index.unrank(i), small_tables())) continue;
        const dtb_position pos = c_position(index.unrank(i));
        const dtb_value expected = expected_value(raw.value(i));
        dtb_value v{};
        ASSERT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_OK) << tb.error();
        EXPECT_EQ(v.wdl, expected.wdl);
        wdl_right += v.wdl == expected.wdl;
        const int status = dtb_probe_dtw(tb, &pos, &v);
        if (status == DTB_OK) {
            EXPECT_TRUE(same(v, expected)) << i;
        } else {
            EXPECT_EQ(status, DTB_CORRUPT_TABLE);
            EXPECT_NE(tb.error().find((dir / dtw).string()), std::string::npos) << tb.error();
            ++dtw_errors;
        }
    }
    EXPECT_GT(wdl_right, 0u);
    EXPECT_GT(dtw_errors, 0u);
}

TEST_F(Damaged, WrongMagic) {
    auto bytes = pristine(target);
    bytes[1] = 'X';
    write_damaged(target, bytes);
    EXPECT_EQ(probe_all(target, 101).quiet_right, 0u);
    Handle tb(dir.path());
    const dtb_position pos = quiet_position();
    dtb_value v;
    EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_CORRUPT_TABLE);
    EXPECT_NE(tb.error().find("not a dtb table"), std::string::npos) << tb.error();
}

TEST_F(Damaged, WrongVersion) {
    auto bytes = pristine(target);
    bytes[8] = compress::kFormatVersion + 1;  // newer than this build; header checksum made valid again
    const std::uint64_t sum = compress::section_checksum({bytes.data(), 120});
    std::memcpy(bytes.data() + 120, &sum, 8);
    write_damaged(target, bytes);
    Handle tb(dir.path());
    const dtb_position pos = quiet_position();
    dtb_value v;
    EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_CORRUPT_TABLE);
    EXPECT_NE(tb.error().find("unsupported format version"), std::string::npos) << tb.error();
    EXPECT_NE(tb.error().find((dir / target).string()), std::string::npos) << tb.error();
}

// Format 2 tables still probe, every position as the raw table says.
TEST_F(Damaged, VersionTwoTablesStillProbe) {
    write_format_two_tables(dir.path());
    const auto bytes = read_bytes(dir / target);
    EXPECT_EQ(bytes[8], 2u);
    const Tally t = probe_all(target);
    EXPECT_EQ(t.errors, 0u);
    EXPECT_EQ(t.right, 2 * index.size());
}

// A version 1 file (no longest win and loss in its header) still probes:
// tables written before format version 2 keep working.
TEST_F(Damaged, VersionOneTablesStillProbe) {
    write_format_two_tables(dir.path());
    for (const std::string& name : {base + ".wdl", base + ".dtw"}) {
        auto bytes = read_bytes(dir / name);
        bytes[8] = 1;
        std::fill(bytes.begin() + 108, bytes.begin() + 116, std::uint8_t{0});  // reserved in version 1
        const std::uint64_t sum = compress::section_checksum({bytes.data(), 120});
        std::memcpy(bytes.data() + 120, &sum, 8);
        write_damaged(name, bytes);
    }
    const Tally t = probe_all(target, 3);
    EXPECT_EQ(t.errors, 0u);
    EXPECT_GT(t.quiet_right, 0u);
    EXPECT_GT(t.quiet_dtw_right, 0u);
}

// KKvK and KvKK have the same number of positions (14880): only the
// material in the header tells a renamed file from the real one.
TEST_F(Damaged, AnotherTablesFileUnderThisName) {
    write_damaged(target, pristine("russian-" + side.mirror().name() + ".wdl"));
    const Tally t = probe_all(target, 31);
    EXPECT_EQ(t.quiet_right, 0u);
    Handle tb(dir.path());
    const dtb_position pos = quiet_position();
    dtb_value v;
    EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_CORRUPT_TABLE);
    EXPECT_NE(tb.error().find("not the table its name says"), std::string::npos) << tb.error();
    // A WDL file under a DTW name: the metric is checked as well.
    write_damaged(target, pristine(target));
    write_damaged(base + ".dtw", pristine(target));
    Handle tb2(dir.path());
    // A won position needs the DTW file.
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        if (!is_win(raw.value(i)) || !stored_in_its_table(index.unrank(i), small_tables())) continue;
        const dtb_position won = c_position(index.unrank(i));
        EXPECT_EQ(dtb_probe_dtw(tb2, &won, &v), DTB_CORRUPT_TABLE);
        EXPECT_NE(tb2.error().find("another metric"), std::string::npos) << tb2.error();
        break;
    }
}

TEST_F(Damaged, EmptyFileAndDirectoryInPlaceOfATable) {
    write_damaged(target, {});
    EXPECT_EQ(probe_all(target, 211).quiet_right, 0u);
    std::filesystem::remove(dir / target);
    std::filesystem::create_directory(dir / target);
    Handle tb(dir.path());
    const dtb_position pos = quiet_position();
    dtb_value v;
    EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_IO_ERROR);
    EXPECT_NE(tb.error().find("not a regular file"), std::string::npos) << tb.error();
}

// A damaged table does not spoil the others.
TEST_F(Damaged, OtherTablesStillAnswer) {
    write_damaged(target, {});
    Handle tb(dir.path());
    const dtb_position kkvk = quiet_position();
    const dtb_position kvk = c_position<Russian>("W:WKa3:BKh6");
    dtb_value v;
    EXPECT_EQ(dtb_probe_wdl(tb, &kkvk, &v), DTB_CORRUPT_TABLE);
    EXPECT_EQ(dtb_probe_dtw(tb, &kvk, &v), DTB_OK) << tb.error();
    EXPECT_EQ(v.wdl, DTB_DRAW);
    EXPECT_EQ(dtb_probe_wdl(tb, &kkvk, &v), DTB_CORRUPT_TABLE);  // still refused, not reopened as good
}

}  // namespace
}  // namespace dtb::probe_test
