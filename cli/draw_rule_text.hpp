// Draw rules in words, for dtb adjudicate --pdn and dtb analyze: why a
// rule ended a game (rules/draw_tracker.hpp's DrawReached), said the same
// way by both.
#pragma once

#include <string>

#include "cli/options.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/game_replay.hpp"

namespace dtb {

// "move 19 (White)", or "the start of the game".
inline std::string after_ply_text(int ply, Color first) {
    if (ply == 0) return "the start of the game";
    const auto [number, side] = move_of_ply(ply, first);
    return "move " + std::to_string(number) + " (" + side_name(side) + ")";
}

template <class V>
std::string reason_text(const DrawReached& d, Color first) {
    const DrawRule& r = V::draw_rules[d.rule];
    const std::string since = after_ply_text(d.count_start_ply, first);
    switch (r.count) {
        case DrawCount::stronger_side_moves:
            return std::string(side_name(*d.stronger)) + "'s move " + std::to_string(r.limit) + " since " + since +
                   ", when " + std::string(r.title) + " stood on the board, did not capture the lone king";
        case DrawCount::moves_without_conversion:
            return moves_text(r.limit) + " of each side with no capture and no crowning since " + since +
                   ", both sides having kings (" + std::string(r.title) + ")";
        case DrawCount::king_moves:
            return moves_text(r.limit) + " of each side with only kings moved and nothing captured since " + since;
        case DrawCount::repetitions:
            return "this position stands for the " + std::to_string(d.moves_counted) +
                   (d.moves_counted == 3 ? "rd" : "th") +
                   " time with the same side to move: a draw may be claimed (2.1.9.2)";
    }
    return {};
}

}  // namespace dtb
