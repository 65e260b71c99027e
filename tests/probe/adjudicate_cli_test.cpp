// dtb adjudicate end to end: the built program on generated tables and on
// the PDN games of tests/rules/draw_games, its exit status, its JSON fields
// and its words.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/probe/cli_json.hpp"
#include "tests/probe/cli_support.hpp"
#include "tests/scratch_dir.hpp"

namespace dtb::probe_test {
namespace {

std::vector<std::string> keys(const Json& j) {
    std::vector<std::string> k;
    for (const auto& [key, value] : j.items()) k.push_back(key);
    return k;
}

// The fixture made the tables; when this program runs alone, make them.
std::string tables() {
    static std::once_flag once;
    std::call_once(once, [] { make_adjudication_tables(DTB_ADJUDICATE_TABLES); });
    return quote(DTB_ADJUDICATE_TABLES);
}

std::string games(const std::string& file) { return quote(std::string(DTB_DRAW_GAMES) + "/" + file); }

const std::string kDemo = "--variant russian --fen W:WKf8,Ke7,Kh6:BKb8";

// ---------------------------------------------------------------------------
// --fen

TEST(AdjudicateCli, DemoPositionInWords) {
    Output r = dtb("adjudicate " + kDemo + " --dir " + tables() + " --moves-played 3");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Winnable:  no"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Draw by rule 2.1.9.1.4: White needs 13 moves"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("leaves White 12 of its 15 moves (3 played)"), std::string::npos) << r.out;
    r = dtb("adjudicate " + kDemo + " --dir " + tables() + " --moves-played 2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Winnable:  yes"), std::string::npos) << r.out;
}

TEST(AdjudicateCli, JsonFields) {
    const Output r = dtb("adjudicate " + kDemo + " --dir " + tables() + " --moves-played 3 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(keys(j), (std::vector<std::string>{"variant",
                                                 "fen",
                                                 "moves_played",
                                                 "king_moves_played",
                                                 "conversion_moves_played",
                                                 "rule",
                                                 "rule_title",
                                                 "limit_moves",
                                                 "moves_left",
                                                 "winnable",
                                                 "exact",
                                                 "moves_needed",
                                                 "verdict",
                                                 "basis",
                                                 "stronger_side",
                                                 "wdl",
                                                 "dtw",
                                                 "dtc",
                                                 "also_ending_then",
                                                 "rules_considered"}));
    EXPECT_EQ(j["rule"], "2.1.9.1.4");
    EXPECT_EQ(j["limit_moves"], 15);
    EXPECT_EQ(j["moves_left"], 12);
    EXPECT_EQ(j["winnable"], false);
    EXPECT_EQ(j["exact"], true);
    EXPECT_EQ(j["moves_needed"], 13);
    EXPECT_EQ(j["stronger_side"], "white");
    EXPECT_EQ(j["dtw"], 25);
    EXPECT_EQ(j["also_ending_then"], Json::array({"2.1.9.1.8"}));
    ASSERT_EQ(j["rules_considered"].size(), 8u);
    EXPECT_EQ(keys(j["rules_considered"][1]), (std::vector<std::string>{"rule", "title", "limit_moves", "applies",
                                                                        "moves_played", "moves_left", "ends_first"}));
    EXPECT_EQ(keys(j["rules_considered"][0]),
              (std::vector<std::string>{"rule", "title", "limit_moves", "applies", "why_not"}));
}

TEST(AdjudicateCli, DrawWithBestPlayHasNoMovesNeeded) {
    // The lone king on the main road holds: moves_needed is null.
    const Output r =
        dtb("adjudicate --variant russian --fen B:WKc1,Ke1,Kg1:BKh8 --dir " + tables() + " --moves-played 0 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["rule"], "2.1.9.1.7");
    EXPECT_EQ(j["limit_moves"], 5);
    EXPECT_EQ(j["winnable"], false);
    EXPECT_TRUE(j["moves_needed"].is_null());
    EXPECT_EQ(j["wdl"], "draw");
}

TEST(AdjudicateCli, NoRuleIsNull) {
    const Output r =
        dtb("adjudicate --variant russian --fen W:Wc3,e3:BKh8 --dir " + tables() + " --moves-played 0 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_TRUE(j["rule"].is_null());
    EXPECT_TRUE(j["limit_moves"].is_null());
    EXPECT_TRUE(j["moves_left"].is_null());
    EXPECT_TRUE(j["moves_needed"].is_null());
    EXPECT_EQ(j["winnable"], false);
}

TEST(AdjudicateCli, InternationalFiveMoves) {
    const Output r =
        dtb("adjudicate --variant international --fen W:WK47,K48:BK3 --dir " + tables() + " --moves-played 1 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["rule"], "3.5 (5 moves)");
    EXPECT_EQ(j["moves_left"], 4);
}

TEST(AdjudicateCli, BadInputIsStatusTwo) {
    const std::string dir = " --dir " + tables();
    for (const std::string& args : std::vector<std::string>{
             "adjudicate --variant russian --fen W:WKz9:BKb8 --moves-played 0" + dir,          // no square z9
             "adjudicate --variant russian --fen W:W31,50:BK3 --moves-played 0" + dir,         // square 50 on 8x8
             "adjudicate --variant checkers " + kDemo.substr(17) + " --moves-played 0" + dir,  // no such variant
             "adjudicate " + kDemo + " --moves-played -1" + dir,
             "adjudicate " + kDemo + " --moves-played 2 --king-moves -3" + dir,
             "adjudicate " + kDemo + dir,                                               // no --moves-played
             "adjudicate --variant russian --moves-played 3" + dir,                     // nothing to adjudicate
             "adjudicate " + kDemo + " --moves-played 3 --pdn x.pdn" + dir,             // two things
             "adjudicate --variant international --pdn " + games("russian_games.pdn"),  // moves of the other board
             "adjudicate --variant russian --report KKKvX" + dir,
         }) {
        const Output r = dtb(args);
        EXPECT_EQ(r.status, 2) << args << "\n" << r.out << r.err;
        EXPECT_FALSE(r.err.empty()) << args;
    }
    const ScratchDir nowhere;  // no --dir, no DTB_PATH, no ./tablebases
    const Output no_dir = dtb_at(nowhere.path(), std::nullopt, "adjudicate " + kDemo + " --moves-played 3");
    EXPECT_EQ(no_dir.status, 2) << no_dir.err;
    EXPECT_NE(no_dir.err.find("DTB_PATH"), std::string::npos) << no_dir.err;
}

TEST(AdjudicateCli, MissingTableIsStatusOne) {
    const ScratchDir empty;
    const Output r = dtb("adjudicate " + kDemo + " --moves-played 3 --dir " + quote(empty.path().string()));
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("russian-KKKvK"), std::string::npos) << r.err;
}

TEST(AdjudicateCli, MissingFileOrDirectoryIsStatusOne) {
    for (const std::string& args : std::vector<std::string>{
             "adjudicate --variant russian --pdn /nonexistent/games.pdn",
             "adjudicate " + kDemo + " --moves-played 3 --dir /nonexistent/tables",
             "adjudicate --variant russian --pdn " + games("russian_games.pdn") + " --dir /nonexistent/tables",
             "adjudicate --variant russian --report KKKvK --dir /nonexistent/tables",
         }) {
        const Output r = dtb(args);
        EXPECT_EQ(r.status, 1) << args << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("/nonexistent/"), std::string::npos) << args << "\n" << r.err;
    }
}

// ---------------------------------------------------------------------------
// --pdn

struct GameExpected {
    std::string rule;  // "" for none
    int move_number;
    std::string side;
};

void check_games(const std::string& variant, const std::string& file, const std::vector<GameExpected>& expected) {
    const Output r = dtb("adjudicate --variant " + variant + " --pdn " + games(file) + " --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<Json> lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), expected.size());
    for (std::size_t g = 0; g < lines.size(); ++g) {
        const Json& j = lines[g];
        SCOPED_TRACE(j["tags"]["Event"].get<std::string>());
        EXPECT_EQ(j["game"], g + 1);
        if (expected[g].rule.empty()) {
            EXPECT_TRUE(j["draw_rule"].is_null());
            EXPECT_TRUE(j["move_number"].is_null());
            continue;
        }
        EXPECT_EQ(j["draw_rule"], expected[g].rule);
        EXPECT_EQ(j["move_number"], expected[g].move_number);
        EXPECT_EQ(j["side"], expected[g].side);
        EXPECT_FALSE(j["reason"].get<std::string>().empty());
    }
}

TEST(AdjudicateCli, RussianGamesReportTheMove) {
    check_games("russian", "russian_games.pdn",
                {
                    {"2.1.9.1.7", 5, "white"},
                    {"2.1.9.1.4", 15, "white"},
                    {"2.1.9.1.3", 15, "white"},
                    {"2.1.9.1.5 (2-3 pieces)", 5, "black"},
                    {"2.1.9.1.5 (4-5 pieces)", 30, "black"},
                    {"2.1.9.1.8", 15, "black"},
                    {"2.1.9.1.9", 4, "black"},
                    {"2.1.9.1.5 (2-3 pieces)", 8, "white"},
                    {"2.1.9.1.5 (2-3 pieces)", 5, "black"},
                    {"", 0, ""},
                    {"2.1.9.1.5 (2-3 pieces)", 6, "white"},  // Black moved first: ply 10 is White's 6th move
                });
}

TEST(AdjudicateCli, InternationalGamesReportTheMove) {
    check_games("international", "international_games.pdn",
                {
                    {"3.5 (16 moves)", 16, "white"},
                    {"3.5 (5 moves)", 5, "white"},
                    {"3.5 (25 king moves)", 25, "black"},
                    {"3.5 (repetition, 2.1.9.1.9)", 4, "black"},
                    {"3.5 (5 moves)", 5, "white"},
                });
}

// examples/games.pdn: what docs/ADJUDICATION.md says of each game, and that the
// first was winnable when its count began.
TEST(AdjudicateCli, ExampleGamesAsReadmeSays) {
    const std::string examples = "../../../examples/games.pdn";  // from tests/rules/draw_games
    check_games("russian", examples,
                {{"2.1.9.1.4", 15, "white"}, {"2.1.9.1.7", 5, "white"}, {"2.1.9.1.9", 4, "black"}});
    const Output r = dtb("adjudicate --variant russian --pdn " + games(examples) + " --json --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<Json> lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0]["at_count_start"]["winnable"], true);
    EXPECT_TRUE(lines[0]["at_count_start"]["exact"].get<bool>());
}

TEST(AdjudicateCli, PdnJsonFieldsAndTablesWhereTheCountBegan) {
    const Output r =
        dtb("adjudicate --variant russian --pdn " + games("russian_games.pdn") + " --json --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::vector<Json> lines = json_lines(r.out);
    ASSERT_GE(lines.size(), 2u);
    const Json& g2 = lines[1];  // 2.1.9.1.4 from a setup position
    EXPECT_EQ(keys(g2), (std::vector<std::string>{"game", "tags", "plies", "result", "draw_rule", "rule_title",
                                                  "move_number", "side", "ply", "move", "reason", "also", "plies_after",
                                                  "count_started", "at_count_start", "wins_slipped"}));
    EXPECT_EQ(g2["ply"], 29);
    EXPECT_EQ(g2["count_started"]["ply"], 0);
    EXPECT_EQ(g2["at_count_start"]["fen"], "W:WKc1,Ke1,Kg1:BKh6");
    EXPECT_EQ(g2["at_count_start"]["rule"], "2.1.9.1.4");
    EXPECT_TRUE(g2["at_count_start"]["exact"].get<bool>());
    // Three kings win this from the start, well inside 15 moves: the game
    // record simply did not.
    EXPECT_EQ(g2["at_count_start"]["winnable"], true);
    EXPECT_EQ(g2["at_count_start"]["counts"], (Json{{"plies_since_conversion", 0}, {"plies_of_kings_only", 0}}));
    // ... and so the record let it slip, by a move of White each time.
    ASSERT_TRUE(g2["wins_slipped"].is_array());
    ASSERT_FALSE(g2["wins_slipped"].empty());
    for (const Json& slip : g2["wins_slipped"]) EXPECT_EQ(slip["side"], "white") << slip;
    // The game without a draw has no count; with the tables, its end is
    // judged where they cover it (not here: null).
    EXPECT_EQ(keys(lines[9]), (std::vector<std::string>{"game", "tags", "plies", "result", "draw_rule", "move_number",
                                                        "side", "reason", "at_end"}));
    EXPECT_TRUE(lines[9]["at_end"].is_null());
}

// The moves that let a win slip, found with the game's counts to the ply,
// against dtb adjudicate --fen (the C API, whole moves) at the positions
// after each pair of plies from the count's start, where both sides have
// made k moves: the other side's move cannot give a win away, so a win at
// ply 2k and none at ply 2k + 2 puts a slip at ply 2k + 1; and a slip at
// ply 2k + 1 needs a win at ply 2k.
void slips_agree_with_fen(const std::string& pdn, std::size_t game, const std::string& dir) {
    const Output replay = dtb("adjudicate --variant russian --pdn " + pdn + " --json --dir " + dir);
    ASSERT_EQ(replay.status, 0) << replay.err;
    const Json g = json_lines(replay.out).at(game);
    ASSERT_EQ(g["count_started"]["ply"], 0) << g;
    const Output analysis = dtb("analyze " + pdn + " --variant russian --json --dir " + dir);
    ASSERT_EQ(analysis.status, 0) << analysis.err;
    const Json moves = json_lines(analysis.out).at(game)["moves"];
    const auto fen_after = [&](int ply) {
        return ply == 0 ? g["at_count_start"]["fen"].get<std::string>()
                        : moves.at(std::size_t(ply - 1))["fen_after"].get<std::string>();
    };
    const auto winnable = [&](int ply) {
        const Output r = dtb("adjudicate --variant russian --json --dir " + dir + " --fen " + quote(fen_after(ply)) +
                             " --moves-played " + std::to_string(ply / 2));
        EXPECT_EQ(r.status, 0) << r.err;
        const Json j = Json::parse(r.out);
        EXPECT_TRUE(j["exact"].get<bool>()) << j;
        return j["winnable"].get<bool>();
    };
    std::set<int> slips;
    for (const Json& slip : g["wins_slipped"]) slips.insert(slip["ply"].get<int>());
    const int draw = g["ply"].get<int>();
    int checked = 0;
    for (int ply = 0; ply + 2 < draw; ply += 2) {
        const bool before = winnable(ply), after = winnable(ply + 2);
        if (before && !after) {
            EXPECT_TRUE(slips.contains(ply + 1)) << "ply " << ply + 1;
        }
        if (!before) {
            EXPECT_FALSE(slips.contains(ply + 1)) << "ply " << ply + 1;
        }
        checked += before != after;
    }
    EXPECT_GT(checked, 0);
}

TEST(AdjudicateCli, SlipsAgreeWithFenAdjudication) {
    slips_agree_with_fen(games("russian_games.pdn"), 1, tables());
    slips_agree_with_fen(games("../../../examples/games.pdn"), 0, tables());
}

TEST(AdjudicateCli, PdnInWords) {
    const Output r = dtb("adjudicate --variant russian --pdn " + games("russian_games.pdn"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Draw by rule 2.1.9.1.8 at move 15 (Black, 15... d8-c7)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("11 games, 10 reached a draw by rule"), std::string::npos) << r.out;
}

// ---------------------------------------------------------------------------
// --report

TEST(AdjudicateCli, ReportAgreesWithTheManifest) {
    const Output r = dtb("adjudicate --variant russian --dir " + tables() + " --report KKKvK --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    const Json manifest = Json::parse(slurp(std::string(DTB_ADJUDICATE_TABLES) + "/russian-KKKvK.json"));
    const Json& all = j["sides"][0]["rows"][0];
    EXPECT_EQ(all["positions_with"], "all positions");
    EXPECT_EQ(all["positions"], manifest["positions"]);
    EXPECT_EQ(all["won"], manifest["wins"]);
    EXPECT_EQ(all["drawn"], manifest["draws"]);
    EXPECT_EQ(all["longest_win_moves"], (manifest["longest_win"].get<int>() + 1) / 2);
    EXPECT_EQ(all["won_within"]["15"], manifest["wins"]);  // every win within 15 moves
    // The other side to move: its losses are the stronger side's wins.
    const Json other = Json::parse(slurp(std::string(DTB_ADJUDICATE_TABLES) + "/russian-KvKKK.json"));
    EXPECT_EQ(j["sides"][1]["rows"][0]["won"], other["losses"]);
    EXPECT_EQ(j["sides"][1]["rows"][0]["lost"], other["wins"]);
    // Rows for the board conditions of 2.1.9.1.3 and 2.1.9.1.7.
    ASSERT_EQ(j["sides"][0]["rows"].size(), 3u);
    const Json& road = j["sides"][0]["rows"][2];
    EXPECT_EQ(road["positions_with"], "the lone king on the main road");
    EXPECT_LT(road["won_within"]["5"].get<long>(), all["won_within"]["5"].get<long>());
}

// ---------------------------------------------------------------------------
// dtb rule-report

// Every table up to three pieces, in words and JSON: each row adds up, and
// a win under the counts is always a win without them (the command fails
// otherwise), so the count-drawn wins are the difference.
TEST(RuleReportCli, RussianUpToThreePieces) {
    const Output text = dtb("rule-report --variant russian --pieces 3 --dir " + tables());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("count-drawn"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("KKvK"), std::string::npos) << text.out;
    const Output r = dtb("rule-report --variant russian --pieces 3 --json --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["variant"], "russian");
    ASSERT_EQ(j["tables"].size(), 16u);  // 4 of two pieces, 12 of three
    for (const Json& t : j["tables"]) {
        EXPECT_EQ(t["wins"].get<std::uint64_t>() + t["draws"].get<std::uint64_t>() + t["losses"].get<std::uint64_t>(),
                  t["positions"].get<std::uint64_t>())
            << t;
        EXPECT_EQ(t["wins"].get<std::uint64_t>() - t["rule_wins"].get<std::uint64_t>(),
                  t["count_drawn_wins"].get<std::uint64_t>())
            << t;
        EXPECT_LE(t["rule_losses"].get<std::uint64_t>(), t["losses"].get<std::uint64_t>()) << t;
    }
}

TEST(RuleReportCli, MissingTablesAndBadInput) {
    const Output missing = dtb("rule-report --variant international --pieces 4 --dir " + tables());
    EXPECT_EQ(missing.status, 1) << missing.out;  // international 4-piece tables are not there
    EXPECT_NE(missing.err.find("international-"), std::string::npos) << missing.err;
    EXPECT_EQ(dtb("rule-report --variant russian --pieces 9 --dir " + tables()).status, 2);
    EXPECT_EQ(dtb("rule-report --variant chess --pieces 3 --dir " + tables()).status, 2);
}

// The longest win under the counts of each table, with its position: the
// same from the .dtc files and from the solver in memory, on one thread or
// two (the first such position in index order), and the position probes to
// a win under the counts in exactly that many plies to conversion.
TEST(RuleReportCli, LongestWinPositions) {
    const test_support::ScratchDir dir;
    const std::string d = dir.path().string();
    ASSERT_EQ(dtb("gen --variant russian --only KKKvK --dtc --dir " + d).status, 0);
    const std::string ask = "rule-report --variant russian --only KKKvK --only KvKKK --only KKvK --json";
    const Output from_files = dtb(ask + " --threads 2 --dir " + d);
    ASSERT_EQ(from_files.status, 0) << from_files.err;
    EXPECT_NE(from_files.err.find(".dtc tables"), std::string::npos) << from_files.err;
    const Json rows = Json::parse(from_files.out);
    EXPECT_EQ(rows["pieces"], 4);  // the most of --only's tables
    ASSERT_EQ(rows["tables"].size(), 3u) << rows;
    for (const Json& t : rows["tables"]) {
        if (t["rule_wins"].get<std::uint64_t>() == 0) {
            EXPECT_TRUE(t["longest_rule_win_fen"].is_null()) << t;
            continue;
        }
        const std::string fen = t["longest_rule_win_fen"].get<std::string>();
        const Output probe = dtb("probe --variant russian --json --fen " + fen + " --dir " + d);
        ASSERT_EQ(probe.status, 0) << probe.err;
        const Json p = Json::parse(probe.out);
        EXPECT_EQ(p["rule_wdl"], "win") << t;
        EXPECT_EQ(p["dtc"], t["longest_rule_win_dtc"]) << t;
    }
    EXPECT_EQ(Json::parse(dtb(ask + " --threads 1 --dir " + d).out), rows);
    // tables() holds no .dtc files: the solver in memory (Russian <= 4).
    const Output solved = dtb(ask + " --dir " + tables());
    ASSERT_EQ(solved.status, 0) << solved.err;
    EXPECT_NE(solved.err.find("solving"), std::string::npos) << solved.err;
    EXPECT_EQ(Json::parse(solved.out), rows);
    // In words: a line per table that has a win.
    const Output text = dtb("rule-report --variant russian --only KKKvK --dir " + d);
    for (const Json& t : rows["tables"]) {
        if (t["table"] != "KKKvK") continue;
        EXPECT_NE(text.out.find(std::to_string(t["longest_rule_win_dtc"].get<int>()) + " plies  " +
                                t["longest_rule_win_fen"].get<std::string>()),
                  std::string::npos)
            << text.out;
    }

    EXPECT_EQ(dtb("rule-report --variant russian --only KKKvQ --dir " + d).status, 2);
    EXPECT_EQ(dtb("rule-report --variant russian --only KKKvK --pieces 3 --dir " + d).status, 2);
    EXPECT_EQ(dtb("rule-report --variant russian --only KKKKvKKKK --dir " + d).status, 2);
    // Seven pieces only from .dtc files, which name what is missing.
    const Output seven = dtb("rule-report --variant russian --pieces 7 --dir " + d);
    EXPECT_EQ(seven.status, 1);
    EXPECT_NE(seven.err.find("russian-"), std::string::npos) << seven.err;
}

// dtb gen --dtc, then the values under the counts through every command
// that shows them: dtb verify, dtb probe, dtb adjudicate with the count
// since the last conversion apart.
TEST(DtcCli, BuildVerifyProbeAdjudicate) {
    const test_support::ScratchDir dir;
    const std::string d = dir.path().string();
    const Output gen = dtb("gen --variant russian --only KKKvK --dtc --json --dir " + d);
    ASSERT_EQ(gen.status, 0) << gen.err;
    const Json built = Json::parse(gen.out);
    ASSERT_EQ(built["built_dtc"].size(), 5u) << built;  // KKKvK, KvKKK, KKvK, KvKK, KvK
    for (const Json& t : built["built_dtc"]) {
        EXPECT_GT(t["dtc_bytes"].get<std::uint64_t>(), 0u) << t;
        EXPECT_GT(t["positions"].get<std::uint64_t>(), 0u) << t;
    }
    // Built already: nothing to do.
    const Output again = dtb("gen --variant russian --only KKKvK --dtc --json --dir " + d);
    EXPECT_EQ(Json::parse(again.out)["built_dtc"].size(), 0u) << again.out;

    const Output verify = dtb("verify --variant russian --json --dir " + d);
    ASSERT_EQ(verify.status, 0) << verify.err;
    const Json v = Json::parse(verify.out);
    EXPECT_TRUE(v["ok"].get<bool>());
    int dtc_tables = 0;
    for (const Json& t : v["tables"]) dtc_tables += t["files"] == "dtc";
    EXPECT_EQ(dtc_tables, 5);

    const Output probe = dtb("probe --variant russian --json --fen W:WKf8,Ke7,Kh6:BKb8 --dir " + d);
    ASSERT_EQ(probe.status, 0) << probe.err;
    const Json p = Json::parse(probe.out);
    EXPECT_EQ(p["wdl"], "win");
    EXPECT_EQ(p["rule_wdl"], "win");
    EXPECT_EQ(p["rule_class"], "win");
    EXPECT_EQ(p["dtc"], 22);  // the line's first capture, a3:c1, is ply 22
    // Best play under the counts to that conversion: 22 plies, the last a capture.
    ASSERT_EQ(p["rule_line"].size(), 22u) << p;
    EXPECT_NE(p["rule_line"].back().get<std::string>().find(':'), std::string::npos) << p;
    EXPECT_EQ(p["rule_line"].front(), p["best_move"]);
    EXPECT_NE(dtb("probe --variant russian --fen W:WKf8,Ke7,Kh6:BKb8 --dir " + d).out.find("DTC 22 plies"),
              std::string::npos);

    // 13 moves needed: 2.1.9.1.4's 15 leave room; 2.1.9.1.5's count, one
    // move left since the last capture, does not (no capture within 2 plies).
    const std::string ask = "adjudicate --variant russian --json --fen W:WKf8,Ke7,Kh6:BKb8 --dir " + d;
    const Json fresh = Json::parse(dtb(ask + " --moves-played 0 --conversion-moves 0").out);
    EXPECT_EQ(fresh["basis"], "dtc");
    EXPECT_TRUE(fresh["exact"].get<bool>());
    EXPECT_TRUE(fresh["winnable"].get<bool>());
    EXPECT_EQ(fresh["rule"], "2.1.9.1.4");
    EXPECT_EQ(fresh["line_to_conversion"], p["rule_line"]);
    const Json late = Json::parse(dtb(ask + " --moves-played 0 --conversion-moves 29").out);
    EXPECT_EQ(late["conversion_moves_played"], 29);
    EXPECT_EQ(late["rule"], "2.1.9.1.5 (4-5 pieces)");
    EXPECT_EQ(late["moves_left"], 1);
    EXPECT_TRUE(late["exact"].get<bool>());
    EXPECT_FALSE(late["winnable"].get<bool>());
    EXPECT_TRUE(late["line_to_conversion"].empty());  // drawn under these counts: no side can force anything
    const Json lone = Json::parse(dtb(ask + " --moves-played 3").out);
    EXPECT_EQ(lone["basis"], "dtc");
    EXPECT_FALSE(lone["winnable"].get<bool>());
    EXPECT_EQ(dtb(ask + " --moves-played 0 --conversion-moves -1").status, 2);
}

}  // namespace
}  // namespace dtb::probe_test
