#include "board.hpp"

#include <stdexcept>
#include <vector>

namespace engine {
namespace {

// PDN numbering: square 1 is the second square of the top row (b8, or the
// top left dark square of 10x10); rows alternate between starting on the
// second and on the first column.
// The board and the capture rules come from the library's list of variants
// (dtb_variant_rules_of), so that the engine plays any variant dtb knows.
Geometry make_geometry(int variant) {
    dtb_variant_rules rules;
    if (dtb_variant_rules_of(variant, &rules) != DTB_OK) throw std::invalid_argument("unknown variant");
    Geometry g{};
    g.variant = variant;
    g.size = rules.board_size;
    g.squares = rules.squares;
    g.majority_capture = rules.majority_capture != 0;
    g.crowns_during_capture = rules.crowns_during_capture != 0;
    g.algebraic = rules.algebraic_squares != 0;
    const int half = g.size / 2;
    auto square_at = [&](int row, int col) -> int {
        if (row < 0 || row >= g.size || col < 0 || col >= g.size) return -1;
        if ((row + col) % 2 == 0) return -1;  // a light square
        return row * half + col / 2;
    };
    constexpr int dr[4] = {-1, -1, 1, 1};
    constexpr int dc[4] = {-1, 1, -1, 1};
    for (auto& s : g.step) s.fill(-1);
    for (int sq = 0; sq < g.squares; ++sq) {
        const int row = sq / half;
        const int col = 2 * (sq % half) + (row % 2 == 0 ? 1 : 0);
        for (int d = 0; d < 4; ++d) g.step[sq][d] = static_cast<std::int8_t>(square_at(row + dr[d], col + dc[d]));
        g.all |= bit(sq);
        if (row == 0) g.crown_row[White] |= bit(sq);
        if (row == g.size - 1) g.crown_row[Black] |= bit(sq);
    }
    return g;
}

}  // namespace

const Geometry& Geometry::of(int variant) {
    static const std::vector<Geometry> all = [] {
        std::vector<Geometry> list;
        for (int v = 0; v < DTB_VARIANT_COUNT; ++v) list.push_back(make_geometry(v));
        return list;
    }();
    return all.at(static_cast<std::size_t>(variant));
}

Position after(const Position& pos, const Move& m) {
    Position next = pos;
    const int us = pos.side;
    const bool king = (pos.kings & bit(m.from)) != 0;
    next.pieces[us] &= ~bit(m.from);
    next.kings &= ~bit(m.from);
    next.pieces[us] |= bit(m.to);
    if (king || m.crowns) next.kings |= bit(m.to);
    next.pieces[us ^ 1] &= ~m.captured;
    next.kings &= ~m.captured;
    next.side = us ^ 1;
    return next;
}

dtb_position to_dtb(const Position& pos, int variant) {
    return dtb_position{pos.pieces[White], pos.pieces[Black], pos.kings, pos.side == White ? DTB_WHITE : DTB_BLACK,
                        variant};
}

Position from_dtb(const dtb_position& pos) {
    Position p;
    p.pieces[White] = pos.white;
    p.pieces[Black] = pos.black;
    p.kings = pos.kings;
    p.side = pos.side_to_move == DTB_WHITE ? White : Black;
    return p;
}

std::string square_name(int variant, int sq) {
    const Geometry& g = Geometry::of(variant);
    if (!g.algebraic) return std::to_string(sq + 1);
    const int half = g.size / 2;
    const int row = sq / half;
    const int col = 2 * (sq % half) + (row % 2 == 0 ? 1 : 0);
    return std::string{static_cast<char>('a' + col)} + std::to_string(g.size - row);
}

// Captures as each notation writes them: "c3:e5" on an algebraic board,
// "28x19" in numbers (PDN).
std::string move_text(int variant, const Move& m) {
    const char* capture = Geometry::of(variant).algebraic ? ":" : "x";
    return square_name(variant, m.from) + (m.is_capture() ? capture : "-") + square_name(variant, m.to);
}

}  // namespace engine
