// dtb serve's JSON API over HTTP, against the built program on the small
// tables (Russian up to 4 pieces, international up to 3): the answers agree
// with dtb probe --json and dtb adjudicate --json, the moves are sorted and
// agree with the positions they lead to, bad input gets 400 and a missing
// table 404 with a JSON error naming it, and no request gets a 500.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string_view>
#include <thread>

#include "tests/scratch_dir.hpp"
#include "tests/serve/serve_support.hpp"

namespace dtb::serve_test {
namespace {

struct VariantCase {
    std::string name;
    int squares;
    int max_pieces;  // in the small tables: one more gives a missing table
};

void PrintTo(const VariantCase& v, std::ostream* os) { *os << v.name; }

const VariantCase kRussian{"russian", 32, 4};
const VariantCase kInternational{"international", 50, 3};
const VariantCase kBrazilian{"brazilian", 32, 3};

// Random placements of 2 to max_pieces + 1 pieces, FENs in PDN numbers:
// some lost or drawn, some not positions at all (a man on its crowning
// row), some beyond the tables.
std::vector<std::string> sample_fens(const VariantCase& v, int count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::string> fens;
    while (int(fens.size()) < count) {
        const int pieces = 2 + int(rng() % unsigned(v.max_pieces));
        std::vector<int> squares(v.squares);
        for (int i = 0; i < v.squares; ++i) squares[i] = i + 1;
        std::shuffle(squares.begin(), squares.end(), rng);
        std::string white, black;
        for (int i = 0; i < pieces; ++i) {
            // Both sides get a piece; the rest at random.
            const bool is_white = i == 0 ? true : i == 1 ? false : rng() % 2 == 0;
            std::string& list = is_white ? white : black;
            list += (list.empty() ? "" : ",") + std::string(rng() % 3 == 0 ? "K" : "") + std::to_string(squares[i]);
        }
        fens.push_back(std::string(rng() % 2 ? "W" : "B") + ":W" + white + ":B" + black);
    }
    return fens;
}

std::string position_path(const std::string& variant, const std::string& fen) {
    return "/api/v1/" + variant + "?fen=" + encode(fen);
}

// The rank of a move's value for the side making it: higher is better.
long long rank_of(const Json& move) {
    if (move["wdl"] == "win") return 2'000'000 - move["dtw"].get<int>();
    if (move["wdl"] == "draw") return 0;
    return -2'000'000 + move["dtw"].get<int>();
}

class ServeApi : public ::testing::TestWithParam<VariantCase> {
protected:
    static void SetUpTestSuite() { server_ = new Server(4); }
    static void TearDownTestSuite() {
        EXPECT_EQ(server_->stop(), 0) << "dtb serve should stop cleanly on SIGTERM";
        delete server_;
        server_ = nullptr;
    }
    static Server* server_;
};
Server* ServeApi::server_ = nullptr;

TEST_P(ServeApi, AgreesWithProbeJson) {
    const VariantCase& v = GetParam();
    const std::vector<std::string> fens = sample_fens(v, 300, 12);
    std::string input;
    for (const std::string& f : fens) input += f + "\n";
    const Output probed = dtb("probe --variant " + v.name + " --dir '" + DTB_SMALL_TABLES + "' --json", input);
    std::istringstream lines(probed.out);
    auto client = server_->client();
    int answered = 0, refused = 0, missing = 0;
    for (const std::string& fen : fens) {
        std::string line;
        ASSERT_TRUE(std::getline(lines, line)) << "dtb probe gave fewer lines than FENs";
        const Json want = Json::parse(line);
        const Got got = get(client, position_path(v.name, fen));
        ASSERT_TRUE(got.json.is_object()) << fen << ": " << got.body;
        EXPECT_EQ(got.content_type, "application/json; charset=utf-8");
        if (want.contains("error")) {
            // A message naming a table file is a missing table; any other, bad input.
            const std::string message = want["error"];
            const bool names_table = message.find(".wdl") != std::string::npos;
            EXPECT_EQ(got.status, names_table ? 404 : 400) << fen << ": " << message;
            // The same message, less where the command looked: the server
            // does not tell its clients its directories.
            const std::string without_dirs = names_table ? message.substr(0, message.find(" (looked in ")) : message;
            EXPECT_EQ(got.json["error"], without_dirs) << fen;
            EXPECT_EQ(got.body.find(DTB_SMALL_TABLES), std::string::npos) << fen << ": " << got.body;
            ++(names_table ? missing : refused);
            continue;
        }
        ASSERT_EQ(got.status, 200) << fen << ": " << got.body;
        for (const char* field : {"fen", "wdl", "dtw", "best_move", "pv"})
            EXPECT_EQ(got.json[field], want[field]) << fen << " field " << field;
        EXPECT_TRUE(got.json["must_capture"].is_boolean());
        EXPECT_TRUE(got.json["moves"].is_array());
        ++answered;
    }
    // The sample must reach every kind of answer.
    EXPECT_GT(answered, 100);
    EXPECT_GT(refused, 5);
    EXPECT_GT(missing, 5);
}

TEST_P(ServeApi, MovesAreSortedBestFirstAndAgreeWithThePositionsAfter) {
    const VariantCase& v = GetParam();
    auto client = server_->client();
    int checked = 0, captures = 0;
    for (const std::string& fen : sample_fens(v, 120, 7)) {
        const Got got = get(client, position_path(v.name, fen));
        if (got.status != 200) continue;
        const Json& moves = got.json["moves"];
        if (moves.empty()) {
            EXPECT_EQ(got.json["wdl"], "loss") << fen;
            EXPECT_EQ(got.json["dtw"], 0) << fen;
            EXPECT_TRUE(got.json["best_move"].is_null()) << fen;
            continue;
        }
        // The best move's value is the position's: the first in the list.
        EXPECT_EQ(moves[0]["wdl"], got.json["wdl"]) << fen;
        EXPECT_EQ(moves[0]["dtw"], got.json["dtw"]) << fen;
        bool found_best = false;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            const Json& m = moves[i];
            if (i > 0) {
                EXPECT_GE(rank_of(moves[i - 1]), rank_of(m)) << fen << ": not sorted at " << m["move"];
            }
            if (m["move"] == got.json["best_move"]) {
                found_best = true;
                EXPECT_EQ(rank_of(m), rank_of(moves[0])) << fen;
            }
            // Capturing is compulsory: every move captures or none does.
            EXPECT_EQ(!m["captured"].empty(), got.json["must_capture"].get<bool>()) << fen << " " << m["move"];
            // The squares of move_numeric are the PDN numbers of from and to.
            const std::string numeric = m["move_numeric"];
            EXPECT_EQ(numeric.substr(0, numeric.find_first_of("-x")), std::to_string(m["from"].get<int>())) << fen;
            EXPECT_EQ(numeric.substr(numeric.find_last_of("-x") + 1), std::to_string(m["to"].get<int>())) << fen;
            if (v.name == "international") {
                EXPECT_EQ(m["move"], m["move_numeric"]);
            }
            // The position after it has the value handed over: a win in d
            // for the mover is a loss in d - 1 for the side to move next.
            const Got after = get(client, position_path(v.name, m["fen"]));
            ASSERT_EQ(after.status, 200) << m["fen"] << ": " << after.body;
            if (m["wdl"] == "draw") {
                EXPECT_EQ(after.json["wdl"], "draw") << m["fen"];
            } else {
                EXPECT_EQ(after.json["wdl"], m["wdl"] == "win" ? "loss" : "win") << m["fen"];
                EXPECT_EQ(after.json["dtw"].get<int>(), m["dtw"].get<int>() - 1) << m["fen"];
            }
        }
        EXPECT_TRUE(found_best) << fen << ": best_move " << got.json["best_move"] << " is not in moves";
        checked += 1;
        captures += got.json["must_capture"].get<bool>();
    }
    EXPECT_GT(checked, 40);
    EXPECT_GT(captures, 3);
}

TEST_P(ServeApi, LineFollowsThePrincipalVariationToTheEnd) {
    const VariantCase& v = GetParam();
    auto client = server_->client();
    int lines = 0;
    for (const std::string& fen : sample_fens(v, 80, 3)) {
        const Got position = get(client, position_path(v.name, fen));
        if (position.status != 200) continue;
        const Got line = get(client, "/api/v1/" + v.name + "/line?fen=" + encode(fen));
        ASSERT_EQ(line.status, 200) << fen << ": " << line.body;
        EXPECT_EQ(line.json["fen"], position.json["fen"]);
        EXPECT_EQ(line.json["wdl"], position.json["wdl"]);
        EXPECT_EQ(line.json["dtw"], position.json["dtw"]);
        const Json& plies = line.json["line"];
        ASSERT_EQ(plies.size(), position.json["pv"].size()) << fen;
        for (std::size_t i = 0; i < plies.size(); ++i) {
            EXPECT_EQ(plies[i]["move"], position.json["pv"][i]) << fen;
            // Each ply's value is what the API says of the position after it.
            const Got after = get(client, position_path(v.name, plies[i]["fen"]));
            EXPECT_EQ(after.json["wdl"], plies[i]["wdl"]) << plies[i]["fen"];
            EXPECT_EQ(after.json["dtw"], plies[i]["dtw"]) << plies[i]["fen"];
        }
        if (!plies.empty()) {
            EXPECT_EQ(plies.back()["wdl"], "loss");
            EXPECT_EQ(plies.back()["dtw"], 0);
            ++lines;
        }
    }
    EXPECT_GT(lines, 10);
}

TEST_P(ServeApi, AdjudicateAgreesWithTheCommand) {
    const VariantCase& v = GetParam();
    auto client = server_->client();
    const std::map<std::string, std::vector<std::string>> by_variant = {
        {"russian", {"W:WKa1,Kc3,Ke1:BKh8", "B:WKa1,Kc3,Ke1:BKh8", "W:WKa1,Kc3:BKh8", "W:WKb2,Kd2:Bc5"}},
        {"international", {"W:WK46,K50:BK5", "W:W31,K46:B5", "B:WK1,K2:BK50"}},
        {"brazilian", {"W:WKa1,Kc3:BKh8", "B:WKa1,Kc3:BKh8", "W:WKc3,a1:BKh8", "W:WKb2,Kd2:Bc5"}},
    };
    const std::vector<std::string>& fens = by_variant.at(v.name);
    for (const std::string& fen : fens) {
        for (const auto& [moves, kings] : {std::pair{0, -1}, {3, -1}, {14, 2}, {40, -1}}) {
            std::string args = "adjudicate --variant " + v.name + " --dir '" + DTB_SMALL_TABLES + "' --fen '" + fen +
                               "' --moves-played " + std::to_string(moves) + " --json";
            std::string path =
                "/api/v1/" + v.name + "/adjudicate?fen=" + encode(fen) + "&moves_played=" + std::to_string(moves);
            if (kings >= 0) {
                args += " --king-moves " + std::to_string(kings);
                path += "&king_moves=" + std::to_string(kings);
            }
            const Output want = dtb(args);
            ASSERT_EQ(want.status, 0) << args << ": " << want.err;
            const Got got = get(client, path);
            ASSERT_EQ(got.status, 200) << path << ": " << got.body;
            EXPECT_EQ(got.json, Json::parse(want.out)) << path;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Variants, ServeApi, ::testing::Values(kRussian, kInternational, kBrazilian),
                         [](const auto& info) { return info.param.name; });

// With the .dtc tables: the adjudication at any counts, its line under the
// counts included, as dtb adjudicate --json gives it.
TEST(ServeDtc, AdjudicateAgreesWithTheCommandLine) {
    ScratchDir dir;
    const std::string tables = dir.path().string();
    const Output built = dtb("gen --variant russian --only KKKvK --dtc --dir '" + tables + "'");
    ASSERT_EQ(built.status, 0) << built.err;
    Server server(2, tables);
    auto client = server.client();
    const std::string fen = "W:WKf8,Ke7,Kh6:BKb8";
    int lines = 0;
    for (const auto& [moves, conversions] : {std::pair{0, 0}, {3, 3}, {2, 10}, {0, 29}, {12, 12}}) {
        const std::string args = "adjudicate --variant russian --dir '" + tables + "' --fen '" + fen +
                                 "' --moves-played " + std::to_string(moves) + " --conversion-moves " +
                                 std::to_string(conversions) + " --json";
        const Output want = dtb(args);
        ASSERT_EQ(want.status, 0) << args << ": " << want.err;
        const std::string path = "/api/v1/russian/adjudicate?fen=" + encode(fen) +
                                 "&moves_played=" + std::to_string(moves) +
                                 "&conversion_moves=" + std::to_string(conversions);
        const Got got = get(client, path);
        ASSERT_EQ(got.status, 200) << path << ": " << got.body;
        EXPECT_EQ(got.json, Json::parse(want.out)) << path;
        EXPECT_EQ(got.json["basis"], "dtc") << path;
        lines += !got.json["line_to_conversion"].empty();
    }
    EXPECT_GT(lines, 0);
    EXPECT_EQ(server.stop(), 0);
}

// With the .dtc tables each move has its value under the counts: a
// count-drawn win shows as one, in the position's value and in its moves,
// and the values of the moves agree with the position's (the best of them
// is its value, the line under the counts starts with a best one).
TEST(ServeDtc, MovesHaveTheirValuesUnderTheCounts) {
    ScratchDir dir;
    const std::string tables = dir.path().string();
    const Output built = dtb("gen --variant russian --only KMMvK --dtc --dir '" + tables + "'");
    ASSERT_EQ(built.status, 0) << built.err;
    Server server(2, tables);
    auto client = server.client();
    const auto rank = [](const Json& m) {
        const std::string w = m["rule_wdl"];
        return w == "win" ? 1 : w == "loss" ? -1 : 0;
    };
    // White wins in 43 plies without the counts; 2.1.9.1.7 (three pieces
    // against a lone king on the main road: 5 moves) draws it.
    for (const std::string fen : {"W:WKh6,f6,e3:BKc3", "W:WKh6,f6,e3:BKd4", "B:WKh6,f6,e3:BKc3"}) {
        const Got got = get(client, "/api/v1/russian?fen=" + encode(fen));
        ASSERT_EQ(got.status, 200) << fen << ": " << got.body;
        const Output probe = dtb("probe --variant russian --dir '" + tables + "' --fen '" + fen + "' --json");
        ASSERT_EQ(probe.status, 0) << probe.err;
        const Json want = Json::parse(probe.out);
        EXPECT_EQ(got.json["rule_class"], want["rule_class"]) << fen;
        const Json& moves = got.json["moves"];
        ASSERT_FALSE(moves.empty()) << fen;
        int best = -1;
        for (const Json& m : moves) {
            ASSERT_TRUE(m["rule_wdl"].is_string()) << fen << ": " << m.dump();
            ASSERT_TRUE(m["rule_class"].is_string()) << fen << ": " << m.dump();
            EXPECT_EQ(m["dtc"].is_null(), m["rule_wdl"] == "draw") << fen << ": " << m.dump();
            if (m["wdl"] == "draw") {
                EXPECT_EQ(m["rule_wdl"], "draw") << fen << ": " << m.dump();
            }
            best = std::max(best, rank(m));
        }
        EXPECT_EQ(best, want["rule_wdl"] == "win" ? 1 : want["rule_wdl"] == "loss" ? -1 : 0) << fen;
        if (fen == "W:WKh6,f6,e3:BKc3") {
            EXPECT_EQ(got.json["rule_class"], "count-drawn win");
            EXPECT_EQ(moves[0]["rule_class"], "count-drawn win") << moves[0].dump();
        }
        if (!want["rule_line"].empty()) {
            const auto first = std::find_if(moves.begin(), moves.end(),
                                            [&](const Json& m) { return m["move"] == want["rule_line"][0]; });
            ASSERT_NE(first, moves.end()) << fen;
            EXPECT_EQ(rank(*first), best) << fen;
            EXPECT_EQ((*first)["dtc"], want["dtc"]) << fen;
        }
    }
    EXPECT_EQ(server.stop(), 0);
}

// --------------------------------------------------------------------------
// Refusals

class ServeErrors : public ::testing::Test {
protected:
    static void SetUpTestSuite() { server_ = new Server(2); }
    static void TearDownTestSuite() {
        EXPECT_EQ(server_->stop(), 0);
        delete server_;
        server_ = nullptr;
    }
    // The status, and an "error" that contains `names`.
    static void expect_error(const std::string& path, int status, const std::string& names) {
        auto client = server_->client();
        const Got got = get(client, path);
        EXPECT_EQ(got.status, status) << path << ": " << got.body;
        ASSERT_TRUE(got.json.is_object() && got.json.contains("error")) << path << ": " << got.body;
        EXPECT_NE(got.json["error"].get<std::string>().find(names), std::string::npos)
            << path << ": the error should name '" << names << "': " << got.json["error"];
        EXPECT_EQ(got.content_type, "application/json; charset=utf-8") << path;
    }
    static Server* server_;
};
Server* ServeErrors::server_ = nullptr;

TEST_F(ServeErrors, BadInputIs400NamingWhatIsWrong) {
    expect_error("/api/v1/chess?fen=W:W:B", 400, "unknown variant 'chess'");
    expect_error("/api/v1/russian", 400, "missing parameter 'fen'");
    expect_error("/api/v1/russian?fen=", 400, "missing parameter 'fen'");
    expect_error("/api/v1/russian?fen=W:WKa1,c9:BKh8", 400, "at character 8");
    expect_error("/api/v1/russian?fen=W:WKa1,c9:BKh8", 400, "'c9'");
    expect_error("/api/v1/international?fen=W:W51:B1", 400, "51");
    expect_error("/api/v1/russian?fen=X:WKa1:BKh8", 400, "bad FEN");
    expect_error("/api/v1/russian?fen=W:WKa1;BKh8", 400, "'a1;BKh8'");
    expect_error("/api/v1/russian?fen=W:Wb8:BKh8", 400, "white man on b8");  // on its crowning row
    expect_error("/api/v1/russian?fen=W:WKa1:BKh8&fen=W:WKa1:BKh6", 400, "more than once");
    expect_error("/api/v1/russian?fen=W:WKa1:BKh8&depth=3", 400, "unknown parameter 'depth'");
    expect_error("/api/v1/russian/line?fen=W:WKa1:BKh8&moves_played=3", 400, "unknown parameter 'moves_played'");
    expect_error("/api/v1/russian/adjudicate?fen=W:WKa1:BKh8", 400, "missing parameter 'moves_played'");
    expect_error("/api/v1/russian/adjudicate?fen=W:WKa1:BKh8&moves_played=three", 400, "'moves_played' is 'three'");
    expect_error("/api/v1/russian/adjudicate?fen=W:WKa1:BKh8&moves_played=-1", 400, "'moves_played' is '-1'");
    expect_error("/api/v1/russian/adjudicate?fen=W:WKa1:BKh8&moves_played=3x", 400, "'moves_played' is '3x'");
    expect_error("/api/v1/russian/adjudicate?fen=W:WKa1:BKh8&moves_played=99999999999", 400, "moves_played");
    expect_error("/api/v1/russian/adjudicate?fen=W:WKa1:BKh8&moves_played=3&king_moves=x", 400, "'king_moves'");
}

TEST_F(ServeErrors, MissingTableIs404NamingIt) {
    expect_error("/api/v1/russian?fen=W:WKa1,c3,e3:BKh8,b6", 404, "russian-KMMvKM.wdl");
    expect_error("/api/v1/russian/line?fen=W:WKa1,c3,e3:BKh8,b6", 404, "russian-KMMvKM.wdl");
    expect_error("/api/v1/international?fen=W:W31,32:B5,K6", 404, "international-");
    expect_error("/api/v1/russian/adjudicate?fen=W:WKa1,Kc3,Ke1,Kg1:BKh8&moves_played=3", 404, "russian-KKKKvK");
}

TEST_F(ServeErrors, UnknownPathsAndMethods) {
    expect_error("/nothing/here", 404, "no such path: /nothing/here");
    expect_error("/api/v2/russian?fen=W:WKa1:BKh8", 404, "no such path");
    expect_error("/api/v1/russian/best?fen=W:WKa1:BKh8", 404, "no such endpoint");
    auto client = server_->client();
    const auto post = client.Post("/api/v1/russian?fen=W:WKa1:BKh8", "x", "text/plain");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 405);
    EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD, OPTIONS");
    EXPECT_TRUE(Json::parse(post->body).contains("error"));
}

TEST_F(ServeErrors, OversizedRequestsAreRefused) {
    // Over the API's limit on the request target, then over the library's.
    expect_error("/api/v1/russian?fen=" + std::string(5000, 'W'), 414, "at most 4096");
    expect_error("/api/v1/russian?fen=" + std::string(20000, 'W'), 414, "too long");
    expect_error("/api/v1/russian?fen=" + std::string(600, 'W'), 400, "at most 512");
    // The server reads no request body (it serves GET and HEAD only): a
    // large one is left unread. The answer is the query's, unless the
    // server, reading the body as the next request, closes the connection
    // before the client has written it all; either way it serves on.
    auto client = server_->client();
    httplib::Request req;
    req.method = "GET";
    req.path = "/api/v1/russian?fen=W:WKa1:BKh8";
    req.body = std::string(1 << 20, 'x');
    req.set_header("Content-Type", "text/plain");
    if (const auto res = client.send(req)) {
        EXPECT_EQ(res->status, 200);
        EXPECT_EQ(Json::parse(res->body)["wdl"], "loss");
    }
    auto fresh = server_->client();
    EXPECT_EQ(get(fresh, "/api/v1/russian?fen=W:WKa1:BKh8").status, 200);
}

// Whatever the parameters hold, the answer is JSON with a 4xx status or a
// value: never a 500, never a dropped connection.
TEST_F(ServeErrors, OddInputIsNeverA500) {
    std::vector<std::string> odd = {"W",       "W:",       ":::",      "W:W:B:",      "W:W1-32:B",
                                    "W:WK:B",  "W:W0:B1",  "W:W-1:B1", "B:W1,1:B2",   "W:W1-:B2",
                                    "W:Wz9:B", "\xff\xfe", "W:W%:B",   "w:wka1:bkh8", "W:W1..3:B5",
                                    "W:WKKa1", "W:W1:B1",  "  ",       "W:W1:B2:W3",  std::string("W:W1\0:B2", 8)};
    std::mt19937 rng(5);
    for (int i = 0; i < 200; ++i) {
        std::string s;
        const int n = 1 + int(rng() % 24);
        static constexpr std::string_view alphabet = "WBK:,-0123456789abcdefghx \x80";
        for (int k = 0; k < n; ++k) s += alphabet[rng() % alphabet.size()];
        odd.push_back(s);
    }
    auto client = server_->client();
    for (const std::string variant : {"russian", "international"})
        for (const std::string& fen : odd)
            for (const std::string what : {"", "/line", "/adjudicate"}) {
                std::string path = "/api/v1/" + variant + what + "?fen=" + encode(fen);
                if (what == "/adjudicate") path += "&moves_played=" + encode(fen.substr(0, 3));
                const Got got = get(client, path);
                EXPECT_TRUE(got.status == 200 || got.status == 400 || got.status == 404) << path << ": " << got.body;
                EXPECT_TRUE(got.json.is_object()) << path << ": " << got.body;
                if (got.status != 200) {
                    EXPECT_TRUE(got.json.contains("error")) << path;
                }
            }
}

// Sends `request` on a new connection and returns what comes back, or
// closes at once without reading when `read` is false.
std::string raw_exchange(int port, const std::string& request, bool read = true) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string answer;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
        char buf[4096];
        for (ssize_t n; read && (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) answer.append(buf, std::size_t(n));
    }
    ::close(fd);
    return answer;
}

// A connection to the server on the loopback, -1 if refused.
int connect_to(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
    ::close(fd);
    return -1;
}

// How many times `what` occurs in `text`.
int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST_F(ServeErrors, BrokenRequestsAndVanishingClients) {
    // Not HTTP at all: the connection is closed (raw_exchange reads until
    // it is), with no answer or with a 400, never an answer of the API.
    for (const std::string junk :
         {"HELLO\r\n\r\n", "GET\r\n\r\n", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"}) {
        const std::string answer = raw_exchange(server_->port(), junk);
        EXPECT_TRUE(answer.empty() || answer.rfind("HTTP/1.1 400", 0) == 0) << answer;
    }
    // Clients that ask and leave before the answer: the server goes on.
    for (int i = 0; i < 50; ++i)
        raw_exchange(server_->port(), "GET /api/v1/international?fen=W:W31,K46:B5 HTTP/1.1\r\nHost: x\r\n\r\n", false);
    auto client = server_->client();
    EXPECT_EQ(get(client, "/api/v1/international?fen=W:W31,K46:B5").json["dtw"], 3);
}

// --------------------------------------------------------------------------
// The server as a whole

TEST(Serve, AnnouncesWhereItListensAndStopsCleanly) {
    Server server(3);
    EXPECT_GT(server.port(), 0);
    EXPECT_EQ(server.announce()["url"], "http://127.0.0.1:" + std::to_string(server.port()) + "/");
    EXPECT_EQ(server.announce()["threads"], 3);
    EXPECT_EQ(server.announce()["max_pieces"]["russian"], 4);
    EXPECT_EQ(server.announce()["max_pieces"]["international"], 3);
    EXPECT_EQ(server.announce()["max_pieces"]["brazilian"], 3);
    auto client = server.client();
    const Got index = get(client, "/api/v1");
    EXPECT_EQ(index.status, 200);
    EXPECT_EQ(index.json["variants"][1]["max_pieces"], 3);
    // Every variant of `dtb variants`, with the board the explorer draws.
    const Json variants = Json::parse(dtb("variants --json").out)["variants"];
    ASSERT_EQ(index.json["variants"].size(), variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const Json& v = index.json["variants"][i];
        EXPECT_EQ(v["variant"], variants[i]["variant"]);
        EXPECT_EQ(v["board"]["size"], variants[i]["size"]);
        EXPECT_EQ(v["board"]["algebraic"], variants[i]["algebraic"]);
        // The explorer's first position is a position the small tables answer.
        const Got example = get(client, position_path(v["variant"], v["board"]["example_fen"]));
        EXPECT_EQ(example.status, 200) << v.dump();
    }
    EXPECT_EQ(server.stop(), 0);
}

// A signal as soon as the server has said where it listens, maybe before
// it accepts: it still stops, at once and cleanly.
TEST(Serve, StopsWhenSignalledRightAfterStarting) {
    for (int i = 0; i < 5; ++i) {
        Server server(1);
        EXPECT_EQ(server.stop(), 0);
    }
}

TEST(Serve, ServesTheExplorer) {
    Server server(2);
    auto client = server.client();
    const auto page = client.Get("/");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
    EXPECT_NE(page->body.find("<script src=\"app.js\""), std::string::npos);
    EXPECT_NE(page->get_header_value("Content-Security-Policy").find("default-src 'self'"), std::string::npos);
    for (const auto& [path, type] :
         {std::pair{"/app.js", "text/javascript; charset=utf-8"}, {"/style.css", "text/css; charset=utf-8"}}) {
        const auto res = client.Get(path);
        ASSERT_TRUE(res) << path;
        EXPECT_EQ(res->status, 200) << path;
        EXPECT_EQ(res->get_header_value("Content-Type"), type) << path;
        EXPECT_GT(res->body.size(), 1000u) << path;
    }
}

TEST(Serve, RefusesToStartWithoutTables) {
    const Output r = dtb("serve --dir /nonexistent/dtb-tables --port 0");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("/nonexistent/dtb-tables"), std::string::npos) << r.err;
    EXPECT_EQ(dtb("serve --dir '" + std::string(DTB_SMALL_TABLES) + "' --port 70000").status, 2);
    EXPECT_EQ(dtb("serve --dir '" + std::string(DTB_SMALL_TABLES) + "' --threads 0").status, 2);
}

// Many clients at once on one shared handle get the answers one client gets.
TEST(Serve, ConcurrentClientsGetTheSameAnswers) {
    Server server(4);
    std::vector<std::string> paths;
    for (const std::string& fen : sample_fens(kRussian, 40, 21)) paths.push_back(position_path("russian", fen));
    for (const std::string& fen : sample_fens(kInternational, 40, 22))
        paths.push_back(position_path("international", fen));
    std::vector<std::string> expected;
    {
        auto client = server.client();
        for (const std::string& p : paths) expected.push_back(get(client, p).body);
    }
    constexpr int kClients = 12;
    std::vector<int> wrong(kClients, 0);
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c)
        clients.emplace_back([&, c] {
            auto client = server.client();
            for (int round = 0; round < 3; ++round)
                for (std::size_t i = 0; i < paths.size(); ++i) {
                    const std::size_t k = (i + std::size_t(c) * 7) % paths.size();
                    const auto res = client.Get(paths[k]);
                    if (!res || res->body != expected[k]) ++wrong[c];
                }
        });
    for (std::thread& t : clients) t.join();
    for (int c = 0; c < kClients; ++c) EXPECT_EQ(wrong[c], 0) << "client " << c;
    EXPECT_EQ(server.stop(), 0);
}

// --------------------------------------------------------------------------
// Hostile and careless clients

// A Range header is not honoured: the answer is whole, and JSON.
TEST_F(ServeErrors, RangeHeadersAreIgnored) {
    auto client = server_->client();
    const auto whole = client.Get("/app.js");
    ASSERT_TRUE(whole);
    std::string ranges = "bytes=0-";
    for (int i = 0; i < 2000; ++i) ranges += ",0-";
    const auto ranged = client.Get("/app.js", {{"Range", ranges}});
    ASSERT_TRUE(ranged);
    EXPECT_EQ(ranged->status, 200);
    EXPECT_EQ(ranged->body, whole->body);
    const auto cut = client.Get("/api/v1/russian?fen=W:WKa1:BKh8", {{"Range", "bytes=0-9"}});
    ASSERT_TRUE(cut);
    EXPECT_EQ(cut->status, 200);
    EXPECT_EQ(Json::parse(cut->body)["wdl"], "loss") << cut->body;
}

// The query is read one way: '&' alone separates parameters, a NUL byte
// is refused, and a parameter given twice is refused even with one value.
TEST_F(ServeErrors, QueriesAreReadStrictly) {
    expect_error("/api/v1/russian?fen=W:WKa1:BKh8%00garbage", 400, "NUL");
    expect_error("/api/v1/russian?fen=W:WKa1:BKh8;x=1", 400, ";x=1");
    expect_error("/api/v1/russian?fen=W:WKa1:BKh8&fen=W:WKa1:BKh8", 400, "more than once");
    expect_error("/api/v1/russian?fen=W:WKa1:BKh8%zz", 400, "'%' not followed by two hexadecimal digits");
    auto client = server_->client();
    // Encoded or not, the same position; '+' reads as a space, which a FEN may hold.
    EXPECT_EQ(get(client, "/api/v1/russian?fen=W%3AWKa1%3ABKh8").json["wdl"], "loss");
    EXPECT_EQ(get(client, "/api/v1/russian?fen=W:WKa1:BKh8&").json["wdl"], "loss");
}

// A browser's cross-origin fetch with its own headers asks first (a CORS
// preflight): it is allowed.
TEST_F(ServeErrors, CrossOriginPreflightIsAllowed) {
    const std::string answer =
        raw_exchange(server_->port(),
                     "OPTIONS /api/v1/russian?fen=W:WKa1:BKh8 HTTP/1.1\r\nHost: x\r\n"
                     "Origin: http://example.org\r\nAccess-Control-Request-Method: GET\r\n"
                     "Access-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(answer.rfind("HTTP/1.1 204", 0), 0u) << answer;
    EXPECT_NE(answer.find("Access-Control-Allow-Origin: *"), std::string::npos) << answer;
    EXPECT_NE(answer.find("Access-Control-Allow-Headers: content-type"), std::string::npos) << answer;
    EXPECT_NE(answer.find("Access-Control-Allow-Methods: GET, HEAD, OPTIONS"), std::string::npos) << answer;
}

// Two requests in one write get two answers, in order.
TEST_F(ServeErrors, PipelinedRequestsAreEachAnswered) {
    const std::string answer =
        raw_exchange(server_->port(),
                     "GET /api/v1/russian?fen=W:WKa1:BKh8 HTTP/1.1\r\nHost: x\r\n\r\n"
                     "GET /api/v1/international?fen=W:W31,K46:B5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(occurrences(answer, "HTTP/1.1 200"), 2) << answer;
    const std::size_t first = answer.find("\"wdl\":\"loss\"");
    const std::size_t second = answer.find("\"dtw\":3");
    EXPECT_NE(first, std::string::npos) << answer;
    EXPECT_NE(second, std::string::npos) << answer;
    EXPECT_LT(first, second) << answer;
}

// The peak resident memory of a process, in KiB (VmHWM), -1 if unknown.
long peak_memory_kib(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

// A header without end costs the server the request budget (32 KiB), not
// what the client sends: it is refused, and the server's peak memory grows
// by far less than what was sent (96 MiB).
TEST(ServeLimits, AHugeHeaderIsRefusedWithoutBeingHeld) {
    Server server(2);
    {
        auto client = server.client();  // the server's memory once it has answered
        EXPECT_EQ(get(client, "/api/v1/russian?fen=W:WKa1:BKh8").status, 200);
    }
    const long before_kib = peak_memory_kib(server.pid());
    ASSERT_GT(before_kib, 0);
    const int fd = connect_to(server.port());
    ASSERT_GE(fd, 0);
    std::string head = "GET /api/v1/russian?fen=W:WKa1:BKh8 HTTP/1.1\r\nHost: x\r\nX-Huge: ";
    ::send(fd, head.data(), head.size(), MSG_NOSIGNAL);
    const std::string chunk(1 << 20, 'a');
    std::size_t sent = 0;
    for (int i = 0; i < 96; ++i) {
        const ssize_t n = ::send(fd, chunk.data(), chunk.size(), MSG_NOSIGNAL);
        if (n <= 0) break;  // the server has closed the connection
        sent += std::size_t(n);
    }
    ::close(fd);
    const long grown_kib = peak_memory_kib(server.pid()) - before_kib;
    EXPECT_LT(grown_kib, 16 * 1024) << "the peak grew " << grown_kib << " KiB with " << sent << " bytes of header";
    auto client = server.client();
    EXPECT_EQ(get(client, "/api/v1/russian?fen=W:WKa1:BKh8").status, 200);
    EXPECT_EQ(server.stop(), 0);
}

// Clients that send their requests a byte at a time, more of them than the
// server has threads, delay no one else: every other request is answered
// while they trickle.
TEST(ServeLimits, SlowClientsHoldNoWorker) {
    Server server(2);
    constexpr int kSlow = 16;
    std::vector<int> slow;
    for (int i = 0; i < kSlow; ++i) {
        const int fd = connect_to(server.port());
        ASSERT_GE(fd, 0);
        const std::string start = "GET /api/v1/russian?fen=W:WKa1:BKh8 HTTP/1.1\r\nHost: x\r\nX-Slow: ";
        ::send(fd, start.data(), start.size(), MSG_NOSIGNAL);
        slow.push_back(fd);
    }
    std::atomic<bool> done = false;
    std::thread trickle([&] {
        while (!done) {
            for (int fd : slow) ::send(fd, "a", 1, MSG_NOSIGNAL);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    });
    int answered = 0;
    for (int i = 0; i < 20; ++i) {
        httplib::Client client("127.0.0.1", server.port());
        client.set_read_timeout(3, 0);  // generous: the old server never answered while the slow ones trickled
        const auto res = client.Get("/api/v1/russian?fen=W:WKa1:BKh8");
        answered += res && res->status == 200;
    }
    done = true;
    trickle.join();
    for (int fd : slow) ::close(fd);
    EXPECT_EQ(answered, 20);
    EXPECT_EQ(server.stop(), 0);
}

// A request's head that never ends, trickled a byte at a time so that the
// connection is never idle for long, is cut off at the head deadline (10 s).
TEST(ServeLimits, ATrickledHeadIsCutOffAtTheDeadline) {
    Server server(1);
    const int fd = connect_to(server.port());
    ASSERT_GE(fd, 0);
    const std::string start = "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    ::send(fd, start.data(), start.size(), MSG_NOSIGNAL);
    timeval wait{0, 500'000};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    bool cut = false;
    for (int i = 0; i < 60 && !cut; ++i) {  // 30 s at most
        ::send(fd, "a", 1, MSG_NOSIGNAL);
        char byte;
        const ssize_t n = ::recv(fd, &byte, 1, 0);
        cut = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
    }
    ::close(fd);
    EXPECT_TRUE(cut) << "the server still read the head after 30 s";
    EXPECT_EQ(server.stop(), 0);
}

// A port another server holds is refused with the reason, not shared.
TEST(ServeLimits, APortInUseIsRefused) {
    Server first(1);
    const Output second =
        dtb("serve --dir '" + std::string(DTB_SMALL_TABLES) + "' --port " + std::to_string(first.port()));
    EXPECT_EQ(second.status, 1) << second.out << second.err;
    EXPECT_NE(second.err.find("in use"), std::string::npos) << second.err;
    auto client = first.client();
    EXPECT_EQ(get(client, "/api/v1/russian?fen=W:WKa1:BKh8").status, 200);
    EXPECT_EQ(first.stop(), 0);
}

// Without --dir the server reads DTB_PATH, as every command that reads tables does.
TEST(ServeLimits, WithoutDirTheTablesComeFromDtbPath) {
    const ScratchDir empty;
    const Output r = dtb("serve --port 0 --json", "", "DTB_PATH='" + empty.path().string() + "' ");
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("no tables in " + empty.path().string()), std::string::npos) << r.err;
}

TEST(ServeLimits, ADirectoryWithoutTablesIsRefused) {
    const ScratchDir empty;
    const Output r = dtb("serve --dir '" + empty.path().string() + "' --port 0");
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("no tables in " + empty.path().string()), std::string::npos) << r.err;
}

}  // namespace
}  // namespace dtb::serve_test
