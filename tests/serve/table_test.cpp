// The tables' statistics (cli/table_stats.hpp) and the API's table endpoint
// and missing-table answers (cli/serve_api.hpp), called directly on the
// small tables (Russian up to 4 pieces, international and Brazilian up to
// 3). The counts are checked against the manifests dtb gen wrote beside
// the tables (its own count of the values it generated), the examples by
// probing them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "cli/serve_api.hpp"
#include "cli/table_stats.hpp"
#include "probe/convert.hpp"

namespace dtb::serve_test {
namespace {

class Tablebase {
public:
    Tablebase() {
        const char* dirs[] = {DTB_SMALL_TABLES};
        char err[1024];
        if (dtb_open(dirs, 1, nullptr, &tb_, err, sizeof err) != DTB_OK) throw std::runtime_error(err);
    }
    ~Tablebase() { dtb_close(tb_); }
    dtb_tablebase* get() const { return tb_; }

private:
    dtb_tablebase* tb_ = nullptr;
};

Json manifest(const std::string& basename) {
    std::ifstream in(std::filesystem::path(DTB_SMALL_TABLES) / (basename + ".json"));
    if (!in) throw std::runtime_error("no manifest " + basename + ".json in " + DTB_SMALL_TABLES);
    return Json::parse(in);
}

Json null_if_negative(int n) { return n < 0 ? Json(nullptr) : Json(n); }

serve::Reply table(dtb_tablebase* tb, const std::string& variant, const serve::QueryParams& params) {
    return serve::api_request(tb, variant, "table", params);
}

// Every table of the small set: the scan counts what the generator counted.
TEST(TableStats, ScanAgreesWithTheGeneratorsManifests) {
    const Tablebase tb;
    int tables = 0;
    for (const auto& entry : std::filesystem::directory_iterator(DTB_SMALL_TABLES)) {
        const auto name = entry.path().filename().string();
        if (entry.path().extension() != ".wdl") continue;
        const auto dash = name.find('-');
        const auto variant = parse_variant(name.substr(0, dash));
        const auto sig = MaterialSignature::parse(name.substr(dash + 1, name.size() - dash - 5));
        ASSERT_TRUE(variant && sig) << name;
        const Json want = manifest(entry.path().stem().string());
        const auto got = scan_table(tb.get(), *variant, *sig);
        ASSERT_TRUE(std::holds_alternative<SideToMoveStats>(got)) << name << ": " << std::get<QueryError>(got).message;
        const SideToMoveStats& s = std::get<SideToMoveStats>(got);
        EXPECT_EQ(s.material, *sig);
        EXPECT_EQ(s.positions, want["positions"].get<std::uint64_t>()) << name;
        EXPECT_EQ(s.wins, want["wins"].get<std::uint64_t>()) << name;
        EXPECT_EQ(s.draws, want["draws"].get<std::uint64_t>()) << name;
        EXPECT_EQ(s.losses, want["losses"].get<std::uint64_t>()) << name;
        EXPECT_EQ(null_if_negative(s.longest_win), want["longest_win"]) << name;
        EXPECT_EQ(null_if_negative(s.longest_loss), want["longest_loss"]) << name;
        // Each example holds the material, with its value the longest.
        for (const auto& [fens, wdl, plies] : {std::tuple{s.longest_win_fens, DTB_WIN, s.longest_win},
                                               std::tuple{s.longest_loss_fens, DTB_LOSS, s.longest_loss}}) {
            EXPECT_EQ(fens.empty(), plies < 0) << name;
            EXPECT_LE(int(fens.size()), kStatsExamples) << name;
            for (const std::string& fen : fens) {
                const auto pos = std::get<dtb_position>(position_from_fen(probe::c_variant(*variant), fen));
                EXPECT_EQ(material_of(pos), *sig) << fen;
                dtb_value v;
                ASSERT_EQ(dtb_probe_dtw(tb.get(), &pos, &v), DTB_OK) << fen;
                EXPECT_EQ(v.wdl, wdl) << fen;
                EXPECT_EQ(v.dtw, plies) << fen;
            }
        }
        ++tables;
    }
    EXPECT_GT(tables, 30) << "the small tables hold dozens of tables";
}

TEST(TableStats, ATooLargeMaterialIsRefusedBeforeAnythingIsProbed) {
    const Tablebase tb;  // no Russian table of 7 pieces: a probe would say missing_table
    const MaterialSignature sig = *MaterialSignature::parse("KKKKvKKK");
    ASSERT_GT(material_positions(VariantId::Russian, sig), kMaxStatsPositions);
    TableStatsCache cache;
    const auto got = cache.get(tb.get(), VariantId::Russian, sig);
    ASSERT_TRUE(std::holds_alternative<QueryError>(got));
    EXPECT_EQ(std::get<QueryError>(got).status, DTB_BAD_ARGUMENT);
    EXPECT_NE(std::get<QueryError>(got).message.find("russian KKKKvKKK"), std::string::npos);
    EXPECT_NE(std::get<QueryError>(got).message.find("5,000,000"), std::string::npos);
    EXPECT_FALSE(stats_refusal(VariantId::Russian, *MaterialSignature::parse("KKvKK")));
}

// Threads asking at once all get the one scan's answer.
TEST(TableStats, ThreadsAskingAtOnceGetTheSameAnswer) {
    const Tablebase tb;
    TableStatsCache cache;
    const MaterialSignature sig = *MaterialSignature::parse("KMvK");
    std::vector<Answer<TableStats>> answers(6, QueryError{0, ""});
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < answers.size(); ++i)
        threads.emplace_back([&, i] { answers[i] = cache.get(tb.get(), VariantId::Russian, sig); });
    for (std::thread& t : threads) t.join();
    for (const auto& a : answers) {
        ASSERT_TRUE(std::holds_alternative<TableStats>(a)) << std::get<QueryError>(a).message;
        const TableStats& s = std::get<TableStats>(a);
        ASSERT_EQ(s.tables.size(), 2u);
        EXPECT_EQ(s.tables[0].material, sig);
        EXPECT_EQ(s.tables[1].material, sig.mirror());
        EXPECT_EQ(s.tables[0].wins, manifest("russian-KMvK")["wins"].get<std::uint64_t>());
        EXPECT_EQ(s.tables[1].losses, manifest("russian-KvKM")["losses"].get<std::uint64_t>());
    }
}

TEST(TableEndpoint, AnswersTheMaterialOfAFenOrANamedOne) {
    const Tablebase tb;
    const serve::Reply by_fen = table(tb.get(), "russian", {{"fen", "W:WKc3,Ka1,Ke1:BKh8"}});
    ASSERT_EQ(by_fen.status, 200) << by_fen.body.dump();
    const Json& j = by_fen.body;
    EXPECT_EQ(j["variant"], "russian");
    EXPECT_EQ(j["material"], "KKKvK");
    EXPECT_EQ(j["pieces"], 4);
    const Json want = manifest("russian-KKKvK"), mirror = manifest("russian-KvKKK");
    EXPECT_EQ(j["positions"], want["positions"].get<std::uint64_t>() + mirror["positions"].get<std::uint64_t>());
    ASSERT_EQ(j["tables"].size(), 2u);
    for (const auto& [t, m] : {std::pair{j["tables"][0], want}, std::pair{j["tables"][1], mirror}}) {
        EXPECT_EQ(t["material"], m["signature"]);
        for (const char* field : {"positions", "wins", "draws", "losses", "longest_win", "longest_loss"})
            EXPECT_EQ(t[field], m[field]) << m["signature"] << " " << field;
        EXPECT_EQ(t["longest_win_fens"].empty(), m["longest_win"].is_null());
        EXPECT_EQ(t["longest_loss_fens"].empty(), m["longest_loss"].is_null());
    }
    // Black to move: the lone king's table first.
    const serve::Reply black = table(tb.get(), "russian", {{"fen", "B:WKc3,Ka1,Ke1:BKh8"}});
    ASSERT_EQ(black.status, 200);
    EXPECT_EQ(black.body["material"], "KvKKK");
    EXPECT_EQ(black.body["tables"][0], j["tables"][1]);

    const serve::Reply named = table(tb.get(), "russian", {{"material", "KKKvK"}});
    EXPECT_EQ(named.status, 200);
    EXPECT_EQ(named.body, j);
    // A symmetric material has one table.
    const serve::Reply symmetric = table(tb.get(), "international", {{"material", "KvK"}});
    ASSERT_EQ(symmetric.status, 200) << symmetric.body.dump();
    EXPECT_EQ(symmetric.body["tables"].size(), 1u);
}

// The JSON error, its status, and that it names `needle`.
void expect_error(const serve::Reply& r, int status, const std::string& needle) {
    EXPECT_EQ(r.status, status) << r.body.dump();
    ASSERT_TRUE(r.body.contains("error")) << r.body.dump();
    EXPECT_NE(r.body["error"].get<std::string>().find(needle), std::string::npos) << r.body.dump();
}

TEST(TableEndpoint, RefusesWhatNoTableHolds) {
    const Tablebase tb;
    expect_error(table(tb.get(), "russian", {{"fen", "W:WKa1:BKh8"}, {"material", "KvK"}}), 400, "not both");
    expect_error(table(tb.get(), "russian", {{"material", "KvKx"}}), 400, "parameter 'material' is 'KvKx'");
    expect_error(table(tb.get(), "russian", {{"material", "MKvK"}}), 400, "a material like KKKvK");
    expect_error(table(tb.get(), "russian", {}), 400, "missing parameter 'fen'");
    expect_error(table(tb.get(), "russian", {{"fen", "W:WKa1:B"}}), 400, "a side without pieces");
    expect_error(table(tb.get(), "russian", {{"material", "KKKKKKKKKKKKKvK"}}), 400, "more than the 12 pieces");
    const serve::Reply five = table(tb.get(), "russian", {{"material", "KKKvKK"}});
    expect_error(five, 404, "no table of russian KKKvKK: the largest russian table here has 4 pieces");
    EXPECT_EQ(five.body["material"], "KKKvKK");
}

// A missing table's 404 names the table, never the directory the server
// looked in: that is the server's business, not its clients'.
TEST(MissingTable, The404NamesTheTableNotTheDirectory) {
    const Tablebase tb;
    const std::string dir = DTB_SMALL_TABLES;
    const struct {
        std::string variant, what;
        serve::QueryParams params;
        std::string names;
    } cases[] = {
        // Five pieces where the largest table has four: too many pieces.
        {"russian",
         "",
         {{"fen", "W:WKa1,c3,e3:BKh8,b6"}},
         "a position with 5 pieces: the largest russian table here has 4; "
         "no russian-KMMvKM.wdl"},
        {"russian", "line", {{"fen", "W:WKa1,c3,e3:BKh8,b6"}}, "russian-KMMvKM.wdl"},
        {"international", "", {{"fen", "W:W31,32:B5,K6"}}, "international-"},
        {"russian", "adjudicate", {{"fen", "W:WKa1,Kc3,Ke1,Kg1:BKh8"}, {"moves_played", "3"}}, "russian-KKKKvK"},
    };
    for (const auto& c : cases) {
        const serve::Reply r = serve::api_request(tb.get(), c.variant, c.what, c.params);
        expect_error(r, 404, c.names);
        const std::string message = r.body["error"];
        EXPECT_EQ(message.find(dir), std::string::npos) << message;
        EXPECT_EQ(message.find("looked in"), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace dtb::serve_test
