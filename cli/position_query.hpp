// What dtb probe, dtb adjudicate and dtb serve ask the tables about one
// position: its value, best move and line, every move with its value, the
// line to the end with the position after each ply, the adjudication of the
// draw rules. All of it goes through the C API of dtb/probe.h, the calls an
// engine makes, so that what the program prints or serves is what engines
// get. position_json.hpp renders the answers.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "dtb/adjudication.h"
#include "dtb/probe.h"

namespace dtb {

// Why there is no answer: a status of dtb/probe.h and its message.
struct QueryError {
    int status;
    std::string message;

    // The FEN, the position or an argument (exit status 2, HTTP 400); any
    // other status is the tables' (exit status 1; HTTP 404 for a missing
    // table, 500 for a damaged one).
    bool bad_input() const { return status == DTB_BAD_POSITION || status == DTB_BAD_ARGUMENT; }
};

template <class T>
using Answer = std::variant<T, QueryError>;

// The position a FEN describes (a FEN that does not parse: DTB_BAD_POSITION).
Answer<dtb_position> position_from_fen(int variant, const std::string& fen);

// The FEN of a position (Russian squares algebraic).
std::string fen_of(const dtb_position& pos);

// A move with its squares as PDN numbers, whatever the variant writes:
// "c3-d4" becomes "22-18", "c3:e5" "22x15" (PDN writes numbered captures
// with x); international moves stay as they are.
std::string numeric_move_text(int variant, const dtb_move& move);

// dtb probe's answer: the value, the best move and the line to the end.
// The counts an adjudication is asked at (dtb_adjudicate_counts).
struct MovesPlayed {
    int moves = 0;             // the stronger side's moves since the count started
    int king_moves = 0;        // of kings only since the last man move or capture
    int conversion_moves = 0;  // since the last capture or crowning
};

struct ProbeReport {
    dtb_position position{};
    std::string fen;
    dtb_value value{};
    std::optional<std::string> best_move;
    std::vector<std::string> pv;
    // The values under the counts with every count fresh (dtb_probe_dtc),
    // when the .dtc tables are there: the rule-aware value, and the
    // distance to conversion (-1 when drawn under the counts).
    std::optional<int> rule_wdl;
    int dtc = -1;
    // Best play under the counts, every count fresh, to the next conversion
    // (dtb_rule_line); empty for a draw under the counts or without .dtc tables.
    std::vector<std::string> rule_line;
};

// dtb_rule_line: best play under the counts to the next conversion, as move texts.
Answer<std::vector<std::string>> rule_line(dtb_tablebase* tb, const dtb_position& pos, const MovesPlayed& played);

// The five classes of a position's value under the counts (docs/VALUES.md):
// "win", "count-drawn win" (won without the counts, drawn under them),
// "draw", "count-saved loss", "loss".
const char* rule_class_word(int wdl, int rule_wdl);

Answer<ProbeReport> probe_report(dtb_tablebase* tb, const dtb_position& pos);

// A legal move, the value it leads to for the side making it
// (dtb_probe_root), and the position after it.
struct ValuedMove {
    dtb_move move{};
    dtb_value value{};
    dtb_position after{};
    // Where the .dtc tables answer (dtb_rule_root, every count fresh before
    // the move): the value it leads to under the counts for the side making
    // it, and its plies to the next conversion (-1 when drawn under them).
    std::optional<int> rule_wdl;
    int dtc = -1;
};

// Every legal move, best first: wins fastest first, then draws, then losses
// slowest first; moves of equal value in dtb_probe_root's order. With the
// .dtc tables, each with its value under the counts too.
Answer<std::vector<ValuedMove>> probe_moves(dtb_tablebase* tb, const dtb_position& pos);

// Whether the side to move must capture: its legal moves are captures
// (rule 2.1.6 Russian, 3.x international: capturing is compulsory).
bool must_capture(const std::vector<ValuedMove>& moves);

// One ply of the line to the end: the move and the position after it, with
// that position's value for its side to move.
struct LinePly {
    dtb_move move{};
    dtb_position after{};
    dtb_value value{};
};

// The line to the end of the game (dtb_principal_variation): empty for a
// draw and for a game already over.
Answer<std::vector<LinePly>> probe_line(dtb_tablebase* tb, const dtb_position& pos, const dtb_value& value);

Answer<dtb_adjudication> adjudicate(dtb_tablebase* tb, const dtb_position& pos, const MovesPlayed& played);

}  // namespace dtb
