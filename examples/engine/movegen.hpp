// The engine's move generator, for both variants (docs/RULES.md section 2):
// men move forward and capture both ways, kings fly, captures are
// compulsory and completed, captured pieces leave the board only when the
// move ends (the Turkish strike), a Russian man crowned mid-capture goes
// on as a king, and international captures must take the most pieces.
#pragma once

#include <cstddef>
#include <cstdint>

#include "board.hpp"

namespace engine {

// A fixed array: the search allocates nothing. The most moves known in a
// legal position are far below this.
struct MoveList {
    static constexpr std::size_t capacity = 256;
    Move moves[capacity];
    std::size_t size = 0;

    void push(const Move& m) {
        if (size < capacity) moves[size++] = m;
    }
    void clear() { size = 0; }
    Move* begin() { return moves; }
    Move* end() { return moves + size; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + size; }
    const Move& operator[](std::size_t i) const { return moves[i]; }
};

void generate_moves(const Geometry& g, const Position& pos, MoveList& out);

// Leaf count of the legal move tree, routes taking the same pieces counted
// once (dtb perft's default, "drop").
std::uint64_t perft(const Geometry& g, const Position& pos, int depth);

}  // namespace engine
