// Board geometry of the W x W draughts board, as a compile-time traits type.
//
// Squares are numbered as in PDN: 0-based index i = (PDN number - 1), row by
// row from Black's side (row 0 holds squares 1..W/2), left to right as White
// sees the board. Even rows start on file b, odd rows on file a. A Square
// holds that index, a BitIndex a bit of the layout below (rules/square.hpp).
//
// Bit layout ("ghost squares"): bit(i) = i + i / W, so after every two rows
// one bit is left unused. With it the four diagonal steps are the same shift
// for every square, and any step off the left or right edge lands on a ghost
// bit (never a playable square); steps off the top or bottom leave the range.
//
//   8x8:  32 squares in bits 0..34, ghosts 8, 17, 26; steps -5 -4 +4 +5
//   10x10: 50 squares in bits 0..53, ghosts 10, 21, 32, 43; steps -6 -5 +5 +6
#pragma once

#include <array>
#include <optional>
#include <string>

#include "rules/bitboard.hpp"
#include "rules/square.hpp"

namespace dtb {

// North is towards Black's side (square 1); White men move north.
enum Direction : int { NorthWest = 0, NorthEast = 1, SouthWest = 2, SouthEast = 3 };
inline constexpr std::array<Direction, 4> kAllDirections{NorthWest, NorthEast, SouthWest, SouthEast};

constexpr Direction opposite(Direction d) { return Direction(3 - d); }

enum Color : int { White = 0, Black = 1 };
constexpr Color opponent(Color c) { return Color(c ^ 1); }

template <int W>
struct Geometry {
    static_assert(W % 2 == 0 && W >= 4 && W <= 10, "board must fit the 64-bit ghost layout");

    static constexpr int width = W;
    static constexpr int per_row = W / 2;
    static constexpr int squares = W * W / 2;
    static constexpr int bit_count = squares + per_row - 1;

    // Between the coordinate systems of rules/square.hpp.
    static constexpr BitIndex bit_of(Square s) { return BitIndex{s.index + s.index / W}; }
    static constexpr Square square_of(BitIndex b) { return Square{b.value - b.value / (W + 1)}; }
    static constexpr int pdn_number(Square s) { return s.index + 1; }
    // nullopt when no square has that number.
    static constexpr std::optional<Square> square_numbered(int pdn_number) {
        if (pdn_number < 1 || pdn_number > squares) return std::nullopt;
        return Square{pdn_number - 1};
    }

    static constexpr int row_of(Square s) { return s.index / per_row; }
    // file 0 = a
    static constexpr int file_of(Square s) { return 2 * (s.index % per_row) + (row_of(s) % 2 == 0 ? 1 : 0); }
    // rank 1 is White's first row
    static constexpr int rank_of(Square s) { return W - row_of(s); }
    // nullopt when (file, rank) is off the board or a light square
    static constexpr std::optional<Square> square_at(int file, int rank) {
        if (file < 0 || file >= W || rank < 1 || rank > W) return std::nullopt;
        const int row = W - rank;
        if ((file + row) % 2 == 0) return std::nullopt;  // light square
        return Square{row * per_row + file / 2};
    }

    static constexpr int step[4] = {-(per_row + 1), -per_row, per_row, per_row + 1};

    static constexpr Bitboard make_all() {
        Bitboard b = 0;
        for (int s = 0; s < squares; ++s) b |= bit(bit_of(Square{s}));
        return b;
    }
    static constexpr Bitboard make_row(int row) {
        Bitboard b = 0;
        for (int s = row * per_row; s < (row + 1) * per_row; ++s) b |= bit(bit_of(Square{s}));
        return b;
    }

    static constexpr Bitboard all = make_all();

    // The row on which a man of `c` is crowned.
    static constexpr Bitboard promotion_row(Color c) { return c == White ? make_row(0) : make_row(W - 1); }

    // One diagonal step of every bit in b; bits that leave the board vanish.
    template <Direction D>
    static constexpr Bitboard shift(Bitboard b) {
        if constexpr (step[D] < 0)
            return (b >> -step[D]) & all;
        else
            return (b << step[D]) & all;
    }
    static constexpr Bitboard shift(Bitboard b, Direction d) {
        switch (d) {
            case NorthWest:
                return shift<NorthWest>(b);
            case NorthEast:
                return shift<NorthEast>(b);
            case SouthWest:
                return shift<SouthWest>(b);
            default:
                return shift<SouthEast>(b);
        }
    }

    // The squares beyond bit `b` in direction d, to the edge: a flying king
    // finds the first piece in its way with one look-up and one bit scan
    // instead of a step at a time.
    static constexpr Bitboard ray(int b, Direction d) { return rays[d][std::size_t(b)]; }
    // Of squares on one ray going in direction d, the nearest to its start.
    static constexpr int nearest(Bitboard on_ray, Direction d) {
        return step[d] < 0 ? highest_bit(on_ray) : lowest_bit(on_ray);
    }

    // Every square reachable from `from` in direction D over empty squares,
    // `from` itself included (Kogge-Stone occluded fill, no loops).
    template <Direction D>
    static constexpr Bitboard slide_fill(Bitboard from, Bitboard empty) {
        Bitboard gen = from;
        Bitboard pro = empty;
        gen |= pro & shift<D>(gen);
        pro &= shift<D>(pro);
        gen |= pro & shift<D>(shift<D>(gen));
        pro &= shift<D>(shift<D>(pro));
        gen |= pro & shift<D>(shift<D>(shift<D>(shift<D>(gen))));
        if constexpr (W > 8) {
            pro &= shift<D>(shift<D>(shift<D>(shift<D>(pro))));
            gen |= pro & shift<D>(shift<D>(shift<D>(shift<D>(shift<D>(shift<D>(shift<D>(shift<D>(gen))))))));
        }
        return gen;
    }

private:
    static constexpr std::array<std::array<Bitboard, 64>, 4> make_rays() {
        std::array<std::array<Bitboard, 64>, 4> r{};
        for (Direction d : kAllDirections)
            for (int b = 0; b < 64; ++b)
                if (all & bit(b))
                    for (Bitboard to = shift(bit(b), d); to; to = shift(to, d)) r[d][std::size_t(b)] |= to;
        return r;
    }
    static constexpr std::array<std::array<Bitboard, 64>, 4> rays = make_rays();
};

using Board8 = Geometry<8>;
using Board10 = Geometry<10>;

}  // namespace dtb
