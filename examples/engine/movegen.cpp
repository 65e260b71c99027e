#include "movegen.hpp"

namespace engine {
namespace {

// One side's captures, piece by piece, as a depth-first search over routes.
struct CaptureSearch {
    const Geometry& g;
    MoveList& out;
    Bitboard enemy;      // captured pieces stay in it until the move ends
    Bitboard empty;      // the capturing piece's start counts as empty
    Bitboard crown_row;  // our men's
    int from = 0;
    bool man = false;      // the capturing piece started as a man
    bool crowned = false;  // ... and was crowned on the way (Russian)
    int most_taken = 0;    // the majority rule: most pieces any route took

    void finish(int to, Bitboard captured) {
        const Move m{captured, static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                     man && (crowned || (bit(to) & crown_row) != 0)};
        if (g.majority_capture) {
            const int taken = count(captured);
            if (taken < most_taken) return;
            if (taken > most_taken) {
                most_taken = taken;
                out.clear();
            }
        }
        for (const Move& seen : out)
            if (seen == m) return;  // another route taking the same pieces
        out.push(m);
    }

    // The enemy piece a jump from `sq` in direction d would take (a man's:
    // the neighbour), with the square behind it empty; -1 if none.
    int man_jump(int sq, int d, Bitboard captured) const {
        const int over = g.step[sq][d];
        if (over < 0 || !((enemy & ~captured) & bit(over))) return -1;
        const int onto = g.step[over][d];
        if (onto < 0 || !(empty & bit(onto))) return -1;
        return over;
    }

    void man_captures(int sq, Bitboard captured) {
        bool went_on = false;
        for (int d = 0; d < 4; ++d) {
            const int over = man_jump(sq, d, captured);
            if (over < 0) continue;
            went_on = true;
            const int onto = g.step[over][d];
            const Bitboard taken = captured | bit(over);
            if (g.crowns_during_capture && (bit(onto) & crown_row)) {
                crowned = true;
                if (!king_captures(onto, taken)) finish(onto, taken);
                crowned = false;
            } else {
                man_captures(onto, taken);
            }
        }
        if (!went_on && captured) finish(sq, captured);
    }

    // The enemy piece a king on `sq` would take in direction d: the first
    // piece along the diagonal, if it is an enemy not yet taken; -1 if none.
    int king_target(int sq, int d, Bitboard captured) const {
        int t = g.step[sq][d];
        while (t >= 0 && (empty & bit(t))) t = g.step[t][d];
        if (t < 0 || !((enemy & ~captured) & bit(t))) return -1;
        const int behind = g.step[t][d];
        return behind >= 0 && (empty & bit(behind)) ? t : -1;
    }

    bool king_can_capture(int sq, Bitboard captured) const {
        for (int d = 0; d < 4; ++d)
            if (king_target(sq, d, captured) >= 0) return true;
        return false;
    }

    // A king (or a man crowned on the way) on `sq` goes on capturing. Of the
    // squares behind a taken piece it must land on one from which it can
    // take again, if there is one (2.1.5.6); returns whether it took any.
    bool king_captures(int sq, Bitboard captured) {
        bool took = false;
        for (int d = 0; d < 4; ++d) {
            const int over = king_target(sq, d, captured);
            if (over < 0) continue;
            took = true;
            const Bitboard taken = captured | bit(over);
            bool any_goes_on = false;
            for (int l = g.step[over][d]; l >= 0 && (empty & bit(l)); l = g.step[l][d])
                if (king_can_capture(l, taken)) {
                    any_goes_on = true;
                    king_captures(l, taken);
                }
            if (any_goes_on) continue;
            for (int l = g.step[over][d]; l >= 0 && (empty & bit(l)); l = g.step[l][d]) finish(l, taken);
        }
        return took;
    }
};

void generate_captures(const Geometry& g, const Position& pos, MoveList& out) {
    const int us = pos.side;
    CaptureSearch search{g, out, pos.pieces[us ^ 1], g.all & ~pos.occupied(), g.crown_row[us]};
    for (Bitboard b = pos.pieces[us]; b; b &= b - 1) {
        const int sq = lowest(b);
        search.from = sq;
        search.man = !(pos.kings & bit(sq));
        search.empty |= bit(sq);
        if (search.man)
            search.man_captures(sq, 0);
        else
            search.king_captures(sq, 0);
        search.empty &= ~bit(sq);
    }
}

void generate_plain(const Geometry& g, const Position& pos, MoveList& out) {
    const int us = pos.side;
    const Bitboard empty = g.all & ~pos.occupied();
    const int forward[2][2] = {{UpLeft, UpRight}, {DownLeft, DownRight}};
    for (Bitboard b = pos.pieces[us]; b; b &= b - 1) {
        const int sq = lowest(b);
        if (pos.kings & bit(sq)) {
            for (int d = 0; d < 4; ++d)
                for (int t = g.step[sq][d]; t >= 0 && (empty & bit(t)); t = g.step[t][d])
                    out.push(Move{0, static_cast<std::uint8_t>(sq), static_cast<std::uint8_t>(t), false});
        } else {
            for (int d : forward[us]) {
                const int t = g.step[sq][d];
                if (t >= 0 && (empty & bit(t)))
                    out.push(Move{0, static_cast<std::uint8_t>(sq), static_cast<std::uint8_t>(t),
                                  (g.crown_row[us] & bit(t)) != 0});
            }
        }
    }
}

}  // namespace

void generate_moves(const Geometry& g, const Position& pos, MoveList& out) {
    out.clear();
    generate_captures(g, pos, out);
    if (out.size == 0) generate_plain(g, pos, out);
}

std::uint64_t perft(const Geometry& g, const Position& pos, int depth) {
    if (depth == 0) return 1;
    MoveList moves;
    generate_moves(g, pos, moves);
    if (depth == 1) return moves.size;
    std::uint64_t nodes = 0;
    for (const Move& m : moves) nodes += perft(g, after(pos, m), depth - 1);
    return nodes;
}

}  // namespace engine
