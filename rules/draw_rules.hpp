// The move-count draw rules (docs/RULES.md section 4) as data: which material
// each covers, what it counts, its limit, when its count starts and what
// starts it again, and the rule's number in the official text (2.1.9.1.x
// for Russian, 3.5 for international, CBD 16 for Brazilian). Each variant's traits type
// (rules/variant.hpp) names its table as V::draw_rules; code that applies
// the rules (rules/draw_tracker.hpp, adjudication/judge.hpp) reads the table
// and never asks which variant it is.
//
// Readings of the texts that the data encodes (the texts leave them open):
//   - "N moves" of a rule that names the stronger side ("своим 15-м ходом")
//     are that side's own moves: the game is drawn when its N-th move does
//     not end the game. "N moves" of a rule that names no side ("в течение
//     15 ходов") are N moves of each side, 2N plies.
//   - A lone-king count starts when its material first stands on the board
//     against the lone king ("считая с момента установления соотношения
//     сил") and runs until the lone king is captured: giving up or crowning
//     a piece does not start it again. A board condition (a king on the main
//     road) is judged once, when the count would start.
//   - Every rule that covers a position applies; the one that ends the game
//     first decides. Entries are listed so that, of two ending at the same
//     move, the more specific comes first.
//   - 2.1.9.1.4 "три дамки и более шашек (простых шашек и дамок)" is read
//     as three kings or more, with any men besides.
//
// Where published texts disagree, the official rules are followed: some
// summaries of the international rules also list three men, ask for "a
// winning position" (not the capture) by the 5th move, and add 50 moves for
// five kings (or four and a man) against two; the official 3.5 has 16 moves
// for three pieces with a king, 5 for two or one, and the capture of the
// lone king (docs/RULES.md 4.5).
#pragma once

#include <span>
#include <string_view>

namespace dtb {

// What a rule counts.
enum class DrawCount {
    // The stronger side's own moves since its material first stood against
    // a lone king; drawn when its limit-th move has not ended the game (the
    // lone king captured, or left without a move).
    stronger_side_moves,
    // Moves of each side in a row with no capture and no crowning, that is
    // with the balance of forces unchanged, while both sides have kings.
    moves_without_conversion,
    // Moves of each side in a row in which only kings moved and nothing was
    // captured.
    king_moves,
    // Occurrences of the same position with the same side to move; drawn at
    // the limit-th (a player may claim it then, 2.1.9.2).
    repetitions,
};

// What a rule needs of the board besides material, judged when its count
// starts. The main road ("большая дорога") is the long diagonal a1-h8
// (46-5 on the 10x10 board).
enum class BoardCondition {
    none,
    stronger_king_on_main_road,  // the stronger side "holds" it: one of its kings stands on it
    lone_king_on_main_road,
};

struct PieceRange {
    int min;
    int max;
    constexpr bool contains(int n) const { return min <= n && n <= max; }
};
inline constexpr int kAnyNumber = 40;  // more than a side ever has
inline constexpr PieceRange kAnyCount{0, kAnyNumber};

struct DrawRule {
    std::string_view id;      // unique in its variant, the rule number first: "2.1.9.1.5 (4-5 pieces)"
    std::string_view source;  // the rule number alone: "2.1.9.1.5", "3.5"
    std::string_view title;   // what it covers, in words
    DrawCount count;
    int limit;  // moves (see DrawCount), or occurrences for repetitions
    // Material for stronger_side_moves: the other side has one piece, a
    // king, and the stronger side's kings, men and pieces lie in these.
    PieceRange kings = kAnyCount;
    PieceRange men = kAnyCount;
    PieceRange pieces = kAnyCount;
    // All pieces on the board (moves_without_conversion).
    PieceRange total = kAnyCount;
    // Whether both sides must have a king (moves_without_conversion, and
    // king_moves: a side without kings can only move men).
    bool both_sides_have_kings = false;
    BoardCondition board = BoardCondition::none;
    std::string_view starts;  // when the count starts, in words
    std::string_view resets;  // what starts it again, in words
};

inline constexpr std::string_view kLoneKingStarts =
    "when this material first stands against the lone king (with the board condition, if any, true then)";
inline constexpr std::string_view kLoneKingResets =
    "nothing: it runs until the lone king is captured (the game then ends)";
inline constexpr std::string_view kConversionStarts = "at the last capture or crowning, once both sides have kings";
inline constexpr std::string_view kConversionResets = "a capture or a crowning";
inline constexpr std::string_view kKingMovesStarts = "at the last man move or capture";
inline constexpr std::string_view kKingMovesResets = "a man move (a crowning included) or a capture";
inline constexpr std::string_view kRepetitionStarts = "every position is counted from the start of the game";
inline constexpr std::string_view kRepetitionResets =
    "nothing (a capture or a man move makes every earlier position unreachable)";

// Russian checkers, 2.1.9.1 (2.1.9.1.1, .2 and .6 are agreements,
// clocks and an arbiter's judgement, not counts).
inline constexpr DrawRule kRussianDrawRules[] = {
    {.id = "2.1.9.1.3",
     .source = "2.1.9.1.3",
     .title = "three kings holding the main road (a1-h8) against a lone king",
     .count = DrawCount::stronger_side_moves,
     .limit = 15,
     .kings = {3, 3},
     .men = {0, 0},
     .pieces = {3, 3},
     .board = BoardCondition::stronger_king_on_main_road,
     .starts = kLoneKingStarts,
     .resets = kLoneKingResets},
    {.id = "2.1.9.1.4",
     .source = "2.1.9.1.4",
     .title = "three kings or more, with any men, against a lone king",
     .count = DrawCount::stronger_side_moves,
     .limit = 15,
     .kings = {3, kAnyNumber},
     .starts = kLoneKingStarts,
     .resets = kLoneKingResets},
    {.id = "2.1.9.1.5 (2-3 pieces)",
     .source = "2.1.9.1.5",
     .title = "both sides have kings, 2 or 3 pieces on the board, balance of forces unchanged",
     .count = DrawCount::moves_without_conversion,
     .limit = 5,
     .total = {2, 3},
     .both_sides_have_kings = true,
     .starts = kConversionStarts,
     .resets = kConversionResets},
    {.id = "2.1.9.1.5 (4-5 pieces)",
     .source = "2.1.9.1.5",
     .title = "both sides have kings, 4 or 5 pieces on the board, balance of forces unchanged",
     .count = DrawCount::moves_without_conversion,
     .limit = 30,
     .total = {4, 5},
     .both_sides_have_kings = true,
     .starts = kConversionStarts,
     .resets = kConversionResets},
    {.id = "2.1.9.1.5 (6-7 pieces)",
     .source = "2.1.9.1.5",
     .title = "both sides have kings, 6 or 7 pieces on the board, balance of forces unchanged",
     .count = DrawCount::moves_without_conversion,
     .limit = 60,
     .total = {6, 7},
     .both_sides_have_kings = true,
     .starts = kConversionStarts,
     .resets = kConversionResets},
    {.id = "2.1.9.1.7",
     .source = "2.1.9.1.7",
     .title = "three pieces (kings or men) against a lone king on the main road (a1-h8)",
     .count = DrawCount::stronger_side_moves,
     .limit = 5,
     .pieces = {3, 3},
     .board = BoardCondition::lone_king_on_main_road,
     .starts = kLoneKingStarts,
     .resets = kLoneKingResets},
    {.id = "2.1.9.1.8",
     .source = "2.1.9.1.8",
     .title = "only kings moved and nothing was captured",
     .count = DrawCount::king_moves,
     .limit = 15,
     .both_sides_have_kings = true,
     .starts = kKingMovesStarts,
     .resets = kKingMovesResets},
    {.id = "2.1.9.1.9",
     .source = "2.1.9.1.9",
     .title = "the same position with the same side to move for the third time",
     .count = DrawCount::repetitions,
     .limit = 3,
     .starts = kRepetitionStarts,
     .resets = kRepetitionResets},
};

// International draughts, 3.5 (which also applies 2.1.9.1.9 and
// 2.1.9.2 on repetitions).
inline constexpr DrawRule kInternationalDrawRules[] = {
    {.id = "3.5 (16 moves)",
     .source = "3.5",
     .title = "three kings, two kings and a man, or a king and two men against a lone king",
     .count = DrawCount::stronger_side_moves,
     .limit = 16,
     .kings = {1, 3},
     .pieces = {3, 3},
     .starts = kLoneKingStarts,
     .resets = kLoneKingResets},
    {.id = "3.5 (5 moves)",
     .source = "3.5",
     .title = "two kings, a king and a man, or a king against a lone king",
     .count = DrawCount::stronger_side_moves,
     .limit = 5,
     .kings = {1, 2},
     .pieces = {1, 2},
     .starts = kLoneKingStarts,
     .resets = kLoneKingResets},
    {.id = "3.5 (25 king moves)",
     .source = "3.5",
     .title = "only kings moved and nothing was captured",
     .count = DrawCount::king_moves,
     .limit = 25,
     .both_sides_have_kings = true,
     .starts = kKingMovesStarts,
     .resets = kKingMovesResets},
    {.id = "3.5 (repetition, 2.1.9.1.9)",
     .source = "2.1.9.1.9",
     .title = "the same position with the same side to move for the third time",
     .count = DrawCount::repetitions,
     .limit = 3,
     .starts = kRepetitionStarts,
     .resets = kRepetitionResets},
};

// Brazilian draughts, rule 16 of the Brazilian draughts confederation's
// official rules (CBD) for the 64-square board: 20 moves in a row of kings
// only, with no capture and no man moved. The text names no lone-king
// count and no repetition rule.
inline constexpr DrawRule kBrazilianDrawRules[] = {
    {.id = "CBD 16 (20 king moves)",
     .source = "CBD 16",
     .title = "only kings moved and nothing was captured",
     .count = DrawCount::king_moves,
     .limit = 20,
     .both_sides_have_kings = true,
     .starts = kKingMovesStarts,
     .resets = kKingMovesResets},
};

// The fewest moves any count of the table leaves when it starts afresh: a
// win that needs no more than this is never cut short by a count that a
// capture or crowning on the way starts (adjudication/judge.hpp).
constexpr int shortest_limit(std::span<const DrawRule> rules) {
    int shortest = kAnyNumber;
    for (const DrawRule& r : rules)
        if (r.count != DrawCount::repetitions && r.limit < shortest) shortest = r.limit;
    return shortest;
}

constexpr bool counts_stronger_side(const DrawRule& r) { return r.count == DrawCount::stronger_side_moves; }

}  // namespace dtb
