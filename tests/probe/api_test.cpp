// The C API's contract, call by call: arguments, positions, status codes,
// messages, and values checked by hand on positions small enough to read.
#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {
namespace {

// ---------------------------------------------------------------- opening

TEST(Open, MissingDirectoryIsAnIoErrorNamingIt) {
    const char* dirs[] = {"/nonexistent/dtb-tables"};
    dtb_tablebase* tb = reinterpret_cast<dtb_tablebase*>(1);
    char err[256];
    EXPECT_EQ(dtb_open(dirs, 1, nullptr, &tb, err, sizeof err), DTB_IO_ERROR);
    EXPECT_EQ(tb, nullptr);
    EXPECT_NE(std::string(err).find("/nonexistent/dtb-tables"), std::string::npos) << err;
}

TEST(Open, NullArguments) {
    char err[256];
    EXPECT_EQ(dtb_open(nullptr, 0, nullptr, nullptr, err, sizeof err), DTB_BAD_ARGUMENT);
    dtb_tablebase* tb = nullptr;
    EXPECT_EQ(dtb_open(nullptr, 1, nullptr, &tb, err, sizeof err), DTB_BAD_ARGUMENT);
    const char* dirs[] = {nullptr};
    EXPECT_EQ(dtb_open(dirs, 1, nullptr, &tb, err, sizeof err), DTB_BAD_ARGUMENT);
    EXPECT_NE(std::string(err).find("dirs[0]"), std::string::npos) << err;
    EXPECT_EQ(tb, nullptr);
    // err may be NULL, or too short for the whole message.
    EXPECT_EQ(dtb_open(dirs, 1, nullptr, &tb, nullptr, 0), DTB_BAD_ARGUMENT);
    char tiny[4] = {'x', 'x', 'x', 'x'};
    EXPECT_EQ(dtb_open(dirs, 1, nullptr, &tb, tiny, sizeof tiny), DTB_BAD_ARGUMENT);
    EXPECT_EQ(std::string(tiny), "dtb");
    dtb_close(nullptr);  // allowed, does nothing
}

TEST(Open, NoDirectoryMeansEveryTableIsMissing) {
    dtb_tablebase* tb = nullptr;
    ASSERT_EQ(dtb_open(nullptr, 0, nullptr, &tb, nullptr, 0), DTB_OK);
    const dtb_position pos = c_position<Russian>("W:WKa1:BKh8");
    dtb_value v;
    EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_MISSING_TABLE);
    EXPECT_NE(std::string(dtb_error_message(tb)).find("russian-KvK.wdl"), std::string::npos) << dtb_error_message(tb);
    EXPECT_EQ(dtb_max_pieces(tb, DTB_RUSSIAN), 0);
    dtb_close(tb);
}

TEST(Open, MaxPiecesPerVariant) {
    Handle tb(small_tables());
    EXPECT_EQ(dtb_max_pieces(tb, DTB_RUSSIAN), 4);
    EXPECT_EQ(dtb_max_pieces(tb, DTB_INTERNATIONAL), 3);
    EXPECT_EQ(dtb_max_pieces(tb, 7), 0);
    EXPECT_EQ(dtb_max_pieces(nullptr, DTB_RUSSIAN), 0);
}

// ---------------------------------------------------------------- positions

TEST(Fen, InitialPositionsUsePdnSquareBits) {
    dtb_position pos;
    char err[256];
    ASSERT_EQ(dtb_position_from_fen(DTB_RUSSIAN, "W:W21-32:B1-12", &pos, err, sizeof err), DTB_OK) << err;
    EXPECT_EQ(pos.white, 0xFFF00000u);  // squares 21..32
    EXPECT_EQ(pos.black, 0x00000FFFu);  // squares 1..12
    EXPECT_EQ(pos.kings, 0u);
    EXPECT_EQ(pos.side_to_move, DTB_WHITE);
    EXPECT_EQ(pos.variant, DTB_RUSSIAN);
    ASSERT_EQ(dtb_position_from_fen(DTB_INTERNATIONAL, "B:W31-50:B1-20", &pos, err, sizeof err), DTB_OK) << err;
    EXPECT_EQ(pos.white, ((std::uint64_t{1} << 20) - 1) << 30);
    EXPECT_EQ(pos.black, (std::uint64_t{1} << 20) - 1);
    EXPECT_EQ(pos.side_to_move, DTB_BLACK);
    EXPECT_EQ(pos.variant, DTB_INTERNATIONAL);
}

TEST(Fen, AlgebraicSquaresAndKings) {
    dtb_position pos;
    // a1 = 29, c3 = 22, h8 = 4 (docs/RULES.md 1.2: 1 = b8, ..., 29 = a1).
    ASSERT_EQ(dtb_position_from_fen(DTB_RUSSIAN, "B:Wa1,Kc3:BKh8", &pos, nullptr, 0), DTB_OK);
    EXPECT_EQ(pos.white, (1u << 28) | (1u << 21));
    EXPECT_EQ(pos.black, 1u << 3);
    EXPECT_EQ(pos.kings, (1u << 21) | (1u << 3));
    char fen[64];
    ASSERT_EQ(dtb_position_to_fen(&pos, fen, sizeof fen), DTB_OK);
    EXPECT_STREQ(fen, "B:WKc3,a1:BKh8");
    EXPECT_EQ(dtb_position_to_fen(&pos, fen, 5), DTB_BUFFER_TOO_SMALL);
}

TEST(Fen, BadFenSaysWhy) {
    dtb_position pos;
    char err[256];
    EXPECT_EQ(dtb_position_from_fen(DTB_RUSSIAN, "W:Wz9:Bb8", &pos, err, sizeof err), DTB_BAD_POSITION);
    EXPECT_NE(std::string(err).find("z9"), std::string::npos) << err;
    EXPECT_EQ(dtb_position_from_fen(DTB_RUSSIAN, "W:Wb8:Bc7", &pos, err, sizeof err), DTB_BAD_POSITION);
    EXPECT_NE(std::string(err).find("crowning row"), std::string::npos) << err;
    EXPECT_EQ(dtb_position_from_fen(DTB_INTERNATIONAL, "W:W51:B1", &pos, err, sizeof err), DTB_BAD_POSITION);
    EXPECT_EQ(dtb_position_from_fen(5, "W:W1:B2", &pos, err, sizeof err), DTB_BAD_ARGUMENT);
    EXPECT_NE(std::string(err).find("unknown variant 5"), std::string::npos) << err;
    EXPECT_EQ(dtb_position_from_fen(DTB_RUSSIAN, nullptr, &pos, err, sizeof err), DTB_BAD_ARGUMENT);
}

// Every way a dtb_position can be wrong, through a probe.
TEST(Position, MalformedPositionsAreRefused) {
    Handle tb(small_tables());
    const dtb_position good = c_position<Russian>("W:WKa1:BKh8");
    dtb_value v;
    ASSERT_EQ(dtb_probe_wdl(tb, &good, &v), DTB_OK) << tb.error();

    auto expect_bad = [&](dtb_position pos, int status, const std::string& words) {
        dtb_value value;
        EXPECT_EQ(dtb_probe_wdl(tb, &pos, &value), status);
        EXPECT_NE(tb.error().find(words), std::string::npos) << tb.error();
    };
    dtb_position p = good;
    p.white |= std::uint64_t{1} << 32;  // square 33 on an 8x8 board
    expect_bad(p, DTB_BAD_POSITION, "above square 32");
    p = good;
    p.black |= p.white;
    expect_bad(p, DTB_BAD_POSITION, "white and a black piece");
    p = good;
    p.kings |= 1u << 10;
    expect_bad(p, DTB_BAD_POSITION, "empty square");
    p = good;
    p.side_to_move = 2;
    expect_bad(p, DTB_BAD_POSITION, "side_to_move");
    p = good;
    p.variant = 9;
    expect_bad(p, DTB_BAD_ARGUMENT, "unknown variant 9");
    p = good;
    p.kings = 0;
    p.white = 1u << 0;  // a white man on b8, its crowning row
    expect_bad(p, DTB_BAD_POSITION, "crowning row");
    p = good;
    p.black = 0;  // White to move and Black has nothing: the game ended a move ago
    p.kings &= p.white;
    expect_bad(p, DTB_BAD_POSITION, "already over");
    p = good;
    p.white = p.black = p.kings = 0;
    expect_bad(p, DTB_BAD_POSITION, "board is empty");
    p = c_position<Russian>("W:W21-32:B1-12");
    p.white |= 1u << 12;  // 13 white pieces
    expect_bad(p, DTB_BAD_POSITION, "too many white pieces");
}

TEST(Position, NullArguments) {
    Handle tb(small_tables());
    const dtb_position pos = c_position<Russian>("W:WKa1:BKh8");
    dtb_value v;
    dtb_move m;
    size_t n = 0;
    EXPECT_EQ(dtb_probe_wdl(nullptr, &pos, &v), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_probe_wdl(tb, nullptr, &v), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_probe_wdl(tb, &pos, nullptr), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_probe_dtw(tb, &pos, nullptr), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_best_move(tb, &pos, nullptr, &v), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_probe_root(tb, &pos, nullptr, 5, &n), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_probe_root(tb, &pos, nullptr, 0, nullptr), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_rule_root(tb, &pos, 0, -1, -1, nullptr, 5, &n), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_rule_root(tb, &pos, 0, -1, -1, nullptr, 0, nullptr), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_principal_variation(tb, &pos, nullptr, 3, &n, &v), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_position_after(&pos, nullptr, nullptr), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_position_to_fen(nullptr, nullptr, 0), DTB_BAD_ARGUMENT);
    EXPECT_NE(tb.error().find("NULL"), std::string::npos) << tb.error();
    EXPECT_STRNE(dtb_error_message(nullptr), "");
    (void)m;
}

// ---------------------------------------------------------------- values by hand

// White's man a1 must take b2 (a1:c3), and Black has nothing left.
TEST(Values, ForcedCaptureThatEndsTheGame) {
    Handle tb(small_tables());
    const dtb_position pos = c_position<Russian>("W:Wa1,c1:Bb2");
    dtb_value v{};
    ASSERT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_OK) << tb.error();
    EXPECT_TRUE(same(v, {DTB_WIN, -1})) << show(v);
    ASSERT_EQ(dtb_probe_dtw(tb, &pos, &v), DTB_OK) << tb.error();
    EXPECT_TRUE(same(v, {DTB_WIN, 1})) << show(v);
    dtb_move m{};
    ASSERT_EQ(dtb_best_move(tb, &pos, &m, &v), DTB_OK) << tb.error();
    EXPECT_EQ(m.from, 29);  // a1
    EXPECT_EQ(m.to, 22);    // c3
    ASSERT_EQ(m.n_captured, 1);
    EXPECT_EQ(m.captured[0], 25);  // b2
    EXPECT_EQ(m.crowns, 0);
    EXPECT_STREQ(m.text, "a1:c3");
    dtb_position after;
    ASSERT_EQ(dtb_position_after(&pos, &m, &after), DTB_OK);
    EXPECT_EQ(after.black, 0u);
    EXPECT_EQ(after.side_to_move, DTB_BLACK);
    // Black to move with no piece: lost, DTW 0, no move, no line.
    ASSERT_EQ(dtb_probe_dtw(tb, &after, &v), DTB_OK) << tb.error();
    EXPECT_TRUE(same(v, {DTB_LOSS, 0})) << show(v);
    EXPECT_EQ(dtb_best_move(tb, &after, &m, &v), DTB_NO_MOVE);
    EXPECT_TRUE(same(v, {DTB_LOSS, 0})) << show(v);
}

// White's man h2 can go only to g3, which Black holds; f4 behind it is
// taken too, so there is no capture: White to move has lost.
TEST(Values, NoLegalMoveIsLostNow) {
    Handle tb(small_tables());
    const dtb_position pos = c_position<Russian>("W:Wh2:Bg3,f4");
    dtb_value v{};
    ASSERT_EQ(dtb_probe_dtw(tb, &pos, &v), DTB_OK) << tb.error();
    EXPECT_TRUE(same(v, {DTB_LOSS, 0})) << show(v);
    dtb_move m;
    EXPECT_EQ(dtb_best_move(tb, &pos, &m, &v), DTB_NO_MOVE);
    EXPECT_NE(tb.error().find("no legal move"), std::string::npos);
    size_t n = 99;
    EXPECT_EQ(dtb_probe_root(tb, &pos, nullptr, 0, &n), DTB_OK);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(dtb_principal_variation(tb, &pos, nullptr, 0, &n, &v), DTB_OK);
    EXPECT_EQ(n, 0u);
}

// A 5-piece position needs no 5-piece table when the side to move must
// capture: the search reads the 4-piece tables behind the capture.
TEST(Values, CaptureIntoSmallerTablesAboveTheLargestTable) {
    Handle tb(small_tables());
    const dtb_position pos = c_position<Russian>("W:Wa1,e1:Bb2,Kh8,Kf8");  // a1:c3 is forced
    dtb_value v{}, after_v{};
    ASSERT_EQ(dtb_probe_dtw(tb, &pos, &v), DTB_OK) << tb.error();
    const dtb_position after = c_position<Russian>("B:Wc3,e1:BKh8,Kf8");
    ASSERT_EQ(dtb_probe_dtw(tb, &after, &after_v), DTB_OK) << tb.error();
    EXPECT_EQ(v.wdl, -after_v.wdl);
    EXPECT_EQ(v.dtw, after_v.wdl == DTB_DRAW ? -1 : after_v.dtw + 1);
    // Without a capture, five pieces are too many for this set.
    const dtb_position quiet = c_position<Russian>("W:Wa1,e1:Bb4,Kh8,Kf8");
    EXPECT_EQ(dtb_probe_wdl(tb, &quiet, &v), DTB_TOO_MANY_PIECES);
    EXPECT_NE(tb.error().find("5 pieces"), std::string::npos) << tb.error();
}

// The same position with the colours swapped and the board turned has the
// same value: the probe turns Black-to-move positions into the tables'
// White-to-move form.
TEST(Values, ColourSymmetry) {
    Handle tb(small_tables());
    for (const char* fen : {"W:WKa1,Kc3:BKh8", "W:Wc3,e3:BKh8", "W:WKb2:Bc7,e7"}) {
        const Position<Russian> pos = parse_fen<Russian>(fen);
        const dtb_position a = c_position(pos), b = c_position(flip(pos));
        dtb_value va{}, vb{};
        ASSERT_EQ(dtb_probe_dtw(tb, &a, &va), DTB_OK) << tb.error();
        ASSERT_EQ(dtb_probe_dtw(tb, &b, &vb), DTB_OK) << tb.error();
        EXPECT_TRUE(same(va, vb)) << fen << ": " << show(va) << " vs " << show(vb);
    }
}

// ---------------------------------------------------------------- moves and lines

TEST(Moves, RootMovesAgreeWithTheBestMove) {
    Handle tb(small_tables());
    const dtb_position pos = c_position<Russian>("W:WKa1,Kc3:BKh8");
    size_t n = 0;
    EXPECT_EQ(dtb_probe_root(tb, &pos, nullptr, 0, &n), DTB_BUFFER_TOO_SMALL);
    EXPECT_NE(tb.error().find("legal moves"), std::string::npos) << tb.error();
    ASSERT_GT(n, 2u);
    std::vector<dtb_root_move> moves(n);
    size_t count = 0;
    ASSERT_EQ(dtb_probe_root(tb, &pos, moves.data(), 2, &count), DTB_BUFFER_TOO_SMALL);
    EXPECT_EQ(count, n);
    ASSERT_EQ(dtb_probe_root(tb, &pos, moves.data(), moves.size(), &count), DTB_OK) << tb.error();
    dtb_value v{};
    dtb_move best{};
    ASSERT_EQ(dtb_best_move(tb, &pos, &best, &v), DTB_OK) << tb.error();
    ASSERT_EQ(v.wdl, DTB_WIN);
    int fastest = 1000;
    for (const dtb_root_move& r : moves) {
        // Each move's value is what the position after it is worth to the mover.
        dtb_position after;
        ASSERT_EQ(dtb_position_after(&pos, &r.move, &after), DTB_OK) << r.move.text;
        dtb_value av{};
        ASSERT_EQ(dtb_probe_dtw(tb, &after, &av), DTB_OK) << tb.error();
        EXPECT_EQ(r.value.wdl, -av.wdl) << r.move.text;
        if (r.value.wdl == DTB_WIN) fastest = std::min(fastest, r.value.dtw);
    }
    EXPECT_EQ(v.dtw, fastest);
}

TEST(Moves, PrincipalVariationPlaysToTheEnd) {
    Handle tb(small_tables());
    for (const char* fen : {"W:WKa1,Kc3:BKh8", "B:WKa1,Kc3:BKh8", "W:WKd2,Ke1,Kb4:BKa7"}) {
        const dtb_position start = c_position<Russian>(fen);
        dtb_value v{};
        ASSERT_EQ(dtb_probe_dtw(tb, &start, &v), DTB_OK) << fen << ": " << tb.error();
        ASSERT_NE(v.wdl, DTB_DRAW) << fen;
        size_t length = 0;
        EXPECT_EQ(dtb_principal_variation(tb, &start, nullptr, 0, &length, nullptr), DTB_BUFFER_TOO_SMALL);
        EXPECT_EQ(length, size_t(v.dtw));
        std::vector<dtb_move> line(length);
        dtb_value lv{};
        ASSERT_EQ(dtb_principal_variation(tb, &start, line.data(), line.size(), &length, &lv), DTB_OK);
        EXPECT_TRUE(same(lv, v));
        // Walk the line: each step one ply nearer the end, which is a lost
        // position with no move.
        dtb_position pos = start;
        int expected = v.dtw;
        for (const dtb_move& m : line) {
            dtb_value here{};
            ASSERT_EQ(dtb_probe_dtw(tb, &pos, &here), DTB_OK);
            EXPECT_EQ(here.dtw, expected) << fen << " at " << m.text;
            ASSERT_EQ(dtb_position_after(&pos, &m, &pos), DTB_OK) << m.text;
            --expected;
        }
        dtb_move none;
        dtb_value end{};
        EXPECT_EQ(dtb_best_move(tb, &pos, &none, &end), DTB_NO_MOVE) << fen;
        EXPECT_TRUE(same(end, {DTB_LOSS, 0})) << show(end);
    }
}

TEST(Moves, DrawHasNoLine) {
    Handle tb(small_tables());
    const dtb_position pos = c_position<Russian>("W:WKa3:BKh6");  // king against king, on no common diagonal
    dtb_value v{};
    size_t length = 7;
    ASSERT_EQ(dtb_principal_variation(tb, &pos, nullptr, 0, &length, &v), DTB_OK) << tb.error();
    EXPECT_EQ(length, 0u);
    EXPECT_TRUE(same(v, {DTB_DRAW, -1})) << show(v);
    dtb_move m{};
    ASSERT_EQ(dtb_best_move(tb, &pos, &m, &v), DTB_OK);  // a drawing move still exists
    EXPECT_EQ(v.wdl, DTB_DRAW);
}

TEST(Moves, InternationalNotation) {
    Handle tb(small_tables());
    // The man on 28 (e5) must take 23 (f6) and lands on 19 (g7); the king
    // on 46 is blocked by its own man. Squares are written as numbers.
    const dtb_position pos = c_position<International>("W:W28,K46:B23,K5");
    dtb_move m{};
    dtb_value v{};
    ASSERT_EQ(dtb_best_move(tb, &pos, &m, &v), DTB_OK) << tb.error();
    EXPECT_EQ(m.n_captured, 1);
    EXPECT_EQ(m.captured[0], 23);
    EXPECT_STREQ(m.text, "28x19");
}

TEST(Moves, IllegalMoveIsRefused) {
    const dtb_position pos = c_position<Russian>("W:WKa1:BKh8");
    dtb_move m{};
    m.from = 29;
    m.to = 1;  // a1 to b8: not on a diagonal
    dtb_position out;
    EXPECT_EQ(dtb_position_after(&pos, &m, &out), DTB_BAD_ARGUMENT);
}

// ---------------------------------------------------------------- missing tables and messages

TEST(Missing, MissingTableIsNamedNeverGuessed) {
    ScratchDir dir;
    for (const auto& entry : std::filesystem::directory_iterator(small_tables()))
        if (entry.path().filename() != "russian-KKvK.wdl" && entry.path().filename() != "russian-KvKK.dtw")
            std::filesystem::copy_file(entry.path(), dir / entry.path().filename().string());
    Handle tb(dir.path());
    dtb_value v{};
    const dtb_position kkvk = c_position<Russian>("W:WKa1,Kc3:BKh8");
    EXPECT_EQ(dtb_probe_wdl(tb, &kkvk, &v), DTB_MISSING_TABLE);
    EXPECT_NE(tb.error().find("missing table russian-KKvK.wdl"), std::string::npos) << tb.error();
    EXPECT_NE(tb.error().find(dir.path().string()), std::string::npos) << tb.error();
    // The WDL file of the mirror is there; its DTW file is not. Black's
    // king has no capture and loses in 2 (h8-g7 a1:h8).
    const dtb_position kvkk = c_position<Russian>("B:WKa1,Kc1:BKh8");
    EXPECT_EQ(dtb_probe_wdl(tb, &kvkk, &v), DTB_OK) << tb.error();
    EXPECT_EQ(dtb_probe_dtw(tb, &kvkk, &v), DTB_MISSING_TABLE);
    EXPECT_NE(tb.error().find("russian-KvKK.dtw"), std::string::npos) << tb.error();
    // A capture into a missing table fails too: no value from half a search.
    const dtb_position capture = c_position<Russian>("B:WKa1,Kc3,g3:BKf4");  // f4:h2 is forced, into KKvK
    EXPECT_EQ(dtb_probe_wdl(tb, &capture, &v), DTB_MISSING_TABLE);
    EXPECT_NE(tb.error().find("russian-KKvK.wdl"), std::string::npos) << tb.error();
}

TEST(Missing, FirstDirectoryWins) {
    ScratchDir empty_but_one;
    // A file that claims to be KvK but is damaged: the first directory's copy
    // is used, so the probe reports it rather than reading the good one.
    const auto name = std::string("russian-KvK.wdl");
    std::filesystem::copy_file(small_tables() / name, empty_but_one / name);
    {
        std::fstream f(empty_but_one / name, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(0);
        f.put('X');
    }
    const dtb_position pos = c_position<Russian>("W:WKa1:BKh8");
    dtb_value v{};
    {
        Handle tb({empty_but_one.path(), small_tables()});
        EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_CORRUPT_TABLE);
        EXPECT_NE(tb.error().find((empty_but_one / name).string()), std::string::npos) << tb.error();
    }
    {
        Handle tb({small_tables(), empty_but_one.path()});
        EXPECT_EQ(dtb_probe_wdl(tb, &pos, &v), DTB_OK) << tb.error();
    }
}

TEST(Messages, EachThreadSeesItsOwnLastError) {
    Handle tb(small_tables());
    const dtb_position too_big = c_position<Russian>("W:Wa1,c1,e1:Bb8,d8,f8");
    dtb_value v;
    ASSERT_EQ(dtb_probe_wdl(tb, &too_big, &v), DTB_TOO_MANY_PIECES);
    const std::string mine = tb.error();
    std::string other = "unset";
    std::thread([&] { other = dtb_error_message(tb); }).join();
    EXPECT_EQ(other, "");
    EXPECT_EQ(tb.error(), mine);
    // A later success leaves the message alone.
    const dtb_position fine = c_position<Russian>("W:WKa1:BKh8");
    ASSERT_EQ(dtb_probe_wdl(tb, &fine, &v), DTB_OK);
    EXPECT_EQ(tb.error(), mine);
}

TEST(Messages, StatusNames) {
    EXPECT_STREQ(dtb_status_name(DTB_OK), "ok");
    EXPECT_STREQ(dtb_status_name(DTB_MISSING_TABLE), "missing table");
    EXPECT_STREQ(dtb_status_name(DTB_CORRUPT_TABLE), "corrupt table");
    EXPECT_STREQ(dtb_status_name(DTB_BAD_POSITION), "bad position");
    EXPECT_STREQ(dtb_status_name(DTB_TOO_MANY_PIECES), "too many pieces");
    EXPECT_STREQ(dtb_status_name(DTB_IO_ERROR), "i/o error");
    EXPECT_STREQ(dtb_status_name(DTB_BAD_ARGUMENT), "bad argument");
    EXPECT_STREQ(dtb_status_name(DTB_NO_MOVE), "no legal move");
    EXPECT_STREQ(dtb_status_name(DTB_BUFFER_TOO_SMALL), "buffer too small");
    EXPECT_STREQ(dtb_status_name(DTB_OUT_OF_MEMORY), "out of memory");
    EXPECT_STREQ(dtb_status_name(DTB_INTERNAL_ERROR), "internal error");
    EXPECT_STREQ(dtb_status_name(-3), "unknown status");
}

TEST(Cache, NoCacheGivesTheSameValues) {
    Handle cached(small_tables());
    Handle uncached(small_tables(), 0);
    for (const char* fen : {"W:WKa1,Kc3:BKh8", "B:Wc3,e3:BKh8", "W:Wa1,c1:Bb2"}) {
        const dtb_position pos = c_position<Russian>(fen);
        dtb_value a{}, b{};
        ASSERT_EQ(dtb_probe_dtw(cached, &pos, &a), DTB_OK);
        ASSERT_EQ(dtb_probe_dtw(uncached, &pos, &b), DTB_OK) << uncached.error();
        EXPECT_TRUE(same(a, b)) << fen;
    }
}

}  // namespace
}  // namespace dtb::probe_test
