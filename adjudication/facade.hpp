// What the dtb program asks of the adjudication beyond the C API of
// dtb/adjudication.h: the games of a PDN file judged with their counts as
// they stood (where the deciding count began, the moves that let a win
// slip), and a whole table's report. Every function takes the C handle of
// dtb/probe.h, so that its callers reach the tables through this header and
// the C API only, never through probe's internals; the answers are values
// (dtb_adjudication, MaterialReport) for the caller to put into words.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "adjudication/material_report.hpp"
#include "dtb/adjudication.h"
#include "rules/game_replay.hpp"
#include "rules/pdn.hpp"
#include "rules/variant.hpp"

namespace dtb::adjudication {

// The counts of a position given in whole moves of each side (as dtb
// adjudicate --fen takes them: the stronger side's moves, the moves of
// kings only, the moves since the last capture or crowning), as
// dtb_adjudicate_position takes them: n moves are 2n plies.
dtb_counts counts_in_moves(int moves_played, int king_moves, int conversion_moves);

// The tables' ruling at one moment of a game: the position after `ply`
// plies, with the counts as they stood then (exact to the ply, each
// lone-king count as it started), or why the tables could not give it.
struct GameMoment {
    int ply = 0;
    std::string fen;
    int conversion_plies = 0, king_plies = 0;
    std::optional<dtb_adjudication> answer;
    std::string error;  // when there is no answer
};

// A game judged with the tables (review_game).
struct GameReview {
    // A draw by a count: the ruling where that count began (could the
    // stronger side still win?).
    std::optional<GameMoment> at_start;
    // No draw by rule: the ruling at the end of the record, where a count
    // runs and the tables cover the position.
    std::optional<GameMoment> at_end;
    // The plies whose move let a win under the counts slip, from where the
    // count began to the draw: after each the stronger side, which could
    // win a ply before, could not any more (the other side may give the
    // win back). nullopt: no draw by a count, or the tables could not say
    // exactly at every ply.
    std::optional<std::vector<int>> slips;
};

// Judges `game` (replayed: `replay`) with the tables of `tb`.
template <class V>
GameReview review_game(dtb_tablebase* tb, const PdnGame<V>& game, const GameReplay<V>& replay);

// The game's value under the move-count rules, ply by ply, with the counts
// as they stood (replay.counts): values[k], after k plies, for the side
// then to move (1 win, 0 draw, -1 loss), from the .dtc tables, exact;
// nullopt where they do not answer (no .dtc table of the material, more
// pieces than any table). A damaged table stops it, saying so in `error`.
struct RuleValues {
    std::vector<std::optional<int>> values;
    std::string error;
};
template <class V>
RuleValues rule_values_in_game(dtb_tablebase* tb, const PdnGame<V>& game, const GameReplay<V>& replay);

// The report on the material `sig` (either side first) from the tables of
// `tb`: every position of its two tables read. Throws std::runtime_error
// with the tables' message when they cannot answer.
MaterialReport material_report(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig);

}  // namespace dtb::adjudication
