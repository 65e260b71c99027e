// The engine's own board: bitboards in dtb's public layout (bit n - 1 is
// PDN square n), so that a position goes to the probe by copying four
// fields, and the geometry of both boards as neighbour tables.
#pragma once

#include <dtb/probe.h>

#include <array>
#include <cstdint>
#include <string>

namespace engine {

using Bitboard = std::uint64_t;

inline Bitboard bit(int sq) { return Bitboard{1} << sq; }
inline int lowest(Bitboard b) { return __builtin_ctzll(b); }
inline int count(Bitboard b) { return __builtin_popcountll(b); }

enum Side { White = 0, Black = 1 };

// Diagonal directions: towards row 0 (White's forward) first.
enum Direction { UpLeft = 0, UpRight = 1, DownLeft = 2, DownRight = 3 };

// One variant's board and the rules that differ between variants.
struct Geometry {
    int variant;                                      // DTB_RUSSIAN, DTB_INTERNATIONAL, ...
    int size;                                         // 8 or 10
    int squares;                                      // 32 or 50
    Bitboard all;                                     // every square of the board
    Bitboard crown_row[2];                            // where a side's men are crowned
    std::array<std::array<std::int8_t, 4>, 64> step;  // neighbour, or -1 off the board
    bool majority_capture;                            // the most pieces must be taken
    bool crowns_during_capture;                       // a man crowned mid-capture goes on as a king
    bool algebraic;                                   // squares named a1..h8, not numbered

    static const Geometry& of(int variant);
    int row(int sq) const { return sq / (size / 2); }  // 0 = the top (Black's back row)
};

struct Position {
    Bitboard pieces[2] = {0, 0};
    Bitboard kings = 0;
    int side = White;

    Bitboard occupied() const { return pieces[White] | pieces[Black]; }
    friend bool operator==(const Position&, const Position&) = default;
};

// Capture routes with the same start, end and captured pieces are one move
// (docs/RULES.md 2.6), as in dtb.
struct Move {
    Bitboard captured = 0;
    std::uint8_t from = 0;
    std::uint8_t to = 0;
    bool crowns = false;

    bool is_capture() const { return captured != 0; }
    friend bool operator==(const Move&, const Move&) = default;
};

Position after(const Position& pos, const Move& m);

// Conversions to and from the probe's types: plain field copies.
dtb_position to_dtb(const Position& pos, int variant);
Position from_dtb(const dtb_position& pos);

// "c3-d4", "c3:e5" (Russian, algebraic) or "32-28", "28x19" (international):
// start and end only; the captured squares are in the JSON output.
std::string square_name(int variant, int sq);
std::string move_text(int variant, const Move& m);

}  // namespace engine
