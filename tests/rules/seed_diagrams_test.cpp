// The worked examples of the official rules as tests: Russian 2.1.5.17 and
// 2.1.6 (diagrams 4, 5, 6, 8) and international 3.3 and 3.4 (diagrams 12
// to 16); docs/RULES.md sections 1 and 2 state the rules they illustrate.
//
// The official texts describe the diagrams in words only. Each position below is
// rebuilt from the text: the squares it names, the moves it gives and what
// they take, plus the fewest extra pieces needed so that the outcome the
// text states is the only legal one. The comment above each test says which
// pieces come from the text and why any other piece is there.
#include <gtest/gtest.h>

#include "tests/rules/rules_test_support.hpp"

namespace dtb {
namespace {

using test::canonical;
using test::fen_after;
using test::move_texts;
using test::route_texts;
using test::squares;
using Texts = std::vector<std::string>;

// Diagram 4: "Black must take with the king a5:e1:g3:e5 (the king cannot take
// White's d4, as c3, like f2 and f4, leaves the board only when the move
// ends), after which White plays d4:d8."
// From the text: black king a5; white c3, f2, f4, d4; after d4:d8 (d4 takes
// e5 and e7) a black man on e7. Added: a white man on e3, so that after
// taking c3 the king cannot stop on d2 and take f4 from there; a black man on
// d6, so that after taking f4 the king can only stop on e5.
TEST(SeedDiagrams, Russian4) {
    const char* fen = "B:Wc3,d4,e3,f2,f4:BKa5,d6,e7";
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"a5:e5"}));
    EXPECT_EQ(route_texts<Russian>(fen), (Texts{"a5:e1:g3:e5"}));
    const auto pos = parse_fen<Russian>(fen);
    EXPECT_EQ(parse_move(pos, "a5:e1:g3:e5").captured, squares<Russian>({"c3", "f2", "f4"}));

    const std::string after = fen_after<Russian>(fen, "a5:e5");
    EXPECT_EQ(after, canonical<Russian>("W:Wd4,e3:BKe5,d6,e7"));
    EXPECT_EQ(move_texts<Russian>(after), (Texts{"d4:d8"}));
    EXPECT_EQ(fen_after<Russian>(after, "d4:d8"), canonical<Russian>("B:WKd8,e3:Bd6"));
}

// Diagram 5: "White must take with the king e1:a5:d8:f6:d4. On d4 the king
// must stop, as c3 may not be jumped a second time, nor c5 (as in diagram 4)."
// From the text: white king e1; black c3 (jumped on e1:a5), a piece on the
// a5-d8 leg (b6, as c5 "as in diagram 4" must stand before a captured piece:
// c5 with b6 behind it), e7 (d8:f6), e5 (f6:d4), and c5. Added: a black man
// on d6, so that after c3 the king cannot stop on b4 and take c5 from there.
TEST(SeedDiagrams, Russian5) {
    const char* fen = "W:WKe1:Bb6,c3,c5,d6,e5,e7";
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"e1:d4"}));
    EXPECT_EQ(route_texts<Russian>(fen), (Texts{"e1:a5:d8:f6:d4"}));
    EXPECT_EQ(fen_after<Russian>(fen, "e1:a5:d8:f6:d4"), canonical<Russian>("B:WKd4:Bc5,d6"));
}

// Diagram 6: "White's last move was c3-d4; Black must take with the man a5,
// e.g. a5:c3:e1:g3:e5:c3. On c3 the black man, now a king, must stop, as b4
// or d2 may not be jumped again. If Black takes the other way,
// a5:c3:e5:g3:e1:c3, again it stops on c3. White answers
// b2:d4:b6:d8:f6:h8."
// From the text: black a5; white b4, d2, f2, f4, d4 (taken both ways), b2;
// black c5, c7, e7, g7 (taken by b2:...:h8). Added: white a1, so that the new
// king cannot go on c3:a1 over b2; white a3 and e3, so that c5 cannot take b4
// or d4; a black man on d6, so that before c3-d4 White had no capture (b4
// would take c5) and c3-d4 was a legal last move.
TEST(SeedDiagrams, Russian6) {
    const char* before = "W:Wa1,a3,b2,b4,c3,d2,e3,f2,f4:Ba5,c5,c7,d6,e7,g7";
    EXPECT_EQ(fen_after<Russian>(before, "c3-d4"),
              canonical<Russian>("B:Wa1,a3,b2,b4,d2,d4,e3,f2,f4:Ba5,c5,c7,d6,e7,g7"));

    const char* fen = "B:Wa1,a3,b2,b4,d2,d4,e3,f2,f4:Ba5,c5,c7,d6,e7,g7";
    // Both ways take the same five men: one move, two routes. route_text
    // writes turning squares only, so the first route loses its c3.
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"a5:c3"}));
    EXPECT_EQ(route_texts<Russian>(fen), (Texts{"a5:c3:e5:g3:e1:c3", "a5:e1:g3:e5:c3"}));
    const auto pos = parse_fen<Russian>(fen);
    const Move take = parse_move(pos, "a5:c3:e1:g3:e5:c3");  // as the text writes it
    EXPECT_EQ(take, parse_move(pos, "a5:c3:e5:g3:e1:c3"));
    EXPECT_EQ(take.captured, squares<Russian>({"b4", "d2", "d4", "f2", "f4"}));
    EXPECT_TRUE(take.crowns);

    const std::string after = fen_after<Russian>(fen, "a5:c3");
    EXPECT_EQ(after, canonical<Russian>("W:Wa1,a3,b2,e3:BKc3,c5,c7,d6,e7,g7"));
    EXPECT_EQ(move_texts<Russian>(after), (Texts{"b2:h8"}));
    EXPECT_EQ(route_texts<Russian>(after), (Texts{"b2:d4:b6:d8:f6:h8"}));
    EXPECT_EQ(fen_after<Russian>(after, "b2:d4:b6:d8:f6:h8"), canonical<Russian>("B:Wa1,a3,e3,Kh8:Bd6"));
}

// Diagram 8: three ways to take, written d2:h6:f8:c5:a7, d2:g5:e7:c5:a7 and
// d2:g5:d8:a5; "in such positions the full record is required".
// Rebuilt: d2 is a king (d2:g5 is three squares). It takes f4 and may stop
// on g5 or h6; from h6 it takes g7, then d6 from f8, then b6 from c5; from
// g5 it takes f6 and turns on e7 (then d6, b6) or on d8 (then b6 to a5).
// Black: f4, f6, g7, d6, b6; nothing added.
TEST(SeedDiagrams, Russian8) {
    const char* fen = "W:WKd2:Bb6,d6,f4,f6,g7";
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"d2:g5:d8:a5", "d2:g5:e7:c5:a7", "d2:h6:f8:c5:a7"}));
    EXPECT_EQ(route_texts<Russian>(fen), (Texts{"d2:g5:d8:a5", "d2:g5:e7:c5:a7", "d2:h6:f8:c5:a7"}));
    const auto pos = parse_fen<Russian>(fen);
    EXPECT_EQ(parse_move(pos, "d2:h6:f8:c5:a7").captured, squares<Russian>({"b6", "d6", "f4", "g7"}));
    EXPECT_EQ(parse_move(pos, "d2:g5:e7:c5:a7").captured, squares<Russian>({"b6", "d6", "f4", "f6"}));
    EXPECT_EQ(parse_move(pos, "d2:g5:d8:a5").captured, squares<Russian>({"b6", "f4", "f6"}));
    // Two of them end on a7: d2:a7 alone does not say which.
    EXPECT_THROW(parse_move(pos, "d2:a7"), InputError);
}

// Diagram 12: two ways to take, 47:24:8:17:6 and 47:24:35:44:6.
// Rebuilt: 47 is a king (47:24 is five squares). Both ways take a piece on
// the 47-24 diagonal and end on 6 over 11; one takes 19 and 12 on the way,
// the other 30 and 40. The last leg 44:6 crosses 33 (f4), which the first
// leg crossed already, so the first piece is not on 33: it is on 29.
// Black: 29, 19, 12, 11, 30, 40; nothing added.
TEST(SeedDiagrams, International12) {
    const char* fen = "W:WK47:B11,12,19,29,30,40";
    EXPECT_EQ(move_texts<International>(fen), (Texts{"47x24x35x44x6", "47x24x8x17x6"}));
    const auto pos = parse_fen<International>(fen);
    EXPECT_EQ(parse_move(pos, "47:24:8:17:6").captured, squares<International>({"11", "12", "19", "29"}));
    EXPECT_EQ(parse_move(pos, "47:24:35:44:6").captured, squares<International>({"11", "29", "30", "40"}));
}

// Diagram 13: "the king on 10 may not take one piece, landing on 46. The man
// on 36 must take, landing on 29, three pieces, and stays a man."
// Rebuilt: Black to move (a king on 10 that lands on 46 takes along
// 10-14-...-41-46, and Black's men move towards row 46-50). The man on 36
// takes 41, 42, 33 by 47 (passing the last row, so staying a man: 3.4.2.1),
// 38, 29; the king could take only 41. Nothing added.
TEST(SeedDiagrams, International13) {
    const char* fen = "B:W33,41,42:BK10,36";
    EXPECT_EQ(move_texts<International>(fen), (Texts{"36x29"}));
    EXPECT_EQ(route_texts<International>(fen), (Texts{"36x47x29"}));
    EXPECT_EQ(fen_after<International>(fen, "36:29"), "W:W:BK10,29");
}

// Diagram 14: "White may take with a man or with the king, but either way
// must take the most pieces: three (a king and two men)."
// Rebuilt: the man on 36 takes the king on 31 and the men 21, 11 (or just
// 41); the king on 35 takes the king on 30 and the men 20, 10. A white man on
// 19 keeps the king from stopping anywhere but 24 after 30.
TEST(SeedDiagrams, International14) {
    const char* fen = "W:W19,36,K35:BK30,K31,10,11,20,21,41";
    EXPECT_EQ(move_texts<International>(fen), (Texts{"35x4", "36x7"}));
    const auto pos = parse_fen<International>(fen);
    EXPECT_EQ(parse_move(pos, "36:7").captured, squares<International>({"11", "21", "31"}));
    EXPECT_EQ(parse_move(pos, "35:4").captured, squares<International>({"10", "20", "30"}));
    EXPECT_THROW(parse_move(pos, "36:47"), InputError);  // one piece only
}

// Diagram 15: "the man on 35 after taking 35:11 stays a man."
// Rebuilt: 35 goes 24, 13, 2 (the last row) and turns down to 11, taking 30,
// 19, 8 and 7. Nothing added.
TEST(SeedDiagrams, International15) {
    const char* fen = "W:W35:B7,8,19,30";
    EXPECT_EQ(move_texts<International>(fen), (Texts{"35x11"}));
    EXPECT_EQ(route_texts<International>(fen), (Texts{"35x2x11"}));
    EXPECT_EQ(fen_after<International>(fen, "35:11"), "B:W11:B");
}

// Diagram 16: "the white man, having taken three black men, is crowned on the
// last row. It may take the others only on its next move, if it still can."
// Rebuilt: 32 takes 27, 17, 8 and ends on 3; a king on 3 could take 14 (at a
// distance), a man cannot. Added: a black man on 26 to make a move in
// between, after which the new king takes 14.
TEST(SeedDiagrams, International16) {
    const char* fen = "W:W32:B8,14,17,26,27";
    EXPECT_EQ(move_texts<International>(fen), (Texts{"32x3"}));
    EXPECT_EQ(route_texts<International>(fen), (Texts{"32x21x3"}));
    const std::string after = fen_after<International>(fen, "32:3");
    EXPECT_EQ(after, "B:WK3:B14,26");
    const std::string later = fen_after<International>(after, "26-31");
    EXPECT_EQ(move_texts<International>(later), (Texts{"3x20", "3x25"}));
}

}  // namespace
}  // namespace dtb
