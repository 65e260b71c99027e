// The JSON of the answers of position_query.hpp, shared by dtb probe --json,
// dtb adjudicate --json and dtb serve, so that a field means the same in
// each. Fields keep the order written here (Json is ordered).
#pragma once

#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/position_query.hpp"

namespace dtb {

// dtb probe --json: fen, wdl ("win", "draw", "loss" for the side to move),
// dtw (plies, null for a draw), best_move (null if none), pv.
Json report_json(const ProbeReport& r);

// A move: move (the variant's notation), move_numeric (PDN square numbers),
// from, to, captured (square numbers), crowns, wdl and dtw for the side
// making it, rule_wdl, rule_class and dtc under the counts (null without
// the .dtc tables), fen after it.
Json move_json(int variant, const ValuedMove& m);

// report_json, then must_capture and moves (best first): what
// GET /api/v1/{variant} answers.
Json position_json(const ProbeReport& r, const std::vector<ValuedMove>& moves);

// fen, wdl, dtw, then line: each ply's move, move_numeric, the fen after it
// and that position's wdl and dtw for its side to move.
Json line_json(const ProbeReport& r, const std::vector<LinePly>& line);

// The adjudication's fields as dtb adjudicate --json has them (rule,
// limit_moves, moves_left, winnable, verdict, ..., rules_considered).
Json adjudication_json(const dtb_adjudication& a);

// dtb adjudicate --fen --json: variant, fen, moves_played,
// king_moves_played, conversion_moves_played, then adjudication_json.
Json adjudicate_json(const std::string& variant, const dtb_position& pos, const MovesPlayed& played,
                     const dtb_adjudication& a);

}  // namespace dtb
