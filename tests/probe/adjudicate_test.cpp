// dtb_adjudicate and adjudication/judge.hpp: answers that flip exactly at
// the limit in both variants, which rule ends the game first, no rule,
// bad input, and the claim that matters most: every answer marked exact is
// the rules' answer. That is checked against a plain minimax over moves and
// the rules' counts, with no table at all, on every position of the
// smaller endings. The verdict in words comes from the values alone: the
// same sentence from the library and through the C API's codes and numbers.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <fstream>
#include <unordered_map>

#include "adjudication/c_ruling.hpp"
#include "adjudication/judge.hpp"
#include "adjudication/ruling_text.hpp"
#include "compress/little_endian.hpp"
#include "gen/generate.hpp"
#include "gen/raw_table.hpp"
#include "tests/draw_counts_key.hpp"
#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {
namespace {

// Russian up to 4 pieces, international up to 3 and KKKvK.
std::filesystem::path tables() {
    static std::once_flag once;
    std::call_once(once, [] { make_adjudication_tables(DTB_ADJUDICATE_TABLES); });
    return DTB_ADJUDICATE_TABLES;
}

// dtb_adjudicate on a FEN; fails the test unless it answers.
template <class V>
dtb_adjudication adjudicate(const Handle& tb, const std::string& fen, int moves, int king_moves = -1) {
    const dtb_position pos = c_position<V>(fen);
    dtb_adjudication a;
    const int status = dtb_adjudicate(tb, &pos, moves, king_moves, &a);
    EXPECT_EQ(status, DTB_OK) << fen << ": " << tb.error();
    return a;
}

std::string rule_id(const dtb_adjudication& a) { return a.rule < 0 ? "none" : a.rules[a.rule].id; }

// The verdict of a C adjudication, through dtb_adjudication_verdict.
std::string verdict(const dtb_adjudication& a) {
    std::size_t needed = 0;
    EXPECT_EQ(dtb_adjudication_verdict(&a, nullptr, 0, &needed), DTB_BUFFER_TOO_SMALL);
    std::string text(needed, '\0');
    EXPECT_EQ(dtb_adjudication_verdict(&a, text.data(), text.size(), nullptr), DTB_OK);
    text.resize(needed > 0 ? needed - 1 : 0);
    return text;
}

// The verdict of an adjudication of the library, in words.
template <class V = Russian>
std::string verdict(const adjudication::Ruling& a) {
    return adjudication::verdict_text(V::draw_rules, a);
}

// The library's adjudication carried to C (as dtb_adjudicate does) and put
// into words there: the same verdict, from codes and numbers alone.
template <class V = Russian>
std::string verdict_through_c(const adjudication::Ruling& a) {
    dtb_adjudication c;
    adjudication::ruling_to_c(V::draw_rules, dtb_variant_from_name(std::string(V::name).c_str()), a, c);
    return verdict(c);
}

std::vector<std::string> ending_first(const dtb_adjudication& a) {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < a.n_rules; ++i)
        if (a.rules[i].ends_first) ids.emplace_back(a.rules[i].id);
    return ids;
}

// The first position of `sig` (White to move) whose value is `value`.
template <class V>
std::string position_with_value(const std::string& sig, int value) {
    auto tb = probe::Tablebase::open({tables()}, 16 << 20);
    EXPECT_TRUE(tb.ok());
    const probe::Search<V> search(**tb);
    const PositionIndex<V> index(*MaterialSignature::parse(sig));
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position<V> pos = index.unrank(i);
        if (auto v = search.value(pos); v.ok() && *v == value) return to_fen(pos);
    }
    ADD_FAILURE() << "no position of " << sig << " with value " << value;
    return {};
}

// ---------------------------------------------------------------------------
// Flipping exactly at the limit

TEST(Adjudicate, RussianThirteenMoveWinAgainstFifteenMoves) {
    // The demo's position: three kings off the main road, White to move,
    // 25 plies to the capture: 13 moves of White (README's tour, scripts/demo.sh).
    Handle tb(tables());
    const std::string fen = "W:WKf8,Ke7,Kh6:BKb8";
    const dtb_adjudication two = adjudicate<Russian>(tb, fen, 2);
    EXPECT_EQ(rule_id(two), "2.1.9.1.4");
    EXPECT_EQ(two.limit_moves, 15);
    EXPECT_EQ(two.moves_left, 13);
    EXPECT_EQ(two.moves_needed, 13);
    EXPECT_EQ(two.dtw, 25);
    EXPECT_EQ(two.stronger_side, DTB_WHITE);
    EXPECT_EQ(two.winnable, 1) << verdict(two);
    EXPECT_EQ(two.exact, 1) << verdict(two);
    const dtb_adjudication three = adjudicate<Russian>(tb, fen, 3);
    EXPECT_EQ(three.moves_left, 12);
    EXPECT_EQ(three.moves_needed, 13);
    EXPECT_EQ(three.winnable, 0) << verdict(three);
    EXPECT_EQ(three.exact, 1) << verdict(three);
    EXPECT_NE(verdict(three).find("Draw by rule 2.1.9.1.4"), std::string::npos) << verdict(three);
}

TEST(Adjudicate, RussianLoneKingToMoveCountsDtwOverTwo) {
    // With the lone king to move, DTW 26 is 13 moves of the three kings.
    Handle tb(tables());
    const std::string fen = position_with_value<Russian>("KvKKK", 26);
    const dtb_adjudication two = adjudicate<Russian>(tb, fen, 2);
    EXPECT_EQ(two.stronger_side, DTB_BLACK);  // the table's White is the lone king
    EXPECT_EQ(two.moves_needed, 13);
    EXPECT_EQ(two.winnable, 1) << verdict(two);
    EXPECT_EQ(two.exact, 1);
    const dtb_adjudication three = adjudicate<Russian>(tb, fen, 3);
    EXPECT_EQ(three.winnable, 0) << verdict(three);
    EXPECT_EQ(three.exact, 1);
}

TEST(Adjudicate, InternationalEightMoveWinAgainstSixteenMoves) {
    Handle tb(tables());
    for (const auto& [sig, value] : {std::pair{"KKKvK", 15}, std::pair{"KvKKK", 16}}) {
        const std::string fen = position_with_value<International>(sig, value);
        const dtb_adjudication eight = adjudicate<International>(tb, fen, 8);
        EXPECT_EQ(rule_id(eight), "3.5 (16 moves)") << fen;
        EXPECT_EQ(eight.moves_left, 8);
        EXPECT_EQ(eight.moves_needed, 8);
        EXPECT_EQ(eight.winnable, 1) << verdict(eight);
        EXPECT_EQ(eight.exact, 1) << verdict(eight);
        const dtb_adjudication nine = adjudicate<International>(tb, fen, 9);
        EXPECT_EQ(nine.winnable, 0) << verdict(nine);
        EXPECT_EQ(nine.exact, 1) << verdict(nine);
    }
}

TEST(Adjudicate, InternationalFourMoveWinAgainstFiveMoves) {
    Handle tb(tables());
    const std::string fen = position_with_value<International>("KKvK", 7);
    const dtb_adjudication one = adjudicate<International>(tb, fen, 1);
    EXPECT_EQ(rule_id(one), "3.5 (5 moves)");
    EXPECT_EQ(one.moves_left, 4);
    EXPECT_EQ(one.moves_needed, 4);
    EXPECT_EQ(one.winnable, 1) << verdict(one);
    const dtb_adjudication two = adjudicate<International>(tb, fen, 2);
    EXPECT_EQ(two.winnable, 0) << verdict(two);
    EXPECT_EQ(two.exact, 1) << verdict(two);
}

TEST(Adjudicate, CountAlreadyRunOut) {
    Handle tb(tables());
    const dtb_adjudication a = adjudicate<Russian>(tb, "W:WKf8,Ke7,Kh6:BKb8", 20);
    EXPECT_EQ(a.moves_left, 0);
    EXPECT_EQ(a.winnable, 0);
    EXPECT_EQ(a.exact, 1);
    EXPECT_EQ(a.basis, DTB_BASIS_COUNT);
    EXPECT_STREQ(dtb_basis_name(a.basis), "count");
    // However many: no overflow, the same answer.
    const dtb_adjudication huge = adjudicate<Russian>(tb, "W:WKf8,Ke7,Kh6:BKb8", INT_MAX, INT_MAX);
    EXPECT_EQ(huge.moves_left, 0);
    EXPECT_EQ(huge.winnable, 0);
}

// ---------------------------------------------------------------------------
// Which rule

TEST(Adjudicate, LoneKingOnTheMainRoadLeavesFiveMoves) {
    // 2.1.9.1.7 (5 moves) ends the game before 2.1.9.1.4 (15).
    Handle tb(tables());
    const dtb_adjudication a = adjudicate<Russian>(tb, "B:WKc1,Ke1,Kg1:BKh8", 0);
    EXPECT_EQ(rule_id(a), "2.1.9.1.7");
    EXPECT_EQ(a.limit_moves, 5);
    EXPECT_EQ(ending_first(a), (std::vector<std::string>{"2.1.9.1.7"}));
    bool four_applies = false;
    for (std::size_t i = 0; i < a.n_rules; ++i)
        if (std::string(a.rules[i].id) == "2.1.9.1.4") four_applies = a.rules[i].applies && a.rules[i].moves_left == 15;
    EXPECT_TRUE(four_applies);
    EXPECT_EQ(a.wdl, DTB_DRAW);  // the lone king holds the main road
    EXPECT_EQ(a.winnable, 0);
}

TEST(Adjudicate, TiesNameTheMoreSpecificRuleAndListTheOthers) {
    Handle tb(tables());
    const dtb_adjudication a = adjudicate<Russian>(tb, "W:WKa1,Ke7,Kh6:BKb8", 0);
    EXPECT_EQ(rule_id(a), "2.1.9.1.3");
    EXPECT_EQ(ending_first(a), (std::vector<std::string>{"2.1.9.1.3", "2.1.9.1.4", "2.1.9.1.8"}));
}

TEST(Adjudicate, KingMovesCountedApart) {
    // Ten moves in a row of kings only, two since the material stood:
    // 2.1.9.1.8 leaves 5, before 2.1.9.1.4's 13.
    Handle tb(tables());
    const dtb_adjudication a = adjudicate<Russian>(tb, "W:WKf8,Ke7,Kh6:BKb8", 2, 10);
    EXPECT_EQ(rule_id(a), "2.1.9.1.8");
    EXPECT_EQ(a.moves_left, 5);
    EXPECT_EQ(a.winnable, 0) << verdict(a);
}

TEST(Adjudicate, InternationalSixteenMovesBeforeTwentyFive) {
    Handle tb(tables());
    const dtb_adjudication a = adjudicate<International>(tb, "W:WK47,K48,K49:BK3", 0);
    EXPECT_EQ(rule_id(a), "3.5 (16 moves)");
    EXPECT_EQ(a.limit_moves, 16);
}

TEST(Adjudicate, NoRuleNeedsNoTable) {
    // Two men against a lone king: no count in either variant. No table is
    // read, so an empty table set answers too.
    dtb_tablebase* empty = nullptr;
    ASSERT_EQ(dtb_open(nullptr, 0, nullptr, &empty, nullptr, 0), DTB_OK);
    for (const auto& [variant, fen] :
         {std::pair{DTB_RUSSIAN, "W:Wc3,e3:BKh8"}, std::pair{DTB_INTERNATIONAL, "W:W35,36:BK3"}}) {
        dtb_position pos;
        ASSERT_EQ(dtb_position_from_fen(variant, fen, &pos, nullptr, 0), DTB_OK);
        dtb_adjudication a;
        ASSERT_EQ(dtb_adjudicate(empty, &pos, 0, -1, &a), DTB_OK) << dtb_error_message(empty);
        EXPECT_EQ(a.rule, -1);
        EXPECT_EQ(a.limit_moves, -1);
        EXPECT_EQ(a.moves_needed, -1);
        EXPECT_EQ(a.winnable, 0);
        EXPECT_EQ(a.basis, DTB_BASIS_NO_RULE);
        EXPECT_STREQ(dtb_basis_name(a.basis), "no rule");
        EXPECT_NE(verdict(a).find("No move-count draw rule"), std::string::npos) << verdict(a);
    }
    dtb_close(empty);
}

// ---------------------------------------------------------------------------
// The words, apart from the values

TEST(Adjudicate, VerdictComesFromCodesAndNumbers) {
    Handle tb(tables());
    const dtb_adjudication a = adjudicate<Russian>(tb, "W:WKf8,Ke7,Kh6:BKb8", 3);
    EXPECT_EQ(a.variant, DTB_RUSSIAN);
    EXPECT_EQ(a.side_to_move, DTB_WHITE);
    EXPECT_EQ(a.kings[DTB_WHITE], 3);
    EXPECT_EQ(a.kings[DTB_BLACK], 1);
    EXPECT_EQ(a.basis, DTB_BASIS_DTW);
    EXPECT_STREQ(dtb_basis_name(a.basis), "dtw");
    EXPECT_EQ(a.doubt.kind, DTB_DOUBT_NONE);
    const std::string expected =
        "Draw by rule 2.1.9.1.4: White needs 13 moves to win with best play (DTW 25 plies, White to move), but the "
        "rule leaves White 12 of its 15 moves (3 played); Black can hold out past them. (Rule 2.1.9.1.8 leaves as "
        "many moves.)";
    EXPECT_EQ(verdict(a), expected);
    // Too short a buffer: as much as fits, and the size it takes.
    char small[10];
    std::size_t needed = 0;
    EXPECT_EQ(dtb_adjudication_verdict(&a, small, sizeof small, &needed), DTB_BUFFER_TOO_SMALL);
    EXPECT_EQ(needed, expected.size() + 1);
    EXPECT_EQ(std::string(small), expected.substr(0, sizeof small - 1));
    // Why a rule does not apply, as a code and its words.
    EXPECT_EQ(a.rules[0].why_not, DTB_RULE_NO_STRONGER_KING_ON_ROAD);
    EXPECT_STREQ(dtb_rule_note(a.rules[0].why_not), "no king of the stronger side on the main road");
    EXPECT_EQ(a.rules[1].why_not, DTB_RULE_APPLIES);
    EXPECT_STREQ(dtb_rule_note(a.rules[1].why_not), "");
    EXPECT_EQ(a.rules[2].why_not, DTB_RULE_OTHER_MATERIAL);
    EXPECT_STREQ(dtb_rule_note(a.rules[2].why_not), "not this material");
    EXPECT_EQ(a.rules[7].why_not, DTB_RULE_NEEDS_GAME);
    EXPECT_STREQ(dtb_rule_note(a.rules[7].why_not), "counts positions over the whole game: give the game (--pdn)");
    EXPECT_STREQ(dtb_rule_note(99), "");
    EXPECT_STREQ(dtb_basis_name(-1), "unknown");
    const dtb_adjudication road = adjudicate<Russian>(tb, "B:WKc1,Ke1,Kg1:BKh8", 0);
    EXPECT_STREQ(dtb_rule_note(road.rules[0].why_not), "no king of the stronger side on the main road");
    const dtb_adjudication off_road = adjudicate<Russian>(tb, "W:WKa1,Ke7,Kh6:BKb8", 0);
    EXPECT_EQ(off_road.rules[5].why_not, DTB_RULE_LONE_KING_OFF_ROAD);
    EXPECT_STREQ(dtb_rule_note(off_road.rules[5].why_not), "the lone king is not on the main road");
}

TEST(Adjudicate, VerdictRefusesWhatAdjudicateDidNotWrite) {
    Handle tb(tables());
    const dtb_adjudication good = adjudicate<Russian>(tb, "W:WKf8,Ke7,Kh6:BKb8", 3);
    char buf[2048];
    EXPECT_EQ(dtb_adjudication_verdict(nullptr, buf, sizeof buf, nullptr), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_adjudication_verdict(&good, nullptr, 5, nullptr), DTB_BAD_ARGUMENT);
    const auto refused = [&](auto&& spoil) {
        dtb_adjudication a = good;
        spoil(a);
        return dtb_adjudication_verdict(&a, buf, sizeof buf, nullptr) == DTB_BAD_ARGUMENT;
    };
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.variant = 7; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.variant = DTB_INTERNATIONAL; }));  // 8 rules, not 4
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.rule = 8; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.stronger_side = -1; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.basis = DTB_BASIS_DTC + 1; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.moves_needed = -1; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.side_to_move = 2; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.kings[0] = -1; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.doubt.kind = DTB_DOUBT_CONVERSION_UNRECORDED + 1; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.doubt.rule = 8; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.doubt.men[1] = 1000; }));
    EXPECT_TRUE(
        refused([](dtb_adjudication& a) { std::memset(a.doubt.missing_file, 'x', sizeof a.doubt.missing_file); }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.rules[3].why_not = 5; }));
    EXPECT_TRUE(refused([](dtb_adjudication& a) { a.n_rules = 3; }));
    EXPECT_FALSE(refused([](dtb_adjudication&) {}));
}

// ---------------------------------------------------------------------------
// Bad input

TEST(Adjudicate, BadArguments) {
    Handle tb(tables());
    const dtb_position pos = c_position<Russian>("W:WKf8,Ke7,Kh6:BKb8");
    dtb_adjudication a;
    EXPECT_EQ(dtb_adjudicate(tb, &pos, -1, -1, &a), DTB_BAD_ARGUMENT);
    EXPECT_NE(tb.error().find("moves played is -1"), std::string::npos) << tb.error();
    EXPECT_EQ(dtb_adjudicate(tb, &pos, 0, -1, nullptr), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_adjudicate(tb, nullptr, 0, -1, &a), DTB_BAD_ARGUMENT);
    EXPECT_EQ(dtb_adjudicate(nullptr, &pos, 0, -1, &a), DTB_BAD_ARGUMENT);
    dtb_position bad = pos;
    bad.side_to_move = 5;
    EXPECT_EQ(dtb_adjudicate(tb, &bad, 0, -1, &a), DTB_BAD_POSITION);
    bad = pos;
    bad.variant = 9;
    EXPECT_EQ(dtb_adjudicate(tb, &bad, 0, -1, &a), DTB_BAD_ARGUMENT);
}

TEST(Adjudicate, MissingTableIsNamed) {
    const ScratchDir empty;
    Handle tb(empty.path());
    const dtb_position pos = c_position<Russian>("W:WKf8,Ke7,Kh6:BKb8");
    dtb_adjudication a;
    EXPECT_EQ(dtb_adjudicate(tb, &pos, 3, -1, &a), DTB_MISSING_TABLE);
    EXPECT_NE(tb.error().find("russian-KKKvK"), std::string::npos) << tb.error();
}

// ---------------------------------------------------------------------------
// Honesty: what DTW does not settle is said, and what is said is right

TEST(Adjudicate, ACountThatACrowningRestartsIsNotSettledByDtw) {
    // A king and a man against a king, 2.1.9.1.5 with 1 of 5 moves left:
    // the win takes 2 moves, but crowning the man starts the count again.
    auto tb = probe::Tablebase::open({tables()}, 16 << 20);
    ASSERT_TRUE(tb.ok());
    const Position<Russian> pos = parse_fen<Russian>("W:Wa7,Ka1:BKh8");
    adjudication::AdjudicateOptions o;
    o.moves_played = 4;
    o.search_nodes = 0;  // DTW alone
    auto dtw_only = adjudication::adjudicate(**tb, pos, o);
    ASSERT_TRUE(dtw_only.ok()) << dtw_only.error().message;
    EXPECT_EQ(*dtw_only->moves_needed, 2);
    EXPECT_EQ(dtw_only->moves_left, 1);
    EXPECT_FALSE(dtw_only->exact);
    EXPECT_FALSE(dtw_only->winnable);
    EXPECT_NE(verdict(*dtw_only).find("Not settled"), std::string::npos) << verdict(*dtw_only);
    EXPECT_NE(verdict(*dtw_only).find("DTC"), std::string::npos) << verdict(*dtw_only);
    EXPECT_EQ(dtw_only->doubt.kind, adjudication::Doubt::needs_dtc);
    EXPECT_EQ(verdict_through_c(*dtw_only), verdict(*dtw_only));
    // The search settles it: crown, and the new count leaves room.
    o.search_nodes = 100000;
    auto searched = adjudication::adjudicate(**tb, pos, o);
    ASSERT_TRUE(searched.ok());
    EXPECT_TRUE(searched->exact);
    EXPECT_TRUE(searched->winnable) << verdict(*searched);
    EXPECT_EQ(searched->basis, adjudication::Basis::search);
    EXPECT_EQ(verdict_through_c(*searched), verdict(*searched));
}

TEST(Adjudicate, AWinThatFitsIsNotProvenWithoutTheLongestWins) {
    // Thirteen moves of three kings: a capture on the way could lead into
    // KKvK, whose fresh count is 5 moves. The header of KKvK's WDL table
    // shows its wins all take 4 moves or fewer; without that table the
    // answer is not proven.
    const ScratchDir copy;
    for (const auto& entry : std::filesystem::directory_iterator(tables())) {
        const std::string name = entry.path().filename().string();
        if (name == "russian-KKvK.wdl") continue;
        if (name.rfind("russian-", 0) == 0 && (name.ends_with(".wdl") || name.ends_with(".dtw")))
            std::filesystem::copy_file(entry.path(), copy / name);
    }
    auto tb = probe::Tablebase::open({copy.path()}, 16 << 20);
    ASSERT_TRUE(tb.ok());
    adjudication::AdjudicateOptions o;
    o.moves_played = 2;
    o.search_nodes = 0;
    auto a = adjudication::adjudicate(**tb, parse_fen<Russian>("W:WKf8,Ke7,Kh6:BKb8"), o);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_TRUE(a->winnable);
    EXPECT_FALSE(a->exact);
    EXPECT_NE(verdict(*a).find("longest win is unknown: missing table russian-KKvK.wdl"), std::string::npos)
        << verdict(*a);
    EXPECT_EQ(a->doubt.kind, adjudication::Doubt::conversion_unknown);
    EXPECT_EQ(verdict_through_c(*a), verdict(*a));
    // With them it is.
    auto full = probe::Tablebase::open({tables()}, 16 << 20);
    auto b = adjudication::adjudicate(**full, parse_fen<Russian>("W:WKf8,Ke7,Kh6:BKb8"), o);
    ASSERT_TRUE(b.ok());
    EXPECT_TRUE(b->exact);
    EXPECT_EQ(b->basis, adjudication::Basis::dtw);
}

// The longest win and loss come from the WDL headers: the same as the
// generator's exact tables record. A version 1 WDL table (which records
// none) still probes, but leaves the longest win unknown, and says why.
TEST(Adjudicate, LongestWinsComeFromTheTableHeaders) {
    auto tb = probe::Tablebase::open({tables()}, 16 << 20);
    ASSERT_TRUE(tb.ok());
    for (const char* name : {"KKvK", "KvKK", "KKKvK", "KvKKK"}) {
        const MaterialSignature sig = *MaterialSignature::parse(name);
        const auto e = (*tb)->extremes(VariantId::Russian, sig);
        ASSERT_TRUE(e.ok()) << e.error().message;
        const RawTableHeader raw = read_raw_header(raw_table_path(tables(), VariantId::Russian, sig));
        EXPECT_EQ(e->longest_win, raw.longest_win) << name;
        EXPECT_EQ(e->longest_loss, raw.longest_loss) << name;
    }

    // Format 2 tables, whose files set no flag (version 1 has no threat
    // flag to keep).
    const ScratchDir copy;
    write_format_two_tables(copy.path());
    {
        // russian-KKvK.wdl as a version 1 file: bytes 108..119 zero, header checksum made valid again.
        std::fstream f(copy / "russian-KKvK.wdl", std::ios::in | std::ios::out | std::ios::binary);
        std::vector<std::uint8_t> header(128);
        f.read(reinterpret_cast<char*>(header.data()), 128);
        header[8] = 1;
        std::fill(header.begin() + 108, header.begin() + 120, std::uint8_t{0});
        compress::put_u64(header.data() + 120, compress::section_checksum({header.data(), 120}));
        f.seekp(0);
        f.write(reinterpret_cast<const char*>(header.data()), 128);
    }
    auto old = probe::Tablebase::open({copy.path()}, 16 << 20);
    ASSERT_TRUE(old.ok());
    const auto e = (*old)->extremes(VariantId::Russian, *MaterialSignature::parse("KKvK"));
    ASSERT_FALSE(e.ok());
    EXPECT_NE(e.error().message.find("does not record its longest win and loss"), std::string::npos)
        << e.error().message;
    adjudication::AdjudicateOptions o;
    o.moves_played = 2;
    o.search_nodes = 0;
    auto a = adjudication::adjudicate(**old, parse_fen<Russian>("W:WKf8,Ke7,Kh6:BKb8"), o);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_TRUE(a->winnable);
    EXPECT_FALSE(a->exact);
    EXPECT_NE(verdict(*a).find("russian-KKvK.wdl (format version 1) does not record"), std::string::npos)
        << verdict(*a);
    EXPECT_EQ(a->doubt.kind, adjudication::Doubt::conversion_unrecorded);
    EXPECT_EQ(verdict_through_c(*a), verdict(*a));
}

// Plain minimax over moves and DrawCounts, no tables: can `stronger` end
// the game before a count does? For endings whose counts bound every line
// (every side has a king under a count, or only men that must advance).
template <class V>
class BruteForce {
public:
    explicit BruteForce(Color stronger) : stronger_(stronger) {}

    bool wins(const Position<V>& pos, const DrawCounts<V>& counts, int depth = 0) {
        if (depth > 60) {
            ADD_FAILURE() << "no count bounds the play from " << to_fen(pos);
            return false;
        }
        const Key key{pos, counts.key()};
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        const bool ours = pos.side_to_move == stronger_;
        bool result = !ours;  // stronger: needs one move that wins; defender: every move must lose
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);  // none: the side to move has lost, as `result` says
        for (const Move& m : moves) {
            DrawCounts<V> next = counts;
            const bool drawn = !next.play(pos, m).empty();
            const Position<V> after = pos.after(m);
            bool won;
            if (game_over(after))
                won = ours;  // the mover has won
            else
                won = !drawn && wins(after, next, depth + 1);
            if (ours && won) {
                result = true;
                break;
            }
            if (!ours && !won) {
                result = false;
                break;
            }
        }
        memo_.emplace(key, result);
        return result;
    }

private:
    using Key = CountedPosition<V>;
    Color stronger_;
    std::unordered_map<Key, bool, CountedPositionHash> memo_;
};

// Every `stride`-th position of `sig` and its mirror, every count from 0 to
// the limit: an answer marked exact (by DTW alone, and with the search) is
// the minimax's.
template <class V>
void agrees_with_minimax(const std::string& sig, int max_moves, std::uint64_t stride) {
    auto tb = probe::Tablebase::open({tables()}, 64 << 20);
    ASSERT_TRUE(tb.ok());
    BruteForce<V> white(White), black(Black);
    int checked = 0, dtw_exact = 0, searched = 0;
    for (const MaterialSignature s : {*MaterialSignature::parse(sig), MaterialSignature::parse(sig)->mirror()}) {
        const PositionIndex<V> index(s);
        for (std::uint64_t i = 0; i < index.size(); i += stride) {
            const Position<V> pos = index.unrank(i);
            if (game_over(pos)) continue;
            for (int k = 0; k <= max_moves; ++k) {
                adjudication::AdjudicateOptions o;
                o.moves_played = k;
                o.search_nodes = 0;
                auto by_dtw = adjudication::adjudicate(**tb, pos, o);
                ASSERT_TRUE(by_dtw.ok()) << by_dtw.error().message;
                if (!by_dtw->rule) continue;
                o.search_nodes = 1000000;
                auto full = adjudication::adjudicate(**tb, pos, o);
                ASSERT_TRUE(full.ok()) << full.error().message;
                const Color strong = *by_dtw->stronger;
                const DrawCounts<V> counts = DrawCounts<V>::resumed(pos, k, k);
                // A count resumed at its limit ended the game already.
                const bool truth =
                    counts.reached_at(pos).empty() && (strong == White ? white : black).wins(pos, counts);
                ++checked;
                if (by_dtw->exact) {
                    ++dtw_exact;
                    ASSERT_EQ(by_dtw->winnable, truth) << to_fen(pos) << " k=" << k << ": " << verdict<V>(*by_dtw);
                }
                ASSERT_TRUE(full->exact) << to_fen(pos) << " k=" << k << ": " << verdict<V>(*full);
                searched += full->basis == adjudication::Basis::search;
                ASSERT_EQ(verdict_through_c<V>(*by_dtw), verdict<V>(*by_dtw));
                ASSERT_EQ(verdict_through_c<V>(*full), verdict<V>(*full));
                ASSERT_EQ(full->winnable, truth) << to_fen(pos) << " k=" << k << ": " << verdict<V>(*full);
            }
        }
    }
    ::testing::Test::RecordProperty("checked", checked);
    EXPECT_GT(checked, 2000);
    EXPECT_GT(dtw_exact, 0);
    std::cout << sig << ": " << checked << " answers, " << dtw_exact << " exact by DTW, " << searched << " by search\n";
}

// A sample of each ending (every n-th position, all counts), to stay quick
// under the sanitizers too. Every position agreed when this was written.
TEST(AdjudicateAgainstMinimax, RussianKingAndManAgainstKing) { agrees_with_minimax<Russian>("KMvK", 5, 3); }
TEST(AdjudicateAgainstMinimax, RussianTwoKingsAgainstKing) { agrees_with_minimax<Russian>("KKvK", 5, 2); }
TEST(AdjudicateAgainstMinimax, RussianKingAgainstKing) { agrees_with_minimax<Russian>("KvK", 5, 1); }
TEST(AdjudicateAgainstMinimax, InternationalTwoKingsAgainstKing) { agrees_with_minimax<International>("KKvK", 5, 101); }
TEST(AdjudicateAgainstMinimax, InternationalKingAndManAgainstKing) {
    agrees_with_minimax<International>("KMvK", 5, 401);
}

// Three kings against one, the question arbiters ask: DTW alone settles
// every answer, whatever the count (a sample of positions, both sides to
// move, every count 0..limit).
template <class V>
void three_kings_exact_by_dtw(std::uint64_t stride) {
    auto tb = probe::Tablebase::open({tables()}, 64 << 20);
    ASSERT_TRUE(tb.ok());
    int answers = 0, winnable = 0;
    for (const char* sig : {"KKKvK", "KvKKK"}) {
        const PositionIndex<V> index(*MaterialSignature::parse(sig));
        for (std::uint64_t i = 0; i < index.size(); i += stride) {
            const Position<V> pos = index.unrank(i);
            if (game_over(pos)) continue;
            for (int k = 0; k <= 16; ++k) {
                adjudication::AdjudicateOptions o;
                o.moves_played = k;
                o.search_nodes = 0;
                auto a = adjudication::adjudicate(**tb, pos, o);
                ASSERT_TRUE(a.ok()) << a.error().message;
                ASSERT_TRUE(a->exact) << to_fen(pos) << " k=" << k << ": " << verdict<V>(*a);
                ++answers;
                winnable += a->winnable;
                if (a->moves_needed && a->moves_left > 0) {
                    EXPECT_EQ(a->winnable, *a->moves_needed <= a->moves_left) << to_fen(pos) << " k=" << k;
                }
            }
        }
    }
    EXPECT_GT(answers, 10000);
    EXPECT_GT(winnable, 1000);
}

TEST(AdjudicateThreeKings, RussianExactByDtw) { three_kings_exact_by_dtw<Russian>(13); }
TEST(AdjudicateThreeKings, InternationalExactByDtw) { three_kings_exact_by_dtw<International>(97); }

}  // namespace
}  // namespace dtb::probe_test
