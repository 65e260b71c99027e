// dtb probe and dtb info, end to end: the built program run on the small
// table set, its exit status, its standard output (JSON fields, one result
// per line) and its messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "tables/signatures.hpp"
#include "tests/probe/cli_support.hpp"

namespace dtb::probe_test {
namespace {

using Json = nlohmann::ordered_json;

std::string small() { return quote(small_tables().string()); }

TEST(Cli, OneFenAsJson) {
    const Output r = dtb("probe --variant russian --dir " + small() + " --fen W:WKa1,Kc3:BKh8 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"fen", "wdl", "dtw", "best_move", "pv", "rule_wdl", "rule_class", "dtc",
                                              "rule_line"}));
    EXPECT_TRUE(j["rule_line"].empty());
    EXPECT_TRUE(j["rule_wdl"].is_null());  // no .dtc tables in that directory
    EXPECT_TRUE(j["dtc"].is_null());
    EXPECT_EQ(j["fen"], "W:WKc3,Ka1:BKh8");
    EXPECT_EQ(j["wdl"], "win");
    EXPECT_EQ(j["dtw"], 3);
    ASSERT_EQ(j["pv"].size(), 3u);
    EXPECT_EQ(j["pv"][0], j["best_move"]);
    EXPECT_EQ(j["pv"][2], "a1:h8");  // whatever Black does on the long diagonal, a1 takes it
}

TEST(Cli, OneFenAsTextWithDiagram) {
    const Output r = dtb("probe --variant russian --dir " + small() + " --fen B:WKa1,Kc1:BKh8");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Black to move"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" 8  "), std::string::npos) << r.out;  // the diagram's top rank
    EXPECT_NE(r.out.find("Black loses in 2 plies (White needs 1 move)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Line:      1... h8-g7 2. a1:h8"), std::string::npos) << r.out;
}

TEST(Cli, DrawsAndLostPositions) {
    Output r = dtb("probe --variant russian --dir " + small() + " --fen W:WKa3:BKh6 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    Json j = Json::parse(r.out);
    EXPECT_EQ(j["wdl"], "draw");
    EXPECT_TRUE(j["dtw"].is_null());
    EXPECT_TRUE(j["best_move"].is_string());
    EXPECT_TRUE(j["pv"].empty());
    r = dtb("probe --variant russian --dir " + small() + " --fen W:Wh2:Bg3,f4 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    j = Json::parse(r.out);
    EXPECT_EQ(j["wdl"], "loss");
    EXPECT_EQ(j["dtw"], 0);
    EXPECT_TRUE(j["best_move"].is_null());
    EXPECT_TRUE(j["pv"].empty());
    r = dtb("probe --variant russian --dir " + small() + " --fen W:Wh2:Bg3,f4");
    EXPECT_NE(r.out.find("White has lost: no legal move"), std::string::npos) << r.out;
    r = dtb("probe --variant russian --dir " + small() + " --fen W:WKa3:BKh6");
    EXPECT_NE(r.out.find("a draw has no line"), std::string::npos) << r.out;
}

TEST(Cli, InternationalNumbers) {
    const Output r = dtb("probe --variant international --dir " + small() + " --fen W:W28,K46:B23,K5 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["fen"], "W:W28,K46:BK5,23");
    EXPECT_EQ(j["best_move"], "28x19");  // PDN writes numbered captures with x
    const Output text = dtb("probe --variant international --dir " + small() + " --fen W:W28,K46:B23,K5");
    EXPECT_NE(text.out.find("Best move: 28x19\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Line:      1. 28x19 "), std::string::npos) << text.out;
}

// Captures in numbered notation are written with x (32x23) by every
// command that writes moves, algebraic ones with ':' (c3:e5); both are read.
TEST(Cli, NumberedCapturesAreWrittenWithX) {
    const Output moves = dtb("moves --variant international --fen W:W32,K46:B28,K5 --json");
    ASSERT_EQ(moves.status, 0) << moves.err;
    EXPECT_EQ(Json::parse(moves.out)["moves"], Json::parse(R"(["32x23"])"));
    // Every capture route in full, its turning squares marked with x too.
    const Output keep = dtb("moves --variant international --fen W:WK37:B21,22,31,32 --duplicates keep --json");
    ASSERT_EQ(keep.status, 0) << keep.err;
    EXPECT_EQ(Json::parse(keep.out)["moves"],
              Json::parse(R"(["37x26x17x28x37", "37x26x17x28x41", "37x26x17x28x46", "37x28x17x26x37",)"
                          R"( "37x28x17x26x42", "37x28x17x26x48"])"));
    const Output two = dtb("moves --variant international --fen W:WK20:B8,23,24,37 --json");
    EXPECT_EQ(Json::parse(two.out)["moves"], Json::parse(R"(["20x29x12x3", "20x42x26x3"])")) << two.out;
    const Output perft = dtb("perft --variant international --fen W:W32,K46:B28,K5 --depth 1 --divide --json");
    EXPECT_EQ(Json::parse(perft.out)["divide"][0]["move"], "32x23") << perft.out;
    const Output russian = dtb("moves --variant russian --fen W:Wc3:Bd4 --json");
    EXPECT_EQ(Json::parse(russian.out)["moves"], Json::parse(R"(["c3:e5"])"));
    for (const char* written : {"32x23", "32:23", "32-23", "32X23"}) {
        const Output shown = dtb(std::string("show --variant international --fen W:W32,K46:B28,K5 --move ") + written);
        EXPECT_EQ(shown.status, 0) << written << "\n" << shown.err;
        EXPECT_NE(shown.out.find("played (red): 32x23"), std::string::npos) << written;
    }
}

// A 10x10 board as text is labelled with its square numbers, as everything
// else writes them, not with files a-j.
TEST(Cli, InternationalBoardLabelledWithNumbers) {
    const Output r = dtb("moves --variant international --fen W:W32,K46:B28,K5");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind(" 1- 5    .   .   .   .   B\n 6-10  .   .   .   .   .  \n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\n31-35    .   w   .   .   .\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n46-50  W   .   .   .   .  \nWhite to move\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(" a b c"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 legal move:\n  32x23\n"), std::string::npos) << r.out;
    // The 8x8 boards keep their files and ranks.
    const Output russian = dtb("moves --variant russian --fen W:Wc3:Bd4,f6");
    EXPECT_NE(russian.out.find("\n    a b c d e f g h\n"), std::string::npos) << russian.out;
    EXPECT_EQ(russian.out.rfind(" 8    .   .   .   .\n", 0), 0u) << russian.out;
}

// A light square of an algebraic board is called one.
TEST(Cli, LightSquareInAFen) {
    const Output r = dtb("moves --variant russian --fen W:Wa8:Bh8");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("'a8' is a light square of the russian board; pieces stand on the dark squares"),
              std::string::npos)
        << r.err;
    const Output off = dtb("moves --variant russian --fen W:Wi9:Bh8");
    EXPECT_EQ(off.status, 2);
    EXPECT_NE(off.err.find("not a square of the russian board: 'i9'"), std::string::npos) << off.err;
    const Output range_end = dtb("moves --variant international --fen W:W31-51:B1");
    EXPECT_NE(range_end.err.find("not a square of the international board: '51'"), std::string::npos) << range_end.err;
}

// dtb info names each file's metric by its extension: .dtc files are dtc.
TEST(Cli, InfoLabelsDtcFiles) {
    const ScratchDir dir;
    const Output gen = dtb("gen --variant russian --only KvK --dtc --dir " + quote(dir.path().string()));
    ASSERT_EQ(gen.status, 0) << gen.err;
    const Output r = dtb("info --json --dir " + quote(dir.path().string()));
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    std::map<std::string, std::string> metrics;
    for (const Json& t : j["tables"])
        metrics[std::filesystem::path(t["file"].get<std::string>()).extension().string()] = t["metric"];
    EXPECT_EQ(metrics, (std::map<std::string, std::string>{{".dtc", "dtc"}, {".dtw", "dtw"}, {".wdl", "wdl"}}));
    std::set<std::string> totals;
    for (const Json& t : j["totals"]) totals.insert(t["metric"].get<std::string>());
    EXPECT_EQ(totals, (std::set<std::string>{"dtc", "dtw", "wdl"}));
    const Output text = dtb("info --dir " + quote(dir.path().string()));
    EXPECT_NE(text.out.find("russian        KvK         dtc"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("total russian       dtc"), std::string::npos) << text.out;
}

TEST(Cli, BadFenIsExitTwo) {
    const Output r = dtb("probe --variant russian --dir " + small() + " --fen W:Wz9:Bb8");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("bad FEN"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    const Output over = dtb("probe --variant russian --dir " + small() + " --fen W:Wc3:B");
    EXPECT_EQ(over.status, 2);
    EXPECT_NE(over.err.find("already over"), std::string::npos) << over.err;
}

TEST(Cli, MissingTableIsExitOneNamingTheFile) {
    const ScratchDir dir;
    for (const char* name : {"russian-KvK.wdl", "russian-KvKK.wdl"})
        std::filesystem::copy_file(small_tables() / name, dir / name);
    const std::string args = "probe --variant russian --dir " + quote(dir.path().string()) + " --fen ";
    const Output r = dtb(args + "W:WKa1,Kc3:BKh8");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("missing table russian-KKvK.wdl"), std::string::npos) << r.err;
    // Above the largest table present it is "too many pieces", and the file is named too.
    const Output big = dtb(args + "W:WKa1,Kc3:BKh8,Kb8");
    EXPECT_EQ(big.status, 1);
    EXPECT_NE(big.err.find("4 pieces"), std::string::npos) << big.err;
    EXPECT_NE(big.err.find("russian-KKvKK.wdl"), std::string::npos) << big.err;
    const Output too_many = dtb("probe --variant russian --dir " + small() + " --fen W:Wa1,c1,e1:Bb8,d8,f8");
    EXPECT_EQ(too_many.status, 1);
    EXPECT_NE(too_many.err.find("6 pieces"), std::string::npos) << too_many.err;
}

TEST(Cli, MissingDirectoryIsExitOne) {
    // A missing directory is a missing file (the exit status contract).
    const Output r = dtb("probe --variant russian --dir /nonexistent/dtb --fen W:WKa1:BKh8");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("/nonexistent/dtb"), std::string::npos) << r.err;
}

// Copies the distributed files (.wdl and .dtw) of the Russian tables of up
// to three pieces ("russian-KKvK" is as long as a name gets) into `dir`.
void copy_russian_three_piece_files(const std::filesystem::path& dir) {
    for (const auto& e : std::filesystem::directory_iterator(small_tables())) {
        const std::string name = e.path().filename().string();
        if (name.starts_with("russian-") && name.find('.') <= std::string("russian-KKvK").size() &&
            (e.path().extension() == ".wdl" || e.path().extension() == ".dtw"))
            std::filesystem::copy_file(e.path(), dir / name);
    }
}

// dtb verify --journal: the second run recomputes nothing and says so in
// its JSON; a journal of the other variant is bad input.
TEST(Cli, VerifyJournalSparesWhatWasChecked) {
    const ScratchDir dir;
    copy_russian_three_piece_files(dir.path());
    const std::string journal = quote((dir.path() / "journal.json").string());
    const std::string command = "verify --variant russian --dir " + quote(dir.path().string()) + " --json --journal ";
    const Output first = dtb(command + journal);
    ASSERT_EQ(first.status, 0) << first.err;
    const Json a = Json::parse(first.out);
    EXPECT_EQ(a["tables_from_journal"].get<int>(), 0);
    ASSERT_GE(a["tables"].size(), 5u);
    const Output second = dtb(command + journal);
    ASSERT_EQ(second.status, 0) << second.err;
    const Json b = Json::parse(second.out);
    EXPECT_TRUE(b["ok"].get<bool>());
    EXPECT_EQ(b["tables_from_journal"].get<std::size_t>(), b["tables"].size());
    EXPECT_EQ(b["positions"], a["positions"]);
    for (const Json& t : b["tables"]) EXPECT_TRUE(t["journal_verified_at"].is_string()) << t.dump();
    const Output other =
        dtb("verify --variant international --dir " + quote(dir.path().string()) + " --journal " + journal);
    EXPECT_EQ(other.status, 2) << other.err;
    EXPECT_NE(other.err.find("journal.json"), std::string::npos) << other.err;
}

// A file named like a table but not a table's name is not read: verify says
// so in its text and JSON, and still passes the tables it did check.
TEST(Cli, VerifyNamesTheFilesItIgnores) {
    const ScratchDir dir;
    copy_russian_three_piece_files(dir.path());
    std::ofstream(dir.path() / "russian-KKvk.wdl") << "not a table";
    const std::string command = "verify --variant russian --dir " + quote(dir.path().string());
    const Output json = dtb(command + " --json");
    ASSERT_EQ(json.status, 0) << json.err;
    const Json j = Json::parse(json.out);
    EXPECT_TRUE(j["ok"].get<bool>());
    EXPECT_EQ(j["ignored_files"], Json::array({"russian-KKvk.wdl"}));
    const Output text = dtb(command);
    EXPECT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("ignored: russian-KKvk.wdl"), std::string::npos) << text.out;
}

// Every command keeps one contract: 0 success, 1 failure (a check that
// found a problem, a missing or corrupt file or directory, tables that
// cannot answer), 2 bad input or usage; and says so in its --help.
TEST(Cli, ExitStatusContract) {
    const Output info = dtb("info --dir /nonexistent/dtb");
    EXPECT_EQ(info.status, 1) << info.err;
    EXPECT_NE(info.err.find("/nonexistent/dtb"), std::string::npos) << info.err;
    const ScratchDir empty;
    EXPECT_EQ(dtb("info --dir " + quote(empty.path().string())).status, 1);
    EXPECT_EQ(dtb("probe --variant russian --dir /nonexistent/dtb --fen W:WKa1:BKh8").status, 1);
    EXPECT_EQ(dtb("verify --variant russian --dir " + quote(empty.path().string())).status, 1);
    {
        // A table whose file is missing fails the run, named, without
        // stopping the check of the others.
        const ScratchDir partial;
        copy_russian_three_piece_files(partial.path());
        std::filesystem::remove(partial.path() / "russian-KvK.dtw");
        const Output r = dtb("verify --variant russian --dir " + quote(partial.path().string()) + " --json");
        EXPECT_EQ(r.status, 1) << r.err;
        const Json j = Json::parse(r.out);
        EXPECT_FALSE(j["ok"].get<bool>());
        EXPECT_EQ(j["damaged_tables"].get<int>(), 1);
        EXPECT_GE(j["unchecked_tables"].get<int>(), 1);
        for (const Json& t : j["tables"])
            for (const Json& why : t["unchecked"])
                EXPECT_NE(why.get<std::string>().find("russian-KvK.dtw"), std::string::npos);
    }
    for (const char* memory : {"lots", "1M"}) {
        const Output r = dtb("verify --variant russian --dir " + small() + " --memory " + memory);
        EXPECT_EQ(r.status, 2) << memory << "\n" << r.err;
        EXPECT_NE(r.err.find("--memory"), std::string::npos) << r.err;
    }
    {
        // dtb gen refuses bad input before it writes anything.
        const ScratchDir out;
        const std::string gen = "gen --variant russian --dir " + quote((out.path() / "tables").string());
        for (const auto& [args, named] :
             std::vector<std::pair<std::string, std::string>>{{" --pieces 3 --memory lots", "--memory"},
                                                              {" --pieces 3 --memory 1M", "--memory"},
                                                              {" --only KKvKZ", "bad signature 'KKvKZ'"},
                                                              {" --only KKKKKKKKKKKKKvK", "more pieces on a side"},
                                                              {" --pieces 3 --only KKKKvK", "more than --pieces 3"},
                                                              {"", "--pieces"}}) {
            const Output r = dtb(gen + args);
            EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
            EXPECT_NE(r.err.find(named), std::string::npos) << args << "\n" << r.err;
        }
        EXPECT_FALSE(std::filesystem::exists(out.path() / "tables"));
    }
    EXPECT_EQ(dtb("adjudicate --variant russian --pdn /nonexistent/games.pdn").status, 1);
    for (const std::string& bad_fen : {"probe --variant russian --dir " + small() + " --fen W:Wz9:Bb8",
                                       std::string("moves --variant russian --fen W:Wz9:Bb8"),
                                       std::string("perft --variant russian --depth 1 --fen W:Wz9:Bb8")}) {
        const Output r = dtb(bad_fen);
        EXPECT_EQ(r.status, 2) << bad_fen << "\n" << r.err;
        EXPECT_NE(r.err.find("bad FEN"), std::string::npos) << bad_fen << "\n" << r.err;
    }
    for (const char* unknown : {"probe --variant russian --dir x --no-such-option", "info --dir x --frobnicate",
                                "adjudicate --variant russian --pdn x.pdn --nope", "frobnicate"}) {
        const Output r = dtb(unknown);
        EXPECT_EQ(r.status, 2) << unknown << "\n" << r.err;
        EXPECT_FALSE(r.err.empty()) << unknown;
    }
    for (const char* command : {"", "perft ", "moves ", "gen ", "verify ", "probe ", "info ", "adjudicate "}) {
        const Output help = dtb(std::string(command) + "--help");
        EXPECT_EQ(help.status, 0) << command;
        EXPECT_NE(help.out.find("Exit status: 0 success; 1 failure"), std::string::npos) << command << help.out;
        EXPECT_NE(help.out.find("2 bad input or usage"), std::string::npos) << command << help.out;
    }
}

TEST(Cli, StandardInputOneJsonPerLine) {
    const std::string input =
        "W:WKa1,Kc3:BKh8\n"
        "\n"                         // skipped
        "not a fen\n"                // bad input: reported, and the run goes on
        "W:Wa1,c1,e1:Bb8,d8,f8\r\n"  // too many pieces (CR LF too)
        "W:WKa3:BKh6\n";
    const Output r = dtb("probe --variant russian --dir " + small() + " --json", input);
    EXPECT_EQ(r.status, 2) << "a bad FEN among the lines";
    const auto lines = r.lines();
    ASSERT_EQ(lines.size(), 4u) << r.out;
    const Json first = Json::parse(lines[0]), bad = Json::parse(lines[1]), big = Json::parse(lines[2]),
               draw = Json::parse(lines[3]);
    EXPECT_EQ(first["wdl"], "win");
    EXPECT_EQ(first["dtw"], 3);
    EXPECT_EQ(bad["fen"], "not a fen");
    EXPECT_NE(bad["error"].get<std::string>().find("bad FEN"), std::string::npos);
    EXPECT_EQ(big["fen"], "W:Wa1,c1,e1:Bb8,d8,f8");
    EXPECT_NE(big["error"].get<std::string>().find("6 pieces"), std::string::npos);
    EXPECT_EQ(draw["wdl"], "draw");
}

TEST(Cli, StandardInputExitStatus) {
    const std::string args = "probe --variant russian --dir " + small();
    EXPECT_EQ(dtb(args, "W:WKa1,Kc3:BKh8\nB:WKa1,Kc1:BKh8\n").status, 0);
    EXPECT_EQ(dtb(args, "W:WKa1,Kc3:BKh8\nW:Wa1,c1,e1:Bb8,d8,f8\n").status, 1);
    const Output text = dtb(args, "W:WKa1,Kc3:BKh8\nW:W\n");
    EXPECT_EQ(text.status, 2);
    const auto lines = text.lines();
    ASSERT_EQ(lines.size(), 2u) << text.out;
    EXPECT_EQ(lines[0].rfind("W:WKc3,Ka1:BKh8  win in 3  best ", 0), 0u) << lines[0];
    EXPECT_NE(lines[1].find("error:"), std::string::npos) << lines[1];
}

TEST(Cli, InfoListsEveryTable) {
    const Output r = dtb("info --dir " + small() + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    std::map<std::string, int> tables;
    std::map<std::string, bool> stores;  // file name: whether it stores positions
    for (const Json& t : j["tables"]) {
        tables[t["variant"].get<std::string>()]++;
        EXPECT_TRUE(t["valid"].get<bool>()) << t.dump();
        EXPECT_GT(t["bits_per_position"].get<double>(), 0.0);
        stores[std::filesystem::path(t["file"].get<std::string>()).filename().string()] =
            t["stores_positions"].get<bool>();
    }
    // The small set is in format 3: of two mirrors, one stores nothing.
    EXPECT_TRUE(stores.at("russian-KvK.wdl"));
    EXPECT_NE(stores.at("russian-KKvK.wdl"), stores.at("russian-KvKK.wdl"));
    EXPECT_EQ(stores.at("russian-KKvK.wdl"), stores.at("russian-KKvK.dtw"));
    // Both metrics of every signature: Russian up to 4 pieces, international and Brazilian up to 3.
    EXPECT_EQ(tables["russian"], 2 * int(all_signatures(VariantId::Russian, 4).size()));
    EXPECT_EQ(tables["international"], 2 * int(all_signatures(VariantId::International, 3).size()));
    EXPECT_EQ(tables["brazilian"], 2 * int(all_signatures(VariantId::Brazilian, 3).size()));
    EXPECT_EQ(tables.size(), 3u);
    ASSERT_EQ(j["totals"].size(), 6u);  // each variant's two metrics
    EXPECT_EQ(j["all"]["invalid"], 0);
    const Output text = dtb("info --dir " + small());
    EXPECT_NE(text.out.find("KKvK"), std::string::npos);
    EXPECT_NE(text.out.find("bits/position"), std::string::npos);
}

TEST(Cli, InfoReportsDamage) {
    const ScratchDir dir;
    for (const char* name : {"russian-KvK.wdl", "russian-KvK.dtw"})
        std::filesystem::copy_file(small_tables() / name, dir / name);
    {
        std::fstream f(dir / "russian-KvK.dtw", std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(-5, std::ios::end);  // inside the last block: only the full check sees it
        const char c = char(f.get() ^ 0xFF);
        f.seekp(-5, std::ios::end);
        f.put(c);
    }
    const Output quick = dtb("info --quick --dir " + quote(dir.path().string()));
    EXPECT_EQ(quick.status, 0) << quick.out << quick.err;
    const Output full = dtb("info --dir " + quote(dir.path().string()));
    EXPECT_EQ(full.status, 1);
    EXPECT_NE(full.out.find("BAD"), std::string::npos) << full.out;
    EXPECT_NE(full.out.find("russian-KvK.dtw"), std::string::npos) << full.out;
    EXPECT_EQ(dtb("info --dir " + quote(dir.path().string()) + " --json").status, 1);
    // A directory where a table should be is reported, not a crash.
    std::filesystem::create_directory(dir / "russian-KvKK.wdl");
    const Output odd = dtb("info --quick --dir " + quote(dir.path().string()));
    EXPECT_EQ(odd.status, 1) << odd.err;
    EXPECT_NE(odd.out.find("not a regular file"), std::string::npos) << odd.out;
}

TEST(Cli, HelpTeaches) {
    const Output top = dtb("--help");
    EXPECT_EQ(top.status, 0);
    EXPECT_NE(top.out.find("probe"), std::string::npos);
    EXPECT_NE(top.out.find("info"), std::string::npos);
    const Output probe = dtb("probe --help");
    EXPECT_EQ(probe.status, 0);
    for (const char* words : {"--fen", "--json", "standard input", "Exit status", "Example"})
        EXPECT_NE(probe.out.find(words), std::string::npos) << words;
    EXPECT_EQ(dtb("probe --variant chess --dir x").status, 2);
}

}  // namespace
}  // namespace dtb::probe_test
