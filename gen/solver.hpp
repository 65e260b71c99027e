// Retrograde solver for one material signature and its mirror (the same
// material with the other side to move), which play into each other.
//
// Memory: one symbol per position (the value, see values.hpp) and two bits
// (resolved; selected). Unresolved positions carry what their exits
// (captures and crownings, into smaller or already solved tables) promise:
//   odd d        a win in d plies at most (an exit wins)
//   even e       a loss in at least e plies, if every plain move loses too
//   kDraw        cannot lose (an exit draws)
//   kUnknown     nothing yet
//
// Level n = 0, 1, 2, ...:
//   n even (losses at n): unresolved positions whose exits all lose at n
//     and whose plain moves all reach wins are lost at n. Then every
//     predecessor of a loss at n that has no faster win is marked "win at
//     n+1".
//   n odd (wins at n): every position marked "win at n" is resolved. Each
//     predecessor whose plain moves now all reach wins, and whose exits lose
//     no later than n+1, is lost at n+1.
// Each phase reads only what earlier phases wrote, or writes one value with
// several threads racing to write the same thing: the result is identical
// for any number of threads.
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>

#include "gen/bitmap.hpp"
#include "gen/child_tables.hpp"
#include "gen/values.hpp"
#include "rules/movegen.hpp"
#include "rules/position_index.hpp"
#include "rules/retro.hpp"

namespace dtb {

struct SolveProgress {
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)> report;
    void operator()(const std::string& stage, std::uint64_t done, std::uint64_t total) const {
        if (report) report(stage, done, total);
    }
};

template <class V, class T>
class PairSolver {
public:
    using Codec = ValueCodec<T>;
    using Gen = MoveGenerator<V>;

    PairSolver(const MaterialSignature& sig, const ChildTables<V>& children)
        : children_(children), sides_{Side(sig), Side(sig.mirror())}, side_count_(sig.is_symmetric() ? 1 : 2) {}

    int side_count() const { return side_count_; }
    const PositionIndex<V>& index(int side) const { return sides_[side].index; }
    const std::vector<T>& values(int side) const { return sides_[side].values; }
    std::uint64_t positions() const {
        return side_count_ == 1 ? sides_[0].index.size() : sides_[0].index.size() + sides_[1].index.size();
    }
    int levels() const { return levels_; }

    void solve(const SolveProgress& progress = {}) {
        for (int s = 0; s < side_count_; ++s) {
            sides_[s].values.assign(sides_[s].index.size(), Codec::kUnknown);
            sides_[s].resolved = Bitmap(sides_[s].index.size());
            sides_[s].selected = Bitmap(sides_[s].index.size());
        }
        int max_pending = 0;
        for (int s = 0; s < side_count_; ++s) max_pending = std::max(max_pending, initialise(s, progress));
        std::uint64_t new_before = 1;
        for (int n = 0;; ++n) {
            if (n > Codec::kMaxDistance) throw DistanceOverflow("distance above " + std::to_string(Codec::kMaxDistance));
            std::uint64_t new_now = 0;
            for (int s = 0; s < side_count_; ++s) new_now += (n % 2 == 0) ? loss_level(s, n) : win_level(s, n);
            for (int s = 0; s < side_count_; ++s) propagate(s, n);
            progress("level " + std::to_string(n), std::uint64_t(n), std::uint64_t(std::max(n, max_pending)));
            if (n > max_pending && new_now == 0 && new_before == 0) {
                levels_ = n;
                break;
            }
            new_before = new_now;
        }
        // Whatever no level resolved is a draw.
        for (int s = 0; s < side_count_; ++s) {
            Side& side = sides_[s];
#pragma omp parallel for schedule(static) if (side.values.size() > 64 * kParallelWords)
            for (std::uint64_t i = 0; i < side.values.size(); ++i)
                if (!side.resolved.test(i)) side.values[i] = Codec::kDraw;
            side.resolved = Bitmap();
            side.selected = Bitmap();
        }
    }

private:
    struct Side {
        explicit Side(const MaterialSignature& sig) : index(sig) {}
        PositionIndex<V> index;
        std::vector<T> values;
        Bitmap resolved;
        Bitmap selected;
    };

    // Below this many 64-position words (4M positions) a loop runs on one
    // thread: each level of a small table is too little work to pay for
    // starting and joining threads, which on a loaded machine can cost a
    // scheduler time slice per barrier.
    static constexpr std::uint64_t kParallelWords = std::uint64_t{1} << 16;

    int other(int s) const { return side_count_ == 1 ? 0 : 1 - s; }

    static T load(const T& v) { return std::atomic_ref<const T>(v).load(std::memory_order_relaxed); }
    static void store(T& v, T x) { std::atomic_ref<T>(v).store(x, std::memory_order_relaxed); }

    // Resolves what a position's exits decide and records what they promise.
    // Returns the largest distance set (the level the loop must reach: a
    // position resolved here is propagated at the level of its value).
    int initialise(int s, const SolveProgress& progress) {
        Side& side = sides_[s];
        const std::uint64_t size = side.index.size();
        const std::uint64_t words = side.resolved.word_count();
        int max_pending = 0;
        std::atomic<bool> overflow{false};
        std::atomic<std::uint64_t> done{0};
#pragma omp parallel for schedule(dynamic, 64) reduction(max : max_pending) if (words > kParallelWords)
        for (std::uint64_t w = 0; w < words; ++w) {
            std::uint64_t resolved_bits = 0;
            const std::uint64_t end = std::min(size, (w + 1) * 64);
            for (std::uint64_t i = w * 64; i < end; ++i) {
                const Position<V> pos = side.index.unrank(i);
                MoveList moves;
                Gen::generate(pos, moves);
                int best_win = -1, worst_loss = -1, plain = 0;
                bool draw = false;
                for (const Move& m : moves) {
                    if (!m.is_capture() && !m.crowns) {
                        ++plain;
                        continue;
                    }
                    const int v = children_.value(pos.after(m));
                    if (v == kDrawValue)
                        draw = true;
                    else if (is_loss(v))
                        best_win = best_win < 0 ? v + 1 : std::min(best_win, v + 1);
                    else
                        worst_loss = std::max(worst_loss, v + 1);
                }
                if (best_win > Codec::kMaxDistance || worst_loss > Codec::kMaxDistance) overflow = true;
                T value = Codec::kUnknown;
                if (best_win >= 0)
                    value = T(best_win);
                else if (draw)
                    value = Codec::kDraw;
                else if (worst_loss >= 0)
                    value = T(worst_loss);
                else if (plain == 0)
                    value = 0;  // no move at all: lost now
                if (plain == 0) resolved_bits |= bit(int(i % 64));
                if (value != Codec::kUnknown && value != Codec::kDraw) max_pending = std::max(max_pending, int(value));
                side.values[i] = value;
            }
            side.resolved.word(w) = resolved_bits;
            const std::uint64_t d = done.fetch_add(end - w * 64) + (end - w * 64);
            if (omp_get_thread_num() == 0 && (w % 4096) == 0) progress("init", d, size);
        }
        if (overflow) throw DistanceOverflow("an exit's distance does not fit");
        return max_pending;
    }

    // Whether every plain move of `pos` (in side s) reaches a win for the
    // opponent in at most `longest` plies. Positions whose exits decide them
    // are resolved at the start, whatever their distance; a win of theirs
    // beyond `longest` must wait for its level.
    bool plain_moves_all_lose(const Position<V>& pos, int s, int longest) const {
        const Side& next = sides_[other(s)];
        MoveList moves;
        Gen::generate(pos, moves);
        for (const Move& m : moves) {
            if (m.is_capture() || m.crowns) continue;
            const std::uint64_t c = next.index.rank(normalize(pos.after(m)));
            if (!next.resolved.test(c)) return false;
            const T v = load(next.values[c]);
            if (v == Codec::kDraw || v % 2 == 0 || v > longest) return false;
        }
        return true;
    }

    // Even level n (losses at n): positions whose exits lose exactly at n
    // ("floors") and whose plain moves all reach wins are lost at n. Then
    // every loss at n (these, and those found at level n-1) is selected for
    // propagation. Returns how many are selected.
    std::uint64_t loss_level(int s, int n) {
        Side& side = sides_[s];
        const std::uint64_t size = side.index.size();
        const std::uint64_t words = side.resolved.word_count();
        std::uint64_t selected = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : selected) if (words > kParallelWords)
        for (std::uint64_t w = 0; w < words; ++w) {
            const int count = int(std::min<std::uint64_t>(64, size - w * 64));
            const std::uint64_t at_n = match_mask(&side.values[w * 64], count, T(n));
            std::uint64_t resolved = side.resolved.word(w);
            for (int j : bits_of{n > 0 ? at_n & ~resolved : 0})
                if (plain_moves_all_lose(side.index.unrank(w * 64 + j), s, n - 1)) resolved |= bit(j);
            // Only this thread writes this word now; others may read it.
            std::atomic_ref<std::uint64_t>(side.resolved.word(w)).store(resolved, std::memory_order_relaxed);
            side.selected.word(w) = at_n & resolved;
            selected += std::uint64_t(popcount(at_n & resolved));
        }
        return selected;
    }

    // Odd level n (wins at n): every position promised a win at n is
    // resolved and selected for propagation. Returns how many.
    std::uint64_t win_level(int s, int n) {
        Side& side = sides_[s];
        const std::uint64_t size = side.index.size();
        const std::uint64_t words = side.resolved.word_count();
        std::uint64_t selected = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : selected) if (words > kParallelWords)
        for (std::uint64_t w = 0; w < words; ++w) {
            const int count = int(std::min<std::uint64_t>(64, size - w * 64));
            const std::uint64_t wins = match_mask(&side.values[w * 64], count, T(n));
            side.resolved.word(w) |= wins;
            side.selected.word(w) = wins;
            selected += std::uint64_t(popcount(wins));
        }
        return selected;
    }

    // From every selected position (resolved at level n) to its predecessors.
    void propagate(int s, int n) {
        Side& side = sides_[s];
        Side& prev = sides_[other(s)];
        const int ps = other(s);
        const std::uint64_t words = side.selected.word_count();
        const bool losses = n % 2 == 0;
        std::atomic<bool> overflow{false};
#pragma omp parallel for schedule(dynamic, 16) if (words > kParallelWords)
        for (std::uint64_t w = 0; w < words; ++w) {
            for (int j : bits_of{side.selected.word(w)}) {
                const Position<V> pos = side.index.unrank(w * 64 + j);
                RetroGenerator<V>::for_each_predecessor(pos, [&](const Position<V>& before) {
                    const Position<V> normal = normalize(before);
                    const std::uint64_t q = prev.index.rank(normal);
                    if (prev.resolved.test(q)) return;
                    const T v = load(prev.values[q]);
                    if (losses) {
                        // A move into a loss at n wins at n+1 at the latest.
                        if (v != Codec::kUnknown && v != Codec::kDraw && v % 2 == 1 && v <= n + 1) return;
                        if (n + 1 > Codec::kMaxDistance) {
                            overflow = true;
                            return;
                        }
                        store(prev.values[q], T(n + 1));
                    } else {
                        // A move into a win at n: lost at n+1 if every other
                        // move loses too and no exit holds out longer.
                        if (v == Codec::kDraw || (v != Codec::kUnknown && (v % 2 == 1 || v > n + 1))) return;
                        if (!plain_moves_all_lose(normal, ps, n)) return;
                        if (n + 1 > Codec::kMaxDistance) {
                            overflow = true;
                            return;
                        }
                        store(prev.values[q], T(n + 1));
                        prev.resolved.set(q);
                    }
                });
            }
        }
        if (overflow) throw DistanceOverflow("distance above " + std::to_string(Codec::kMaxDistance));
    }

    const ChildTables<V>& children_;
    Side sides_[2];
    int side_count_;
    int levels_ = 0;
};

}  // namespace dtb
