// Values of positions (docs/RULES.md, section 3), decoded and stored, and
// the one rule that makes a position's value from its moves'.
//
// Decoded value (an int): the DTW in plies, whose parity gives the result
// (even: the side to move loses, odd: it wins), or kDraw. The generator,
// the verifier and the probe all compute with this encoding.
//
// Stored symbol (ValueCodec<T>): the distance itself, or kDrawSymbol. Tables
// whose distances do not fit a byte use 16-bit symbols; nothing is ever
// clipped.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace dtb {

inline constexpr int kDraw = -1;

constexpr bool is_win(int value) { return value >= 0 && value % 2 == 1; }
constexpr bool is_loss(int value) { return value >= 0 && value % 2 == 0; }

// -1 loss, 0 draw, 1 win.
constexpr int wdl_of(int value) { return value == kDraw ? 0 : value % 2 == 1 ? 1 : -1; }

// The value for the side that moves into a position of value `child`.
constexpr int value_before(int child) { return child == kDraw ? kDraw : child + 1; }

// A value's place in the side to move's order of preference, as a number
// (greater is better): the fastest win, then a draw, then the longest loss.
// Wins rank above 0, losses below, a draw at 0.
constexpr int kValueRankBase = 1000000;
constexpr int value_rank(int v) { return v == kDraw ? 0 : v % 2 == 1 ? kValueRankBase - v : -kValueRankBase + v; }
// The value of a rank that value_rank gives.
constexpr int value_of_rank(int rank) {
    return rank == 0 ? kDraw : rank > 0 ? kValueRankBase - rank : rank + kValueRankBase;
}

// Beyond every rank a value can have: the bounds of a search window.
constexpr int kValueRankBound = 2 * kValueRankBase;

// The rank, for the side to move after a move, of the value that gives the
// side making the move the value of rank `rank` (value_before undone, in
// ranks: a loss in n + 1 here is a win in n there, a win in n + 1 here a
// loss in n there), the window bounds swapped. It turns the order round, so
// it turns a search window for the mover into the window the position after
// the move needs.
constexpr int rank_after(int rank) {
    if (rank >= kValueRankBound) return -kValueRankBound;
    if (rank <= -kValueRankBound) return kValueRankBound;
    return rank > 0 ? -rank - 1 : rank < 0 ? -rank + 1 : 0;
}

// Whether value a is better than b for the side to move.
constexpr bool better(int a, int b) { return value_rank(a) > value_rank(b); }

// The min-max rule, once for every measure the project keeps: of what a
// side's moves lead to, each a win or a loss in some number of plies (for
// the side making the move) or a draw, the best is the fastest win, else a
// draw, else the slowest loss; with no move at all the side has lost at
// once (a loss in 0). ChildValues applies it to DTW values, TimedChoice
// (tables/rule_values.hpp) to the distances to conversion.
struct BestOutcome {
    int fastest_win = -1;   // plies of the fastest win offered; -1: none yet
    int longest_loss = -1;  // plies of the slowest loss offered; -1: none yet
    bool draw = false;      // a draw is offered

    constexpr void add_win(int plies) { fastest_win = fastest_win < 0 ? plies : std::min(fastest_win, plies); }
    constexpr void add_loss(int plies) { longest_loss = std::max(longest_loss, plies); }
    constexpr void add_draw() { draw = true; }

    constexpr bool empty() const { return fastest_win < 0 && longest_loss < 0 && !draw; }

    // The best: 1 (a win in plies() plies), 0 (a draw), -1 (a loss in plies()).
    constexpr int wdl() const { return fastest_win >= 0 ? 1 : draw ? 0 : -1; }
    constexpr int plies() const { return fastest_win >= 0 ? fastest_win : draw ? 0 : std::max(longest_loss, 0); }
};

// The value rule: a position's value from the values of the positions its
// moves lead to (each for the side to move there), by BestOutcome: the
// fastest win (least loss + 1), else a draw, else the longest loss
// (greatest win + 1); with no move at all the side to move has lost (0).
// add() each child, then read value(); the fields say what the children
// offered so far.
struct ChildValues : BestOutcome {
    constexpr void add(int child) {
        if (child == kDraw)
            add_draw();
        else if (child % 2 == 0)
            add_win(child + 1);
        else
            add_loss(child + 1);
    }

    constexpr int value() const { return wdl() == 0 ? kDraw : plies(); }
};

template <class Range>
constexpr int value_from_children(const Range& children) {
    ChildValues values;
    for (const int child : children) values.add(child);
    return values.value();
}

template <class T>
struct ValueCodec {
    static constexpr T kUnknown = std::numeric_limits<T>::max();  // only while solving
    static constexpr T kDrawSymbol = kUnknown - 1;
    static constexpr int kMaxDistance = kDrawSymbol - 1;
};

template <class T>
constexpr int decode_value(T symbol) {
    return symbol == ValueCodec<T>::kDrawSymbol ? kDraw : int(symbol);
}

// `value` must be kDraw or a distance of at most kMaxDistance.
template <class T>
constexpr T encode_value(int value) {
    return value == kDraw ? ValueCodec<T>::kDrawSymbol : T(value);
}

// Thrown when a distance does not fit the symbol type; the caller solves the
// table again with wider symbols.
class DistanceOverflow : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace dtb
