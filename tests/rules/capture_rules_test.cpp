// One test per capture rule of docs/RULES.md section 2, in both variants where the
// rule applies. Each position is small enough to check by hand: the comment
// says why exactly these moves are legal.
//
// Move texts: a capture is written start:end, with its turning squares when
// the same piece has another capture (rule 2.1.6.2, diagram 8).
#include <gtest/gtest.h>

#include "tests/rules/rules_test_support.hpp"

namespace dtb {
namespace {

using test::canonical;
using test::fen_after;
using test::move_count;
using test::move_texts;
using test::route_texts;
using test::squares;
using Texts = std::vector<std::string>;

// --- Men capture forward and backward (2.1.5.1, 2.1.5.3) ---

TEST(MenCapture, ForwardAndBackwardRussian) {
    // d4 takes c5 (forward for White) or e3 (backward); Black's d4 the same.
    EXPECT_EQ(move_texts<Russian>("W:Wd4:Bc5,e3"), (Texts{"d4:b6", "d4:f2"}));
    EXPECT_EQ(move_texts<Russian>("B:Wc5,e3:Bd4"), (Texts{"d4:b6", "d4:f2"}));
}

TEST(MenCapture, ForwardAndBackwardInternational) {
    // 28 (e5) takes 22 (d6, forward for White) or 33 (f4, backward).
    EXPECT_EQ(move_texts<International>("W:W28:B22,33"), (Texts{"28x17", "28x39"}));
    EXPECT_EQ(move_texts<International>("B:W22,33:B28"), (Texts{"28x17", "28x39"}));
}

// --- Capturing is compulsory (2.1.5.3) ---

TEST(CompulsoryCapture, NoQuietMoveBesideACaptureRussian) {
    // Without the black man on d4 White has ten quiet moves...
    EXPECT_EQ(move_texts<Russian>("W:Wa1,c3,Kh2:Bh8"),
              (Texts{"a1-b2", "c3-b4", "c3-d4", "h2-b8", "h2-c7", "h2-d6", "h2-e5", "h2-f4", "h2-g1", "h2-g3"}));
    // ...with it, only the capture.
    EXPECT_EQ(move_texts<Russian>("W:Wa1,c3,Kh2:Bd4,h8"), (Texts{"c3:e5"}));
    EXPECT_TRUE(MoveGenerator<Russian>::has_capture(parse_fen<Russian>("W:Wa1,c3,Kh2:Bd4,h8")));
    EXPECT_EQ(MoveGenerator<Russian>::count(parse_fen<Russian>("W:Wa1,c3,Kh2:Bd4,h8")), 1);
}

TEST(CompulsoryCapture, NoQuietMoveBesideACaptureInternational) {
    // 46 and the king on 50 could move; 37 must take 32.
    EXPECT_EQ(move_texts<International>("W:W37,46,K50:B32"), (Texts{"37x28"}));
    EXPECT_EQ(MoveGenerator<International>::count(parse_fen<International>("W:W37,46,K50:B32")), 1);
}

// --- A capture sequence must be completed (2.1.5.5) ---

TEST(CompleteSequence, ManMustGoOnRussian) {
    // After c1:e3 the man sees d4 (turning) or f4 (straight on): it must go on.
    EXPECT_EQ(move_texts<Russian>("W:Wc1:Bd2,d4"), (Texts{"c1:c5"}));
    EXPECT_EQ(route_texts<Russian>("W:Wc1:Bd2,d4"), (Texts{"c1:e3:c5"}));
    EXPECT_EQ(move_texts<Russian>("W:Wc1:Bd2,f4"), (Texts{"c1:g5"}));
}

TEST(CompleteSequence, ManMustGoOnInternational) {
    EXPECT_EQ(move_texts<International>("W:W47:B32,42"), (Texts{"47x27"}));
    EXPECT_EQ(route_texts<International>("W:W47:B32,42"), (Texts{"47x38x27"}));
}

// --- Flying king: captures at a distance, lands on any empty square beyond
// (2.1.5.2), never over its own piece or over two pieces in a row ---

TEST(FlyingKing, ChoiceOfLandingSquaresRussian) {
    EXPECT_EQ(move_texts<Russian>("W:WKa1:Bd4"), (Texts{"a1:e5", "a1:f6", "a1:g7", "a1:h8"}));
    // The landing squares stop before the next piece (here White's g7).
    EXPECT_EQ(move_texts<Russian>("W:WKa1,g7:Bd4"), (Texts{"a1:e5", "a1:f6"}));
    // Its own man on b2 shields d4: only the man moves.
    EXPECT_EQ(move_texts<Russian>("W:WKa1,b2:Bd4"), (Texts{"b2-a3", "b2-c3"}));
    // Two pieces in a row cannot be taken.
    EXPECT_EQ(move_texts<Russian>("W:WKa1:Bc3,d4"), (Texts{"a1-b2"}));
}

TEST(FlyingKing, ChoiceOfLandingSquaresInternational) {
    EXPECT_EQ(move_texts<International>("W:WK46:B28"), (Texts{"46x10", "46x14", "46x19", "46x23", "46x5"}));
    EXPECT_EQ(move_texts<International>("W:W14,K46:B28"), (Texts{"46x19", "46x23"}));
    EXPECT_EQ(move_texts<International>("W:WK46:B32,37"), (Texts{"46-41"}));
}

// --- A king lands where it can go on capturing, if it can (2.1.5.6) ---

TEST(KingLanding, MustLandWhereItCanGoOnRussian) {
    // After a1 takes c3 it may stop on d4..h8, but only from e5 can it take f4.
    // Russian gives a free choice between captures (2.1.5.14), yet one that
    // stops on d4, f6, g7 or h8 is not legal.
    EXPECT_EQ(move_texts<Russian>("W:WKa1:Bc3,f4"), (Texts{"a1:e5:g3", "a1:e5:h2"}));
}

TEST(KingLanding, MustLandWhereItCanGoOnInternational) {
    EXPECT_EQ(move_texts<International>("W:WK46:B33,37"), (Texts{"46x28x39", "46x28x44", "46x28x50"}));
}

// --- Turkish strike (2.1.5.9, 2.1.5.17): captured pieces stay on the board
// until the move ends ---

TEST(TurkishStrike, CapturedPieceBlocksTheDiagonalRussian) {
    // The long route takes e3, f6, d6 and lands on c5, b4 or a3. From c5 the
    // man on d4 cannot be taken: e3 behind it is captured but still stands.
    // (Were e3 lifted at once, c5:d4 to e3, f2 or g1 would follow.)
    const char* fen = "W:WKc1:Bd4,d6,e3,f6";
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"c1:f4:b8", "c1:f4:c7", "c1:g5:e7:a3", "c1:g5:e7:b4", "c1:g5:e7:c5"}));
    for (const CaptureRoute& route : MoveGenerator<Russian>::capture_routes(parse_fen<Russian>(fen)))
        EXPECT_FALSE(route.move.captured & squares<Russian>({"d4"})) << route_text<Russian>(route);
}

TEST(TurkishStrike, CapturedPieceBlocksTheDiagonalInternational) {
    // The same picture on 47 (c1), 38 (e3), 23 (f6), 22 (d6), 32 (d4); the
    // majority rule keeps only the three-piece routes.
    EXPECT_EQ(move_texts<International>("W:WK47:B22,23,32,38"), (Texts{"47x29x18x27", "47x29x18x31", "47x29x18x36"}));
}

TEST(TurkishStrike, NoPieceIsTakenTwiceRussian) {
    // The king on c3 goes round the four men either way and comes back to
    // the diagonal of the first man it took. That man still stands and may
    // not be jumped again, though the square behind it is empty: the
    // capture stops.
    EXPECT_EQ(route_texts<Russian>("W:WKc3:Bb4,b6,d4,d6"),
              (Texts{"c3:a5:c7:e5:a1", "c3:a5:c7:e5:b2", "c3:a5:c7:e5:c3", "c3:e5:c7:a5:c3", "c3:e5:c7:a5:d2",
                     "c3:e5:c7:a5:e1"}));
}

TEST(TurkishStrike, NoPieceIsTakenTwiceInternational) {
    EXPECT_EQ(route_texts<International>("W:WK37:B21,22,31,32"),
              (Texts{"37x26x17x28x37", "37x26x17x28x41", "37x26x17x28x46", "37x28x17x26x37", "37x28x17x26x42",
                     "37x28x17x26x48"}));
}

// --- Empty squares may be crossed more than once (2.1.5.9) ---

TEST(CrossingTwice, EmptySquareCrossedTwiceRussian) {
    // a1:f6:h4:f2:b6 passes d4 on its first leg and again on its last.
    EXPECT_EQ(move_texts<Russian>("W:WKa1:Bc3,c5,g3,g5"),
              (Texts{"a1:d4:a7", "a1:d4:b6", "a1:e5:h2", "a1:f6:h4:f2:a7", "a1:f6:h4:f2:b6"}));
}

TEST(CrossingTwice, EmptySquareCrossedTwiceInternational) {
    // The same on 46 (a1), 37, 27, 39, 29: 32 (d4) is crossed twice. The
    // shorter routes take two pieces and fall to the majority rule.
    EXPECT_EQ(move_texts<International>("W:WK46:B27,29,37,39"), (Texts{"46x23x34x43x16", "46x23x34x43x21"}));
}

// --- The start square counts as empty ---

TEST(StartSquare, CaptureEndsOnItsStartRussian) {
    // The man on c1 takes the four men round e3-c5-a3 either way and lands
    // back on c1: one move, two routes.
    const char* fen = "W:Wc1:Bb2,b4,d2,d4";
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"c1:c1"}));
    EXPECT_EQ(route_texts<Russian>(fen), (Texts{"c1:a3:c5:e3:c1", "c1:e3:c5:a3:c1"}));
    EXPECT_EQ(fen_after<Russian>(fen, "c1:c1"), canonical<Russian>("B:Wc1:B"));
}

TEST(StartSquare, CaptureEndsOnItsStartInternational) {
    const char* fen = "W:W47:B31,32,41,42";
    EXPECT_EQ(move_texts<International>(fen), (Texts{"47x47"}));
    EXPECT_EQ(route_texts<International>(fen), (Texts{"47x36x27x38x47", "47x38x27x36x47"}));
    EXPECT_EQ(fen_after<International>(fen, "47:47"), "B:W47:B");
}

TEST(StartSquare, CapturePassesItsStartRussian) {
    // The king's last leg f8:a3 runs over c5, where it started, to take b4.
    // It also shows two moves with the same start and end that take
    // different pieces: both are legal and written apart.
    const char* fen = "W:WKc5:Bb4,d4,g5,g7";
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"c5:a3", "c5:e3:h6:f8:a3"}));
    EXPECT_EQ(parse_move(parse_fen<Russian>(fen), "c5:a3").captured, squares<Russian>({"b4"}));
    EXPECT_EQ(parse_move(parse_fen<Russian>(fen), "c5:e3:h6:f8:a3").captured,
              squares<Russian>({"b4", "d4", "g5", "g7"}));
}

// --- Crowning during a capture (2.1.5.15; 3.4.2) ---

TEST(CrowningInCapture, RussianManGoesOnAsAKing) {
    // b6 takes c7 and is crowned on d8; as a king it then takes g5 at a
    // distance, which a man could not.
    const char* fen = "W:Wb6:Bc7,g5,h8";
    EXPECT_EQ(move_texts<Russian>(fen), (Texts{"b6:h4"}));
    EXPECT_EQ(fen_after<Russian>(fen, "b6:h4"), canonical<Russian>("B:WKh4:Bh8"));
    // Taking e7 from d8 it has a king's choice of landing squares, and it
    // stays a king off the last row.
    EXPECT_EQ(move_texts<Russian>("W:Wb6:Bc7,e7"), (Texts{"b6:d8:f6", "b6:d8:g5", "b6:d8:h4"}));
    EXPECT_EQ(fen_after<Russian>("W:Wb6:Bc7,e7", "b6:d8:g5"), canonical<Russian>("B:WKg5:B"));
}

TEST(CrowningInCapture, InternationalManStaysAManWhenItGoesOn) {
    // The same shape: 11 (b8) takes 7 and reaches 2 (d10) on the last row,
    // then takes 8 as a man and ends on 13: not crowned (3.4.2.1).
    EXPECT_EQ(move_texts<International>("W:W11:B7,8"), (Texts{"11x13"}));
    EXPECT_EQ(fen_after<International>("W:W11:B7,8", "11:13"), "B:W13:B");
}

TEST(CrowningInCapture, InternationalManCrownedWhenTheMoveEndsOnTheLastRow) {
    // From 2 only a king could take 24 (at a distance): the move ends on 2
    // and the man is crowned; 24 stays (3.4.2.2).
    EXPECT_EQ(move_texts<International>("W:W11:B7,24"), (Texts{"11x2"}));
    EXPECT_EQ(fen_after<International>("W:W11:B7,24", "11:2"), "B:WK2:B24");
}

TEST(CrowningInCapture, BrazilianAsInternationalOnTheRussianBoard) {
    // Russian's picture under Brazilian rules (CBD 13): b6 takes c7 and
    // reaches d8, can take nothing more as a man, so the move ends there
    // and the man is crowned; g5 stays.
    EXPECT_EQ(move_texts<Brazilian>("W:Wb6:Bc7,g5,h8"), (Texts{"b6:d8"}));
    EXPECT_EQ(fen_after<Brazilian>("W:Wb6:Bc7,g5,h8", "b6:d8"), canonical<Brazilian>("B:WKd8:Bg5,h8"));
    // With e7 to take as a man from d8 it must go on, and stays a man.
    EXPECT_EQ(move_texts<Brazilian>("W:Wb6:Bc7,e7"), (Texts{"b6:f6"}));
    EXPECT_EQ(fen_after<Brazilian>("W:Wb6:Bc7,e7", "b6:f6"), canonical<Brazilian>("B:Wf6:B"));
}

// --- Crowning by a plain move ---

TEST(CrowningByMove, Russian) {
    EXPECT_EQ(move_texts<Russian>("W:Wa7:Bh2"), (Texts{"a7-b8"}));
    EXPECT_EQ(fen_after<Russian>("W:Wa7:Bh2", "a7-b8"), canonical<Russian>("B:WKb8:Bh2"));
    EXPECT_EQ(move_texts<Russian>("B:Wa7:Bh2"), (Texts{"h2-g1"}));
    EXPECT_EQ(fen_after<Russian>("B:Wa7:Bh2", "h2-g1"), canonical<Russian>("W:Wa7:BKg1"));
}

TEST(CrowningByMove, International) {
    EXPECT_EQ(move_texts<International>("W:W6:B45"), (Texts{"6-1"}));
    EXPECT_EQ(fen_after<International>("W:W6:B45", "6-1"), "B:WK1:B45");
    EXPECT_EQ(move_texts<International>("B:W6:B45"), (Texts{"45-50"}));
    EXPECT_EQ(fen_after<International>("B:W6:B45", "45-50"), "W:W6:BK50");
}

// --- Choice among captures: free in Russian (2.1.5.14), majority in
// international (3.4.1) ---

TEST(ChoiceOfCapture, RussianFreeChoice) {
    // c3 may take the king on b4 alone, or the two men d4 and f6.
    EXPECT_EQ(move_texts<Russian>("W:Wc3:BKb4,d4,f6"), (Texts{"c3:a5", "c3:g7"}));
}

TEST(ChoiceOfCapture, InternationalMajorityCountsPiecesNotKings) {
    // The same picture: two men beat one king.
    EXPECT_EQ(move_texts<International>("W:W37:BK31,23,32"), (Texts{"37x19"}));
    // Three men beat two kings.
    EXPECT_EQ(move_texts<International>("W:W32:BK17,K27,30,38,39"), (Texts{"32x25"}));
    // Two kings and two men tie: both are legal.
    EXPECT_EQ(move_texts<International>("W:W32:BK17,K27,19,28"), (Texts{"32x14", "32x21x12"}));
}

TEST(ChoiceOfCapture, BrazilianMajority) {
    // Russian's free choice, under the majority rule (CBD 12): only the two
    // men may be taken.
    EXPECT_EQ(move_texts<Brazilian>("W:Wc3:BKb4,d4,f6"), (Texts{"c3:g7"}));
}

// --- Duplicates: one move per start, end and captured set ---

TEST(Duplicates, SameCapturesAreOneMoveUnlessKept) {
    // The king's round trips (see NoPieceIsTakenTwice) give two routes to c3
    // with the same four men taken: one move, or two in Keep mode.
    const char* russian = "W:WKc3:Bb4,b6,d4,d6";
    EXPECT_EQ(move_count<Russian>(russian, Duplicates::Drop), 5u);
    EXPECT_EQ(move_count<Russian>(russian, Duplicates::Keep), 6u);
    EXPECT_EQ(MoveGenerator<Russian>::capture_routes(parse_fen<Russian>(russian)).size(), 6u);
    const char* international = "W:WK37:B21,22,31,32";
    EXPECT_EQ(move_count<International>(international, Duplicates::Drop), 5u);
    EXPECT_EQ(move_count<International>(international, Duplicates::Keep), 6u);
    // Men too: the round trip of StartSquare.
    EXPECT_EQ(move_count<Russian>("W:Wc1:Bb2,b4,d2,d4", Duplicates::Drop), 1u);
    EXPECT_EQ(move_count<Russian>("W:Wc1:Bb2,b4,d2,d4", Duplicates::Keep), 2u);
}

TEST(Duplicates, DifferentCapturesAreDifferentMoves) {
    // Two routes from 20 to 3, each taking three pieces, not the same three.
    const char* fen = "W:WK20:B8,23,24,37";
    EXPECT_EQ(move_texts<International>(fen), (Texts{"20x29x12x3", "20x42x26x3"}));
    EXPECT_EQ(move_count<International>(fen, Duplicates::Drop), 2u);
    const auto pos = parse_fen<International>(fen);
    EXPECT_EQ(parse_move(pos, "20:29:12:3").captured, squares<International>({"8", "23", "24"}));
    EXPECT_EQ(parse_move(pos, "20:42:26:3").captured, squares<International>({"8", "24", "37"}));
}

// --- No legal move, no pieces: the side to move has lost ---

TEST(NoMove, RussianBlockedOrEmpty) {
    EXPECT_EQ(move_texts<Russian>("W:Wh2:Bf4,g3"), Texts{});  // g3 is backed by f4
    EXPECT_EQ(move_texts<Russian>("W:Wa7:Bb8"), Texts{});     // nothing behind b8
    EXPECT_EQ(move_texts<Russian>("W:W:Bb8"), Texts{});
    EXPECT_EQ(MoveGenerator<Russian>::count(parse_fen<Russian>("W:Wh2:Bf4,g3")), 0);
    EXPECT_FALSE(MoveGenerator<Russian>::has_capture(parse_fen<Russian>("W:Wh2:Bf4,g3")));
}

TEST(NoMove, InternationalBlockedOrEmpty) {
    EXPECT_EQ(move_texts<International>("W:W6:B1"), Texts{});
    EXPECT_EQ(move_texts<International>("B:W46:B"), Texts{});
    EXPECT_EQ(MoveGenerator<International>::count(parse_fen<International>("W:W6:B1")), 0);
}

}  // namespace
}  // namespace dtb
