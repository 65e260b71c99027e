// The value of any position from the table files, exactly as the generator
// defines it (the one value rule of tables/values.hpp, which gen/level_solver.hpp
// applies; docs/RULES.md 3.2 and 3.4):
//
//   - the side to move has no piece: lost, DTW 0;
//   - the side to move has a capture: the files do not store the position
//     (don't care), so its captures are searched: each leads to less
//     material, so the search ends;
//       win  = 1 + the least DTW of the moves into lost positions,
//       else a draw if a move draws,
//       else loss = 1 + the greatest DTW of the moves (all into wins);
//   - a threat position of a table that leaves them out, or any position of
//     a table that stores none (format 3, tables/stored_positions.hpp): its
//     moves are searched the same way, one ply, into stored and capture
//     positions only;
//   - otherwise: turned so that the side to move is White, ranked in its
//     signature's index, and read (WDL, then DTW for the distance).
//
// Values are plies to the end (odd: the side to move wins, even: it loses)
// or kDraw, the generator's encoding, and capture positions follow the
// generator's value rule (tables/values.hpp). Nothing here throws on
// purpose; every failure names the table file involved.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probe/tablebase.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "tables/position_index.hpp"
#include "tables/stored_positions.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb::probe {

// The value encoding and rule, as the probe's users name them.
using dtb::better;
using dtb::kDraw;
using dtb::value_before;
using dtb::wdl_of;

template <class V>
class Search {
public:
    // cached_only: a conditional search, which reads only what is in memory
    // (open tables, cached blocks) and fails with not_cached otherwise.
    explicit Search(const Tablebase& tb, bool cached_only = false) : tb_(tb), cached_only_(cached_only) {}

    // -1, 0 or 1 for the side to move. Reads WDL files only.
    Outcome<int> wdl(const Position<V>& pos) const { return wdl(pos, -1, 1); }

    // Plies to the end, or kDraw. Reads WDL and DTW files.
    Outcome<int> value(const Position<V>& pos) const { return value(pos, -kValueRankBound, kValueRankBound); }

    struct RootMove {
        Move move;
        int value;  // for the side making the move
    };

    // Every legal move and what it leads to, in move generation order.
    Outcome<std::vector<RootMove>> root(const Position<V>& pos) const {
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        std::vector<RootMove> out;
        out.reserve(moves.size());
        for (const Move& m : moves) {
            auto child = value(pos.after(m));
            if (!child) return child.take_error();
            out.push_back(RootMove{m, value_before(*child)});
        }
        return out;
    }

    // The first move that realises the position's value, or nullopt when the
    // side to move has no move. Cross-checked against the position's own
    // table: tables that disagree with their successors are reported, not
    // followed.
    Outcome<std::optional<RootMove>> best(const Position<V>& pos) const {
        auto moves = root(pos);
        if (!moves) return moves.take_error();
        std::optional<RootMove> best;
        for (const RootMove& r : *moves)
            if (!best || better(r.value, best->value)) best = r;
        auto own = value(pos);
        if (!own) return own.take_error();
        const int expected = *own;
        const int found = best ? best->value : 0;  // no move: lost now
        if (found != expected)
            return Failure{Status::corrupt_table, "the tables disagree at " + to_fen(pos) + ": its table gives " +
                                                      describe(expected) + ", its moves give " + describe(found)};
        return best;
    }

    // Best moves for both sides to the end of the game; empty for a draw
    // and for a position already lost.
    Outcome<std::vector<Move>> principal_variation(const Position<V>& pos) const {
        auto start = value(pos);
        if (!start) return start.take_error();
        std::vector<Move> line;
        if (*start == kDraw) return line;
        Position<V> p = pos;
        for (int ply = 0; ply < *start; ++ply) {
            auto step = best(p);
            if (!step) return step.take_error();
            if (!*step)
                return Failure{Status::internal_error, "the line from " + to_fen(pos) + " ended after " +
                                                           std::to_string(ply) + " plies, its value says " +
                                                           std::to_string(*start)};
            line.push_back((*step)->move);
            p = p.after((*step)->move);
        }
        return line;
    }

    static std::string describe(int value) {
        if (value == kDraw) return "a draw";
        return std::string(value % 2 == 1 ? "a win" : "a loss") + " in " + std::to_string(value) + " plies";
    }

private:
    // The WDL of `pos` within the window (alpha, beta), alpha < beta: exact
    // when the value lies strictly inside; otherwise a bound on the side of
    // the window it falls (<= alpha: the value is at most the result; >=
    // beta: at least). A search of a position the files leave out then
    // stops at the first move that settles what its caller needs (a move
    // that draws, when the caller already has a draw): the searches below a
    // move into a capture position, and into sides left out in turn, are
    // what compound with the pieces. Values lie in [-1, 1], so (-1, 1) asks
    // for the exact value.
    Outcome<int> wdl(const Position<V>& pos, int alpha, int beta) const {
        if (!pos.pieces[pos.side_to_move]) return -1;
        if (!MoveGenerator<V>::has_capture(pos)) {
            auto stored = locate(pos, compress::Metric::wdl);
            if (!stored) return stored.take_error();
            if (*stored) return read_wdl(**stored);
        }
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        int best = -2;  // below every value: no move seen yet
        for (const Move& m : moves) {
            auto child = wdl(pos.after(m), -beta, -std::max(alpha, best));
            if (!child) return child;
            best = std::max(best, -*child);
            if (best >= beta) break;  // the caller has something at least as good
        }
        return std::max(best, -1);  // no move: lost
    }

    // The value of `pos` (plies or kDraw) within the window (alpha, beta) of
    // ranks (value_rank), alpha < beta, as wdl() above: exact when its rank
    // lies strictly inside, else a bound on the side it falls.
    // (-kValueRankBound, kValueRankBound) asks for the exact value.
    Outcome<int> value(const Position<V>& pos, int alpha, int beta) const {
        if (!pos.pieces[pos.side_to_move]) return 0;
        if (!MoveGenerator<V>::has_capture(pos)) {
            auto stored = locate(pos, compress::Metric::dtw);
            if (!stored) return stored.take_error();
            if (*stored) return read_value(**stored);
        }
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        int best = -kValueRankBound;  // below every rank: no move seen yet
        for (const Move& m : moves) {
            auto child = value(pos.after(m), rank_after(beta), rank_after(std::max(alpha, best)));
            if (!child) return child;
            best = std::max(best, value_rank(value_before(*child)));
            if (best >= beta) break;  // the caller has something at least as good
        }
        return best == -kValueRankBound ? 0 : value_of_rank(best);  // no move: lost at once
    }

    // Where a position with no capture for the side to move is stored:
    // turned so that White moves, in its signature's table, at its rank.
    struct Entry {
        MaterialSignature signature;
        const OpenTable* wdl = nullptr;
        const OpenTable* distance = nullptr;  // located for a distance: its DTW table
        std::uint64_t index = 0;
    };

    // Where the files store `pos` (no capture for its side to move), or
    // nullopt where they leave it out: any position of a table whose WDL file
    // (and for a distance, DTW file) stores none, or a threat position of
    // one that leaves threats out.
    Outcome<std::optional<Entry>> locate(const Position<V>& pos, compress::Metric metric) const {
        const Position<V> normal = normalize(pos);
        Entry entry{signature_of(normal)};
        auto table = find_table(entry.signature, compress::Metric::wdl);
        if (!table) return table.take_error();
        entry.wdl = *table;
        std::uint32_t flags = entry.wdl->file->header().flags;
        if (metric != compress::Metric::wdl) {
            auto more = find_table(entry.signature, metric);
            if (!more) return more.take_error();
            entry.distance = *more;
            flags |= entry.distance->file->header().flags;
        }
        if (flags & compress::kFlagSideNotStored) {
            // Its moves lead into the mirror, which must store them: were
            // it to leave them out too, the search would never end.
            auto mirror = file_flags(entry.signature.mirror(), metric);
            if (!mirror) return mirror.take_error();
            if (entry.signature.is_symmetric() ||
                (*mirror & (compress::kFlagSideNotStored | compress::kFlagThreatsNotStored)))
                return Failure{Status::corrupt_table, entry.wdl->file->path().string() +
                                                          ": stores no position, nor does its mirror table store "
                                                          "all of its own"};
            return std::optional<Entry>();
        }
        if ((flags & compress::kFlagThreatsNotStored) && other_side_can_capture(pos) &&
            moves_leave_no_threat_position(pos))
            return std::optional<Entry>();
        entry.index = entry.wdl->template index_for<V>().rank(normal);
        return std::optional<Entry>(entry);
    }

    // The flags of the WDL file of `sig`, with those of its DTW file for a
    // distance.
    Outcome<std::uint32_t> file_flags(const MaterialSignature& sig, compress::Metric metric) const {
        std::uint32_t flags = 0;
        for (const compress::Metric m : {compress::Metric::wdl, metric}) {
            auto table = find_table(sig, m);
            if (!table) return table.take_error();
            flags |= (*table)->file->header().flags;
            if (metric == compress::Metric::wdl) break;  // one file to ask
        }
        return flags;
    }

    // The WDL (-1, 0, 1) stored at `entry`.
    Outcome<int> read_wdl(const Entry& entry) const {
        auto symbol = read_symbol(*entry.wdl, entry.index);
        if (!symbol) return symbol.take_error();
        switch (*symbol) {
            case kWdlLoss:
                return -1;
            case kWdlDraw:
                return 0;
            case kWdlWin:
                return 1;
            default:
                return Failure{Status::corrupt_table, entry.wdl->file->path().string() + ": position " +
                                                          std::to_string(entry.index) + " holds WDL symbol " +
                                                          std::to_string(*symbol)};
        }
    }

    // The WDL file gives the result, the DTW file (same signature, same
    // index) half the distance.
    Outcome<int> read_value(const Entry& entry) const {
        auto wdl = read_wdl(entry);
        if (!wdl) return wdl;
        if (*wdl == 0) return kDraw;
        auto symbol = read_symbol(*entry.distance, entry.index);
        if (!symbol) return symbol.take_error();
        return dtw_from_symbol(*symbol, *wdl > 0);
    }

    Outcome<const OpenTable*> find_table(const MaterialSignature& sig, compress::Metric metric) const {
        return cached_only_ ? tb_.table_if_open(V::id, sig, metric) : tb_.table(V::id, sig, metric);
    }

    // The symbol at `index`: from the cache only in a conditional search.
    Outcome<std::uint16_t> read_symbol(const OpenTable& table, std::uint64_t index) const {
        if (cached_only_) {
            if (const auto symbol = table.file->read_cached(index)) return *symbol;
            return Failure{Status::not_cached, {}};
        }
        const auto symbol = table.file->read(index);
        if (!symbol) return read_failure(symbol.error());
        return *symbol;
    }

    static Failure read_failure(const compress::Error& e) {
        return Failure{e.code == compress::ErrorCode::io ? Status::io_error : Status::corrupt_table, e.message};
    }

    const Tablebase& tb_;
    bool cached_only_;
};

}  // namespace dtb::probe
