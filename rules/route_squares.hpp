// The squares a capture route crosses: notation (which route a written
// capture means) and the PDN reader (a capture named by squares it passes)
// both need them.
#pragma once

#include <utility>
#include <vector>

#include "rules/movegen.hpp"

namespace dtb {

// The file (0 = a) and rank (1 = White's back row) of a square.
template <class V>
std::pair<int, int> file_rank(BitIndex b) {
    using Board = typename V::Board;
    const Square sq = Board::square_of(b);
    return {Board::file_of(sq), Board::rank_of(sq)};
}

// -1, 0 or 1: the direction of a step along a file or a rank.
constexpr int sign(int x) { return (x > 0) - (x < 0); }

// Every square the piece passes over or stands on, in order, start included.
template <class V>
std::vector<BitIndex> traversed_squares(const CaptureRoute& route) {
    using Board = typename V::Board;
    std::vector<BitIndex> squares{BitIndex{route.path.front()}};
    for (std::size_t i = 1; i < route.path.size(); ++i) {
        auto [f0, r0] = file_rank<V>(BitIndex{route.path[i - 1]});
        const auto [f1, r1] = file_rank<V>(BitIndex{route.path[i]});
        const int df = sign(f1 - f0), dr = sign(r1 - r0);
        while (f0 != f1 || r0 != r1) {
            f0 += df;
            r0 += dr;
            squares.push_back(Board::bit_of(*Board::square_at(f0, r0)));
        }
    }
    return squares;
}

}  // namespace dtb
