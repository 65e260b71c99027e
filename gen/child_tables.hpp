// The finished tables a pair's captures and crownings lead into, read back
// from their compressed files (.wdl and .dtw, docs/FORMAT.md) while the pair
// is solved or verified. Nothing is loaded whole: each thread reads through
// its own BlockWindow, so memory is bounded by the windows, whatever the
// tables' sizes.
//
// The positions those files leave out (tables/stored_positions.hpp: capture
// positions, and in format 3 threat positions or one side of a pair) are
// found as the probe finds them, by searching their moves.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "compress/table_file.hpp"
#include "gen/block_window.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/signatures.hpp"
#include "tables/stored_positions.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {

template <class V>
class ChildTables {
    struct Entry;

public:
    // Opens the .wdl and .dtw files of each of `signatures` in `dir` and
    // checks their headers. Throws std::runtime_error naming a file that is
    // missing, damaged or of another variant, signature or index. A search
    // from a table reaches its mirror too (reachable_signatures).
    //
    // `full_sides`: where the generator keeps, while its run lasts, the
    // full files of the sides of pairs that the set's files leave out
    // (full_sides_dir); a table found there is read, not searched.
    // `exact_values`: where it keeps the exact values of the tables it built
    // (gen/level_file.hpp, exact_values_dir); a table found there is read from that one file,
    // capture positions included, and never searched.
    ChildTables(const std::filesystem::path& dir, VariantId variant, const std::vector<MaterialSignature>& signatures,
                const std::filesystem::path& full_sides = {}, const std::filesystem::path& exact_values = {}) {
        slot_of_.fill(-1);
        for (const MaterialSignature& sig : signatures) {
            Entry e{sig,
                    PositionIndex<V>(sig),
                    open(dir, variant, sig, compress::Metric::wdl),
                    open(dir, variant, sig, compress::Metric::dtw),
                    exact_values.empty() ? nullptr : open_exact_values(exact_values, variant, sig),
                    false,
                    false};
            if (!full_sides.empty() &&
                ((e.wdl->header().flags | e.dtw->header().flags) & compress::kFlagSideNotStored) &&
                std::filesystem::exists(full_sides / table_file_name(variant, sig, compress::Metric::wdl)) &&
                std::filesystem::exists(full_sides / table_file_name(variant, sig, compress::Metric::dtw))) {
                e.wdl = open(full_sides, variant, sig, compress::Metric::wdl);
                e.dtw = open(full_sides, variant, sig, compress::Metric::dtw);
            }
            // Either file leaving positions out makes them searched: a
            // position is read only where both files store it.
            const std::uint32_t flags = e.wdl->header().flags | e.dtw->header().flags;
            e.threats_left_out = (flags & compress::kFlagThreatsNotStored) != 0;
            e.side_left_out = (flags & compress::kFlagSideNotStored) != 0;
            slot_of_[key(sig)] = int(entries_.size());
            entries_.push_back(std::move(e));
        }
        // A side left out is searched into its mirror, which must store its
        // positions: else a search would go round the pair for ever.
        for (const Entry& e : entries_) {
            if (!e.side_left_out) continue;
            const int mirror = slot_of_[key(e.sig.mirror())];
            if (e.sig.is_symmetric() || (mirror >= 0 && (entries_[std::size_t(mirror)].side_left_out ||
                                                         entries_[std::size_t(mirror)].threats_left_out)))
                throw std::runtime_error(e.wdl->path().string() +
                                         ": stores no position, nor does its mirror table store all of its own");
        }
    }

    // Whether the files of `sig` store its positions (format 3 leaves one
    // side of a pair out).
    bool stores_positions(const MaterialSignature& sig) const { return !find(sig).side_left_out; }

    // The WDL and DTW files of a table, for checking them whole.
    const compress::TableFile& wdl_file(const MaterialSignature& sig) const { return *find(sig).wdl; }
    const compress::TableFile& dtw_file(const MaterialSignature& sig) const { return *find(sig).dtw; }

    // One thread's access: values through its own window of blocks.
    class Reader {
    public:
        Reader(const ChildTables& tables, std::size_t cache_bytes) : tables_(tables), window_(cache_bytes, 16 << 10) {}

        // The value of `pos` for its side to move: a distance in plies or
        // kDraw. A side with no pieces left has lost (distance 0).
        int value(const Position<V>& pos) { return value(pos, -kValueRankBound, kValueRankBound); }

        // Whether the files leave out `pos`, which has no capture for its
        // side to move: a position of a table that stores none, or a threat
        // position of a table that does not store them.
        bool left_out(const Position<V>& pos) const { return left_out(tables_.find(signature_of(pos)), pos); }

        // The value stored for `normal` (White to move, no capture, stored).
        int stored_value(const Position<V>& normal) {
            const Entry& e = tables_.find(signature_of(normal));
            return stored_value(e, e.index.rank(normal));
        }

        // The value stored for position i of `sig` (no capture, stored).
        int stored_value(const MaterialSignature& sig, std::uint64_t i) { return stored_value(tables_.find(sig), i); }

        // A position's value from its moves, for one the files leave out
        // (`normal`: White to move).
        int searched_value(const Position<V>& normal) {
            return searched_value(normal, -kValueRankBound, kValueRankBound);
        }

    private:
        // The value of `pos` within the window (alpha, beta) of ranks
        // (value_rank): exact when its rank lies strictly inside, else a
        // bound on the side it falls, as the probe's search
        // (probe/search.hpp): a search below a move stops as soon as it
        // shows the move no better than one in hand.
        int value(const Position<V>& pos, int alpha, int beta) {
            if (!pos.pieces[pos.side_to_move]) return 0;
            const Position<V> normal = normalize(pos);
            const Entry& e = tables_.find(signature_of(normal));
            if (e.exact) {
                const std::optional<int> v = exact_value(e, e.index.rank(normal));
                if (v) return *v;
            }
            if (MoveGenerator<V>::has_capture(pos) || left_out(e, normal)) return searched_value(normal, alpha, beta);
            return stored_value(e, e.index.rank(normal));
        }

        // Nothing where the generator's copy fails its checks (a crash
        // while it was written): the .wdl and .dtw files, which are the
        // set, give the value instead.
        std::optional<int> exact_value(const Entry& e, std::uint64_t i) {
            std::uint16_t symbol = 0;
            try {
                symbol = window_.read(*e.exact, i);
            } catch (const std::runtime_error&) {
                return std::nullopt;
            }
            const bool bytes = e.exact->header().symbol_bits == 8;
            if (symbol == (bytes ? ValueCodec<std::uint8_t>::kUnknown : ValueCodec<std::uint16_t>::kUnknown))
                return std::nullopt;
            return bytes ? decode_value(std::uint8_t(symbol)) : decode_value(symbol);
        }

        static bool left_out(const Entry& e, const Position<V>& pos) {
            // The flags first: format 2 tables, the default, then cost no capture test.
            return e.side_left_out || (e.threats_left_out && is_unstored_threat(pos));
        }

        // Searching the captures of a flying king costs far more than
        // reading a value, and neighbouring positions of a slice lead to the
        // same capture positions again and again, so the last few thousand
        // results are kept, each with what it is: the exact value, or a
        // bound that answers a later search whose window it falls outside.
        int searched_value(const Position<V>& normal, int alpha, int beta) {
            const std::uint64_t h = (normal.pieces[White] * 0x9E3779B97F4A7C15ULL) ^
                                    (normal.pieces[Black] * 0xC2B2AE3D27D4EB4FULL) ^
                                    (normal.kings * 0x165667B19E3779F9ULL);
            Remembered& slot = remembered_[(h ^ (h >> 31)) & (kRemembered - 1)];
            if (slot.white == normal.pieces[White] && slot.black == normal.pieces[Black] &&
                slot.kings == normal.kings && slot.bound != Bound::none) {
                const int rank = value_rank(slot.value);
                if (slot.bound == Bound::exact || (slot.bound == Bound::lower && rank >= beta) ||
                    (slot.bound == Bound::upper && rank <= alpha))
                    return slot.value;
            }
            MoveList moves;
            MoveGenerator<V>::generate(normal, moves);
            int best = -kValueRankBound;  // below every rank: no move seen yet
            for (const Move& m : moves) {
                const int child = value(normal.after(m), rank_after(beta), rank_after(std::max(alpha, best)));
                best = std::max(best, value_rank(value_before(child)));
                if (best >= beta) break;  // the caller has something at least as good
            }
            if (best == -kValueRankBound) return 0;  // no move: lost at once
            const int found = value_of_rank(best);
            const Bound bound = best <= alpha ? Bound::upper : best >= beta ? Bound::lower : Bound::exact;
            slot = Remembered{normal.pieces[White], normal.pieces[Black], normal.kings, found, bound};
            return found;
        }

        int stored_value(const Entry& e, std::uint64_t i) {
            const std::uint16_t wdl = window_.read(*e.wdl, i);
            if (wdl == kWdlDraw) return kDraw;
            if (wdl > kWdlWin)
                throw std::runtime_error(e.wdl->path().string() + ": position " + std::to_string(i) +
                                         " holds WDL symbol " + std::to_string(wdl));
            return dtw_from_symbol(window_.read(*e.dtw, i), wdl == kWdlWin);
        }

        static constexpr std::size_t kRemembered = 1 << 16;
        // What a remembered result is: the value, or a bound on it (lower:
        // the value is at least this good; upper: at most).
        enum class Bound : std::uint8_t { none, exact, lower, upper };
        struct Remembered {
            Bitboard white = 0, black = 0, kings = 0;
            int value = 0;
            Bound bound = Bound::none;
        };

        const ChildTables& tables_;
        BlockWindow window_;
        std::vector<Remembered> remembered_ = std::vector<Remembered>(kRemembered);
    };

private:
    struct Entry {
        MaterialSignature sig;
        PositionIndex<V> index;
        std::unique_ptr<compress::TableFile> wdl, dtw;
        std::unique_ptr<compress::TableFile> exact;  // null: read wdl and dtw, search what they leave out
        bool threats_left_out;
        bool side_left_out;
    };

    // Signatures have at most 15 pieces of a kind on a side here: four
    // nibbles make a dense key.
    static std::size_t key(const MaterialSignature& s) {
        return std::size_t(s.men[0] & 15) | std::size_t(s.men[1] & 15) << 4 | std::size_t(s.kings[0] & 15) << 8 |
               std::size_t(s.kings[1] & 15) << 12;
    }

    const Entry& find(const MaterialSignature& sig) const {
        const int slot = slot_of_[key(sig)];
        if (slot < 0) throw std::logic_error("ChildTables: table " + sig.name() + " is not open");
        return entries_[std::size_t(slot)];
    }

    static std::unique_ptr<compress::TableFile> open(const std::filesystem::path& dir, VariantId variant,
                                                     const MaterialSignature& sig, compress::Metric metric) {
        const auto path = dir / table_file_name(variant, sig, metric);
        if (!std::filesystem::exists(path)) throw std::runtime_error("table " + path.string() + " is missing");
        auto file = compress::TableFile::open(path, nullptr);
        if (!file) throw std::runtime_error(file.error().message);
        const std::string wrong = wrong_header((*file)->header(), variant, sig, metric);
        if (!wrong.empty()) throw std::runtime_error(path.string() + ": its header says " + wrong);
        return std::move(*file);
    }

    // What in a header says the file is not `sig`'s table of `metric`, or
    // nothing when it is.
    static std::string wrong_header(const compress::Header& h, VariantId variant, const MaterialSignature& sig,
                                    compress::Metric metric) {
        std::string wrong;
        if (h.table.metric != metric) wrong = "another metric";
        if (variant_from_file(h.table.variant) != variant) wrong = "another variant";
        if (signature_from_file(h.table.material) != sig) wrong = "another material";
        if (h.position_count != PositionIndex<V>(sig).size()) wrong = "another number of positions";
        if (h.table.index_scheme != PositionIndex<V>::kVersion)
            wrong = "position index version " + std::to_string(h.table.index_scheme) + " (this dtb uses " +
                    std::to_string(PositionIndex<V>::kVersion) + "): generate it again";
        return wrong;
    }

    // A table's exact values kept by the generator, or null where there are
    // none to use: any doubt about the file (another material, index or
    // size, a damaged header) means reading the distributed files instead,
    // which give the same values.
    static std::unique_ptr<compress::TableFile> open_exact_values(const std::filesystem::path& dir, VariantId variant,
                                                                  const MaterialSignature& sig) {
        const auto path = dir / table_file_name(variant, sig, compress::Metric::exact);
        std::error_code missing;
        if (!std::filesystem::exists(path, missing)) return nullptr;
        auto file = compress::TableFile::open(path, nullptr);
        if (!file) return nullptr;
        const compress::Header& h = (*file)->header();
        if (!wrong_header(h, variant, sig, compress::Metric::exact).empty() ||
            (h.symbol_bits != 8 && h.symbol_bits != 16))
            return nullptr;
        return std::move(*file);
    }

    std::vector<Entry> entries_;
    std::array<int, 1 << 16> slot_of_;
};

}  // namespace dtb
