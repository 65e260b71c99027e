// Which positions a table file leaves out, decided here once for the writer,
// the generator's readers, the verifier and the probe (docs/FORMAT.md,
// "Positions not stored"). A position left out is don't-care in the file:
// its stored symbol means nothing, and its value comes from a search.
//
//   - capture positions (the side to move must capture): left out of every
//     .wdl, .dtw and .dtc file. Their captures are searched; each takes a
//     piece, so the search ends in smaller tables.
//   - one side of a pair (format 3, flag kFlagSideNotStored): a table whose
//     mirror is another table stores none of its positions; each is searched
//     one ply, into the mirror, which stores all of its own (no threat
//     positions left out) or into capture positions and smaller tables, so
//     the search never comes back. The generator leaves out the side whose
//     WDL file is larger (gen/pair_writer.hpp).
//   - threat positions (format 3, flag kFlagThreatsNotStored, only in a
//     table that is its own mirror): the side to
//     move has no capture but the other side has one, and every move leads
//     to a capture position or to a position where the side that just
//     moved threatens nothing. One ply of search finds the value from
//     stored positions and capture positions only, never from another
//     threat position, so it never recurses through the same table.
//     Threat positions are about a sixth of a table and their values are
//     much less regular than their neighbours': leaving them out makes
//     Russian <= 5 WDL files 29% and DTW files 22% smaller.
#pragma once

#include "rules/movegen.hpp"
#include "rules/position.hpp"

namespace dtb {

// Whether the side not to move could capture, were it its turn.
template <class V>
bool other_side_can_capture(const Position<V>& pos) {
    return pos.side_to_move == White ? MoveGenerator<V>::template has_capture_for<Black>(pos)
                                     : MoveGenerator<V>::template has_capture_for<White>(pos);
}

// The second half of the threat rule, for a caller that has made the
// capture test already: every move of `pos` leads to a capture position or
// to a position where the side that just moved threatens nothing.
template <class V>
bool moves_leave_no_threat_position(const Position<V>& pos) {
    return MoveGenerator<V>::all_plain_moves(pos, [&](const Move& m) {
        const Position<V> next = pos.after(m);
        return MoveGenerator<V>::has_capture(next) || !other_side_can_capture(next);
    });
}

// Whether a format 3 table with kFlagThreatsNotStored leaves `pos` out as a
// threat position. `pos` must have no capture for its side to move.
template <class V>
bool is_unstored_threat(const Position<V>& pos) {
    return other_side_can_capture(pos) && moves_leave_no_threat_position(pos);
}

}  // namespace dtb
