// Notation (docs/RULES.md section 1): square names, FEN in both forms, move text,
// and the errors bad input gets (InputError naming the problem and where).
#include <gtest/gtest.h>

#include "tests/rules/rules_test_support.hpp"

namespace dtb {
namespace {

using test::canonical;

// The message of the InputError that `f` throws ("" when it throws none).
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// EXPECT_THAT-like check that `text` holds every fragment.
void expect_mentions(const std::string& text, std::initializer_list<std::string_view> fragments) {
    EXPECT_FALSE(text.empty()) << "no InputError thrown";
    for (std::string_view f : fragments) EXPECT_NE(text.find(f), std::string::npos) << "'" << f << "' not in: " << text;
}

// --- Squares ---

TEST(Squares, RussianAlgebraicAndPdnNumbers) {
    // 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1 (docs/RULES.md 1.2).
    const std::pair<const char*, const char*> same[] = {{"1", "b8"},  {"4", "h8"},  {"5", "a7"},
                                                        {"22", "c3"}, {"29", "a1"}, {"32", "g1"}};
    for (const auto& [number, name] : same) {
        const auto by_number = parse_square<Russian>(number);
        ASSERT_TRUE(by_number.has_value()) << number;
        EXPECT_EQ(by_number, parse_square<Russian>(name)) << number;
        EXPECT_EQ(square_name<Russian>(*by_number), name);
        EXPECT_EQ(square_number<Russian>(*by_number), std::stoi(number));
    }
    for (const char* bad : {"", "0", "33", "a2", "i1", "a9", "b", "bb", "-1", "1a"})
        EXPECT_FALSE(parse_square<Russian>(bad).has_value()) << "'" << bad << "'";
}

TEST(Squares, InternationalNumbers) {
    // 1 = b10, 5 = j10, 46 = a1, 50 = i1; written as numbers only.
    for (int n = 1; n <= 50; ++n) {
        const auto b = parse_square<International>(std::to_string(n));
        ASSERT_TRUE(b.has_value()) << n;
        EXPECT_EQ(square_name<International>(*b), std::to_string(n));
    }
    for (const char* bad : {"", "0", "51", "a1", "b10", "x"})
        EXPECT_FALSE(parse_square<International>(bad).has_value()) << "'" << bad << "'";
}

// --- FEN ---

TEST(Fen, RussianInitialPositionInBothForms) {
    const auto initial = initial_position<Russian>();
    EXPECT_EQ(parse_fen<Russian>("W:W21-32:B1-12"), initial);
    // Rule 2.1.6.2 lists the squares algebraically (in any order).
    EXPECT_EQ(parse_fen<Russian>("W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"),
              initial);
    // Printed algebraic, in PDN number order.
    EXPECT_EQ(to_fen(initial), "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6");
}

TEST(Fen, RussianMixedFormsKingsAndEmptySides) {
    EXPECT_EQ(parse_fen<Russian>("W:W29,c1,K32:BK1"), parse_fen<Russian>("W:Wa1,c1,Kg1:BKb8"));
    EXPECT_EQ(to_fen(parse_fen<Russian>("B:WKa1:B")), "B:WKa1:B");
    EXPECT_EQ(to_fen(parse_fen<Russian>("W:W:Bb8")), "W:W:Bb8");
    // Lower case, spaces and a trailing '.' as some programs write them.
    EXPECT_EQ(parse_fen<Russian>(" w:w a1, c3 :b b8. "), parse_fen<Russian>("W:Wa1,c3:Bb8"));
    EXPECT_EQ(parse_fen<Russian>("W:W21-32:B1-12."), initial_position<Russian>());
}

TEST(Fen, InternationalRoundTrips) {
    for (const char* fen : {"W:W31-50:B1-20", "W:WK31-50:BK1-20", "W:W:B1", "B:WK46:B", "W:W6-10:B41-45",
                            "B:W6,9-11,20-23,30,K31,33,37,41-44,46:BK17,K24",
                            "W:W25,27,28,30,32-35,37,38:B12-14,16,18,19,21,23,24,26", "W:W6,K7,8:B43,K44,45"})
        EXPECT_EQ(to_fen(parse_fen<International>(fen)), fen);
    // Every square listed singly reads the same as ranges.
    EXPECT_EQ(parse_fen<International>("B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24"),
              parse_fen<International>("B:W6,9-11,20-23,30,K31,33,37,41-44,46:BK17,K24"));
    EXPECT_EQ(initial_position<International>(), parse_fen<International>("W:W31-50:B1-20"));
    // A pair is written as two squares, a run of three or more as a range.
    EXPECT_EQ(to_fen(parse_fen<International>("W:W31-32:B1-2")), "W:W31,32:B1,2");
}

TEST(Fen, Errors) {
    expect_mentions(error_of([] { parse_fen<Russian>(""); }), {"empty"});
    expect_mentions(error_of([] { parse_fen<Russian>("X:W1:B2"); }), {"character 1", "side to move"});
    expect_mentions(error_of([] { parse_fen<Russian>("W;W1:B2"); }), {"character 2", "':'"});
    expect_mentions(error_of([] { parse_fen<Russian>("W:Q1:B2"); }), {"character 3", "'W' or 'B'"});
    expect_mentions(error_of([] { parse_fen<Russian>("W:Wz9:Bb8"); }), {"character 4", "'z9'", "russian"});
    expect_mentions(error_of([] { parse_fen<Russian>("W:Wa2:Bb8"); }), {"'a2'"});  // a light square
    expect_mentions(error_of([] { parse_fen<International>("W:W51:B1"); }), {"character 4", "'51'"});
    expect_mentions(error_of([] { parse_fen<International>("W:W31,,32:B1"); }), {"character 7", "empty entry"});
    expect_mentions(error_of([] { parse_fen<International>("W:W40-31:B1"); }), {"'40-31'", "backwards"});
    expect_mentions(error_of([] { parse_fen<International>("W:W31-x:B1"); }), {"'x'"});
    expect_mentions(error_of([] { parse_fen<International>("W:W31:W32"); }), {"white", "listed twice"});
}

TEST(Fen, NoPieceListsIsBadInput) {
    // A side to move alone says nothing about the board: bad input, not an
    // empty board. Lists written empty on purpose are an empty board.
    for (const char* fen : {"W", "B", " w ", "W.", "W:H0", "B:F12"}) {
        expect_mentions(error_of([&] { parse_fen<Russian>(fen); }), {"no piece lists"});
        expect_mentions(error_of([&] { parse_fen<International>(fen); }), {"no piece lists"});
    }
    EXPECT_EQ(parse_fen<Russian>("W:W:B"), Position<Russian>{});
    EXPECT_EQ(to_fen(parse_fen<International>("B:W:B")), "B:W:B");
    EXPECT_EQ(to_fen(parse_fen<Russian>("W:Wa1")), "W:Wa1:B");
}

TEST(Fen, InitialPositionsFromTheTraits) {
    // Each side starts with the most pieces it can ever have.
    const auto russian = initial_position<Russian>();
    EXPECT_EQ(to_fen(parse_fen<Russian>(Russian::initial_fen)), to_fen(russian));
    EXPECT_EQ(popcount(russian.pieces[White]), Russian::max_pieces_per_side);
    EXPECT_EQ(popcount(russian.pieces[Black]), Russian::max_pieces_per_side);
    const auto international = initial_position<International>();
    EXPECT_EQ(to_fen(international), International::initial_fen);
    EXPECT_EQ(popcount(international.pieces[White]), International::max_pieces_per_side);
    EXPECT_EQ(popcount(international.pieces[Black]), International::max_pieces_per_side);
    EXPECT_EQ(max_pieces_per_side(VariantId::Russian), 12);
    EXPECT_EQ(max_pieces_per_side(VariantId::International), 20);
}

TEST(Fen, ImpossiblePositions) {
    // A man on its crowning row would be a king.
    expect_mentions(error_of([] { parse_fen<Russian>("W:Wb8:Ba7"); }), {"impossible", "white man on b8"});
    expect_mentions(error_of([] { parse_fen<Russian>("W:Wc3:Ba1"); }), {"impossible", "black man on a1"});
    expect_mentions(error_of([] { parse_fen<International>("B:W3:B20"); }), {"white man on 3"});
    expect_mentions(error_of([] { parse_fen<International>("B:W30:B48"); }), {"black man on 48"});
    // Two pieces on one square.
    expect_mentions(error_of([] { parse_fen<Russian>("W:Wc3:Bc3"); }), {"c3", "listed twice"});
    expect_mentions(error_of([] { parse_fen<Russian>("W:W22:Bc3"); }), {"c3", "listed twice"});
    expect_mentions(error_of([] { parse_fen<International>("W:W31-35:B35"); }), {"35", "listed twice"});
    // More pieces than a side starts with.
    expect_mentions(error_of([] { parse_fen<Russian>("W:W20-32:B1-12"); }), {"too many white pieces: 13"});
    expect_mentions(error_of([] { parse_fen<International>("W:W31-50:B1-21"); }), {"too many black pieces: 21"});
    // Kings may stand anywhere, twelve a side is fine.
    EXPECT_NO_THROW(parse_fen<Russian>("W:WKb8:BKa1"));
    EXPECT_NO_THROW(parse_fen<Russian>("W:W21-32:BK1-12"));
}

// --- Moves ---

TEST(MoveText, QuietMovesAndBothRussianForms) {
    const auto pos = initial_position<Russian>();
    EXPECT_EQ(test::move_texts(pos),
              (std::vector<std::string>{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}));
    // PDN numbers name the same move (22 = c3, 18 = d4), and so does 'x'.
    EXPECT_EQ(parse_move(pos, "22-18"), parse_move(pos, "c3-d4"));
    EXPECT_EQ(move_text(pos, parse_move(pos, "22-18")), "c3-d4");
    const auto intl = initial_position<International>();
    EXPECT_EQ(move_text(intl, parse_move(intl, "32-28")), "32-28");
}

TEST(MoveText, IllegalMoves) {
    const auto pos = initial_position<Russian>();
    expect_mentions(error_of([&] { parse_move(pos, "a1-b2"); }), {"illegal move 'a1-b2'", "legal moves: ", "c3-d4"});
    expect_mentions(error_of([&] { parse_move(pos, "c3-e5"); }), {"illegal move 'c3-e5'"});
    // A quiet move beside a compulsory capture.
    const auto capture = parse_fen<Russian>("W:Wa1,c3:Bd4");
    expect_mentions(error_of([&] { parse_move(capture, "a1-b2"); }), {"illegal move", "legal moves: c3:e5"});
    // No legal move at all.
    expect_mentions(error_of([] { parse_move(parse_fen<Russian>("W:W:Bb8"), "a1-b2"); }), {"legal moves: none"});
    const auto intl = initial_position<International>();
    expect_mentions(error_of([&] { parse_move(intl, "46-41"); }), {"illegal move '46-41'", "31-26"});
}

TEST(MoveText, MalformedMoves) {
    const auto pos = initial_position<Russian>();
    expect_mentions(error_of([&] { parse_move(pos, "c3"); }), {"bad move 'c3'", "two squares"});
    expect_mentions(error_of([&] { parse_move(pos, ""); }), {"bad move"});
    expect_mentions(error_of([&] { parse_move(pos, "c3-d5"); }), {"'d5' is not a square", "russian"});
    expect_mentions(error_of([&] { parse_move(pos, "c3-"); }), {"'' is not a square"});
    expect_mentions(error_of([&] { parse_move(initial_position<International>(), "32-e5"); }), {"'e5'"});
}

TEST(MoveText, AmbiguousCapture) {
    // Rule 2.1.6.2, diagram 8: two captures from d2 end on a7.
    const auto pos = parse_fen<Russian>("W:WKd2:Bb6,d6,f4,f6,g7");
    expect_mentions(error_of([&] { parse_move(pos, "d2:a7"); }),
                    {"ambiguous move 'd2:a7'", "d2:g5:e7:c5:a7", "d2:h6:f8:c5:a7", "turning squares"});
    // Any square that only one of them passes settles it.
    EXPECT_EQ(parse_move(pos, "d2:f8:a7"), parse_move(pos, "d2:h6:f8:c5:a7"));
    EXPECT_EQ(parse_move(pos, "d2xg5xe7xc5xa7"), parse_move(pos, "d2:g5:e7:c5:a7"));
    // Both pass e7 (d2:h6:f8:c5:a7 crosses it on its way to c5).
    expect_mentions(error_of([&] { parse_move(pos, "d2:e7:a7"); }), {"ambiguous move"});
    // A square neither passes is illegal.
    expect_mentions(error_of([&] { parse_move(pos, "d2:b4:a7"); }), {"illegal move"});
}

}  // namespace
}  // namespace dtb
