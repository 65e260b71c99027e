// The judge's search (judge.hpp): where DTW cannot say whether the
// stronger side can win before a draw rule ends the game, a bounded search
// over the WDL and DTW tables that plays every move through the game's
// counts (rules/draw_tracker.hpp). Needed only without the .dtc tables,
// which answer every count exactly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "adjudication/conversions.hpp"
#include "probe/search.hpp"
#include "rules/draw_tracker.hpp"

namespace dtb::adjudication {

using probe::Search;

// An exact answer, by search over the tables, to: can `stronger` end the
// game (win) before a draw rule does? Every move is played through
// DrawCounts, so counts start, run and start again exactly as in a game.
// Sound shortcuts: a position the tables do not give the stronger side as
// won is not won; a lone-king count that leaves fewer moves than DTW needs
// cannot be escaped; a DTW win that fits every count and no conversion can
// spoil (judge.hpp's header) is won. Repetitions are left out: the
// stronger side never needs to repeat a position (from a repeated position
// with higher counts, the play from its first occurrence does as well),
// and the defender cannot repeat one alone.
template <class V>
class CountSearch {
public:
    CountSearch(const Tablebase& tb, Color stronger, std::size_t node_limit)
        : tb_(tb), search_(tb), stronger_(stronger), node_limit_(node_limit) {}

    // true or false; nullopt when the node limit was reached.
    Outcome<std::optional<bool>> wins(const Position<V>& pos, const DrawCounts<V>& counts) {
        if (!counts.reached_at(pos).empty()) return std::optional<bool>(false);  // drawn already
        if (pos.side_to_move == stronger_) return stronger_to_move(pos, counts);
        // The defender to move: every reply must leave a win.
        return all_replies(pos, counts);
    }

    std::size_t nodes() const { return nodes_; }

private:
    using Result = Outcome<std::optional<bool>>;

    struct Key {
        Position<V> pos;
        typename DrawCounts<V>::Key counts;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            std::uint64_t h = PositionHash{}(k.pos);
            h ^= std::uint64_t(std::uint16_t(k.counts.plies_since_conversion)) * 0x27D4EB2F165667C5ULL;
            h ^= std::uint64_t(std::uint16_t(k.counts.plies_of_kings_only)) << 17;
            for (std::int8_t c : k.counts.lone) h = (h ^ std::uint8_t(c)) * 0x100000001B3ULL;
            return std::size_t(h ^ (h >> 31));
        }
    };

    Result stronger_to_move(const Position<V>& pos, const DrawCounts<V>& counts) {
        if (game_over(pos)) return std::optional<bool>(false);
        auto value = search_.value(pos);
        if (!value) return value.take_error();
        if (wdl_of(*value) != 1) return std::optional<bool>(false);
        const int need = (*value + 1) / 2;
        // A lone-king count shorter than the need cannot be escaped.
        int budget = kAnyNumber;
        for (std::size_t i = 0; i < DrawCounts<V>::kRules; ++i) {
            if (!counts.counting(i, pos)) continue;
            const DrawRule& r = DrawCounts<V>::rule(i);
            const int left = r.limit - counts.moves_made(i);
            budget = std::min(budget, left);
            if (counts_stronger_side(r) && left < need) return std::optional<bool>(false);
        }
        if (need <= budget && fits_after_conversions(pos, need - 1)) return std::optional<bool>(true);

        const Key key{pos, counts.key()};
        if (const auto it = memo_.find(key); it != memo_.end()) return std::optional<bool>(it->second);
        if (++nodes_ > node_limit_) return std::optional<bool>();

        auto moves = search_.root(pos);
        if (!moves) return moves.take_error();
        std::stable_sort(moves->begin(), moves->end(),
                         [](const auto& a, const auto& b) { return better(a.value, b.value); });
        bool unknown = false;
        for (const auto& rm : *moves) {
            if (wdl_of(rm.value) != 1) break;  // sorted: no win further on
            DrawCounts<V> next = counts;
            if (!next.play(pos, rm.move).empty()) continue;  // a count ends the game with this move
            const Position<V> after = pos.after(rm.move);
            if (game_over(after)) return remember(key, true);
            auto r = all_replies(after, next);
            if (!r) return r;
            if (!r->has_value())
                unknown = true;
            else if (**r)
                return remember(key, true);
        }
        if (unknown) return std::optional<bool>();
        return remember(key, false);
    }

    Result all_replies(const Position<V>& pos, const DrawCounts<V>& counts) {
        if (game_over(pos)) return std::optional<bool>(true);
        auto replies = search_.root(pos);
        if (!replies) return replies.take_error();
        // The defender's best (longest) first: the likeliest refutation.
        std::stable_sort(replies->begin(), replies->end(),
                         [](const auto& a, const auto& b) { return better(a.value, b.value); });
        bool unknown = false;
        for (const auto& rm : *replies) {
            DrawCounts<V> next = counts;
            const Position<V> after = pos.after(rm.move);
            if (!next.play(pos, rm.move).empty()) return std::optional<bool>(false);  // drawn by a count
            auto r = stronger_to_move(after, next);
            if (!r) return r;
            if (!r->has_value())
                unknown = true;
            else if (!**r)
                return std::optional<bool>(false);
        }
        if (unknown) return std::optional<bool>();
        return std::optional<bool>(true);
    }

    bool fits_after_conversions(const Position<V>& pos, int remaining) {
        if (remaining <= shortest_limit(V::draw_rules)) return true;
        DoubtDetail ignored;
        return detail::conversions_fit<V>(tb_, detail::material_of(pos, stronger_),
                                          detail::material_of(pos, opponent(stronger_)), remaining, &ignored);
    }

    Result remember(const Key& key, bool won) {
        memo_.emplace(key, won);
        return std::optional<bool>(won);
    }

    const Tablebase& tb_;
    Search<V> search_;
    Color stronger_;
    std::size_t node_limit_;
    std::size_t nodes_ = 0;
    std::unordered_map<Key, bool, KeyHash> memo_;
};

}  // namespace dtb::adjudication
