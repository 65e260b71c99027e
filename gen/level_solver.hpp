// Retrograde solver for one level of a pair (gen/slices.hpp): the positions
// of a material signature and of its mirror (the same material with the
// other side to move) whose men have advanced the same number of rows.
// King moves stay in the level; man moves lead to the level above (already
// solved, given), captures and crownings to smaller tables (ChildTables).
//
// Memory: one symbol per position (the value, see values.hpp) and three
// bits (resolved; selected; the side to move has a capture). Unresolved
// positions carry what their exits (every move but a king move) promise:
//   odd d        a win in d plies at most (an exit wins)
//   even e       a loss in at least e plies, if every king move loses too
//   kDrawSymbol  cannot lose (an exit draws)
//   kUnknown     nothing yet
//
// Level n = 0, 1, 2, ... (of distance, not of advancement):
//   n even (losses at n): unresolved positions whose exits all lose at n
//     and whose king moves all reach wins are lost at n. Then every
//     predecessor by a king move of a loss at n that has no faster win is
//     marked "win at n+1".
//   n odd (wins at n): every position marked "win at n" is resolved. Each
//     predecessor whose king moves now all reach wins, and whose exits lose
//     no later than n+1, is lost at n+1.
// Each phase reads only what earlier phases wrote, and no two threads write
// one position (the retro walk shares out men placements, see propagate):
// the result is identical for any number of threads.
//
// Positions are handled in the other side's coordinates where that saves
// work: the predecessors of p are the positions one move of White before
// flip(p), already normalised, and those that differ by a king move differ
// only in the last part of the index (PositionIndex::KingFrame).
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>

#include "gen/bitmap.hpp"
#include "gen/child_tables.hpp"
#include "gen/parallel_errors.hpp"
#include "gen/slices.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/values.hpp"

namespace dtb {

struct SolveProgress {
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)> report;
    void operator()(const std::string& stage, std::uint64_t done, std::uint64_t total) const {
        if (report) report(stage, done, total);
    }
};

// The positions of one side of a pair in one level, and their values.
// Local index l: the l / king_ways-th men placement of the level (in men
// rank order), and the kings' part l % king_ways.
template <class V, class T>
struct LevelSide {
    const PositionIndex<V>* index = nullptr;
    const RankedBitmap* members = nullptr;  // the level's men ranks
    std::vector<std::uint64_t> ranks;       // local placement -> men rank
    std::uint64_t king_ways = 1;
    std::vector<T> values;
    Bitmap resolved, selected, captures;
    // King moves not yet known to reach a win for the opponent: a position
    // whose count is 0 has nothing better than its exits.
    std::vector<std::uint8_t> king_moves_left;
    std::uint64_t illegal_slots = 0;

    LevelSide(const PositionIndex<V>& i, const RankedBitmap& m) : index(&i), members(&m), king_ways(i.king_ways()) {
        ranks.reserve(m.count());
        m.for_each([&](std::uint64_t r) { ranks.push_back(r); });
    }
    std::uint64_t size() const { return ranks.size() * king_ways; }

    // An index slot that decodes to no legal placement (two pieces on a
    // square, a man on its crowning row, other material): the index's
    // waste, measured rather than assumed.
    static bool is_illegal(const Position<V>& pos, const MaterialSignature& sig) {
        using Board = typename V::Board;
        return (pos.pieces[White] & pos.pieces[Black]) || (pos.men(White) & Board::promotion_row(White)) ||
               (pos.men(Black) & Board::promotion_row(Black)) || signature_of(pos) != sig;
    }

    // The illegal slots of this side in the level (for a level solved in
    // an earlier run, whose count the solver did not make this time).
    std::uint64_t count_illegal() const {
        std::uint64_t n = 0;
#pragma omp parallel reduction(+ : n)
        {
            typename PositionIndex<V>::Cursor cursor(*index);
#pragma omp for schedule(static)
            for (std::uint64_t l = 0; l < size(); ++l) n += is_illegal(cursor.at(global(l)), index->signature());
        }
        return n;
    }
    std::uint64_t global(std::uint64_t l) const { return ranks[l / king_ways] * king_ways + l % king_ways; }
    // Subtracted from a global index whose men rank is `men_rank` (a member)
    // to give its local index.
    std::uint64_t offset(std::uint64_t men_rank) const { return (men_rank - members->rank(men_rank)) * king_ways; }
    // The value of a position of this side's material (White to move).
    int value_of(const Position<V>& normal) const {
        const std::uint64_t g = index->rank(normal);
        const std::uint64_t r = g / king_ways;
        return decode_value(values[g - (r - members->rank(r)) * king_ways]);
    }
};

template <class V, class T>
class LevelSolver {
public:
    using Codec = ValueCodec<T>;
    using Gen = MoveGenerator<V>;
    using Board = typename V::Board;
    using Side = LevelSide<V, T>;

    // Below `parallel_positions` positions a loop runs on one thread: each
    // distance level of a small slice is too little work to pay for
    // starting and joining threads. Tests set it to 0 to run every loop in
    // parallel.
    static constexpr std::uint64_t kDefaultParallelPositions = std::uint64_t{1} << 17;

    using Readers = std::vector<typename ChildTables<V>::Reader>;

    // `sides` (one for a symmetric signature, else the signature and its
    // mirror) are this level's; `above` the level above, solved (null at
    // the top). `readers`: one per OpenMP thread, kept from level to level
    // so that their windows stay warm.
    LevelSolver(std::vector<Side>& sides, const std::vector<Side>* above, Readers& readers,
                std::uint64_t parallel_positions = kDefaultParallelPositions)
        : sides_(sides), above_(above), readers_(readers), parallel_words_(parallel_positions / 64) {}

    void solve(const SolveProgress& progress = {}) {
        int max_pending = 0;
        for (std::size_t s = 0; s < sides_.size(); ++s) {
            Side& side = sides_[s];
            side.values.assign(side.size(), Codec::kUnknown);
            side.resolved = Bitmap(side.size());
            side.captures = Bitmap(side.size());
            side.selected = Bitmap(side.size());
            side.king_moves_left.assign(side.size(), 0);
            max_pending = std::max(max_pending, initialise(int(s), progress));
        }
        std::uint64_t new_before = 1;
        for (int n = 0;; ++n) {
            if (n > Codec::kMaxDistance)
                throw DistanceOverflow("distance above " + std::to_string(Codec::kMaxDistance));
            std::uint64_t new_now = 0;
            for (int s = 0; s < side_count(); ++s) new_now += (n % 2 == 0) ? loss_level(s, n) : win_level(s, n);
            for (int s = 0; s < side_count(); ++s) propagate(s, n);
            progress("distance " + std::to_string(n), std::uint64_t(n), std::uint64_t(std::max(n, max_pending)));
            if (n > max_pending && new_now == 0 && new_before == 0) break;
            new_before = new_now;
        }
        // Whatever no level resolved is a draw.
        for (Side& side : sides_) {
#pragma omp parallel for schedule(static) if (side.values.size() > 64 * parallel_words_)
            for (std::uint64_t i = 0; i < side.values.size(); ++i)
                if (!side.resolved.test(i)) side.values[i] = Codec::kDrawSymbol;
            side.resolved = Bitmap();
            side.selected = Bitmap();
            side.king_moves_left = {};
        }
    }

private:
    int side_count() const { return int(sides_.size()); }
    int other(int s) const { return side_count() == 1 ? 0 : 1 - s; }

    // The value of a move's result: a man move that does not crown stays in
    // the pair, one level up; everything else is in a child table.
    int exit_value(const Position<V>& pos, int s, const Move& m, bool capture,
                   typename ChildTables<V>::Reader& reader) const {
        const Position<V> child = pos.after(m);
        if (capture || m.crowns) return reader.value(child);
        return (*above_)[std::size_t(other(s))].value_of(flip(child));
    }

    // Resolves what a position's exits decide and records what they promise.
    // Returns the largest distance set (the level the loop must reach: a
    // position resolved here is propagated at the level of its value).
    int initialise(int s, const SolveProgress& progress) {
        Side& side = sides_[std::size_t(s)];
        const std::uint64_t size = side.size();
        const std::uint64_t words = side.resolved.word_count();
        int max_pending = 0;
        std::uint64_t illegal = 0;
        std::atomic<bool> overflow{false};
        std::atomic<std::uint64_t> done{0};
        const MaterialSignature sig = side.index->signature();
        const int threads = words > parallel_words_ ? omp_get_max_threads() : 1;
        ParallelErrors errors;  // a damaged smaller table
        // Large contiguous chunks: neighbouring positions lead to the same
        // blocks of the smaller tables, and each thread's window and memo
        // then serve its own run (small interleaved chunks made both
        // threads decompress the same blocks: 1.43x on two threads, against
        // 1.83x with a run each). Eight chunks a thread keep the load even.
        const std::uint64_t chunk = std::max<std::uint64_t>(64, words / (std::uint64_t(threads) * 8));
#pragma omp parallel reduction(max : max_pending) reduction(+ : illegal) num_threads(threads)
        {
            typename PositionIndex<V>::Cursor cursor(*side.index);
            typename ChildTables<V>::Reader& reader = readers_[std::size_t(omp_get_thread_num())];
            MoveList exits;
#pragma omp for schedule(dynamic, chunk)
            for (std::uint64_t w = 0; w < words; ++w)
                errors.run([&] {
                    std::uint64_t resolved_bits = 0, capture_bits = 0;
                    const std::uint64_t end = std::min(size, (w + 1) * 64);
                    for (std::uint64_t i = w * 64; i < end; ++i) {
                        const Position<V> pos = cursor.at(side.global(i));
                        illegal += (pos.pieces[White] & pos.pieces[Black]) ||
                                   (pos.men(White) & Board::promotion_row(White)) ||
                                   (pos.men(Black) & Board::promotion_row(Black)) || signature_of(pos) != sig;
                        // Exits: every capture, or every man move. King moves
                        // stay in the level and are only counted.
                        int king_moves = 0;
                        const bool capture = Gen::has_capture(pos);
                        if (capture) {
                            Gen::generate_captures(pos, exits);
                            capture_bits |= bit(int(i % 64));
                        } else {
                            Gen::generate_man_moves(pos, exits);
                            king_moves = Gen::count_king_moves(pos);
                        }
                        ChildValues exit_values;
                        for (const Move& m : exits) exit_values.add(exit_value(pos, s, m, capture, reader));
                        if (exit_values.fastest_win > Codec::kMaxDistance ||
                            exit_values.longest_loss > Codec::kMaxDistance)
                            overflow = true;
                        // With no king move the exits are every move: the value
                        // rule decides now (no move at all: lost now). Otherwise
                        // what the exits offer is a promise the levels weigh
                        // against the king moves; no exit promises nothing.
                        T value = Codec::kUnknown;
                        if (king_moves == 0 || !exit_values.empty()) value = encode_value<T>(exit_values.value());
                        if (king_moves == 0) resolved_bits |= bit(int(i % 64));
                        side.king_moves_left[i] = std::uint8_t(king_moves);  // at most 4 kings x 17 squares
                        if (value != Codec::kUnknown && value != Codec::kDrawSymbol)
                            max_pending = std::max(max_pending, int(value));
                        side.values[i] = value;
                    }
                    side.resolved.word(w) = resolved_bits;
                    side.captures.word(w) = capture_bits;
                    const std::uint64_t d = done.fetch_add(end - w * 64) + (end - w * 64);
                    if (omp_get_thread_num() == 0 && (w % 4096) == 0) progress("init", d, size);
                });
        }
        errors.rethrow();
        if (overflow) throw DistanceOverflow("an exit's distance does not fit");
        side.illegal_slots = illegal;
        return max_pending;
    }

    // Even level n (losses at n): positions whose exits lose exactly at n
    // ("floors") and whose king moves all reach wins are lost at n. Then
    // every loss at n (these, and those found at level n-1) is selected for
    // propagation. Returns how many are selected.
    std::uint64_t loss_level(int s, int n) {
        Side& side = sides_[std::size_t(s)];
        const std::uint64_t size = side.size();
        const std::uint64_t words = side.resolved.word_count();
        std::uint64_t selected = 0;
#pragma omp parallel reduction(+ : selected) if (words > parallel_words_)
        {
#pragma omp for schedule(dynamic, 64)
            for (std::uint64_t w = 0; w < words; ++w) {
                const int count = int(std::min<std::uint64_t>(64, size - w * 64));
                const std::uint64_t at_n = match_mask(&side.values[w * 64], count, T(n));
                std::uint64_t resolved = side.resolved.word(w);
                for (int j : bits_of{n > 0 ? at_n & ~resolved : 0})
                    if (side.king_moves_left[w * 64 + std::uint64_t(j)] == 0) resolved |= bit(j);
                // Only this thread writes this word now; others may read it.
                std::atomic_ref<std::uint64_t>(side.resolved.word(w)).store(resolved, std::memory_order_relaxed);
                side.selected.word(w) = at_n & resolved;
                selected += std::uint64_t(popcount(at_n & resolved));
            }
        }
        return selected;
    }

    // Odd level n (wins at n): every position promised a win at n is
    // resolved and selected for propagation. Returns how many.
    std::uint64_t win_level(int s, int n) {
        Side& side = sides_[std::size_t(s)];
        const std::uint64_t size = side.size();
        const std::uint64_t words = side.resolved.word_count();
        std::uint64_t selected = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : selected) if (words > parallel_words_)
        for (std::uint64_t w = 0; w < words; ++w) {
            const int count = int(std::min<std::uint64_t>(64, size - w * 64));
            const std::uint64_t wins = match_mask(&side.values[w * 64], count, T(n));
            side.resolved.word(w) |= wins;
            side.selected.word(w) = wins;
            selected += std::uint64_t(popcount(wins));
        }
        return selected;
    }

    // Calls f(local index) for each position of `table`
    // (White to move) from which one king move of White leads to `after`
    // (Black to move, in `table`'s coordinates). Whether that move was legal
    // (White had no capture) is left to the caller: positions with a
    // capture are resolved from the start, so the solver skips them anyway.
    //
    // `men` and `offset` are `table`'s men frame of `after` and the offset
    // of its men rank: the same for every position of a men
    // placement, so the caller finds them once a placement.
    template <class F>
    static void for_each_predecessor(const Position<V>& after, const Side& table,
                                     const typename PositionIndex<V>::MenFrame& men, std::uint64_t offset, F&& f) {
        const Bitboard empty = after.empty();
        const Bitboard kings = after.kings_of(White);
        if (!kings) return;
        const auto frame = table.index->king_frame(men, after.kings_of(Black));
        for (int k : bits_of{kings}) {
            const ColexWithOne others(kings ^ bit(k), frame.squares);
            for (Direction d : kAllDirections)
                for (Bitboard from = Board::shift(bit(k), d); from & empty; from = Board::shift(from, d))
                    f(frame.base + others.rank(from) - offset);
        }
    }

    // From every selected position (resolved at level n) to its predecessors.
    //
    // The work is shared out by men placements: the predecessors of a
    // placement's positions all lie in one placement of `prev` (its men
    // seen from the other side), a different one for each placement here.
    // So no two threads update the same position, and the king-move counts
    // are decremented without a locked instruction (a lock-prefixed
    // decrement was a sixth of this loop's time). Only the resolved bits
    // are shared: a word of them may span two placements.
    void propagate(int s, int n) {
        Side& side = sides_[std::size_t(s)];
        const int ps = other(s);
        Side& prev = sides_[std::size_t(ps)];
        const std::uint64_t words = side.selected.word_count();
        const bool losses = n % 2 == 0;
        if (n + 1 > Codec::kMaxDistance) {
            for (std::uint64_t w = 0; w < words; ++w)
                if (side.selected.word(w))
                    throw DistanceOverflow("distance above " + std::to_string(Codec::kMaxDistance));
            return;
        }
        // No king of the other side, no king move into these positions.
        if (side.index->signature().kings[1] == 0) return;
        const std::uint64_t king_ways = side.king_ways;
        const std::uint64_t placements = side.ranks.size();
        const std::uint64_t chunk = std::max<std::uint64_t>(1, 1024 / king_ways);
#pragma omp parallel if (words > parallel_words_)
        {
            typename PositionIndex<V>::Cursor cursor(*side.index);
#pragma omp for schedule(dynamic, chunk)
            for (std::uint64_t p = 0; p < placements; ++p) {
                // The men of this placement, as `prev` ranks them after the
                // move: found at its first selected position.
                bool men_known = false;
                typename PositionIndex<V>::MenFrame men{};
                std::uint64_t offset = 0;
                const std::uint64_t first = p * king_ways, end = first + king_ways;
                for (std::uint64_t w = first / 64; w * 64 < end; ++w) {
                    std::uint64_t bits = side.selected.word(w);
                    if (w * 64 < first) bits &= ~std::uint64_t{0} << (first - w * 64);
                    if (end - w * 64 < 64) bits &= (std::uint64_t{1} << (end - w * 64)) - 1;
                    for (int j : bits_of{bits}) {
                        const std::uint64_t l = w * 64 + std::uint64_t(j);
                        const Position<V> after = flip(cursor.at(side.ranks[p] * king_ways + (l - first)));
                        if (!men_known) {
                            men_known = true;
                            men = prev.index->men_frame(after);
                            offset = prev.offset(prev.index->men_rank(men));
                        }
                        for_each_predecessor(after, prev, men, offset, [&](std::uint64_t q) {
                            if (prev.resolved.test(q)) return;
                            const T v = prev.values[q];
                            // What the position holds so far (kUnknown: nothing)
                            // against what this move offers, by the value rule.
                            if (losses) {
                                // A move into a loss at n wins at n+1 at the latest.
                                if (v != Codec::kUnknown && !better(n + 1, decode_value(v))) return;
                                prev.values[q] = T(n + 1);
                            } else {
                                // A move into a win at n: lost at n+1 if it was
                                // the last king move not known to lose and no
                                // exit holds out longer (wins come level by
                                // level, so the others reach wins at n or sooner).
                                if (--prev.king_moves_left[q] != 0) return;
                                if (v != Codec::kUnknown && better(decode_value(v), n + 1)) return;
                                prev.values[q] = T(n + 1);
                                prev.resolved.set(q);
                            }
                        });
                    }
                }
            }
        }
    }

    std::vector<Side>& sides_;
    const std::vector<Side>* above_;
    Readers& readers_;
    std::uint64_t parallel_words_;
};

}  // namespace dtb
