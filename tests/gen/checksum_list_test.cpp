// Checksum lists (gen/checksum_list.hpp): the list of a generated set, its
// text read back, and a directory checked against it finding every file
// that is missing, of another size or content, or not in the list.
#include "gen/checksum_list.hpp"

#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <sstream>

#include "gen/dtc_tables.hpp"
#include "gen/generate.hpp"
#include "tables/signatures.hpp"
#include "tests/scratch_dir.hpp"

namespace dtb {
namespace {

namespace fs = std::filesystem;
using test_support::ScratchDir;

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

// Russian up to 3 pieces with their .dtc files and manifests, built once
// for the whole program.
const fs::path& russian_three() {
    static const fs::path dir = fs::temp_directory_path() / ("dtb-checksum-list-test-" + std::to_string(::getpid()));
    static std::once_flag once;
    std::call_once(once, [] {
        fs::remove_all(dir);
        GenerateOptions o;
        o.variant = VariantId::Russian;
        o.max_pieces = 3;
        o.dir = dir;
        o.threads = 1;
        std::ostringstream log;
        generate_tables(o, log);
        build_dtc_tables(VariantId::Russian, all_signatures(VariantId::Russian, 3), dir, 1, log,
                         std::uint64_t{1} << 30);
        std::atexit([] { fs::remove_all(dir); });
    });
    return dir;
}

// A copy of the set's files whose tables have at most `pieces` pieces,
// manifests included, in `to`.
void copy_set(const fs::path& to, int pieces = 3) {
    for (const auto& e : fs::directory_iterator(russian_three())) {
        const std::string name = e.path().filename().string();
        const std::string base = name.substr(0, name.find('.'));
        const auto sig = MaterialSignature::parse(base.substr(std::string("russian-").size()));
        if (sig && sig->total() <= pieces) fs::copy_file(e.path(), to / name);
    }
}

ChecksumList list_of(const fs::path& dir) { return make_checksum_list(VariantId::Russian, dir, "dtb test"); }

TEST(ChecksumList, ListsTheDistributedFilesAndReadsBackAsWritten) {
    const ScratchDir dir;
    copy_set(dir.path());
    write_file(dir / "russian-KvK.raw", "exact values");  // never listed
    write_file(dir / "notes.txt", "not a table");
    const ChecksumList list = list_of(dir.path());
    EXPECT_EQ(list.variant, VariantId::Russian);
    EXPECT_EQ(list.pieces, 3);
    EXPECT_EQ(list.tables, int(all_signatures(VariantId::Russian, 3).size()));
    ASSERT_EQ(list.entries.size(), 3 * all_signatures(VariantId::Russian, 3).size());  // .wdl, .dtw, .dtc
    std::set<std::string> extensions;
    for (std::size_t i = 0; i < list.entries.size(); ++i) {
        const ChecksumEntry& e = list.entries[i];
        if (i > 0) {
            EXPECT_LT(list.entries[i - 1].name, e.name);
        }
        extensions.insert(fs::path(e.name).extension().string());
        // The size and the XXH3-64 of the whole file, as xxHash computes it at once.
        const std::string bytes = read_file(dir / e.name);
        EXPECT_EQ(e.size, bytes.size()) << e.name;
        EXPECT_EQ(e.xxh3, XXH3_64bits(bytes.data(), bytes.size())) << e.name;
    }
    EXPECT_EQ(extensions, (std::set<std::string>{".dtc", ".dtw", ".wdl"}));

    // The text, byte for byte as docs/FORMAT.md has it.
    const std::string text = checksum_list_text(list);
    const ChecksumEntry& first = list.entries.front();
    EXPECT_EQ(first.name, "russian-KKvK.dtc");
    const std::string head =
        "# dtb checksum list\n# variant: russian\n# pieces: 3\n# tables: " + std::to_string(list.tables) +
        "\n# written by: dtb test\n"
        "# columns: XXH3-64 of the whole file (16 hex digits), size in bytes, file name\n" +
        checksum_hex(first.xxh3) + "  " + std::to_string(first.size) + "  russian-KKvK.dtc\n";
    EXPECT_EQ(text.substr(0, head.size()), head);
    EXPECT_EQ(checksum_hex(0x00ab'cdef'0123'4567), "00abcdef01234567");

    // Written and read back: the same entries, and the directory passes.
    write_checksum_list(dir / "list.txt", list);
    EXPECT_EQ(read_file(dir / "list.txt"), text);
    const ChecksumList back = read_checksum_list(dir / "list.txt");
    EXPECT_EQ(back.variant, list.variant);
    EXPECT_EQ(back.pieces, list.pieces);
    EXPECT_EQ(back.tables, list.tables);
    EXPECT_EQ(back.written_by, "dtb test");
    ASSERT_EQ(back.entries.size(), list.entries.size());
    for (std::size_t i = 0; i < back.entries.size(); ++i) {
        EXPECT_EQ(back.entries[i].name, list.entries[i].name);
        EXPECT_EQ(back.entries[i].size, list.entries[i].size);
        EXPECT_EQ(back.entries[i].xxh3, list.entries[i].xxh3);
        EXPECT_EQ(back.entries[i].pieces, list.entries[i].pieces);
    }
    const ChecksumCheck check = check_checksum_list(back, dir.path());
    EXPECT_TRUE(check.ok());
    EXPECT_EQ(check.files_checked, list.entries.size());
    EXPECT_EQ(check.tables_checked, std::size_t(list.tables));
    EXPECT_TRUE(check.extra.empty());  // the .raw, .json and .txt files are none of its business
}

TEST(ChecksumList, NamesAMissingFile) {
    const ScratchDir dir;
    copy_set(dir.path());
    const ChecksumList list = list_of(dir.path());
    fs::remove(dir / "russian-KKvK.dtw");
    const ChecksumCheck check = check_checksum_list(list, dir.path());
    EXPECT_FALSE(check.ok());
    EXPECT_EQ(check.missing, std::vector<std::string>{"russian-KKvK.dtw"});
    EXPECT_TRUE(check.mismatched.empty());
    EXPECT_EQ(check.files_checked, list.entries.size());
}

TEST(ChecksumList, NamesAFileOfAnotherSize) {
    const ScratchDir dir;
    copy_set(dir.path());
    const ChecksumList list = list_of(dir.path());
    const fs::path file = dir / "russian-KMvK.wdl";
    const std::uint64_t size = fs::file_size(file);
    std::ofstream(file, std::ios::binary | std::ios::app) << 'x';
    const ChecksumCheck check = check_checksum_list(list, dir.path());
    EXPECT_FALSE(check.ok());
    ASSERT_EQ(check.mismatched.size(), 1u);
    const ChecksumMismatch& m = check.mismatched[0];
    EXPECT_EQ(m.name, "russian-KMvK.wdl");
    EXPECT_EQ(m.expected_size, size);
    EXPECT_EQ(m.found_size, size + 1);
    EXPECT_NE(m.found_xxh3, m.expected_xxh3);
    EXPECT_TRUE(check.missing.empty());
}

TEST(ChecksumList, NamesAFlippedByteOfTheSameSize) {
    const ScratchDir dir;
    copy_set(dir.path());
    const ChecksumList list = list_of(dir.path());
    // A byte of the last block, far from the header: only the whole-file hash sees it here.
    const fs::path file = dir / "russian-KKvK.dtw";
    std::string bytes = read_file(file);
    bytes[bytes.size() - 1] ^= 0x01;
    write_file(file, bytes);
    const ChecksumCheck check = check_checksum_list(list, dir.path());
    EXPECT_FALSE(check.ok());
    ASSERT_EQ(check.mismatched.size(), 1u);
    const ChecksumMismatch& m = check.mismatched[0];
    EXPECT_EQ(m.name, "russian-KKvK.dtw");
    EXPECT_EQ(m.found_size, m.expected_size);
    EXPECT_EQ(m.found_xxh3, XXH3_64bits(bytes.data(), bytes.size()));
    EXPECT_NE(m.found_xxh3, m.expected_xxh3);
}

TEST(ChecksumList, ReportsExtraFilesWithoutFailing) {
    const ScratchDir dir;
    copy_set(dir.path());
    const ChecksumList list = list_of(dir.path());
    fs::copy_file(dir / "russian-KKvK.wdl", dir / "russian-KKKvK.wdl");  // a table the list does not hold
    write_file(dir / "russian-KKvk.wdl", "a renamed copy");              // named like one, but no table's name
    write_file(dir / "international-KvK.wdl", "another variant's");      // not the list's business
    write_file(dir / "russian-KKKvK.json", "{}");                        // a manifest
    const ChecksumCheck check = check_checksum_list(list, dir.path());
    EXPECT_TRUE(check.ok());
    EXPECT_EQ(check.extra, (std::vector<std::string>{"russian-KKKvK.wdl", "russian-KKvk.wdl"}));
    // Beyond --pieces, a table's file is out of the check altogether.
    EXPECT_EQ(check_checksum_list(list, dir.path(), 3).extra, std::vector<std::string>{"russian-KKvk.wdl"});
}

TEST(ChecksumList, PiecesChecksOnlyTheSmallerTables) {
    const ScratchDir full, small;
    copy_set(full.path());
    copy_set(small.path(), 2);
    const ChecksumList list = list_of(full.path());
    const ChecksumCheck all = check_checksum_list(list, small.path());
    EXPECT_FALSE(all.ok());
    EXPECT_EQ(all.missing.size(), list.entries.size() - 3 * all_signatures(VariantId::Russian, 2).size());
    const ChecksumCheck two = check_checksum_list(list, small.path(), 2);
    EXPECT_TRUE(two.ok());
    EXPECT_EQ(two.files_checked, 3 * all_signatures(VariantId::Russian, 2).size());
    EXPECT_EQ(two.tables_checked, all_signatures(VariantId::Russian, 2).size());
    // And a damaged small file is still found.
    std::ofstream(small / "russian-KvK.wdl", std::ios::binary | std::ios::app) << 'x';
    EXPECT_EQ(check_checksum_list(list, small.path(), 2).mismatched.size(), 1u);
}

TEST(ChecksumList, AMissingOrUnreadableDirectoryOrListIsNamed) {
    const ScratchDir dir;
    copy_set(dir.path(), 2);
    const ChecksumList list = list_of(dir.path());
    try {
        check_checksum_list(list, dir / "no-such-dir");
        ADD_FAILURE() << "a missing directory was checked";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("no-such-dir: No such file or directory"), std::string::npos) << e.what();
    }
    try {
        read_checksum_list(dir / "no-such-list.txt");
        ADD_FAILURE() << "a missing list was read";
    } catch (const BadChecksumList& e) {
        ADD_FAILURE() << "a missing list is not a bad one: " << e.what();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("no-such-list.txt: No such file or directory"), std::string::npos)
            << e.what();
    }
    // A listed name that is a directory: there, but not readable as a file.
    fs::remove(dir / "russian-KvK.dtw");
    fs::create_directory(dir / "russian-KvK.dtw");
    const ChecksumCheck check = check_checksum_list(list, dir.path());
    EXPECT_FALSE(check.ok());
    ASSERT_EQ(check.unreadable.size(), 1u);
    EXPECT_EQ(check.unreadable[0].name, "russian-KvK.dtw");
}

// A list's text: blank lines, comments and CR LF are fine; anything else
// wrong is named by file and line.
TEST(ChecksumList, ReaderIsLenientAboutLinesAndStrictAboutEntries) {
    const std::string hash = "0123456789abcdef";
    const std::string head = "# dtb checksum list\n# variant: russian\n# pieces: 3\n# tables: 2\n";
    const std::string good =
        head + hash + "  10  russian-KvK.wdl\n" + hash + "  11  russian-KvK.dtw\n" + hash + "  12  russian-KKvK.wdl\n";
    EXPECT_EQ(parse_checksum_list(good, "l").entries.size(), 3u);
    {
        std::string crlf;
        for (char c : "\n" + good + "\n# a comment\n\n")
            if (c == '\n')
                crlf += "\r\n";
            else if (c)
                crlf += c;
        const ChecksumList list = parse_checksum_list(crlf, "l");
        ASSERT_EQ(list.entries.size(), 3u);
        EXPECT_EQ(list.entries[0].name, "russian-KKvK.wdl");  // sorted by name
        EXPECT_EQ(list.entries[0].size, 12u);
        EXPECT_EQ(list.entries[0].xxh3, 0x0123456789abcdefu);
        EXPECT_EQ(list.entries[0].pieces, 3);
        EXPECT_EQ(list.entries[2].name, "russian-KvK.wdl");
    }
    // Each bad text, and the "where:line" its message must start with.
    const std::vector<std::pair<std::string, std::string>> bad = {
        {head + "0123456789ABCDEF  10  russian-KvK.wdl\n", "list.txt:5: "},              // upper case
        {head + "0123456789abcde  10  russian-KvK.wdl\n", "list.txt:5: "},               // 15 digits
        {head + hash + "  -10  russian-KvK.wdl\n", "list.txt:5: "},                      // a sign
        {head + hash + "  10\n", "list.txt:5: "},                                        // no name
        {head + hash + "  10  russian-KvK.wdl  x\n", "list.txt:5: "},                    // a fourth field
        {head + hash + "  99999999999999999999999  russian-KvK.wdl\n", "list.txt:5: "},  // past 64 bits
        {head + "\n" + hash + "  10  russian-kvk.wdl\n", "list.txt:6: "},                // no table's name
        {head + hash + "  10  russian-KvK.json\n", "list.txt:5: "},                      // a manifest
        {head + hash + "  10  russian-KvK.raw\n", "list.txt:5: "},                       // an exact table
        {head + hash + "  10  international-KvK.wdl\n", "list.txt:5: "},                 // another variant
        {head + hash + "  10  russian-KvK.wdl\n" + hash + "  10  russian-KvK.wdl\n", "list.txt:6: "},  // twice
        {head + hash + "  10  russian-KKKvK.wdl\n", "list.txt:5: "},  // more pieces than the list says
        {head + hash + "  10  russian-KvK.wdl\n", "list.txt:4: "},    // one table, and "tables: 2"
        {"# dtb checksum list\n# variant: checkers\n# pieces: 3\n# tables: 1\n" + hash + "  1  russian-KvK.wdl\n",
         "list.txt:2: "},
        {"# dtb checksum list\n# variant: russian\n# variant: russian\n", "list.txt:3: "},
        {"# dtb checksum list\n# variant: russian\n# pieces: many\n# tables: 1\n", "list.txt:3: "},
        {"\n" + hash + "  10  russian-KvK.wdl\n", "list.txt:2: "},  // no title
        {"[1, 2, 3]\n", "list.txt:1: "},
        {"# dtb checksum list\n# pieces: 3\n# tables: 1\n" + hash + "  1  russian-KvK.wdl\n", "list.txt: "},
        {"# dtb checksum list\n# variant: russian\n# tables: 1\n" + hash + "  1  russian-KvK.wdl\n", "list.txt: "},
        {head, "list.txt: "},  // no entries
        {"", "list.txt: "},
    };
    for (const auto& [text, where] : bad) {
        try {
            parse_checksum_list(text, "list.txt");
            ADD_FAILURE() << "accepted:\n" << text;
        } catch (const BadChecksumList& e) {
            EXPECT_TRUE(std::string(e.what()).starts_with(where)) << e.what() << "\nfor:\n" << text;
        }
    }
}

}  // namespace
}  // namespace dtb
