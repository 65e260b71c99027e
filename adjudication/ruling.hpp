// What the judge rules on the move-count draw rules at a position
// (judge.hpp decides it): plain values, no words. ruling_text.hpp renders
// them into the verdict a person reads; dtb/adjudication.h carries the same
// values to C as codes and numbers (c_ruling.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "rules/geometry.hpp"
#include "tables/material_signature.hpp"

namespace dtb::adjudication {

// How the answer was decided.
enum class Basis {
    no_rule,  // no move-count rule covers the material
    count,    // the count has run out already
    wdl,      // the stronger side cannot win at all
    dtw,      // DTW against the moves the count leaves
    search,   // a search over the tables (CountSearch)
    dtc,      // the values under the counts (.dtc tables): exact for every count
};

// Why a rule does not apply at the position (applies: it does).
enum class RuleNote {
    applies,
    needs_game,                // a repetition: counted over the whole game, not one position
    other_material,            // the rule speaks of other material
    no_stronger_king_on_road,  // 2.1.9.1.3: no king of the stronger side on the main road
    lone_king_off_road,        // 2.1.9.1.7: the lone king is not on the main road
};

// Why DTW alone does not settle the answer (judge.hpp's header).
enum class Doubt {
    none,
    needs_dtc,              // the count a capture or crowning starts again could be escaped: needs DTC
    conversion_longer,      // a conversion may lead into material whose wins outlast its fresh count
    conversion_unknown,     // ... into material whose WDL table is missing (or unreadable)
    conversion_unrecorded,  // ... into material whose WDL table (format version 1) does not record its longest win
};

struct DoubtDetail {
    Doubt kind = Doubt::none;
    // conversion_*: a capture or crowning on the way may lead into `into`
    // (the stronger side first), where rule `fresh_rule` (index in
    // V::draw_rules; nullopt: none covers it) starts a count of
    // `fresh_moves` moves.
    MaterialSignature into;
    std::optional<std::size_t> fresh_rule;
    int fresh_moves = 0;
    int longest_moves = 0;     // conversion_longer: the longest win there, in moves of the stronger side
    std::string missing_file;  // conversion_unknown, _unrecorded: the WDL table that would tell (a file name)
};

// One rule of V::draw_rules at the position.
struct RuleStanding {
    std::size_t index = 0;  // in V::draw_rules
    bool applies = false;
    int moves_made = 0;  // of the stronger side (of each side for the counts that name none)
    int moves_left = 0;  // limit - moves_made, never below 0
    RuleNote why_not = RuleNote::applies;
};

struct Ruling {
    std::vector<RuleStanding> rules;  // every rule of the variant, in the table's order
    std::optional<std::size_t> rule;  // the rule that ends the game first; nullopt: none applies
    std::vector<std::size_t> also;    // others that end it at the same move
    int limit = 0;
    int moves_left = 0;
    Color side_to_move = White;
    MaterialSignature material;  // of the position, the side to move first
    std::optional<Color> stronger;
    bool probed = false;              // whether the tables were read (only when a rule applies)
    int value = -1;                   // the position's value for the side to move: plies, or -1 (kDraw)
    int wdl = 0;                      // for the stronger side, with no count: -1, 0, 1
    std::optional<int> moves_needed;  // the stronger side's own moves to win (DTW); nullopt: it cannot win
    bool winnable = false;
    bool exact = true;  // false: the tables do not settle it (doubt says why)
    Basis basis = Basis::no_rule;
    // Why DTW alone did not settle it (kept when a search then did).
    DoubtDetail doubt;
    std::size_t search_nodes = 0;  // positions the search visited; 0: none ran
    // basis dtc: the distance to conversion of the position with every count
    // fresh, in plies (-1: drawn under the counts).
    int dtc = -1;
    // basis not dtc: why the .dtc tables did not answer (a missing file), empty if none was needed.
    std::string missing_dtc;
};

}  // namespace dtb::adjudication
