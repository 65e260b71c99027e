// Where the commands that read tables find them without --dir
// (cli/table_dirs.hpp): the directories of DTB_PATH, else ./tablebases,
// else a clear error naming both ways; --dir before either. Each command is
// run in a scratch directory with DTB_PATH set or unset (dtb_at), so the
// environment the tests run in does not matter.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/probe/cli_support.hpp"

namespace dtb::probe_test {
namespace {

using Json = nlohmann::ordered_json;

const std::string kFen = "--fen W:WKa1,Kc3:BKh8";

std::string small_dir() { return small_tables().string(); }

// What dtb probe says of kFen with --dir.
std::string probed_with_dir() {
    const Output r = dtb("probe --variant russian --json " + kFen + " --dir " + quote(small_dir()));
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
}

TEST(TableDirsCli, FromDtbPath) {
    const ScratchDir cwd;
    const Output r = dtb_at(cwd.path(), small_dir(), "probe --variant russian --json " + kFen);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, probed_with_dir());
    // Directories separated by ':', empty entries skipped: the tables of
    // KvK in one, the rest in another.
    const ScratchDir part;
    for (const char* name : {"russian-KvK.wdl", "russian-KvK.dtw"})
        std::filesystem::copy_file(small_tables() / name, part / name);
    const Output two = dtb_at(cwd.path(), ":" + part.path().string() + "::" + small_dir() + ":",
                              "probe --variant russian --json " + kFen);
    ASSERT_EQ(two.status, 0) << two.err;
    EXPECT_EQ(two.out, r.out);
    // A directory of DTB_PATH that is missing is named, as one of --dir is.
    const Output missing = dtb_at(cwd.path(), "/nonexistent/dtb:" + small_dir(), "probe --variant russian " + kFen);
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("/nonexistent/dtb"), std::string::npos) << missing.err;
}

TEST(TableDirsCli, TablebasesInTheCurrentDirectory) {
    const ScratchDir cwd;
    std::filesystem::create_directory_symlink(small_tables(), cwd / "tablebases");
    const Output r = dtb_at(cwd.path(), std::nullopt, "probe --variant russian --json " + kFen);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, probed_with_dir());
}

TEST(TableDirsCli, DirBeforeDtbPathBeforeTablebases) {
    const ScratchDir cwd, empty;
    std::filesystem::create_directory(cwd / "tablebases");  // empty: reading it would fail
    const Output path = dtb_at(cwd.path(), small_dir(), "probe --variant russian --json " + kFen);
    ASSERT_EQ(path.status, 0) << path.err;
    const Output dir = dtb_at(cwd.path(), empty.path().string(),
                              "probe --variant russian --json " + kFen + " --dir " + quote(small_dir()));
    ASSERT_EQ(dir.status, 0) << dir.err;
    EXPECT_EQ(dir.out, path.out);
    // An empty DTB_PATH names no directory: the empty ./tablebases is
    // next, and has no table (1), where no directory at all would be 2.
    const Output unset = dtb_at(cwd.path(), "", "probe --variant russian " + kFen);
    EXPECT_EQ(unset.status, 1) << unset.err;
}

TEST(TableDirsCli, NeitherIsAClearError) {
    const ScratchDir cwd;
    for (const std::string& command : std::vector<std::string>{
             "probe --variant russian " + kFen, std::string("info"),
             "adjudicate --variant russian --moves-played 1 " + kFen, "adjudicate --variant russian --report KKvK",
             "show --variant russian --best " + kFen, std::string("rule-report --variant russian --pieces 2"),
             std::string("verify --variant russian"),
             "analyze " + quote(std::string(DTB_ANALYZE_GAMES) + "/international_endgame.pdn")}) {
        const Output r = dtb_at(cwd.path(), std::nullopt, command);
        EXPECT_EQ(r.status, 2) << command << "\n" << r.err;
        for (const char* part : {"--dir", "DTB_PATH", "./tablebases"})
            EXPECT_NE(r.err.find(part), std::string::npos) << command << ": " << part << "\n" << r.err;
    }
}

// Every command that reads tables finds them without --dir.
TEST(TableDirsCli, EveryReadingCommand) {
    const ScratchDir cwd;
    const std::string path = small_dir();
    const Output info = dtb_at(cwd.path(), path, "info --quick --json");
    ASSERT_EQ(info.status, 0) << info.err;
    EXPECT_EQ(Json::parse(info.out)["dirs"], Json::array({path}));
    const Output adjudicate = dtb_at(cwd.path(), path, "adjudicate --variant russian --moves-played 1 --json " + kFen);
    EXPECT_EQ(adjudicate.status, 0) << adjudicate.err;
    EXPECT_EQ(dtb_at(cwd.path(), path, "adjudicate --variant russian --report KKvK --json").status, 0);
    const Output show = dtb_at(cwd.path(), path, "show --variant russian --best " + kFen);
    ASSERT_EQ(show.status, 0) << show.err;
    EXPECT_NE(show.out.find("White wins in 3 plies; best (green)"), std::string::npos) << show.out;
    EXPECT_EQ(dtb_at(cwd.path(), path, "rule-report --variant russian --pieces 2 --json").status, 0);
    const Output analyze =
        dtb_at(cwd.path(), path, "analyze " + quote(std::string(DTB_ANALYZE_GAMES) + "/international_endgame.pdn"));
    EXPECT_EQ(analyze.status, 0) << analyze.err;
    EXPECT_NE(analyze.out.find("In the tables from the start"), std::string::npos) << analyze.out;
    // Without --dir and --best, dtb show and dtb adjudicate --pdn read no tables, as before.
    const Output plain = dtb_at(cwd.path(), "/nonexistent/dtb", "show --variant russian " + kFen);
    EXPECT_EQ(plain.status, 0) << plain.err;
    EXPECT_EQ(plain.out.find("wins"), std::string::npos) << plain.out;
}

// dtb gen writes into ./tablebases by default: where the others then look.
TEST(TableDirsCli, GenWritesWhereTheOthersLook) {
    const ScratchDir cwd;
    const Output gen = dtb_at(cwd.path(), std::nullopt, "gen --variant russian --pieces 2");
    ASSERT_EQ(gen.status, 0) << gen.err;
    EXPECT_TRUE(std::filesystem::exists(cwd / "tablebases" / "russian-KvK.wdl"));
    const Output probe = dtb_at(cwd.path(), std::nullopt, "probe --variant russian --json --fen W:WKa3:BKh6");
    ASSERT_EQ(probe.status, 0) << probe.err;
    EXPECT_EQ(Json::parse(probe.out)["wdl"], "draw");
    const Output verify = dtb_at(cwd.path(), std::nullopt, "verify --variant russian --json");
    ASSERT_EQ(verify.status, 0) << verify.err;
    EXPECT_EQ(Json::parse(verify.out)["dir"], "tablebases");
    // dtb verify checks one directory: DTB_PATH naming two is not a guess.
    const Output two = dtb_at(cwd.path(), "tablebases:" + small_dir(), "verify --variant russian");
    EXPECT_EQ(two.status, 2);
    EXPECT_NE(two.err.find("give --dir"), std::string::npos) << two.err;
}

TEST(TableDirsCli, HelpSaysSo) {
    for (const char* command : {"probe", "info", "analyze", "adjudicate", "show", "rule-report", "verify"}) {
        const Output help = dtb(std::string(command) + " --help");
        EXPECT_EQ(help.status, 0) << command;
        EXPECT_NE(help.out.find("DTB_PATH"), std::string::npos) << command << "\n" << help.out;
        EXPECT_NE(help.out.find("tablebases"), std::string::npos) << command << "\n" << help.out;
    }
    EXPECT_NE(dtb("gen --help").out.find("./tablebases"), std::string::npos);
}

}  // namespace
}  // namespace dtb::probe_test
