// dtb gen's promises: the same bytes for any number of threads, resuming
// after an interruption, refusing damaged inputs; and dtb verify catching a
// wrong value.
#include "gen/generate.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "format/table_file.hpp"
#include "gen/raw_table.hpp"
#include "gen/verify.hpp"

namespace dtb {
namespace {

namespace fs = std::filesystem;

class ScratchDir {
public:
    explicit ScratchDir(const std::string& name)
        : path_(fs::temp_directory_path() / ("dtb-gen-test-" + name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path_);
    }
    ~ScratchDir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every table file of a directory (manifests aside: they record seconds).
std::map<std::string, std::string> table_files(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() != ".json") files[e.path().filename().string()] = read_file(e.path());
    return files;
}

std::vector<TableStats> generate(VariantId variant, int pieces, const fs::path& dir, int threads,
                                 std::uint64_t parallel_positions) {
    GenerateOptions o;
    o.variant = variant;
    o.max_pieces = pieces;
    o.dir = dir;
    o.threads = threads;
    o.parallel_positions = parallel_positions;
    std::ostringstream log;
    return generate_tables(o, log);
}

TEST(Generate, ThreadCountDoesNotChangeABit) {
    for (VariantId variant : {VariantId::Russian, VariantId::International}) {
        ScratchDir one("one"), two("two");
        generate(variant, 3, one.path(), 1, 0);
        generate(variant, 3, two.path(), 2, 0);  // every loop in parallel, however small
        const auto a = table_files(one.path()), b = table_files(two.path());
        ASSERT_EQ(a.size(), b.size());
        ASSERT_GT(a.size(), 10u);
        for (const auto& [name, bytes] : a) EXPECT_TRUE(b.at(name) == bytes) << name << " differs";
    }
}

// Every file of a table records its longest win and loss (format version
// 2), the same as its manifest; and the manifest is the documented JSON.
TEST(Generate, HeadersRecordTheLongestWinAndLoss) {
    ScratchDir dir("longest");
    const auto built = generate(VariantId::Russian, 3, dir.path(), 1, 0);
    ASSERT_FALSE(built.empty());
    bool some_win = false, some_loss = false;
    for (const TableStats& s : built) {
        const RawTableHeader raw = read_raw_header(raw_table_path(dir.path(), VariantId::Russian, s.signature));
        EXPECT_EQ(raw.longest_win, s.longest_win) << s.signature.name();
        EXPECT_EQ(raw.longest_loss, s.longest_loss) << s.signature.name();
        for (const format::Metric m : {format::Metric::wdl, format::Metric::dtw}) {
            auto file =
                format::TableFile::open(dir.path() / table_file_name(VariantId::Russian, s.signature, m), nullptr);
            ASSERT_TRUE(file.ok()) << file.error().message;
            EXPECT_EQ((*file)->header().format_version, format::kFormatVersion);
            EXPECT_EQ((*file)->header().table.longest_win, s.longest_win) << s.signature.name();
            EXPECT_EQ((*file)->header().table.longest_loss, s.longest_loss) << s.signature.name();
        }
        some_win = some_win || s.longest_win > 0;
        some_loss = some_loss || s.longest_loss > 0;
        const std::string manifest = read_file(manifest_path(dir.path(), VariantId::Russian, s.signature));
        EXPECT_EQ(manifest, manifest_json(VariantId::Russian, s));
        EXPECT_EQ(manifest.rfind("{\n  \"variant\": \"russian\",\n  \"signature\": \"" + s.signature.name() + "\",", 0),
                  0u)
            << manifest;
        EXPECT_FALSE(fs::exists(manifest_path(dir.path(), VariantId::Russian, s.signature).string() + ".tmp"));
    }
    EXPECT_TRUE(some_win && some_loss);
}

TEST(Generate, ResumesAfterAnInterruption) {
    ScratchDir fresh("fresh"), resumed("resumed");
    generate(VariantId::Russian, 3, fresh.path(), 2, 0);
    generate(VariantId::Russian, 3, resumed.path(), 2, 0);
    const fs::path& dir = resumed.path();
    // What an interrupted run can leave: a table solved but not compressed,
    // a manifest not yet written, a half-written temporary file, and (after
    // a crash of the machine) a truncated table.
    fs::remove(dir / "russian-KMvK.wdl");
    fs::remove(dir / "russian-MMvK.json");
    std::ofstream(dir / "russian-KKvM.raw.tmp") << "half a table";
    fs::resize_file(dir / "russian-MvKK.raw", 100);
    const auto rebuilt = generate(VariantId::Russian, 3, dir, 2, 0);
    std::set<std::string> names;
    for (const TableStats& s : rebuilt) names.insert(s.signature.name());
    EXPECT_TRUE(names.count("KMvK")) << "recompressed";
    EXPECT_TRUE(names.count("MMvK")) << "manifest rewritten";
    EXPECT_TRUE(names.count("MvKK")) << "solved again";
    EXPECT_FALSE(names.count("KKvK")) << "finished tables are kept";
    fs::remove(dir / "russian-KKvM.raw.tmp");
    const auto a = table_files(fresh.path()), b = table_files(dir);
    ASSERT_EQ(a.size(), b.size());
    for (const auto& [name, bytes] : a) EXPECT_TRUE(b.at(name) == bytes) << name << " differs after resuming";
    // And a second run finds nothing to do.
    EXPECT_TRUE(generate(VariantId::Russian, 3, dir, 2, 0).empty());
}

TEST(Generate, ADamagedSmallerTableStopsTheRunAndIsNamed) {
    ScratchDir dir("damaged");
    generate(VariantId::Russian, 2, dir.path(), 1, 0);
    const fs::path victim = dir.path() / "russian-KvK.raw";
    std::string bytes = read_file(victim);
    bytes[bytes.size() / 2] ^= 1;
    std::ofstream(victim, std::ios::binary) << bytes;
    try {
        generate(VariantId::Russian, 3, dir.path(), 1, 0);
        FAIL() << "a corrupt table was used";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("russian-KvK.raw"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
    }
}

TEST(Verify, FindsAWrongValueAndNamesItsPosition) {
    ScratchDir dir("verify");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    std::ostringstream log;
    auto reports = verify_tables(VariantId::Russian, dir.path(), log, false);
    ASSERT_FALSE(reports.empty());
    for (const VerifyReport& r : reports) EXPECT_EQ(r.mismatches, 0u) << r.signature.name();

    // Change one stored value, with a valid checksum, as a buggy solver would.
    const fs::path path = raw_table_path(dir.path(), VariantId::Russian, *MaterialSignature::parse("KKvK"));
    RawTable t = read_raw_table(path);
    std::size_t i = 0;
    while (t.bytes[i] != 1) ++i;  // a win in 1 ...
    t.bytes[i] = 3;               // ... claimed as a win in 3
    write_raw_table(path, t.header, t.bytes);
    std::ostringstream log2;
    reports = verify_tables(VariantId::Russian, dir.path(), log2, false, {*MaterialSignature::parse("KKvK")});
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_GE(reports[0].mismatches, 1u);
    ASSERT_FALSE(reports[0].examples.empty());
    EXPECT_NE(reports[0].examples[0].find("stored win in 3, from successors win in 1"), std::string::npos)
        << reports[0].examples[0];
}

}  // namespace
}  // namespace dtb
