// A king block: the positions that share where the men stand (both
// colours) and how many kings each side has, with either side to move.
// Plain king moves never leave a block; every other move (a man's, a
// capture, a crowning) does. The king-move count (Russian 2.1.9.1.8) runs
// inside one block and starts again as the game leaves it.
//
// solve_king_layers answers, for every position of a block at once, up to
// which layer (plies of the count already run) the side to move keeps the
// value it has with the counts fresh: retrograde analysis over the block,
// each position settled once, where a search position by position
// (RuleJudge's value()) visits each position once per layer and, where the
// count binds, refutes every winning try before it can call a draw.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/position.hpp"
#include "rules/retro.hpp"
#include "tables/combinatorics.hpp"

namespace dtb {

template <class V>
class KingBlock {
public:
    // The block of `p`.
    explicit KingBlock(const Position<V>& p)
        : men_{p.men(White), p.men(Black)},
          kings_{popcount(p.kings_of(White)), popcount(p.kings_of(Black))},
          free_(V::Board::all & ~(men_[White] | men_[Black])),
          squares_(popcount(free_)),
          black_sets_(binomial(squares_ - kings_[White], kings_[Black])),
          size_(std::size_t(2 * binomial(squares_, kings_[White]) * black_sets_)) {}

    std::size_t size() const { return size_; }

    // Whether `p` is in the block (its kings may stand anywhere).
    bool contains(const Position<V>& p) const {
        return p.men(White) == men_[White] && p.men(Black) == men_[Black] &&
               popcount(p.kings_of(White)) == kings_[White] && popcount(p.kings_of(Black)) == kings_[Black];
    }

    // The index of a position of the block: the colex ranks of the white
    // kings among the free squares and of the black ones among the rest,
    // then the side to move.
    std::size_t index(const Position<V>& p) const {
        const Bitboard white = p.kings_of(White);
        const std::uint64_t w = colex_rank(extract_bits(white, free_));
        const std::uint64_t b = colex_rank(extract_bits(p.kings_of(Black), free_ & ~white));
        return std::size_t((w * black_sets_ + b) * 2 + (p.side_to_move == Black ? 1 : 0));
    }

    Position<V> position(std::size_t index) const {
        const std::uint64_t kings = index / 2;
        const Bitboard white = deposit_bits(colex_unrank(kings / black_sets_, kings_[White], squares_), free_);
        const Bitboard black =
            deposit_bits(colex_unrank(kings % black_sets_, kings_[Black], squares_ - kings_[White]), free_ & ~white);
        return make(white, black, index % 2 == 0 ? White : Black);
    }

    // f(index, position) for every position, in index order.
    template <class F>
    void for_each(F&& f) const {
        std::size_t i = 0;
        for_each_set(squares_, kings_[White], [&](Bitboard white_low) {
            const Bitboard white = deposit_bits(white_low, free_);
            const Bitboard rest = free_ & ~white;
            for_each_set(squares_ - kings_[White], kings_[Black], [&](Bitboard black_low) {
                const Bitboard black = deposit_bits(black_low, rest);
                for (Color c : {White, Black}) f(i++, make(white, black, c));
            });
        });
    }

private:
    Position<V> make(Bitboard white_kings, Bitboard black_kings, Color to_move) const {
        Position<V> p;
        p.pieces[White] = men_[White] | white_kings;
        p.pieces[Black] = men_[Black] | black_kings;
        p.kings = white_kings | black_kings;
        p.side_to_move = to_move;
        return p;
    }

    // Every k-element subset of 0..n-1, in colex order: as numbers they
    // increase (Gosper's next subset of the same size).
    template <class F>
    static void for_each_set(int n, int k, F&& f) {
        if (k == 0) {
            f(Bitboard{0});
            return;
        }
        const Bitboard end = bit(n);
        for (Bitboard s = bit(k) - 1; s < end;) {
            f(s);
            const Bitboard low = s & (~s + 1);
            const Bitboard ripple = s + low;
            s = (((ripple ^ s) >> 2) / low) | ripple;
        }
    }

    Bitboard men_[2];
    int kings_[2];
    Bitboard free_;
    int squares_;
    std::uint64_t black_sets_;
    std::size_t size_;
};

// What a move that leaves a king block gets its side: `wdl` at layers up
// to `last`, a draw beyond (kEveryLayer: at every layer).
inline constexpr int kEveryLayer = 127;
struct ExitValue {
    int wdl = 0;
    int last = kEveryLayer;
};

// For every position p of `block`, the last layer (0..cap) at which its side
// to move still gets the value role(p, moves) says it has with the counts
// fresh, given p's legal moves (never none): +1 a win, -1 a loss (0: drawn
// whatever the layer, not solved); -1 where at no layer. A layer is the
// plies the count has run at p; at layer b a plain king move leads to
// layer b + 1, so the count ends the game after layer `cap`. exit(p, m),
// for every other move m of p (it leaves the block), gives the value m
// gets p's side (an ExitValue): the winner's move must win, the loser's
// lose, up to the layer it says. A position without moves is lost, at
// every layer. The winner needs one move that holds at its layer, the
// loser finds every move losing: the last layer is the best (for the
// loser, the worst) of its moves', a king move's one less than the layer
// its successor holds to. A position whose side to move must capture
// holds at every layer: every capture converts, so the captures' value is
// its value whatever the count.
template <class V, class Role, class Exit>
std::vector<std::int8_t> solve_king_layers(const KingBlock<V>& block, int cap, Role&& role, Exit&& exit) {
    const std::size_t n = block.size();
    std::vector<std::int8_t> last(n, -1);  // the answer, once settled
    // A winner's best layer so far; a loser's worst over its exits.
    std::vector<std::int8_t> bound(n, -1);
    std::vector<std::uint16_t> open(n, 0);  // a loser's king moves not yet known to hold
    // Positions to settle by layer; a lost position without moves, below
    // which its predecessors win at every layer, at cap + 1.
    std::vector<std::vector<std::uint32_t>> layers(std::size_t(cap) + 2);
    const auto queue = [&](std::size_t i, int layer) {
        bound[i] = std::int8_t(layer);
        layers[std::size_t(layer)].push_back(std::uint32_t(i));
    };

    // Every position's value with the counts fresh; those without moves and
    // those that must capture are settled by it.
    std::vector<std::int8_t> roles(n);
    std::vector<bool> quiet(n, false);
    block.for_each([&](std::size_t i, const Position<V>& p) {
        MoveList moves;
        MoveGenerator<V>::generate(p, moves);
        if (moves.size() == 0) {
            roles[i] = -1;
            queue(i, cap + 1);
            return;
        }
        roles[i] = std::int8_t(role(p, moves));
        if (!moves[0].is_capture())
            quiet[i] = true;
        else if (roles[i] != 0)
            queue(i, cap);
    });

    // The others: their exits, and their king moves to be counted.
    block.for_each([&](std::size_t i, const Position<V>& p) {
        if (!quiet[i] || roles[i] == 0) return;
        MoveList moves;
        MoveGenerator<V>::generate(p, moves);
        const bool winner = roles[i] > 0;
        int best = winner ? -1 : kEveryLayer;
        int king_moves = 0;
        for (const Move& m : moves) {
            int layer;
            if (!m.is_capture() && (p.kings & bit(m.from))) {
                // Holds for the retrograde below to count, where the other
                // side has the opposite value; else never.
                if (roles[block.index(p.after(m))] == -roles[i]) {
                    ++king_moves;
                    continue;
                }
                layer = -1;
            } else {
                const ExitValue e = exit(p, m);
                layer = e.wdl == roles[i] ? std::clamp(e.last, -1, kEveryLayer) : -1;
            }
            best = winner ? std::max(best, layer) : std::min(best, layer);
        }
        best = std::min(best, cap);
        if (winner) {
            if (best >= 0) queue(i, best);
        } else {
            bound[i] = std::int8_t(best);
            open[i] = std::uint16_t(king_moves);
            if (king_moves == 0 && best >= 0) queue(i, best);
        }
    });

    // Highest layers first: a position settled at layer v lets a
    // predecessor hold to v - 1, and every later one settles lower.
    for (int v = cap + 1; v >= 0; --v) {
        const std::vector<std::uint32_t>& here = layers[std::size_t(v)];
        for (std::size_t k = 0; k < here.size(); ++k) {
            const std::size_t i = here[k];
            if (last[i] >= 0 || bound[i] != v) continue;  // settled already, or queued again higher
            last[i] = std::int8_t(std::min(v, cap));
            if (v == 0) continue;
            RetroGenerator<V>::for_each_predecessor(block.position(i), [&](const Position<V>& before) {
                if (!block.contains(before)) return;  // a man moved
                const std::size_t j = block.index(before);
                if (last[j] >= 0 || roles[j] != -roles[i]) return;
                if (roles[j] > 0) {
                    if (v - 1 > bound[j]) queue(j, v - 1);
                } else if (--open[j] == 0) {
                    const int layer = std::min<int>(bound[j], v - 1);
                    if (layer >= 0) queue(j, layer);
                }
            });
        }
    }
    return last;
}

// Solved king blocks kept between questions to one set of tables: the
// plies of a game, the moves of one position, the line of a probe each ask
// anew, and a block is the same answer every time. By the block's variant,
// men, king counts and the lead of the conversion count over the king-move
// count (the limits follow from the material), the last layers
// solve_king_layers gave; the least recently used go past `capacity_bytes`.
// Safe to share between threads.
class SolvedKingBlocks {
public:
    struct Key {
        int variant = 0;
        Bitboard men[2] = {0, 0};
        int kings[2] = {0, 0};
        int lead = 0;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            const std::uint64_t h = k.men[0] * 0x9E3779B97F4A7C15ULL ^ k.men[1] * 0xC2B2AE3D27D4EB4FULL ^
                                    (std::uint64_t(k.kings[0]) << 8 | std::uint64_t(k.kings[1]) << 16 |
                                     std::uint64_t(std::uint32_t(k.lead)) << 24 | std::uint64_t(k.variant) << 56);
            return std::size_t(h ^ (h >> 29));
        }
    };
    using Layers = std::shared_ptr<const std::vector<std::int8_t>>;

    explicit SolvedKingBlocks(std::size_t capacity_bytes) : capacity_(capacity_bytes) {}

    Layers find(const Key& key) const {
        const std::lock_guard lock(mutex_);
        for (auto it = kept_.begin(); it != kept_.end(); ++it)
            if (it->first == key) {
                kept_.splice(kept_.begin(), kept_, it);  // most recently used first
                return it->second;
            }
        return nullptr;
    }

    void keep(const Key& key, Layers layers) {
        const std::lock_guard lock(mutex_);
        for (const auto& [k, l] : kept_)
            if (k == key) return;
        bytes_ += layers->size();
        kept_.emplace_front(key, std::move(layers));
        while (bytes_ > capacity_ && kept_.size() > 1) {
            bytes_ -= kept_.back().second->size();
            kept_.pop_back();
        }
    }

private:
    std::size_t capacity_;
    mutable std::mutex mutex_;
    mutable std::list<std::pair<Key, Layers>> kept_;  // a few blocks: a list is enough
    std::size_t bytes_ = 0;
};

}  // namespace dtb
