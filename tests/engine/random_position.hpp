// Random positions for the engine's tests.
#pragma once

#include <random>

#include "board.hpp"

namespace engine_test {

// A random position of a material: for the side to move (White or Black at
// random) `strong` kings and `strong_men` men, against `weak` kings and
// `weak_men` men; men never on the row where they are crowned.
inline engine::Position random_position(std::mt19937_64& rng, int variant, int strong, int weak, int strong_men = 0,
                                        int weak_men = 0) {
    const engine::Geometry& g = engine::Geometry::of(variant);
    engine::Position pos;
    pos.side = std::bernoulli_distribution(0.5)(rng) ? engine::White : engine::Black;
    std::uniform_int_distribution<int> square(0, g.squares - 1);
    const int counts[4] = {strong, weak, strong_men, weak_men};
    for (int kind = 0; kind < 4; ++kind) {
        const int side = kind % 2 == 0 ? pos.side : pos.side ^ 1;
        const bool king = kind < 2;
        for (int placed = 0; placed < counts[kind];) {
            const int sq = square(rng);
            if ((pos.occupied() & engine::bit(sq)) || (!king && (g.crown_row[side] & engine::bit(sq)))) continue;
            pos.pieces[side] |= engine::bit(sq);
            if (king) pos.kings |= engine::bit(sq);
            ++placed;
        }
    }
    return pos;
}

}  // namespace engine_test
