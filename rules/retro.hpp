// Retro moves: the positions from which one plain move leads to a given
// position. The retrograde solver walks these edges backwards. Captures and
// crownings are not retracted: they lead from a position of another material
// signature, which the solver handles from that side (as exits).
#pragma once

#include "rules/movegen.hpp"
#include "rules/position.hpp"

namespace dtb {

template <class V>
class RetroGenerator {
public:
    using Board = typename V::Board;
    using Pos = Position<V>;

    // Calls f(predecessor) for each position, with the other side to move,
    // from which a legal plain move (no capture, no crowning) leads to `pos`.
    // A plain move is legal only where its side has no capture.
    template <class F>
    static void for_each_predecessor(const Pos& pos, F&& f) {
        if (pos.side_to_move == White)
            predecessors<Black>(pos, f);
        else
            predecessors<White>(pos, f);
    }

private:
    // `Mover` made the last move.
    template <Color Mover, class F>
    static void predecessors(const Pos& pos, F& f) {
        const Bitboard empty = pos.empty();
        const Bitboard men = pos.men(Mover);
        // A man came one step forward, so it stood one step back.
        retract_men<opposite(MoveGenerator<V>::template forward_left<Mover>()), Mover>(pos, men, empty, f);
        retract_men<opposite(MoveGenerator<V>::template forward_right<Mover>()), Mover>(pos, men, empty, f);
        for (int to : bits_of{pos.kings_of(Mover)}) {
            for (Direction d : kAllDirections) {
                for (Bitboard from = Board::shift(bit(to), d); from & empty; from = Board::shift(from, d)) {
                    Pos before = pos;
                    const Bitboard moved = bit(to) | from;
                    before.pieces[Mover] ^= moved;
                    before.kings ^= moved;
                    before.side_to_move = Mover;
                    if (!MoveGenerator<V>::template has_capture_for<Mover>(before)) f(before);
                }
            }
        }
    }

    template <Direction Back, Color Mover, class F>
    static void retract_men(const Pos& pos, Bitboard men, Bitboard empty, F& f) {
        for (int from : bits_of{Board::template shift<Back>(men) & empty}) {
            Pos before = pos;
            before.pieces[Mover] ^= bit(from) | bit(from - Board::step[Back]);
            before.side_to_move = Mover;
            if (!MoveGenerator<V>::template has_capture_for<Mover>(before)) f(before);
        }
    }
};

}  // namespace dtb
