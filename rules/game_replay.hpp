// A game of a PDN record (rules/pdn.hpp) replayed through DrawTracker
// (rules/draw_tracker.hpp): the move at which it reaches a draw by rule, the
// position where that rule's count began, and the counts after every ply
// (for judging a moment of the game with the tables). Values only: dtb
// adjudicate --pdn puts them into words and JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "rules/draw_tracker.hpp"
#include "rules/pdn.hpp"

namespace dtb {

// A ply's place in the game record: move `number`, played by `side`.
struct MoveNumber {
    int number;
    Color side;
};

// Where the ply-th ply (1-based) stands in a game that starts with `first`
// to move: with Black first, ply 1 is move 1 of Black and ply 2 move 2 of
// White.
inline MoveNumber move_of_ply(int ply, Color first) {
    const int q = ply - 1 + (first == Black ? 1 : 0);
    return {q / 2 + 1, q % 2 == 0 ? White : Black};
}

template <class V>
struct GameReplay {
    // The first draw by rule; nullopt: none within the record. The ply that
    // reached it is game.plies[draw->ply - 1].
    std::optional<DrawReached> draw;
    // Where the count of `draw` began; nullopt for a repetition (it counts
    // the whole game) and without a draw.
    std::optional<Position<V>> count_start;
    // The counts after each ply replayed: counts[k] after k plies (counts[0]
    // at the start), up to the draw or the end of the record.
    std::vector<DrawCounts<V>> counts;

    // The position after k plies.
    static Position<V> position_after(const PdnGame<V>& game, int k) {
        return std::size_t(k) < game.plies.size() ? game.plies[std::size_t(k)].before : game.final_position();
    }
};

template <class V>
GameReplay<V> replay_game(const PdnGame<V>& game) {
    GameReplay<V> r;
    DrawTracker<V> tracker(game.start);
    r.counts.push_back(tracker.counts());
    for (const PdnPly<V>& ply : game.plies) {
        r.draw = tracker.play(ply.move);
        r.counts.push_back(tracker.counts());
        if (r.draw) break;
    }
    if (r.draw && V::draw_rules[r.draw->rule].count != DrawCount::repetitions)
        r.count_start = GameReplay<V>::position_after(game, r.draw->count_start_ply);
    return r;
}

}  // namespace dtb
