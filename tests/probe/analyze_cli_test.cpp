// dtb analyze and dtb show end to end: the built program on the generated
// adjudication tables (Russian up to 4 pieces, international up to 3) and
// the games of analyze_games/. Every value analyze gives is checked against
// dtb probe of the same position; the SVG diagrams are parsed and every
// piece found on its square.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <tuple>

#include "tests/probe/cli_json.hpp"
#include "tests/probe/cli_support.hpp"

namespace dtb::probe_test {
namespace {

std::string tables() {
    static std::once_flag once;
    std::call_once(once, [] { make_adjudication_tables(DTB_ADJUDICATE_TABLES); });
    return quote(DTB_ADJUDICATE_TABLES);
}

std::string games(const std::string& file) { return quote(std::string(DTB_ANALYZE_GAMES) + "/" + file); }

// ---------------------------------------------------------------------------
// A small XML reader for the tests: checks that a document is well formed
// (every tag closed in order, attributes quoted, '&' only in entities) and
// returns its elements' names and attributes.

struct Element {
    std::string name;
    std::map<std::string, std::string> attributes;
};

testing::AssertionResult well_formed_xml(const std::string& xml, std::vector<Element>& elements) {
    std::vector<std::string> open;
    std::size_t i = 0;
    const auto fail = [&](const std::string& why) {
        return testing::AssertionFailure() << why << " at offset " << i << ": " << xml.substr(i, 60);
    };
    const auto entity_ok = [&](std::size_t at) {
        for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
            if (xml.compare(at, std::string(e).size(), e) == 0) return true;
        return false;
    };
    if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
    while (i < xml.size()) {
        if (xml[i] == '&' && !entity_ok(i)) return fail("bare '&'");
        if (xml[i] != '<') {
            ++i;
            continue;
        }
        const std::size_t end = xml.find('>', i);
        if (end == std::string::npos) return fail("unclosed tag");
        std::string tag = xml.substr(i + 1, end - i - 1);
        if (tag.starts_with("/")) {
            if (open.empty() || open.back() != tag.substr(1)) return fail("closes " + tag + " out of order");
            open.pop_back();
            i = end + 1;
            continue;
        }
        const bool empty = tag.ends_with("/");
        if (empty) tag.pop_back();
        Element e;
        std::size_t k = tag.find_first_of(" \n");
        e.name = tag.substr(0, k);
        while (k != std::string::npos && k < tag.size()) {
            while (k < tag.size() && (tag[k] == ' ' || tag[k] == '\n')) ++k;
            if (k >= tag.size()) break;
            const std::size_t eq = tag.find('=', k);
            if (eq == std::string::npos || eq + 1 >= tag.size() || tag[eq + 1] != '"')
                return fail("unquoted attribute");
            const std::size_t close = tag.find('"', eq + 2);
            if (close == std::string::npos) return fail("attribute never closed");
            const std::string value = tag.substr(eq + 2, close - eq - 2);
            if (value.find('<') != std::string::npos) return fail("'<' in an attribute");
            e.attributes[tag.substr(k, eq - k)] = value;
            k = close + 1;
        }
        elements.push_back(e);
        if (!empty) open.push_back(e.name);
        i = end + 1;
    }
    if (!open.empty()) return testing::AssertionFailure() << "<" << open.back() << "> is never closed";
    return testing::AssertionSuccess();
}

// The centre a square should have in the drawing, worked out from its name
// here rather than by the program: White at the bottom, 50 pixels a square
// after a 24-pixel margin.
std::pair<double, double> expected_centre(const std::string& square, int width) {
    int file = 0, rank = 0;
    if (std::isalpha(static_cast<unsigned char>(square[0]))) {
        file = square[0] - 'a';
        rank = std::stoi(square.substr(1));
    } else {  // PDN number: rows of width/2 squares from Black's side, the first row starting on file b
        const int n = std::stoi(square) - 1, row = n / (width / 2), k = n % (width / 2);
        file = row % 2 == 0 ? 2 * k + 1 : 2 * k;
        rank = width - row;
    }
    return {24 + (file + 0.5) * 50, 24 + (width - rank + 0.5) * 50};
}

// Every piece of `fen` is a circle on its square, and nothing else is.
void expect_pieces_on_their_squares(const std::string& svg, const std::map<std::string, std::string>& pieces,
                                    int width) {
    std::vector<Element> elements;
    ASSERT_TRUE(well_formed_xml(svg, elements));
    std::map<std::string, std::string> found;
    for (const Element& e : elements) {
        if (e.name != "circle" || !e.attributes.count("data-square")) continue;
        const std::string sq = e.attributes.at("data-square");
        found[sq] = e.attributes.at("data-piece");
        const auto [x, y] = expected_centre(sq, width);
        EXPECT_DOUBLE_EQ(std::stod(e.attributes.at("cx")), x) << sq;
        EXPECT_DOUBLE_EQ(std::stod(e.attributes.at("cy")), y) << sq;
    }
    EXPECT_EQ(found, pieces);
}

// ---------------------------------------------------------------------------
// dtb analyze

TEST(AnalyzeCli, TurningPointsValuesAndTheRuleThatEndedTheGame) {
    const Output r = dtb("analyze " + games("russian_endgame.pdn") + " --variant russian --json --dir " + tables());
    EXPECT_EQ(r.status, 2) << r.err;  // game 3 cannot be read, after all games
    const auto lines = json_lines(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    const Json& g = lines[0];
    EXPECT_EQ(g["game"], 1);
    EXPECT_EQ(g["tags"]["White"], "Tester, T.");
    EXPECT_EQ(g["in_tables_from"]["ply"], 1);  // after 1. g3:e1 takes the man
    EXPECT_EQ(g["turning_points"], 2);
    EXPECT_EQ(g["draw_by_rule"], "2.1.9.1.4");
    EXPECT_EQ(g["draw_claimable_by"], "2.1.9.1.9");
    const Json& moves = g["moves"];
    ASSERT_EQ(moves.size(), 30u);
    // Black lets White win, then White lets the lone king reach the main road.
    EXPECT_EQ(moves[0]["move"], "g5-h6");
    EXPECT_EQ(moves[0]["turning_point"]["from"], "drawn");
    EXPECT_EQ(moves[0]["turning_point"]["to"], "lost");
    EXPECT_EQ(moves[0]["turning_point"]["best_move"], "g5-f6");
    EXPECT_EQ(moves[1]["move"], "b6-a7");
    EXPECT_EQ(moves[1]["turning_point"]["text"], "won -> drawn at move 2 (White): b6-a7; e1-c3 wins in 15 plies");
    int turning = 0;
    for (const Json& m : moves) turning += !m["turning_point"].is_null();
    EXPECT_EQ(turning, 2);
    EXPECT_EQ(moves.back()["draw_by_rule"]["rule"], "2.1.9.1.4");
    EXPECT_TRUE(moves.back()["draw_by_rule"]["ends_game"]);
    EXPECT_EQ(moves.back()["counts"][0]["moves"], 15);

    // Every value is what dtb probe says of the position.
    std::string fens;
    for (const Json& m : moves) fens += m["fen_after"].get<std::string>() + "\n";
    const Output p = dtb("probe --variant russian --json --dir " + tables(), fens);
    ASSERT_EQ(p.status, 0) << p.err;
    const auto probed = json_lines(p.out);
    ASSERT_EQ(probed.size(), moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        EXPECT_EQ(moves[i]["value"]["wdl"], probed[i]["wdl"]) << moves[i]["fen_after"];
        EXPECT_EQ(moves[i]["value"]["dtw"], probed[i]["dtw"]) << moves[i]["fen_after"];
    }

    // Game 2 never reaches the tables; game 3 is reported on its own.
    EXPECT_TRUE(lines[1]["in_tables_from"].is_null());
    EXPECT_TRUE(lines[1]["moves"].empty());
    EXPECT_EQ(lines[2]["game"], 3);
    EXPECT_EQ(lines[2]["move"], "g3-h4");
    EXPECT_NE(lines[2]["error"].get<std::string>().find("illegal move 'g3-h4'"), std::string::npos);
    EXPECT_NE(r.err.find("1 of 3 games could not be read"), std::string::npos) << r.err;
}

// A tournament export whose tag lines end in a literal "\r": every game is
// read with its tags, and what the reader skipped is said once a game, on
// stderr, with where.
TEST(AnalyzeCli, WarnsOfWhatTheReaderSkipped) {
    const std::string file =
        std::string(DTB_ANALYZE_GAMES) + "/../../rules/pdn_files/international_literal_cr_tags.pdn";
    const Output r = dtb("analyze " + quote(file) + " --variant international --json --dir " + tables());
    EXPECT_EQ(r.status, 0) << r.err;
    int games = 0;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) games += !line.empty();
    EXPECT_EQ(games, 3) << r.out;
    int warnings = 0;
    for (std::size_t at = r.err.find(": warning: line "); at != std::string::npos;
         at = r.err.find(": warning: line ", at + 1))
        ++warnings;
    EXPECT_EQ(warnings, 3) << r.err;
    EXPECT_NE(r.err.find("a literal '\\r'"), std::string::npos) << r.err;
}

TEST(AnalyzeCli, InWords) {
    const Output r = dtb("analyze " + games("russian_endgame.pdn") + " --variant russian --dir " + tables());
    EXPECT_EQ(r.status, 2);
    for (const char* part : {"In the tables from after 1. g3:e1 (B:WKb6,Kd6,Ke1:BKg5): Black draws.",
                             "** drawn -> lost at move 1 (Black): g5-h6; g5-f6 draws",
                             "** won -> drawn at move 2 (White): b6-a7; e1-c3 wins in 15 plies",
                             "[2.1.9.1.4: 14 of 15 moves]", "== draw by rule 2.1.9.1.4", "Never inside the tables."})
        EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
    EXPECT_NE(r.err.find(
                  "Game 3 (Event \"Club championship\", White \"Tester, T.\", Black \"Prober, P.\") could not be read"),
              std::string::npos)
        << r.err;
}

// docs/PDN.md's example: examples/endgame.pdn, analysed as the page shows it.
TEST(AnalyzeCli, ReadmeExample) {
    const Output r =
        dtb("analyze " + quote(std::string(DTB_EXAMPLES) + "/endgame.pdn") + " --variant russian --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* line :
         {"  In the tables from after 1. g3:e1 (B:WKb6,Kd6,Ke1:BKg5): Black draws.\n"
          "  1... g5-h6            White wins in 15 plies\n"
          "    ** drawn -> lost at move 1 (Black): g5-h6; g5-f6 draws\n"
          "  2. b6-a7              Black draws   [2.1.9.1.4: 1 of 15 moves]\n"
          "    ** won -> drawn at move 2 (White): b6-a7; e1-c3 wins in 15 plies\n",
          "  16. b8-a7             Black draws   [2.1.9.1.4: 15 of 15 moves]\n"
          "    == draw by rule 2.1.9.1.4: White's move 15 since move 1 (White), when three kings or more, with any "
          "men, against a lone king stood on the board, did not capture the lone king\n"
          "  2 turning points; a draw could be claimed by rule 2.1.9.1.9 after move 6 (Black); the game ended by "
          "rule 2.1.9.1.4 after move 16 (White).\n"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}

TEST(AnalyzeCli, InternationalGame) {
    const Output r =
        dtb("analyze " + games("international_endgame.pdn") + " --variant international --json --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    const Json g = Json::parse(r.out);
    EXPECT_EQ(g["tags"]["White"], "Müller, H.");
    EXPECT_EQ(g["in_tables_from"]["ply"], 0);
    EXPECT_EQ(g["in_tables_from"]["value"]["wdl"], "win");
    EXPECT_EQ(g["turning_points"], 1);
    EXPECT_EQ(g["moves"][0]["turning_point"]["best_move"], "7-23");
}

TEST(AnalyzeCli, PdnOutputHoldsTheValuesAndReadsBack) {
    const ScratchDir dir;
    const std::string out = (dir / "annotated.pdn").string();
    const Output r = dtb("analyze " + games("international_endgame.pdn") + " --variant international --pdn-out " +
                         quote(out) + " --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string pdn = slurp(out);
    EXPECT_NE(pdn.find("1. 7-29 {Black draws. won -> drawn at move 1 (White): 7-29; 7-23 wins in 9"), std::string::npos)
        << pdn;
    const Output again = dtb("adjudicate --variant international --json --pdn " + quote(out));
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(Json::parse(again.out)["plies"], 5);
}

// With the .dtc tables: a game that starts in a count-drawn win says so,
// and a move that throws a win away under the counts (a crowning that lets
// 2.1.9.1.7 start, while DTW still wins) is a turning point under them,
// as dtb adjudicate --pdn judges the position it leads to.
TEST(AnalyzeCli, ValuesUnderTheCounts) {
    const ScratchDir dir;
    const std::string dtc_tables = (dir / "tables").string();
    const Output built = dtb("gen --variant russian --only KMMvK --dtc --dir " + quote(dtc_tables));
    ASSERT_EQ(built.status, 0) << built.err;
    const std::string pdn = (dir / "counts.pdn").string();
    std::ofstream(pdn) << "[Event \"count-drawn\"]\n[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"W:WKh6,f6,e3:BKc3\"]\n"
                          "1. h6-g7 c3-b4 *\n\n"
                          "[Event \"slip\"]\n[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"W:WKa3,d6,g7:BKd4\"]\n"
                          "1. g7-h8 *\n";
    const Output text = dtb("analyze " + quote(pdn) + " --dir " + quote(dtc_tables));
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("White wins in 43 plies (a draw under the move-count rules: a count-drawn win)"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("** won -> drawn under the move-count rules at move 1 (White): g7-h8"), std::string::npos)
        << text.out;
    const Output json = dtb("analyze " + quote(pdn) + " --json --dir " + quote(dtc_tables));
    ASSERT_EQ(json.status, 0) << json.err;
    const std::vector<Json> games = json_lines(json.out);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0]["in_tables_from"]["value"]["wdl"], "win");
    EXPECT_EQ(games[0]["in_tables_from"]["rule_wdl"], "draw");
    EXPECT_EQ(games[0]["rule_turning_points"], 0);
    EXPECT_EQ(games[1]["in_tables_from"]["rule_wdl"], "win");
    EXPECT_EQ(games[1]["turning_points"], 0);  // DTW still wins
    EXPECT_EQ(games[1]["rule_turning_points"], 1);
    const Json& slip = games[1]["moves"][0];
    EXPECT_EQ(slip["value"]["wdl"], "loss");
    EXPECT_EQ(slip["rule_wdl"], "draw");
    EXPECT_EQ(slip["rule_turning_point"]["from"], "win");
    EXPECT_EQ(slip["rule_turning_point"]["to"], "draw");
    // dtb adjudicate --pdn judges the end of each record the same way.
    const Output judged = dtb("adjudicate --json --pdn " + quote(pdn) + " --dir " + quote(dtc_tables));
    ASSERT_EQ(judged.status, 0) << judged.err;
    const std::vector<Json> rulings = json_lines(judged.out);
    ASSERT_EQ(rulings.size(), 2u);
    for (std::size_t g = 0; g < 2; ++g) {
        const Json& end = rulings[g]["at_end"];
        const Json& last = games[g]["moves"].back();
        EXPECT_TRUE(end["exact"].get<bool>());
        EXPECT_EQ(end["winnable"].get<bool>(), last["rule_wdl"] != "draw") << end.dump();
    }
    // Without the .dtc tables nothing of it is said.
    const Output plain = dtb("analyze " + quote(pdn) + " --json --dir " + tables());
    ASSERT_EQ(plain.status, 0) << plain.err;
    const std::vector<Json> without = json_lines(plain.out);
    ASSERT_EQ(without.size(), 2u);
    EXPECT_TRUE(without[1]["rule_turning_points"].is_null());
    EXPECT_TRUE(without[1]["moves"][0]["rule_wdl"].is_null());
}

TEST(AnalyzeCli, OneDiagramPerTurningPoint) {
    const ScratchDir dir;
    const Output r = dtb("analyze " + games("russian_endgame.pdn") + " --variant russian --diagrams " +
                         quote(dir.path().string()) + " --dir " + tables());
    EXPECT_EQ(r.status, 2);
    const std::string svg = slurp(dir / "game1-ply3.svg");  // 2. b6-a7, from B:... after 1... g5-h6
    expect_pieces_on_their_squares(
        svg, {{"b6", "white-king"}, {"d6", "white-king"}, {"e1", "white-king"}, {"h6", "black-king"}}, 8);
    EXPECT_NE(svg.find("class=\"played-move\""), std::string::npos);
    EXPECT_NE(svg.find("class=\"best-move\""), std::string::npos);
    EXPECT_NE(svg.find("best (green): e1-c3, which wins in 15 plies"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(dir / "game1-ply2.svg"));
    int files = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) files += f.path().extension() == ".svg";
    EXPECT_EQ(files, 2);
}

TEST(AnalyzeCli, DamagedTableIsStatusOne) {
    tables();
    const ScratchDir dir;
    for (const auto& f : std::filesystem::directory_iterator(DTB_ADJUDICATE_TABLES))
        std::filesystem::copy_file(f.path(), dir / f.path().filename());
    const auto wdl = dir / "russian-KvKKK.wdl";
    std::string bytes = slurp(wdl);
    for (std::size_t i = 300; i + 16 < bytes.size(); ++i) bytes[i] = char(bytes[i] ^ 0x5a);
    std::ofstream(wdl, std::ios::binary) << bytes;
    const Output r = dtb("analyze " + games("russian_endgame.pdn") + " --variant russian --json --dir " +
                         quote(dir.path().string()));
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("the tables could not answer"), std::string::npos) << r.err;
    const Json first = Json::parse(r.out.substr(0, r.out.find('\n')));
    EXPECT_NE(first["tables_error"].get<std::string>().find("russian-KvKKK.wdl"), std::string::npos) << first;
}

// A record that goes on after a move-count rule ended the game: the end
// is said once, and the moves after it are not evaluated as if play went
// on (no value, no count beyond its limit, no turning point).
TEST(AnalyzeCli, MovesAfterTheGameEndedAreNotAnalysed) {
    const Output r = dtb("analyze " + games("russian_after_the_end.pdn") + " --variant russian --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("16 of 15 moves"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("16... h8-g7  "), std::string::npos) << r.out;  // no line of its own with a value
    for (const char* part :
         {"  16. b8-a7             Black draws   [2.1.9.1.4: 15 of 15 moves]\n"
          "    == draw by rule 2.1.9.1.4: ",
          "  The game is drawn by rule 2.1.9.1.4 at move 16 (White); the record goes on for 3 plies, "
          "played after the end and not analysed: 16... h8-g7 17. a7-b8 g7-h8\n"})
        EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;

    const Output j =
        dtb("analyze " + games("russian_after_the_end.pdn") + " --variant russian --json --dir " + tables());
    ASSERT_EQ(j.status, 0) << j.err;
    const auto lines = json_lines(j.out);
    ASSERT_EQ(lines.size(), 2u) << j.out;
    const Json& g = lines[0];
    EXPECT_EQ(g["draw_by_rule"], "2.1.9.1.4");  // as before
    EXPECT_EQ(g["turning_points"], 2);
    EXPECT_EQ(g["game_end"], (Json{{"by", "draw_by_rule"},
                                   {"rule", "2.1.9.1.4"},
                                   {"ply", 31},
                                   {"move_number", 16},
                                   {"side", "white"},
                                   {"plies_after", 3},
                                   {"text", "drawn by rule 2.1.9.1.4 at move 16 (White)"}}));
    const Json& moves = g["moves"];
    ASSERT_EQ(moves.size(), 33u);  // plies 2 to 34: every ply of the record from the tables on
    for (const Json& m : moves) {
        const bool after = m["ply"].get<int>() > 31;
        EXPECT_EQ(m["after_game_end"].get<bool>(), after) << m;
        if (!after) continue;
        EXPECT_TRUE(m["value"].is_null()) << m;
        EXPECT_TRUE(m["counts"].empty()) << m;
        EXPECT_TRUE(m["turning_point"].is_null()) << m;
        EXPECT_TRUE(m["draw_by_rule"].is_null()) << m;
    }
    EXPECT_EQ(moves[29]["draw_by_rule"]["rule"], "2.1.9.1.4");  // ply 31 ends it

    // --pdn-out: the comments stop at the end, and say so once.
    const ScratchDir dir;
    const std::string out = (dir / "annotated.pdn").string();
    ASSERT_EQ(dtb("analyze " + games("russian_after_the_end.pdn") + " --variant russian --pdn-out " + quote(out) +
                  " --dir " + tables())
                  .status,
              0);
    std::string pdn = slurp(out);
    std::replace(pdn.begin(), pdn.end(), '\n', ' ');  // the writer breaks lines at 80 columns
    EXPECT_NE(pdn.find("b8-a7 {Black draws [2.1.9.1.4: 15 of 15 moves]. draw by rule 2.1.9.1.4: the game ended here}"),
              std::string::npos)
        << pdn;
    EXPECT_NE(pdn.find("h8-g7 {played after the game had ended}"), std::string::npos) << pdn;
    EXPECT_EQ(pdn.find("16 of 15"), std::string::npos) << pdn;
}

// A record that ends with the side to move unable to move says who won,
// in words, not "loses in 0 plies".
TEST(AnalyzeCli, NoMoveLeftSaysWhoWon) {
    const Output r = dtb("analyze " + games("russian_after_the_end.pdn") + " --variant russian --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("in 0 plies"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  1... h4-g3            White has no move: Black has won\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; after move 1 (Black), White has no move: Black has won.\n"), std::string::npos) << r.out;
    const auto lines = json_lines(
        dtb("analyze " + games("russian_after_the_end.pdn") + " --variant russian --json --dir " + tables()).out);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_TRUE(lines[0]["game_end"]["by"] == "draw_by_rule");
    EXPECT_EQ(lines[1]["game_end"], Json::parse(R"({"by":"no_move","ply":1,"loser":"white","winner":"black",)"
                                                R"("text":"White has no move: Black has won"})"));
    // The value stays as it was: a loss in 0 plies for the side to move.
    EXPECT_EQ(lines[1]["moves"][0]["value"]["wdl"], "loss");
    EXPECT_EQ(lines[1]["moves"][0]["value"]["dtw"], 0);
    EXPECT_TRUE(lines[0]["game_end"].is_object());
    // A game that does neither has no end.
    const Output i =
        dtb("analyze " + games("international_endgame.pdn") + " --variant international --json --dir " + tables());
    EXPECT_TRUE(Json::parse(i.out)["game_end"].is_null()) << i.out;
}

// The variant from the file's GameType tag when --variant is not given; a
// clear error when neither names one, or when they disagree.
TEST(AnalyzeCli, VariantFromTheGameTypeTag) {
    const Output told = dtb("analyze " + games("russian_endgame.pdn") + " --variant russian --json --dir " + tables());
    const Output found = dtb("analyze " + games("russian_endgame.pdn") + " --json --dir " + tables());
    EXPECT_EQ(found.status, 2) << found.err;  // game 3 cannot be read, as with --variant
    EXPECT_EQ(found.out, told.out);
    const Output i = dtb("analyze " + games("international_endgame.pdn") + " --dir " + tables());
    ASSERT_EQ(i.status, 0) << i.err;
    EXPECT_NE(i.out.find("1. 7-29"), std::string::npos) << i.out;

    const Output both = dtb("analyze " + games("international_endgame.pdn") + " --variant russian --dir " + tables());
    EXPECT_EQ(both.status, 2);
    EXPECT_EQ(both.out, "");
    for (const char* part : {"--variant russian disagrees with the file", "line 4: [GameType \"20\"] is international",
                             "give --variant international"})
        EXPECT_NE(both.err.find(part), std::string::npos) << part << "\n" << both.err;

    const Output neither = dtb("analyze " + games("no_game_type.pdn") + " --dir " + tables());
    EXPECT_EQ(neither.status, 2);
    for (const char* part : {"no GameType tag", "give --variant russian, international or brazilian"})
        EXPECT_NE(neither.err.find(part), std::string::npos) << part << "\n" << neither.err;
    EXPECT_EQ(dtb("analyze " + games("no_game_type.pdn") + " --variant international --dir " + tables()).status, 0);

    // dtb adjudicate --pdn reads the variant the same way.
    const Output a = dtb("adjudicate --json --pdn " + games("international_endgame.pdn"));
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(Json::parse(a.out)["plies"], 5);
    EXPECT_EQ(dtb("adjudicate --pdn " + games("no_game_type.pdn")).status, 2);
    EXPECT_EQ(dtb("adjudicate --dir " + tables() + " --fen W:WKa1:BKh8 --moves-played 1").status, 2);
}

// A file that cannot be read says why, in the system's words.
TEST(AnalyzeCli, UnreadableFileSaysWhy) {
    for (const char* command :
         {"analyze /nonexistent/games.pdn --variant russian --dir ", "analyze /nonexistent/games.pdn --dir ",
          "adjudicate --pdn /nonexistent/games.pdn --dir "}) {
        const Output r = dtb(command + tables());
        EXPECT_EQ(r.status, 1) << command;
        EXPECT_NE(r.err.find("cannot read /nonexistent/games.pdn: No such file or directory"), std::string::npos)
            << command << "\n"
            << r.err;
    }
    const ScratchDir dir;
    const Output w = dtb("analyze " + games("international_endgame.pdn") + " --pdn-out " +
                         quote((dir / "no" / "such" / "dir.pdn").string()) + " --dir " + tables());
    EXPECT_EQ(w.status, 1);
    EXPECT_NE(w.err.find("dir.pdn: No such file or directory"), std::string::npos) << w.err;
}

// Numbered captures are written with x, as PDN writes them, however the
// record wrote them (the reader takes ':' and 'x' alike).
TEST(AnalyzeCli, NumberedCapturesWithX) {
    const Output r = dtb("analyze " + games("international_captures.pdn") + " --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("  1. 28x19              Black loses in 2 plies\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  1... 5x28             White wins in 1 ply\n"), std::string::npos) << r.out;
    const Output j = dtb("analyze " + games("international_captures.pdn") + " --json --dir " + tables());
    ASSERT_EQ(j.status, 0) << j.err;
    EXPECT_EQ(Json::parse(j.out)["moves"][0]["move"], "28x19");
    EXPECT_EQ(Json::parse(j.out)["moves"][1]["move"], "5x28");
    const ScratchDir dir;
    const std::string out = (dir / "annotated.pdn").string();
    ASSERT_EQ(dtb("analyze " + games("international_captures.pdn") + " --pdn-out " + quote(out) + " --dir " + tables())
                  .status,
              0);
    const std::string pdn = slurp(out);
    EXPECT_NE(pdn.find("1. 28x19 "), std::string::npos) << pdn;
    EXPECT_NE(pdn.find(" 5x28 "), std::string::npos) << pdn;
    const Output a = dtb("adjudicate --json --pdn " + quote(out));
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(Json::parse(a.out)["plies"], 2);
}

TEST(AnalyzeCli, HelpTeaches) {
    for (const char* command : {"analyze --help", "show --help"}) {
        const Output help = dtb(command);
        EXPECT_EQ(help.status, 0) << command;
        for (const char* words : {"Example", "Exit status: 0 success; 1 failure", "2 bad input or usage", "--variant"})
            EXPECT_NE(help.out.find(words), std::string::npos) << command << ": " << words;
    }
    EXPECT_NE(dtb("analyze --help").out.find("--encoding"), std::string::npos);
}

TEST(AnalyzeCli, BadInput) {
    EXPECT_EQ(dtb("analyze --variant russian --dir " + tables()).status, 2);  // no file
    const ScratchDir nowhere;                                                 // no --dir, no DTB_PATH, no ./tablebases
    const Output no_dir =
        dtb_at(nowhere.path(), std::nullopt, "analyze " + games("russian_endgame.pdn") + " --variant russian");
    EXPECT_EQ(no_dir.status, 2);
    EXPECT_NE(no_dir.err.find("DTB_PATH"), std::string::npos) << no_dir.err;
    EXPECT_EQ(dtb("analyze /nonexistent/games.pdn --variant russian --dir " + tables()).status, 1);
    EXPECT_EQ(
        dtb("analyze " + games("russian_endgame.pdn") + " --variant russian --encoding koi8 --dir " + tables()).status,
        2);
}

// ---------------------------------------------------------------------------
// dtb show

TEST(ShowCli, BothVariantsPieceByPiece) {
    const Output r = dtb("show --variant russian --fen W:Wc3,e3,Kh2:Bd6,f6,Ka7 --move h2:b8");
    ASSERT_EQ(r.status, 0) << r.err;
    expect_pieces_on_their_squares(r.out,
                                   {{"c3", "white-man"},
                                    {"e3", "white-man"},
                                    {"h2", "white-king"},
                                    {"d6", "black-man"},
                                    {"f6", "black-man"},
                                    {"a7", "black-king"}},
                                   8);
    EXPECT_NE(r.out.find("class=\"played-move\""), std::string::npos);
    EXPECT_EQ(r.out.find("class=\"best-move\""), std::string::npos);

    const Output i = dtb("show --variant international --fen W:W31-33,K46:B16,20,K5");
    ASSERT_EQ(i.status, 0) << i.err;
    expect_pieces_on_their_squares(i.out,
                                   {{"31", "white-man"},
                                    {"32", "white-man"},
                                    {"33", "white-man"},
                                    {"46", "white-king"},
                                    {"16", "black-man"},
                                    {"20", "black-man"},
                                    {"5", "black-king"}},
                                   10);
    // The PDN numbers are written on the dark squares.
    EXPECT_NE(i.out.find(">50</text>"), std::string::npos);
}

TEST(ShowCli, ValueAndBestMoveFromTheTables) {
    const ScratchDir dir;
    const std::string file = (dir / "board.svg").string();
    const Output r = dtb("show --variant russian --fen W:WKb6,Kd6,Ke1:BKh6 --move b6-a7 --best -o " + quote(file) +
                         " --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string svg = slurp(file);
    EXPECT_NE(svg.find("White wins in 15 plies; best (green): e1-c3"), std::string::npos) << svg;
    EXPECT_NE(svg.find("played (red): b6-a7, which draws"), std::string::npos) << svg;
    std::vector<Element> elements;
    EXPECT_TRUE(well_formed_xml(svg, elements));
}

// The best move and the move played are one arrow when they are the same
// move, marked as both; without --best or when they differ, their own.
TEST(ShowCli, SameMovePlayedAndBestIsOneArrowMarkedAsBoth) {
    const Output r = dtb("show --variant russian --fen W:WKb6,Kd6,Ke1:BKh6 --move e1-c3 --best --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<Element> elements;
    ASSERT_TRUE(well_formed_xml(r.out, elements));
    std::vector<std::string> arrows;
    for (const Element& e : elements)
        if (e.name == "polyline") arrows.push_back(e.attributes.at("class"));
    EXPECT_EQ(arrows, std::vector<std::string>{"played-move best-move"});
    EXPECT_NE(r.out.find("played and best (blue): e1-c3, which wins in 15 plies"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("best (green)"), std::string::npos) << r.out;
}

// Every piece a move captures is crossed out, named by its square and
// whose move takes it.
TEST(ShowCli, CapturedPiecesAreMarked) {
    const auto captured = [](const std::string& svg) {
        std::vector<Element> elements;
        EXPECT_TRUE(well_formed_xml(svg, elements));
        std::map<std::string, std::string> marks;
        for (const Element& e : elements)
            if (e.attributes.count("class") && e.attributes.at("class") == "captured")
                marks[e.attributes.at("data-square")] = e.attributes.at("data-by");
        return marks;
    };
    const Output played = dtb("show --variant international --fen W:W28,K46:B23,K5 --move 28x19");
    ASSERT_EQ(played.status, 0) << played.err;
    EXPECT_EQ(captured(played.out), (std::map<std::string, std::string>{{"23", "played"}}));
    const Output both =
        dtb("show --variant international --fen W:W28,K46:B23,K5 --move 28:19 --best --dir " + tables());
    ASSERT_EQ(both.status, 0) << both.err;
    EXPECT_EQ(captured(both.out), (std::map<std::string, std::string>{{"23", "played best"}}));
    // A king's capture of two pieces, best move beside another played.
    const Output two = dtb("show --variant russian --fen W:Wc3,e3,Kh2:Bd6,f6,Ka7 --move h2:b8");
    ASSERT_EQ(two.status, 0) << two.err;
    const auto marks = captured(two.out);
    EXPECT_EQ(marks.size(), 1u) << two.out;  // h2:b8 takes one piece, on its way
    for (const auto& [square, by] : marks) EXPECT_EQ(by, "played") << square;
}

// The caption follows the board: under a 10x10 board, which has its
// numbers on the squares, no empty row is kept for file letters.
TEST(ShowCli, NoBlankBandUnderTheBoard) {
    const auto layout = [](const std::string& svg) {
        std::vector<Element> elements;
        EXPECT_TRUE(well_formed_xml(svg, elements));
        double height = 0, first_caption = 0, last_caption = 0, letters = 0;
        for (const Element& e : elements) {
            if (e.name == "svg") height = std::stod(e.attributes.at("height"));
            if (e.name != "text" || !e.attributes.count("font-size")) continue;
            const double y = std::stod(e.attributes.at("y"));
            if (e.attributes.at("font-size") == "14") {
                if (first_caption == 0) first_caption = y;
                last_caption = y;
            }
            if (e.attributes.at("font-size") == "13") letters = std::max(letters, y);
        }
        return std::tuple{height, first_caption, last_caption, letters};
    };
    // 10x10: the board ends at 24 + 500.
    const auto [h10, first10, last10, letters10] = layout(dtb("show --variant international --fen W:W31:B20").out);
    EXPECT_EQ(letters10, 0);
    EXPECT_LE(first10 - 524, 20) << "a band between the board and its caption";
    EXPECT_LE(h10 - last10, 16) << "a band under the caption";
    // 8x8: the file letters under the board, then the caption.
    const auto [h8, first8, last8, letters8] = layout(dtb("show --variant russian --fen W:Wc3:Bd6").out);
    EXPECT_GT(letters8, 424);
    EXPECT_GT(first8 - 14, letters8);
    EXPECT_LE(h8 - last8, 16);
}

// A position with no move: the caption says so in words.
TEST(ShowCli, NoMoveInWords) {
    const Output r = dtb("show --variant russian --fen W:Wh2:Bg3,f4 --dir " + tables());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("White has no move: Black has won"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("in 0 plies"), std::string::npos) << r.out;
}

TEST(ShowCli, BadInput) {
    EXPECT_EQ(dtb("show --variant russian --fen W:Wz9:Bd6").status, 2);
    EXPECT_EQ(dtb("show --variant russian --fen W:Wc3:Bd6 --move c3-b4 --move-x").status, 2);
    EXPECT_EQ(dtb("show --variant russian --fen W:Wc3:Bd6 --move a1-b2").status, 2);
    const ScratchDir nowhere;  // --best needs tables: no --dir, no DTB_PATH, no ./tablebases
    EXPECT_EQ(dtb_at(nowhere.path(), std::nullopt, "show --variant russian --fen W:Wc3:Bd6 --best").status, 2);
}

}  // namespace
}  // namespace dtb::probe_test
