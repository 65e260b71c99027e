// A position as an SVG board diagram: the squares with White at the
// bottom (both variants), the square names (a-h and 1-8 at the edges for
// Russian, the PDN numbers 1-50 on the dark squares for international),
// men and kings (a king has a gold ring), the move played as a red arrow
// and the best move as a green one through the squares each stops on (one
// blue arrow when they are the same move), each piece a move captures
// ringed and crossed out in its arrow's colour, and a caption under the
// board.
// Rendering only: what to show is decided by the caller.
//
// Every piece is a <circle> with data-square (its name, "c3" or "28") and
// data-piece ("white-man", "black-king", ...), so that tools and tests can
// check where each one stands. An arrow is a <polyline> of class
// "played-move", "best-move" or both; a captured piece's cross a <path> of
// class "captured" with data-square and data-by ("played", "best" or both).
#pragma once

#include <optional>
#include <string>

#include "rules/position.hpp"

namespace dtb {

template <class V>
struct BoardDiagram {
    Position<V> position;
    std::optional<Move> played;  // red arrow
    std::optional<Move> best;    // green arrow; one blue arrow when it is `played`
    std::string caption;         // lines separated by '\n'
};

// The geometry of the drawing, for tests: a square's centre.
struct SvgLayout {
    static constexpr int square = 50;  // pixels
    static constexpr int margin = 24;  // for the coordinates
    // The centre of the square at (file 0.., rank 1..) on a board `width` wide.
    static constexpr double centre_x(int file) { return margin + (file + 0.5) * square; }
    static constexpr double centre_y(int rank, int width) { return margin + (width - rank + 0.5) * square; }
};

template <class V>
std::string board_svg(const BoardDiagram<V>& diagram);

}  // namespace dtb
