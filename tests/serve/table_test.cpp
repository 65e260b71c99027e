// The API's missing-table answers (cli/serve_api.hpp), called directly on
// the small tables (Russian up to 4 pieces, international and Brazilian up
// to 3).
#include <gtest/gtest.h>

#include "cli/serve_api.hpp"

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

// The JSON error, its status, and that it names `needle`.
void expect_error(const serve::Reply& r, int status, const std::string& needle) {
    EXPECT_EQ(r.status, status) << r.body.dump();
    ASSERT_TRUE(r.body.contains("error")) << r.body.dump();
    EXPECT_NE(r.body["error"].get<std::string>().find(needle), std::string::npos) << r.body.dump();
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
