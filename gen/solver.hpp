// Retrograde solver for one material signature and its mirror (the same
// material with the other side to move), which play into each other.
//
// Memory: one symbol per position (the value, see values.hpp) and three
// bits (resolved; selected; the side to move has a capture). Unresolved
// positions carry what their exits (captures and crownings, into smaller or
// already solved tables) promise:
//   odd d        a win in d plies at most (an exit wins)
//   even e       a loss in at least e plies, if every plain move loses too
//   kDrawSymbol  cannot lose (an exit draws)
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
//
// Positions are handled in the other table's coordinates where that saves
// work: the predecessors of p are the positions one move of White before
// flip(p), already normalised, and those that differ by a king move differ
// only in the last part of the index (PositionIndex::KingFrame).
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "gen/bitmap.hpp"
#include "gen/child_tables.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/signatures.hpp"
#include "tables/values.hpp"

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
    using Board = typename V::Board;

    // Below `parallel_positions` positions a loop runs on one thread: each
    // level of a small table is too little work to pay for starting and
    // joining threads, which on a loaded machine can cost a scheduler time
    // slice per barrier. Tests set it to 0 to run every loop in parallel.
    static constexpr std::uint64_t kDefaultParallelPositions = std::uint64_t{1} << 22;

    // Loads the tables that the captures and crownings of one side lead
    // into. They are needed only while that side is initialised, so each
    // side's are loaded then and freed after: the pair never holds both.
    using ChildLoader = std::function<std::unique_ptr<ChildTables<V>>(const MaterialSignature& side)>;

    PairSolver(const MaterialSignature& sig, ChildLoader load_children,
               std::uint64_t parallel_positions = kDefaultParallelPositions)
        : load_children_(std::move(load_children)),
          sides_{Side(sig), Side(sig.mirror())},
          side_count_(sig.is_symmetric() ? 1 : 2),
          parallel_words_(parallel_positions / 64) {}

    int side_count() const { return side_count_; }
    const PositionIndex<V>& index(int side) const { return sides_[side].index; }
    const std::vector<T>& values(int side) const { return sides_[side].values; }
    // Positions whose side to move has a capture (don't-care in the
    // compressed files: the probe searches their captures).
    const Bitmap& captures(int side) const { return sides_[side].captures; }
    std::uint64_t positions() const {
        return side_count_ == 1 ? sides_[0].index.size() : sides_[0].index.size() + sides_[1].index.size();
    }
    // Index slots of a side that decode to no legal placement (a man on its
    // crowning row, two pieces on a square, wrong material), counted while
    // initialising: the index's waste, measured rather than assumed.
    std::uint64_t illegal_slots(int side) const { return sides_[side].illegal_slots; }

    void solve(const SolveProgress& progress = {}) {
        // Memory peaks while a side is initialised, with its smaller tables
        // loaded. So each side's arrays are made only when it is
        // initialised, and the side whose captures and crownings lead into
        // the larger tables goes first, while the other side holds nothing:
        // a crowning can lead into a table as large as the pair itself.
        int order[2] = {0, 1};
        if (side_count_ == 2 && successor_positions(1) > successor_positions(0)) std::swap(order[0], order[1]);
        int max_pending = 0;
        for (int k = 0; k < side_count_; ++k) {
            Side& side = sides_[order[k]];
            const auto children = load_children_(side.index.signature());
            side.values.assign(side.index.size(), Codec::kUnknown);
            side.resolved = Bitmap(side.index.size());
            side.captures = Bitmap(side.index.size());
            max_pending = std::max(max_pending, initialise(order[k], *children, progress));
        }
        for (int s = 0; s < side_count_; ++s) sides_[s].selected = Bitmap(sides_[s].index.size());
        std::uint64_t new_before = 1;
        for (int n = 0;; ++n) {
            if (n > Codec::kMaxDistance)
                throw DistanceOverflow("distance above " + std::to_string(Codec::kMaxDistance));
            std::uint64_t new_now = 0;
            for (int s = 0; s < side_count_; ++s) new_now += (n % 2 == 0) ? loss_level(s, n) : win_level(s, n);
            for (int s = 0; s < side_count_; ++s) propagate(s, n);
            progress("level " + std::to_string(n), std::uint64_t(n), std::uint64_t(std::max(n, max_pending)));
            if (n > max_pending && new_now == 0 && new_before == 0) break;
            new_before = new_now;
        }
        // Whatever no level resolved is a draw.
        for (int s = 0; s < side_count_; ++s) {
            Side& side = sides_[s];
#pragma omp parallel for schedule(static) if (side.values.size() > 64 * parallel_words_)
            for (std::uint64_t i = 0; i < side.values.size(); ++i)
                if (!side.resolved.test(i)) side.values[i] = Codec::kDrawSymbol;
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
        Bitmap captures;
        std::uint64_t illegal_slots = 0;
    };

    int other(int s) const { return side_count_ == 1 ? 0 : 1 - s; }

    // The positions of the tables that side s's captures and crownings lead
    // into: what loading its children costs.
    std::uint64_t successor_positions(int s) const {
        std::uint64_t n = 0;
        for (const MaterialSignature& child : successor_signatures(sides_[s].index.signature()))
            n += PositionIndex<V>(child).size();
        return n;
    }

    static T load(const T& v) { return std::atomic_ref<const T>(v).load(std::memory_order_relaxed); }
    static void store(T& v, T x) { std::atomic_ref<T>(v).store(x, std::memory_order_relaxed); }

    // Resolves what a position's exits decide and records what they promise.
    // Returns the largest distance set (the level the loop must reach: a
    // position resolved here is propagated at the level of its value).
    int initialise(int s, const ChildTables<V>& children, const SolveProgress& progress) {
        Side& side = sides_[s];
        const std::uint64_t size = side.index.size();
        const std::uint64_t words = side.resolved.word_count();
        int max_pending = 0;
        std::uint64_t illegal = 0;
        std::atomic<bool> overflow{false};
        std::atomic<std::uint64_t> done{0};
        const MaterialSignature sig = side.index.signature();
#pragma omp parallel reduction(max : max_pending) reduction(+ : illegal) if (words > parallel_words_)
        {
            typename PositionIndex<V>::Cursor cursor(side.index);
            MoveList exits;
#pragma omp for schedule(dynamic, 64)
            for (std::uint64_t w = 0; w < words; ++w) {
                std::uint64_t resolved_bits = 0, capture_bits = 0;
                const std::uint64_t end = std::min(size, (w + 1) * 64);
                for (std::uint64_t i = w * 64; i < end; ++i) {
                    const Position<V> pos = cursor.at(i);
                    illegal += (pos.pieces[White] & pos.pieces[Black]) ||
                               (pos.men(White) & Board::promotion_row(White)) ||
                               (pos.men(Black) & Board::promotion_row(Black)) || signature_of(pos) != sig;
                    // Exits: every capture, or the plain moves that crown.
                    // Other plain moves stay in the pair and are only counted.
                    int plain = 0;
                    if (Gen::has_capture(pos)) {
                        Gen::generate(pos, exits);
                        capture_bits |= bit(int(i % 64));
                    } else {
                        Gen::generate_crownings(pos, exits);
                        plain = Gen::count(pos) - int(exits.size());
                    }
                    ChildValues exit_values;
                    for (const Move& m : exits) exit_values.add(children.value(pos.after(m)));
                    if (exit_values.fastest_win > Codec::kMaxDistance || exit_values.longest_loss > Codec::kMaxDistance)
                        overflow = true;
                    // With no plain move the exits are every move: the value
                    // rule decides now (no move at all: lost now). Otherwise
                    // what the exits offer is a promise the levels weigh
                    // against the plain moves; no exit promises nothing.
                    T value = Codec::kUnknown;
                    if (plain == 0 || !exit_values.empty()) value = encode_value<T>(exit_values.value());
                    if (plain == 0) resolved_bits |= bit(int(i % 64));
                    if (value != Codec::kUnknown && value != Codec::kDrawSymbol)
                        max_pending = std::max(max_pending, int(value));
                    side.values[i] = value;
                }
                side.resolved.word(w) = resolved_bits;
                side.captures.word(w) = capture_bits;
                const std::uint64_t d = done.fetch_add(end - w * 64) + (end - w * 64);
                if (omp_get_thread_num() == 0 && (w % 4096) == 0) progress("init", d, size);
            }
        }
        if (overflow) throw DistanceOverflow("an exit's distance does not fit");
        side.illegal_slots = illegal;
        return max_pending;
    }

    // Whether every plain move of `pos` (White to move, side s, no capture)
    // reaches a win for the opponent in at most `longest` plies. Positions
    // whose exits decide them are resolved at the start, whatever their
    // distance; a win of theirs beyond `longest` must wait for its level.
    bool plain_moves_all_lose(const Position<V>& pos, int s, int longest) const {
        const Side& next = sides_[other(s)];
        // Black's moves in the flipped position are White's moves in `pos`,
        // and lead to positions already normalised for the other side. Most
        // checks fail after a move or two, so moves are made one at a time.
        const Position<V> flipped = flip(pos);
        // A king move keeps the men, and with them most of the index.
        const auto men = next.index.men_frame(flipped);
        return Gen::all_plain_moves(flipped, [&](const Move& m) {
            if (m.crowns) return true;  // an exit: its value is in the promise
            const Position<V> child = flipped.after(m);
            const std::uint64_t c = (flipped.kings & bit(m.from))
                                        ? next.index.rank(men, child.kings_of(White), child.kings_of(Black))
                                        : next.index.rank(child);
            if (!next.resolved.test(c)) return false;
            const T v = load(next.values[c]);
            return is_win(decode_value(v)) && v <= longest;
        });
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
#pragma omp parallel reduction(+ : selected) if (words > parallel_words_)
        {
            typename PositionIndex<V>::Cursor cursor(side.index);
#pragma omp for schedule(dynamic, 64)
            for (std::uint64_t w = 0; w < words; ++w) {
                const int count = int(std::min<std::uint64_t>(64, size - w * 64));
                const std::uint64_t at_n = match_mask(&side.values[w * 64], count, T(n));
                std::uint64_t resolved = side.resolved.word(w);
                for (int j : bits_of{n > 0 ? at_n & ~resolved : 0})
                    if (plain_moves_all_lose(cursor.at(w * 64 + j), s, n - 1)) resolved |= bit(j);
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
        Side& side = sides_[s];
        const std::uint64_t size = side.index.size();
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

    // Calls f(index, make_position) for each position of `table` (White to
    // move) from which one plain move of White leads to `after` (Black to
    // move, in `table`'s coordinates). Whether that move was legal (White
    // had no capture) is left to the caller: positions with a capture are
    // resolved from the start, so the solver skips them anyway.
    template <class F>
    static void for_each_predecessor(const Position<V>& after, const PositionIndex<V>& table, F&& f) {
        const Bitboard empty = after.empty();
        const Bitboard kings = after.kings_of(White);
        if (kings) {
            const auto frame = table.king_frame(after);
            const Bitboard placed = extract_bits(kings, frame.squares);
            for (int k : bits_of{kings}) {
                const Bitboard without = placed ^ extract_bits(bit(k), frame.squares);
                for (Direction d : kAllDirections) {
                    for (Bitboard from = Board::shift(bit(k), d); from & empty; from = Board::shift(from, d)) {
                        const std::uint64_t q = frame.base + colex_rank(without | extract_bits(from, frame.squares));
                        f(q, [&] {
                            Position<V> before = after;
                            before.pieces[White] ^= bit(k) | from;
                            before.kings ^= bit(k) | from;
                            before.side_to_move = White;
                            return before;
                        });
                    }
                }
            }
        }
        // A white man came one step north, so it stood one step south.
        retract_men<SouthWest>(after, table, empty, f);
        retract_men<SouthEast>(after, table, empty, f);
    }

    template <Direction Back, class F>
    static void retract_men(const Position<V>& after, const PositionIndex<V>& table, Bitboard empty, F& f) {
        for (int from : bits_of{Board::template shift<Back>(after.men(White)) & empty}) {
            Position<V> before = after;
            before.pieces[White] ^= bit(from) | bit(from - Board::step[Back]);
            before.side_to_move = White;
            f(table.rank(before), [&] { return before; });
        }
    }

    // From every selected position (resolved at level n) to its predecessors.
    void propagate(int s, int n) {
        Side& side = sides_[s];
        const int ps = other(s);
        Side& prev = sides_[ps];
        const std::uint64_t words = side.selected.word_count();
        const bool losses = n % 2 == 0;
        if (n + 1 > Codec::kMaxDistance) {
            for (std::uint64_t w = 0; w < words; ++w)
                if (side.selected.word(w))
                    throw DistanceOverflow("distance above " + std::to_string(Codec::kMaxDistance));
            return;
        }
#pragma omp parallel if (words > parallel_words_)
        {
            typename PositionIndex<V>::Cursor cursor(side.index);
#pragma omp for schedule(dynamic, 16)
            for (std::uint64_t w = 0; w < words; ++w) {
                for (int j : bits_of{side.selected.word(w)}) {
                    const Position<V> after = flip(cursor.at(w * 64 + j));
                    for_each_predecessor(after, prev.index, [&](std::uint64_t q, auto&& make_position) {
                        if (prev.resolved.test(q)) return;
                        const T v = load(prev.values[q]);
                        // What the position holds so far (kUnknown: nothing)
                        // against what this move offers, by the value rule.
                        if (losses) {
                            // A move into a loss at n wins at n+1 at the latest.
                            if (v != Codec::kUnknown && !better(n + 1, decode_value(v))) return;
                            store(prev.values[q], T(n + 1));
                        } else {
                            // A move into a win at n: lost at n+1 if every other
                            // move loses too and no exit holds out longer.
                            if (v != Codec::kUnknown && better(decode_value(v), n + 1)) return;
                            if (!plain_moves_all_lose(make_position(), ps, n)) return;
                            store(prev.values[q], T(n + 1));
                            prev.resolved.set(q);
                        }
                    });
                }
            }
        }
    }

    ChildLoader load_children_;
    Side sides_[2];
    int side_count_;
    std::uint64_t parallel_words_;
};

}  // namespace dtb
