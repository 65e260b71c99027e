// dtb verify --write-checksums and --checksums, end to end: the built
// program on a copy of the Russian tables of up to three pieces, its exit
// status, its words, its JSON, and the list it writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/probe/cli_support.hpp"

namespace dtb::probe_test {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// The distributed files (.wdl and .dtw) of the Russian tables of up to
// `pieces` pieces of the small set, copied into `dir`.
void copy_russian_files(const fs::path& dir, int pieces) {
    for (const auto& e : fs::directory_iterator(small_tables())) {
        const std::string name = e.path().filename().string();
        const std::string ext = e.path().extension().string();
        if (!name.starts_with("russian-") || (ext != ".wdl" && ext != ".dtw")) continue;
        if (int(name.find('.') - std::string("russian-v").size()) <= pieces) fs::copy_file(e.path(), dir / name);
    }
}

std::string q(const fs::path& p) { return quote(p.string()); }

// A directory of Russian ≤ 3 and its list, written by dtb verify.
struct ListedSet {
    ScratchDir dir, lists;
    fs::path list = lists / "russian-3.txt";
    ListedSet() {
        copy_russian_files(dir.path(), 3);
        const Output r = dtb("verify --variant russian --dir " + q(dir.path()) + " --write-checksums " + q(list));
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find("checksums of 32 files (16 tables of up to 3 pieces) written to " + list.string()),
                  std::string::npos)
            << r.out;
    }
};

TEST(ChecksumsCli, WrittenAfterAVerifyThatPassesAndCheckedInWordsAndJson) {
    const ListedSet set;
    const std::string text = slurp(set.list);
    EXPECT_TRUE(
        text.starts_with("# dtb checksum list\n# variant: russian\n# pieces: 3\n# tables: 16\n"
                         "# written by: dtb "))
        << text;
    EXPECT_NE(text.find(", table format 2\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  russian-KKvK.wdl\n"), std::string::npos) << text;

    // The directory positional, or as --dir.
    for (const std::string& where : {q(set.dir.path()), "--dir " + q(set.dir.path())}) {
        const Output r = dtb("verify --checksums " + q(set.list) + " " + where);
        EXPECT_EQ(r.status, 0) << where << "\n" << r.err;
        EXPECT_EQ(r.out, "OK: 32 files of 16 russian tables match " + set.list.string() + "\n");
    }
    const Output r = dtb("verify --checksums " + q(set.list) + " " + q(set.dir.path()) + " --variant russian --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"variant", "list", "dir", "pieces", "ok", "files_checked",
                                              "tables_checked", "missing", "mismatched", "unreadable", "extra"}));
    EXPECT_EQ(j["variant"], "russian");
    EXPECT_TRUE(j["ok"].get<bool>());
    EXPECT_EQ(j["files_checked"], 32);
    EXPECT_EQ(j["tables_checked"], 16);
    EXPECT_EQ(j["pieces"], 3);
    EXPECT_TRUE(j["missing"].empty() && j["mismatched"].empty() && j["extra"].empty());

    // And the verify's own JSON says where the list went.
    const fs::path again = set.lists / "again.txt";
    const Output v = dtb("verify --variant russian " + q(set.dir.path()) + " --json --write-checksums " + q(again));
    ASSERT_EQ(v.status, 0) << v.err;
    EXPECT_EQ(Json::parse(v.out)["checksums_written"], again.string());
    EXPECT_EQ(slurp(again), text);
}

TEST(ChecksumsCli, NamesEachFileThatIsMissingOrDiffersAndEachExtraOne) {
    const ListedSet set;
    fs::remove(set.dir / "russian-KvK.dtw");
    std::ofstream(set.dir / "russian-KKvK.wdl", std::ios::binary | std::ios::app) << 'x';
    {
        std::string bytes = slurp(set.dir / "russian-KMvK.dtw");
        bytes.back() ^= 0x10;
        std::ofstream(set.dir / "russian-KMvK.dtw", std::ios::binary) << bytes;
    }
    fs::copy_file(set.dir / "russian-KvK.wdl", set.dir / "russian-KKKvK.wdl");
    const std::string command = "verify --checksums " + q(set.list) + " " + q(set.dir.path());
    const Output r = dtb(command);
    EXPECT_EQ(r.status, 1) << r.err;
    const std::vector<std::string> lines = r.lines();
    ASSERT_EQ(lines.size(), 5u) << r.out;
    EXPECT_EQ(lines[0], "missing: russian-KvK.dtw");
    EXPECT_TRUE(lines[1].starts_with("wrong size: russian-KKvK.wdl: ")) << lines[1];
    EXPECT_TRUE(lines[2].starts_with("wrong checksum: russian-KMvK.dtw: XXH3-64 ")) << lines[2];
    EXPECT_EQ(lines[3], "extra: russian-KKKvK.wdl (not in the list)");
    EXPECT_EQ(lines[4], "FAILED: 32 files of 16 russian tables checked against " + set.list.string() +
                            ": 1 missing, 1 of another size, 1 of another checksum");

    const Output json = dtb(command + " --json");
    EXPECT_EQ(json.status, 1) << json.err;
    const Json j = Json::parse(json.out);
    EXPECT_FALSE(j["ok"].get<bool>());
    EXPECT_EQ(j["missing"], Json::array({"russian-KvK.dtw"}));
    EXPECT_EQ(j["extra"], Json::array({"russian-KKKvK.wdl"}));
    ASSERT_EQ(j["mismatched"].size(), 2u);
    const Json& size = j["mismatched"][0];
    EXPECT_EQ(size["name"], "russian-KKvK.wdl");
    EXPECT_EQ(size["found_size"].get<std::uint64_t>(), size["expected_size"].get<std::uint64_t>() + 1);
    const Json& sum = j["mismatched"][1];
    EXPECT_EQ(sum["name"], "russian-KMvK.dtw");
    EXPECT_EQ(sum["found_size"], sum["expected_size"]);
    EXPECT_NE(sum["found_xxh3"], sum["expected_xxh3"]);
    EXPECT_EQ(sum["expected_xxh3"].get<std::string>().size(), 16u);
}

TEST(ChecksumsCli, PiecesChecksASmallerSetAgainstALargerList) {
    const ListedSet set;
    const ScratchDir two;
    copy_russian_files(two.path(), 2);
    const std::string command = "verify --checksums " + q(set.list) + " " + q(two.path());
    const Output all = dtb(command);
    EXPECT_EQ(all.status, 1);
    EXPECT_NE(all.out.find("missing: russian-KKvK.wdl"), std::string::npos) << all.out;
    const Output r = dtb(command + " --pieces 2");
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.out, "OK: 8 files of 4 russian tables (those of up to 2 pieces) match " + set.list.string() + "\n");
    const Json j = Json::parse(dtb(command + " --pieces 2 --json").out);
    EXPECT_EQ(j["pieces"], 2);
    EXPECT_EQ(j["files_checked"], 8);
}

TEST(ChecksumsCli, AFailedVerifyWritesNoList) {
    const ScratchDir dir, lists;
    copy_russian_files(dir.path(), 3);
    std::string bytes = slurp(dir / "russian-KKvK.wdl");
    bytes.back() ^= 0x01;
    std::ofstream(dir / "russian-KKvK.wdl", std::ios::binary) << bytes;
    for (const char* journal : {"", " --journal "}) {
        const std::string extra = *journal ? journal + q(lists / "journal.json") : "";
        const Output r = dtb("verify --variant russian --dir " + q(dir.path()) + " --write-checksums " +
                             q(lists / "list.txt") + extra);
        EXPECT_EQ(r.status, 1) << r.out << r.err;
        EXPECT_NE(r.err.find("no checksum list written to " + (lists / "list.txt").string()), std::string::npos)
            << r.err;
        EXPECT_FALSE(fs::exists(lists / "list.txt"));
    }
    // Nowhere to write it: said before the verify runs.
    const Output nowhere =
        dtb("verify --variant russian --dir " + q(dir.path()) + " --write-checksums " + q(lists / "no/list.txt"));
    EXPECT_EQ(nowhere.status, 1);
    EXPECT_NE(nowhere.err.find("no: No such file or directory"), std::string::npos) << nowhere.err;
    EXPECT_EQ(nowhere.out, "");
}

// Exit statuses: a missing list or directory is 1 with the system's
// reason; a bad list, a --variant that is not the list's, options that do
// not go together are 2.
TEST(ChecksumsCli, ExitStatuses) {
    const ListedSet set;
    const Output no_list = dtb("verify --checksums " + q(set.lists / "none.txt") + " " + q(set.dir.path()));
    EXPECT_EQ(no_list.status, 1);
    EXPECT_NE(no_list.err.find("none.txt: No such file or directory"), std::string::npos) << no_list.err;
    const Output no_dir = dtb("verify --checksums " + q(set.list) + " " + q(set.dir / "none"));
    EXPECT_EQ(no_dir.status, 1);
    EXPECT_NE(no_dir.err.find("none: No such file or directory"), std::string::npos) << no_dir.err;

    std::string text = slurp(set.list);
    const fs::path bad = set.lists / "bad.txt";
    std::ofstream(bad) << text << "0123456789abcdef  12 russian-KvK.wdl extra\n";
    const std::size_t line = std::count(text.begin(), text.end(), '\n') + 1;
    const Output bad_line = dtb("verify --checksums " + q(bad) + " " + q(set.dir.path()));
    EXPECT_EQ(bad_line.status, 2);
    EXPECT_NE(bad_line.err.find(bad.string() + ":" + std::to_string(line) + ": "), std::string::npos) << bad_line.err;

    const Output other = dtb("verify --checksums " + q(set.list) + " " + q(set.dir.path()) + " --variant brazilian");
    EXPECT_EQ(other.status, 2);
    EXPECT_NE(other.err.find("--variant brazilian"), std::string::npos) << other.err;
    EXPECT_NE(other.err.find("russian"), std::string::npos) << other.err;

    for (const std::string& usage :
         {"verify --checksums " + q(set.list) + " " + q(set.dir.path()) + " --journal j.json",
          "verify --checksums " + q(set.list) + " " + q(set.dir.path()) + " --only KvK",
          "verify --checksums " + q(set.list) + " " + q(set.dir.path()) + " --write-checksums x.txt",
          "verify --variant russian " + q(set.dir.path()) + " --pieces 2",
          "verify --variant russian --only KvK " + q(set.dir.path()) + " --write-checksums x.txt",
          "verify " + q(set.dir.path()),
          "verify --variant russian --dir " + q(set.dir.path()) + " " + q(set.lists.path())}) {
        const Output r = dtb(usage);
        EXPECT_EQ(r.status, 2) << usage << "\n" << r.err;
        EXPECT_FALSE(r.err.empty()) << usage;
    }
    EXPECT_FALSE(fs::exists("x.txt"));
}

TEST(ChecksumsCli, HelpTeachesBothOptionsWithExamples) {
    const Output help = dtb("verify --help");
    EXPECT_EQ(help.status, 0);
    for (const char* text : {"--write-checksums", "--checksums", "--pieces",
                             "Example: dtb verify --variant russian --dir tablebases --write-checksums",
                             "Example: dtb verify --checksums checksums/russian-6.txt tablebases"})
        EXPECT_NE(help.out.find(text), std::string::npos) << text << "\n" << help.out;
}

}  // namespace
}  // namespace dtb::probe_test
