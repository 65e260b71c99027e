// perft: the number of leaf nodes of the legal move tree to a given depth,
// the standard check of a move generator against published figures.
#pragma once

#include <cstdint>

#include "rules/movegen.hpp"

namespace dtb {

template <class V>
std::uint64_t perft(const Position<V>& pos, int depth, Duplicates duplicates = Duplicates::Drop) {
    using Gen = MoveGenerator<V>;
    if (depth <= 0) return 1;
    // Bulk counting: the last ply needs the number of moves, not the moves.
    if (depth == 1 && duplicates == Duplicates::Drop) return static_cast<std::uint64_t>(Gen::count(pos));
    MoveList moves;
    Gen::generate(pos, moves, duplicates);
    if (depth == 1) return moves.size();
    std::uint64_t nodes = 0;
    for (const Move& m : moves) nodes += perft(pos.after(m), depth - 1, duplicates);
    return nodes;
}

}  // namespace dtb
