#include "gen/verify.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <ranges>
#include <set>

#include "gen/child_tables.hpp"
#include "gen/level_solver.hpp"
#include "gen/parallel_errors.hpp"
#include "rules/notation.hpp"
#include "tables/signatures.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {

namespace {

std::string value_text(int v) {
    if (v == kDraw) return "draw";
    return std::string(is_win(v) ? "win in " : "loss in ") + std::to_string(v);
}

// The values of the positions one king move away from one placement of the
// men. A king move keeps the men, so they all lie in one run of the other
// side's index (one men rank, king_ways() positions), kept here as an array
// that is filled as it is read. Each position is a king move away from
// dozens; the reader would find its value again for each of them, through
// the block window, or by searching its captures again when its memo has
// lost it (the memo's misses were a fifth of verify's time).
//
// A small run is one thread's own, placed again whenever the men change. A
// large one (many kings, few men or none) is shared by every thread: the
// positions of one placement are shared out among the threads, and the run
// is placed between placements. Two threads may find the same value at
// once; they store the same number.
template <class V>
class KingMoveRun {
public:
    // `positions`: the other side's king_ways(), or 0 for no run (every
    // value through the reader).
    KingMoveRun(const PositionIndex<V>& other_side, std::uint64_t positions) : index_(other_side), values_(positions) {}

    static std::uint64_t bytes(std::uint64_t positions) { return positions * sizeof(std::int16_t); }

    // Makes the run that of the king moves of `pos` (White to move).
    void place(const Position<V>& pos) {
        white_men_ = pos.men(White);
        black_men_ = pos.men(Black);
        placed_ = true;
        men_ = index_.men_frame(flip(pos));
        first_ = index_.men_rank(men_) * index_.king_ways();
        std::fill(values_.begin(), values_.end(), kUnset);
    }

    // The value of `pos.after(m)`, for a king move m of `pos` (White to move).
    int value(const Position<V>& pos, const Move& m, typename ChildTables<V>::Reader& reader) {
        const Position<V> normal = flip(pos.after(m));
        if (values_.empty()) return reader.value(normal);
        if (!placed_ || pos.men(White) != white_men_ || pos.men(Black) != black_men_) place(pos);
        std::atomic_ref<std::int16_t> v(
            values_[index_.rank(men_, normal.kings_of(White), normal.kings_of(Black)) - first_]);
        std::int16_t x = v.load(std::memory_order_relaxed);
        if (x == kUnset) {
            x = std::int16_t(reader.value(normal));
            v.store(x, std::memory_order_relaxed);
        }
        return x;
    }

private:
    static constexpr std::int16_t kUnset = std::numeric_limits<std::int16_t>::min();
    const PositionIndex<V>& index_;
    std::vector<std::int16_t> values_;
    bool placed_ = false;
    Bitboard white_men_ = 0, black_men_ = 0;
    typename PositionIndex<V>::MenFrame men_{};
    std::uint64_t first_ = 0;
};

// The value a position with no capture must have, given the values of where
// its moves lead.
template <class V>
int value_from_successors(const Position<V>& pos, typename ChildTables<V>::Reader& tables, KingMoveRun<V>& run) {
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    ChildValues values;
    for (const Move& m : moves)
        values.add(pos.kings & bit(m.from) ? run.value(pos, m, tables) : tables.value(pos.after(m)));
    return values.value();
}

// The tables the check of `sig` reads: the pair, and every table its
// captures and crownings lead into.
std::vector<MaterialSignature> tables_read(const MaterialSignature& sig) {
    std::vector<MaterialSignature> needed{sig};
    if (!sig.is_symmetric()) needed.push_back(sig.mirror());
    for (const MaterialSignature& child : reachable_signatures(sig)) needed.push_back(child);
    return needed;
}

// Whether the table's own files open: a missing one, or one whose header or
// block index is damaged, makes the table damaged (said in `report`). Any
// other file the check needs failing to open throws later (verify_tables:
// not checked).
template <class V>
bool own_files_open(VariantId variant, const std::filesystem::path& dir, const MaterialSignature& sig,
                    VerifyReport& report) {
    report.signature = sig;
    report.positions = PositionIndex<V>(sig).size();
    try {
        const ChildTables<V> own(dir, variant, {sig});
    } catch (const std::runtime_error& e) {
        report.damaged.push_back(e.what());
        return false;
    }
    return true;
}

// Checks every checksum of the table's two files and records the files its
// check reads (`tables` holds them open); then whether the journal vouches
// for its values. Returns whether the values are still to be recomputed.
template <class V>
bool values_to_check(const ChildTables<V>& tables, const MaterialSignature& sig, const VerifyJournal* journal,
                     VerifyReport& report) {
    for (const compress::TableFile* file : {&tables.wdl_file(sig), &tables.dtw_file(sig)})
        if (const auto error = file->verify()) report.damaged.push_back(error->message);
    if (!report.damaged.empty()) return false;
    for (const MaterialSignature& s : tables_read(sig))
        for (const compress::TableFile* file : {&tables.wdl_file(s), &tables.dtw_file(s)})
            report.files.push_back({file->path().filename().string(), header_fingerprint(file->header())});
    if (journal)
        if (auto when = journal->vouches_for(sig, report.files)) {
            report.journal_verified_at = std::move(*when);
            return false;
        }
    return true;
}

// One position found wrong: counted, and among the first few named.
class Mismatches {
public:
    template <class V>
    void add(const Position<V>& pos, int stored, int expected) {
        std::lock_guard lock(mutex_);
        ++count_;
        if (examples_.size() < 10)
            examples_.push_back(to_fen(pos) + ": stored " + value_text(stored) + ", from successors " +
                                value_text(expected));
    }
    void report(VerifyReport& r) {
        r.mismatches = count_;
        r.examples = std::move(examples_);
        std::sort(r.examples.begin(), r.examples.end());
    }

private:
    std::mutex mutex_;
    std::uint64_t count_ = 0;
    std::vector<std::string> examples_;
};

// Checks the table's two files, then every position whose side to move has
// no capture (the others are don't-care in the files) against its
// successors, read from the files of the pair and of the smaller tables
// (the by-table method: verify_pair reads the pair's own files once instead).
template <class V>
VerifyReport verify_one(VariantId variant, const std::filesystem::path& dir, const MaterialSignature& sig,
                        std::uint64_t window_bytes, const VerifyJournal* journal, std::uint64_t own_runs_up_to) {
    const auto start = std::chrono::steady_clock::now();
    VerifyReport report;
    if (!own_files_open<V>(variant, dir, sig, report)) return report;
    const ChildTables<V> tables(dir, variant, tables_read(sig));
    const PositionIndex<V> index(sig), other_side(sig.mirror());
    if (!values_to_check(tables, sig, journal, report)) {
        report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return report;
    }
    Mismatches wrong;
    ParallelErrors errors;  // a damaged block of the table or of a smaller one
    const auto check = [&](std::uint64_t i, typename PositionIndex<V>::Cursor& cursor,
                           typename ChildTables<V>::Reader& reader, KingMoveRun<V>& run) {
        errors.run([&] {
            const Position<V> pos = cursor.at(i);
            if (MoveGenerator<V>::has_capture(pos) || reader.left_out(pos)) return;
            const int stored = reader.stored_value(pos);
            const int expected = value_from_successors(pos, reader, run);
            if (stored != expected) wrong.add(pos, stored, expected);
        });
    };
    const std::uint64_t threads = std::uint64_t(omp_get_max_threads());
    const std::uint64_t run_positions = other_side.king_ways();
    if (run_positions <= own_runs_up_to) {
        // Small runs: one a thread, the positions shared out in index order.
        const std::uint64_t run_bytes = KingMoveRun<V>::bytes(run_positions);
#pragma omp parallel
        {
            typename ChildTables<V>::Reader reader(
                tables, window_bytes / threads - std::min(window_bytes / threads / 2, run_bytes));
            typename PositionIndex<V>::Cursor cursor(index);
            KingMoveRun<V> run(other_side, run_positions);
#pragma omp for schedule(dynamic, 4096)
            for (std::uint64_t i = 0; i < index.size(); ++i) check(i, cursor, reader, run);
        }
    } else {
        // A large run, shared, if it fits in three quarters of the memory
        // (the readers' windows keep the rest: with every king move's value
        // in the run they read each position of the other side only once);
        // placement after placement, each shared out among the threads.
        const bool fits = KingMoveRun<V>::bytes(run_positions) <= window_bytes / 4 * 3;
        // Smaller placements (met only when tests force shared runs) are
        // too little work to share: one thread checks them.
        constexpr std::uint64_t kSharedPlacementPositions = 4096;
        KingMoveRun<V> run(other_side, fits ? run_positions : 0);
        const std::uint64_t readers_bytes = window_bytes - KingMoveRun<V>::bytes(fits ? run_positions : 0);
        std::vector<std::unique_ptr<typename ChildTables<V>::Reader>> readers;
        for (std::uint64_t t = 0; t < threads; ++t)
            readers.push_back(std::make_unique<typename ChildTables<V>::Reader>(tables, readers_bytes / threads));
        for (std::uint64_t men = 0; men < index.men_count(); ++men) {
            const std::uint64_t first = men * index.king_ways(), last = first + index.king_ways();
            if (fits) run.place(index.unrank(first));
#pragma omp parallel if (index.king_ways() >= kSharedPlacementPositions)
            {
                typename PositionIndex<V>::Cursor cursor(index);
                auto& reader = *readers[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 4096)
                for (std::uint64_t i = first; i < last; ++i) check(i, cursor, reader, run);
            }
            if (errors.failed()) break;
        }
    }
    errors.rethrow();
    wrong.report(report);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

// The by-levels method: a pair's tables checked together, level by level
// (gen/slices.hpp), as the generator solved them. Each level of both sides
// is read into memory once, every position's value found once (read, or
// searched where the files leave it out); then each stored value is checked
// against its successors there: a king move stays in the level, a man move
// reaches the level above, a crowning a smaller table. The by-table method
// finds the pair's values again for each position that moves there, through
// its window and memo.
template <class V>
class PairLevelsCheck {
public:
    using Side = LevelSide<V, std::uint16_t>;
    using Codec = ValueCodec<std::uint16_t>;

    // `sides`: the signature and its mirror (one for a symmetric one).
    // `proving_all`: prove draws and wins on every level, not only where
    // that reads less (check).
    PairLevelsCheck(const std::vector<MaterialSignature>& sides, bool proving_all) : proving_all_(proving_all) {
        for (const MaterialSignature& s : sides) indexes_.emplace_back(s);
        for (const auto& index : indexes_) levels_.emplace_back(index);
        for (const auto& l : levels_) level_count_ = std::max(level_count_, l.levels());
    }

    // The memory the levels in flight take at most: the values (two bytes a
    // position) and a bit of each side's level and the one above, with
    // their placements.
    std::uint64_t bytes() const {
        std::uint64_t most = 0;
        for (int level = 0; level < level_count_; ++level) {
            std::uint64_t b = 0;
            for (std::size_t s = 0; s < levels_.size(); ++s)
                for (const int l : {level, level + 1}) {
                    if (l >= levels_[s].levels()) continue;
                    const std::uint64_t placements = levels_[s].placements(l);
                    b += placements * indexes_[s].king_ways() * 17 / 8 + placements * 8 + levels_[s].men_count() / 4;
                }
            most = std::max(most, b);
        }
        for (const auto& l : levels_) most += l.bytes();
        return most;
    }

    // Checks side s where checked[s], into wrong[s]; readers: one per thread.
    void run(const std::vector<bool>& checked, std::vector<Mismatches>& wrong,
             std::vector<std::unique_ptr<typename ChildTables<V>::Reader>>& readers) {
        std::unique_ptr<Level> above;
        for (int level = level_count_ - 1; level >= 0; --level) {
            auto here = std::make_unique<Level>();
            for (std::size_t s = 0; s < indexes_.size(); ++s) here->members.push_back(levels_[s].members(level));
            for (std::size_t s = 0; s < indexes_.size(); ++s) {
                here->sides.emplace_back(indexes_[s], here->members[s]);
                read(here->sides.back(), readers);
            }
            for (std::size_t s = 0; s < indexes_.size(); ++s)
                if (checked[s]) check(int(s), *here, above.get(), wrong[s], readers);
            above = std::move(here);
        }
    }

private:
    struct Level {
        std::vector<RankedBitmap> members;
        std::vector<Side> sides;  // point into members
    };

    int other(int s) const { return indexes_.size() == 1 ? 0 : 1 - s; }

    // Runs f(first, last, cursor, reader) over runs of a side's local
    // positions, on every thread.
    template <class F>
    static void in_parallel(const Side& side, std::vector<std::unique_ptr<typename ChildTables<V>::Reader>>& readers,
                            F&& f) {
        ParallelErrors errors;  // a damaged block of the pair or of a smaller table
        constexpr std::uint64_t kRun = 4096;
        const std::uint64_t runs = (side.size() + kRun - 1) / kRun;
#pragma omp parallel if (runs > 1)
        {
            typename PositionIndex<V>::Cursor cursor(*side.index);
            auto& reader = *readers[std::size_t(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1)
            for (std::uint64_t r = 0; r < runs; ++r)
                errors.run([&] { f(r * kRun, std::min(side.size(), (r + 1) * kRun), cursor, reader); });
        }
        errors.rethrow();
    }

    // Every value of a side's level: read where the files store it, else
    // searched (`captures` marks those: they are not checked).
    void read(Side& side, std::vector<std::unique_ptr<typename ChildTables<V>::Reader>>& readers) const {
        side.values.resize(side.size());
        side.captures = Bitmap(side.size());
        const MaterialSignature signature = side.index->signature();
        in_parallel(side, readers, [&](std::uint64_t first, std::uint64_t last, auto& cursor, auto& reader) {
            for (std::uint64_t l = first; l < last; ++l) {
                const Position<V> pos = cursor.at(side.global(l));
                const bool searched = MoveGenerator<V>::has_capture(pos) || reader.left_out(pos);
                const int v = searched ? reader.searched_value(pos) : reader.stored_value(signature, side.global(l));
                if (v != kDraw && v > Codec::kMaxDistance)
                    throw std::runtime_error(signature.name() + ": position " + std::to_string(side.global(l)) +
                                             " holds a distance of " + std::to_string(v) + " plies");
                side.values[l] = encode_value<std::uint16_t>(v);
                if (searched) side.captures.set(l);
            }
        });
    }

    // Each stored value of side s in `here` against its successors.
    //
    // Reading every king move of every position was most of the check's
    // time, though a draw or a win needs only part of them: what is stored
    // is right when
    //   a win in d:  no successor is lost sooner than in d - 1 plies, and
    //                one is lost in exactly d - 1;
    //   a draw:      no successor is lost, and one is drawn;
    //   a loss:      (every successor read, as before).
    // The first half of each is checked backwards, from every lost position
    // of the other side to the positions whose king moves reach it
    // (flag_unproven_by_losses); the second half stops at the first
    // successor that shows it. Man moves, crownings and any position so
    // flagged or without its witness are read in full, so a wrong value is
    // still reported with the value its successors give.
    void check(int s, const Level& here, const Level* above, Mismatches& wrong,
               std::vector<std::unique_ptr<typename ChildTables<V>::Reader>>& readers) const {
        const Side& side = here.sides[std::size_t(s)];
        const Side& next = here.sides[std::size_t(other(s))];
        const Side* next_above = above ? &above->sides[std::size_t(other(s))] : nullptr;
        using Board = typename V::Board;
        const std::uint64_t white_ways = next.index->white_king_ways();
        const bool prove = proving_all_ || proof_pays(side, next);
        const Bitmap read_in_full = prove ? flag_unproven_by_losses(side, next, readers) : Bitmap();
        in_parallel(side, readers, [&](std::uint64_t first, std::uint64_t last, auto& cursor, auto& reader) {
            MoveList moves;
            // A king move keeps the men: the successors of one placement
            // share the men of one placement of the other side.
            std::uint64_t placement = ~std::uint64_t{0}, offset = 0;
            typename PositionIndex<V>::MenFrame men{};
            for (std::uint64_t l = first; l < last; ++l) {
                if (side.captures.test(l)) continue;
                const Position<V> pos = cursor.at(side.global(l));
                // The king moves are made on the board seen from the other
                // side, where the mover's kings are Black's.
                const Position<V> seen = flip(pos);
                if (l / side.king_ways != placement) {
                    placement = l / side.king_ways;
                    men = next.index->men_frame(seen);
                    offset = next.offset(next.index->men_rank(men));
                }
                // Calls f(value) for each king move's result until f
                // returns true; returns whether it did.
                const auto any_king_move = [&](auto&& f) {
                    const Bitboard empty = seen.empty(), movers = seen.kings_of(Black);
                    const Bitboard to_move = seen.kings_of(White);
                    for (int king : bits_of{movers}) {
                        const KingMoveRanks ranks(men, movers ^ bit(king), to_move);
                        for (Direction d : kAllDirections)
                            for (Bitboard to = Board::shift(bit(king), d); to & empty; to = Board::shift(to, d))
                                if (f(decode_value(next.values[ranks.rank(to, white_ways) - offset]))) return true;
                    }
                    return false;
                };
                ChildValues exits;
                MoveGenerator<V>::generate_man_moves(pos, moves);
                for (const Move& m : moves) {
                    const Position<V> after = pos.after(m);
                    if (m.crowns) {
                        exits.add(reader.value(after));
                    } else {
                        if (!next_above) throw std::logic_error("verify: a man move out of the top level");
                        exits.add(next_above->value_of(flip(after)));
                    }
                }
                const int stored = decode_value(side.values[l]);
                if (prove && !read_in_full.test(l)) {
                    // No king move reaches a loss sooner than `stored` allows
                    // (a draw: none reaches a loss at all).
                    if (is_win(stored) && (exits.fastest_win < 0 || exits.fastest_win >= stored) &&
                        (exits.fastest_win == stored || any_king_move([&](int v) { return v == stored - 1; })))
                        continue;
                    if (stored == kDraw && exits.fastest_win < 0 &&
                        (exits.draw || any_king_move([](int v) { return v == kDraw; })))
                        continue;
                }
                ChildValues values = exits;
                any_king_move([&](int v) {
                    values.add(v);
                    return false;
                });
                const int expected = values.value();
                if (stored != expected) wrong.add(pos, stored, expected);
            }
        });
    }

    // Whether proving side's draws and wins (above) reads fewer king moves
    // than reading them all. The backward walk visits about as many moves
    // as the other side has losses, each dearer than a forward read (the
    // position must be made, and many of those reached are capture
    // positions, not checked); it spares most moves of each draw and win.
    static bool proof_pays(const Side& side, const Side& next) {
        std::uint64_t next_losses = 0, draws_and_wins = 0;
#pragma omp parallel for reduction(+ : next_losses) schedule(static)
        for (std::uint64_t l = 0; l < next.size(); ++l) next_losses += is_loss(decode_value(next.values[l]));
#pragma omp parallel for reduction(+ : draws_and_wins) schedule(static)
        for (std::uint64_t l = 0; l < side.size(); ++l)
            draws_and_wins += !side.captures.test(l) && !is_loss(decode_value(side.values[l]));
        return 3 * next_losses < 2 * draws_and_wins;
    }

    // The positions of `side` (of those checked: no capture, stored) that a
    // king move takes to a loss of `next` sooner than their stored value
    // allows: every position but a win no slower than that loss + 1. The
    // predecessors are found with the move generator's king moves, made
    // backwards on the board after the move: the generator's own retro walk
    // is not reused, so a fault there cannot hide itself here.
    Bitmap flag_unproven_by_losses(const Side& side, const Side& next,
                                   std::vector<std::unique_ptr<typename ChildTables<V>::Reader>>& readers) const {
        Bitmap flagged(side.size());
        if (next.index->signature().kings[1] == 0) return flagged;  // no king of side's mover
        in_parallel(next, readers, [&](std::uint64_t first, std::uint64_t last, auto& cursor, auto&) {
            std::uint64_t placement = ~std::uint64_t{0}, offset = 0;
            typename PositionIndex<V>::MenFrame men{};
            for (std::uint64_t l = first; l < last; ++l) {
                const int lost_in = decode_value(next.values[l]);
                if (!is_loss(lost_in)) continue;
                // The board just after the move, seen from side: its mover
                // (White) has just moved a king, and moves it back.
                Position<V> after = flip(cursor.at(next.global(l)));
                after.side_to_move = White;
                if (l / next.king_ways != placement) {
                    placement = l / next.king_ways;
                    men = side.index->men_frame(after);
                    offset = side.offset(side.index->men_rank(men));
                }
                // The White kings not moved back keep their places: each
                // predecessor's rank is theirs with one square added.
                const auto frame = side.index->king_frame(men, after.kings_of(Black));
                int moved = -1;
                std::optional<ColexWithOne> staying;
                MoveGenerator<V>::all_king_moves(after, [&](int from, Bitboard to) {
                    if (from != moved) {
                        moved = from;
                        staying.emplace(after.kings_of(White) ^ bit(from), frame.squares);
                    }
                    const std::uint64_t p = frame.base + staying->rank(to) - offset;
                    if (side.captures.test(p)) return true;  // not checked (and no king move there)
                    const int v = decode_value(side.values[p]);
                    if (!is_win(v) || v > lost_in + 1) flagged.set(p);
                    return true;
                });
            }
        });
        return flagged;
    }

    // The indexes of the positions one move of a king leads to, with the
    // men of `men` (a frame of the successors' side), the mover's other
    // kings `others` (its Black kings there) and the other side's kings
    // `to_move` (White's) fixed: only the square the king moves to
    // varies. PositionIndex::rank would rank both sets of kings again for
    // each move; here what does not depend on that square is found once.
    // The Black kings' part is the others with one square added
    // (ColexWithOne). The White kings are ranked among the free squares
    // without the Black kings: the moved-to square drops the place of each
    // White king above it by one, so with j of them below it the sum is
    // white[j].
    struct KingMoveRanks {
        KingMoveRanks(const typename PositionIndex<V>::MenFrame& men, Bitboard others, Bitboard to_move)
            : base(men.base), to_move(to_move), black(others, men.free) {
            constexpr int kMost = ColexWithOne::kMostSquares;
            std::uint64_t places[kMost];
            const Bitboard around = men.free & ~others;
            int n = 0;
            for (Bitboard rest = to_move; rest && n < kMost; ++n)
                places[n] = std::uint64_t(popcount(around & (bit(pop_lowest(rest)) - 1)));
            for (int j = 0; j <= n; ++j) {
                std::uint64_t sum = 0;
                // (A White king on the lowest free square is never above
                // the moved-to square: that white[j] is not used.)
                for (int i = 0; i < n; ++i)
                    sum += kBinomials.c[i < j || places[i] == 0 ? places[i] : places[i] - 1][i + 1];
                white[std::size_t(j)] = sum;
            }
        }

        std::uint64_t rank(Bitboard to, std::uint64_t white_ways) const {
            return (base + black.rank(to)) * white_ways + white[std::size_t(popcount(to_move & (to - 1)))];
        }

        std::uint64_t base;
        Bitboard to_move;
        ColexWithOne black;
        std::array<std::uint64_t, ColexWithOne::kMostSquares + 1> white;
    };

    std::vector<PositionIndex<V>> indexes_;
    std::vector<SideLevels<V>> levels_;
    int level_count_ = 0;
    bool proving_all_;
};

// Verifies `sig`, and its mirror too where `with_mirror`, by levels when
// their levels fit in half of `window_bytes`, else table by table.
// Returns a report per table asked for (sig's first).
template <class V>
std::vector<VerifyReport> verify_pair(VariantId variant, const std::filesystem::path& dir, const MaterialSignature& sig,
                                      bool with_mirror, std::uint64_t window_bytes, const VerifyJournal* journal,
                                      std::uint64_t own_runs_up_to, bool proving_all) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<MaterialSignature> sides{sig};
    if (!sig.is_symmetric()) sides.push_back(sig.mirror());
    std::vector<VerifyReport> reports(with_mirror ? sides.size() : 1);
    std::vector<bool> checked(sides.size(), false);
    for (std::size_t s = 0; s < reports.size(); ++s) checked[s] = own_files_open<V>(variant, dir, sides[s], reports[s]);
    const auto finish = [&] {
        int timed = 0;
        for (std::size_t s = 0; s < reports.size(); ++s) timed += checked[s] ? 1 : 0;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (std::size_t s = 0; s < reports.size(); ++s)
            reports[s].seconds = timed == 0 ? seconds / double(reports.size()) : checked[s] ? seconds / timed : 0;
        return reports;
    };
    try {
        std::vector<MaterialSignature> needed;
        for (std::size_t s = 0; s < reports.size(); ++s)
            if (checked[s])
                for (const MaterialSignature& t : tables_read(sides[s]))
                    if (std::find(needed.begin(), needed.end(), t) == needed.end()) needed.push_back(t);
        if (needed.empty()) return finish();
        const ChildTables<V> tables(dir, variant, needed);
        for (std::size_t s = 0; s < reports.size(); ++s)
            if (checked[s]) checked[s] = values_to_check(tables, sides[s], journal, reports[s]);
        if (std::find(checked.begin(), checked.end(), true) == checked.end()) return finish();
        // A side whose files store nothing (format 3) has the values of its
        // mirror, one ply on: checking it alone is checking its mirror's
        // stored values, whose mismatches are then its own.
        std::vector<bool> sides_checked = checked;
        const bool through_mirror =
            reports.size() == 1 && sides.size() == 2 && checked[0] && !tables.stores_positions(sides[0]);
        if (through_mirror) sides_checked[1] = true;
        PairLevelsCheck<V> pair(sides, proving_all);
        if (pair.bytes() > window_bytes / 2) {
            // Too large to hold two levels: table by table (their own files
            // are checked again, which costs a read of each).
            for (std::size_t s = 0; s < reports.size(); ++s)
                if (checked[s])
                    reports[s] = verify_one<V>(variant, dir, sides[s], window_bytes, journal, own_runs_up_to);
            if (through_mirror) {
                const VerifyReport mirror =
                    verify_one<V>(variant, dir, sides[1], window_bytes, journal, own_runs_up_to);
                reports[0].mismatches += mirror.mismatches;
                reports[0].examples.insert(reports[0].examples.end(), mirror.examples.begin(), mirror.examples.end());
                for (const auto& list : {mirror.damaged, mirror.unchecked})
                    reports[0].unchecked.insert(reports[0].unchecked.end(), list.begin(), list.end());
            }
            return reports;
        }
        const std::uint64_t threads = std::uint64_t(omp_get_max_threads());
        std::vector<std::unique_ptr<typename ChildTables<V>::Reader>> readers;
        for (std::uint64_t t = 0; t < threads; ++t)
            readers.push_back(
                std::make_unique<typename ChildTables<V>::Reader>(tables, (window_bytes - pair.bytes()) / threads));
        std::vector<Mismatches> wrong(sides.size());
        pair.run(sides_checked, wrong, readers);
        for (std::size_t s = 0; s < reports.size(); ++s)
            if (checked[s]) wrong[s].report(reports[s]);
        if (through_mirror) wrong[1].report(reports[0]);
    } catch (const std::runtime_error& e) {
        // A file the check needs is missing or damaged: the tables still
        // to be checked are not.
        for (std::size_t s = 0; s < reports.size(); ++s)
            if (checked[s]) {
                reports[s].unchecked.push_back(e.what());
                reports[s].mismatches = 0;
                reports[s].examples.clear();
            }
    }
    return finish();
}

}  // namespace

std::vector<MaterialSignature> tables_in(VariantId variant, const std::filesystem::path& dir) {
    std::vector<MaterialSignature> out;
    if (!std::filesystem::is_directory(dir)) throw std::runtime_error(dir.string() + ": no such directory");
    // Either distributed file names the table: a .dtw whose .wdl is gone is
    // a damaged set, which the check of that table then says.
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const auto name = parse_table_file_name(entry.path().filename().string());
        if (name && name->variant == variant &&
            (name->metric == compress::Metric::wdl || name->metric == compress::Metric::dtw))
            out.push_back(name->signature);
    }
    std::sort(out.begin(), out.end(), [](const MaterialSignature& a, const MaterialSignature& b) {
        return std::make_tuple(a.total(), a.total_men(), a) < std::make_tuple(b.total(), b.total_men(), b);
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<std::string> unrecognised_table_files(VariantId variant, const std::filesystem::path& dir) {
    std::vector<std::string> out;
    if (!std::filesystem::is_directory(dir)) return out;
    const std::string prefix = std::string(variant_name(variant)) + "-";
    const auto distributed = [](const std::filesystem::path& file) {
        const std::string extension = file.extension().string();
        return extension == "." + std::string(metric_extension(compress::Metric::wdl)) ||
               extension == "." + std::string(metric_extension(compress::Metric::dtw));
    };
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (file.starts_with(prefix) && distributed(entry.path()) && !parse_table_file_name(file)) out.push_back(file);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<VerifyReport> verify_tables(VariantId variant, const std::filesystem::path& dir, std::ostream& log,
                                        bool progress, const std::vector<MaterialSignature>& only,
                                        std::uint64_t window_bytes, VerifyJournal* journal,
                                        std::uint64_t own_runs_up_to, VerifyMethod method) {
    const std::vector<MaterialSignature> sigs = only.empty() ? tables_in(variant, dir) : only;
    std::vector<VerifyReport> reports;
    // A mirror's report, made with its pair's, until its turn comes (the
    // reports keep the order of `sigs`).
    std::map<MaterialSignature, VerifyReport> made;
    for (std::size_t k = 0; k < sigs.size(); ++k) {
        if (progress)
            std::cerr << "\r\033[Kverifying " << sigs[k].name() << " (" << k + 1 << " of " << sigs.size() << ")"
                      << std::flush;
        const auto already = made.find(sigs[k]);
        if (already != made.end()) {
            reports.push_back(std::move(already->second));
            made.erase(already);
        } else {
            try {
                if (method != VerifyMethod::by_table) {
                    const bool with_mirror =
                        !sigs[k].is_symmetric() &&
                        std::find(sigs.begin() + std::ptrdiff_t(k) + 1, sigs.end(), sigs[k].mirror()) != sigs.end();
                    auto pair = with_variant(variant, [&]<class V>() {
                        return verify_pair<V>(variant, dir, sigs[k], with_mirror, window_bytes, journal, own_runs_up_to,
                                              method == VerifyMethod::by_levels_proving_all);
                    });
                    if (with_mirror) made[sigs[k].mirror()] = std::move(pair[1]);
                    reports.push_back(std::move(pair[0]));
                } else {
                    reports.push_back(with_variant(variant, [&]<class V>() {
                        return verify_one<V>(variant, dir, sigs[k], window_bytes, journal, own_runs_up_to);
                    }));
                }
            } catch (const std::runtime_error& e) {
                // A file it needs is missing or damaged: say so, and go on with
                // the other tables (the damaged file is named where it is
                // checked itself).
                VerifyReport r;
                r.signature = sigs[k];
                r.positions = with_variant(variant, [&]<class V>() { return PositionIndex<V>(sigs[k]).size(); });
                r.unchecked.push_back(e.what());
                reports.push_back(std::move(r));
            }
        }
        const VerifyReport& r = reports.back();
        if (journal && r.journal_verified_at.empty()) {
            if (r.ok())
                journal->record(r.signature, r.files, r.positions, r.seconds);
            else
                journal->forget(r.signature);
        }
        if (progress) std::cerr << "\r\033[K" << std::flush;
        log << r.signature.name() << ": " << r.positions << " positions, "
            << (!r.damaged.empty()               ? std::string("DAMAGED")
                : !r.unchecked.empty()           ? std::string("NOT CHECKED")
                : !r.journal_verified_at.empty() ? "all consistent (checksums checked; values as found " +
                                                       r.journal_verified_at + ", files unchanged)"
                : r.mismatches == 0 ? std::string("all consistent")
                                    : std::to_string(r.mismatches) + " INCONSISTENT")
            << " (" << r.seconds << " s)\n";
        for (const std::string& e : r.damaged) log << "  " << e << '\n';
        for (const std::string& e : r.unchecked) log << "  " << e << '\n';
        for (const std::string& e : r.examples) log << "  " << e << '\n';
        log << std::flush;  // a table at a time, also into a file: a set takes hours
    }
    return reports;
}

}  // namespace dtb
