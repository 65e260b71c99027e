// What dtb analyze decides about a game (cli/analyze_command.cpp renders
// it): from the first position whose material the tables hold, the value
// after every move, the moves that changed the game's value (each with the
// best move instead), and the move-count draw rules' counts, with the move
// at which a rule ended the game (the moves a record gives after that are
// marked, not evaluated), and whether the side to move at the end has no
// move. Values only; no text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/tables.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/game_replay.hpp"
#include "rules/pdn.hpp"

namespace dtb {

// The side to move at the end of the record has no move (or no piece
// left): it has lost, whatever the tables hold.
struct NoMove {
    int ply;  // after this ply (0: the start)
    Color loser;
    bool no_piece;  // it has no piece left, not only no legal move
};

// A count under way after a move: `moves` of the rule's `limit`.
struct RuleCount {
    std::size_t rule;  // index in V::draw_rules
    int moves;
};

// A move that changed the game's value for the side that played it.
struct TurningPoint {
    int before;             // value for the mover before the move (plies, or kDraw)
    int after;              // value for the mover after it
    std::string best_move;  // the move the tables prefer there
    int best_value;         // its value for the mover
};

template <class V>
struct AnalyzedPly {
    int ply;            // 1-based
    MoveNumber number;  // as the record numbers it
    Move move;
    std::string move_text;  // in the variant's notation
    Position<V> after;
    std::optional<int> value;       // after the move, for the side then to move; nullopt: not in the tables
    std::vector<RuleCount> counts;  // the draw-rule counts under way after the move
    std::optional<TurningPoint> turn;
    // With the .dtc tables: the value after the move under the move-count
    // rules, with the game's counts as they stood (1, 0, -1 for the side
    // then to move); and, where the move lowered the mover's value under
    // them (won -> drawn, ...), a turning point under the counts, the
    // mover's value under them before it.
    std::optional<int> rule_wdl;
    std::optional<int> rule_turn;
    std::optional<DrawReached> draw;  // a rule ended the game with this move, or (repetition) let a draw be claimed
    // Played after a move-count rule had ended the game: nothing of it is
    // evaluated (no value, counts or turning point), since play had stopped.
    bool after_end = false;
};

template <class V>
struct GameAnalysis {
    // The first position the tables hold: ply 0 is the start; nullopt: none.
    std::optional<int> in_tables_from;
    std::optional<int> start_value;        // the value at in_tables_from, for the side then to move
    std::optional<int> start_rule_wdl;     // its value under the move-count rules (.dtc tables), 1, 0, -1
    int rule_turning_points = 0;           // moves that lowered the mover's value under the counts
    std::vector<AnalyzedPly<V>> plies;     // every ply of the game
    std::optional<DrawReached> draw;       // the rule that ended the game (a move count), if one did;
                                           // the plies after draw->ply are after_end
    std::optional<DrawReached> claimable;  // the first repetition that let a draw be claimed
    std::optional<NoMove> no_move;         // the record ends with the side to move unable to move
    int turning_points = 0;
    std::string error;  // why the tables stopped answering, if they did
};

// Replays `game` against `tables` (whose largest tables of the variant
// have `max_pieces` pieces).
template <class V>
GameAnalysis<V> analyze_game(const PdnGame<V>& game, const Tables& tables, int max_pieces);

// -1 loss, 0 draw, 1 win: the class of a value.
inline int outcome_of(int value) { return wdl_of(value); }

}  // namespace dtb
