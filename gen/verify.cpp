#include "gen/verify.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <mutex>
#include <ranges>
#include <set>

#include "gen/child_tables.hpp"
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
template <class V>
class KingMoveRun {
public:
    // Beyond this (many kings, few men) the array would not stay in the
    // processor's caches: such runs are read through the reader as before.
    static constexpr std::uint64_t kMaxPositions = std::uint64_t{1} << 18;

    explicit KingMoveRun(const PositionIndex<V>& other_side) : index_(other_side) {
        if (other_side.king_ways() <= kMaxPositions) values_.resize(other_side.king_ways());
    }

    // The value of `pos.after(m)`, for a king move m of `pos` (White to move).
    int value(const Position<V>& pos, const Move& m, typename ChildTables<V>::Reader& reader) {
        const Position<V> normal = flip(pos.after(m));
        if (values_.empty()) return reader.value(normal);
        if (!placed_ || pos.men(White) != white_men_ || pos.men(Black) != black_men_) {
            placed_ = true;
            white_men_ = pos.men(White);
            black_men_ = pos.men(Black);
            men_ = index_.men_frame(normal);
            first_ = index_.men_rank(men_) * index_.king_ways();
            std::fill(values_.begin(), values_.end(), kUnset);
        }
        std::int16_t& v = values_[index_.rank(men_, normal.kings_of(White), normal.kings_of(Black)) - first_];
        if (v == kUnset) v = std::int16_t(reader.value(normal));
        return v;
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

// Checks every checksum of the table's two files, then every position whose
// side to move has no capture (the others are don't-care in the files)
// against its successors, read from the files of the pair and of the
// smaller tables.
template <class V>
VerifyReport verify_one(VariantId variant, const std::filesystem::path& dir, const MaterialSignature& sig,
                        std::uint64_t window_bytes, const VerifyJournal* journal) {
    const auto start = std::chrono::steady_clock::now();
    VerifyReport report;
    report.signature = sig;
    // The table's own files first: one missing, or whose header or block
    // index is damaged, makes the table damaged. Any other file the check
    // needs failing to open throws (verify_tables: not checked).
    try {
        const ChildTables<V> own(dir, variant, {sig});
    } catch (const std::runtime_error& e) {
        report.damaged.push_back(e.what());
        report.positions = PositionIndex<V>(sig).size();
        return report;
    }
    std::vector<MaterialSignature> needed{sig};
    if (!sig.is_symmetric()) needed.push_back(sig.mirror());
    for (const MaterialSignature& child : reachable_signatures(sig)) needed.push_back(child);
    const ChildTables<V> tables(dir, variant, needed);
    for (const format::TableFile* file : {&tables.wdl_file(sig), &tables.dtw_file(sig)})
        if (const auto error = file->verify()) report.damaged.push_back(error->message);
    const PositionIndex<V> index(sig), other_side(sig.mirror());
    report.positions = index.size();
    if (!report.damaged.empty()) return report;
    for (const MaterialSignature& s : needed)
        for (const format::TableFile* file : {&tables.wdl_file(s), &tables.dtw_file(s)})
            report.files.push_back({file->path().filename().string(), header_fingerprint(file->header())});
    if (journal) {
        if (auto when = journal->vouches_for(sig, report.files)) {
            report.journal_verified_at = std::move(*when);
            report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return report;
        }
    }
    std::mutex examples_mutex;
    std::uint64_t mismatches = 0;
    ParallelErrors errors;  // a damaged block of the table or of a smaller one
#pragma omp parallel reduction(+ : mismatches)
    {
        typename ChildTables<V>::Reader reader(tables, window_bytes / std::uint64_t(omp_get_num_threads()));
        typename PositionIndex<V>::Cursor cursor(index);
        KingMoveRun<V> run(other_side);
#pragma omp for schedule(dynamic, 4096)
        for (std::uint64_t i = 0; i < index.size(); ++i)
            errors.run([&] {
                const Position<V> pos = cursor.at(i);
                if (MoveGenerator<V>::has_capture(pos)) return;
                const int stored = reader.stored_value(pos);
                const int expected = value_from_successors(pos, reader, run);
                if (stored != expected) {
                    ++mismatches;
                    std::lock_guard lock(examples_mutex);
                    if (report.examples.size() < 10)
                        report.examples.push_back(to_fen(pos) + ": stored " + value_text(stored) +
                                                  ", from successors " + value_text(expected));
                }
            });
    }
    errors.rethrow();
    report.mismatches = mismatches;
    std::sort(report.examples.begin(), report.examples.end());
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

}  // namespace

std::vector<MaterialSignature> tables_in(VariantId variant, const std::filesystem::path& dir) {
    std::vector<MaterialSignature> out;
    if (!std::filesystem::is_directory(dir)) throw std::runtime_error(dir.string() + ": no such directory");
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const auto name = parse_table_file_name(entry.path().filename().string());
        if (name && name->variant == variant && name->metric == format::Metric::wdl) out.push_back(name->signature);
    }
    std::sort(out.begin(), out.end(), [](const MaterialSignature& a, const MaterialSignature& b) {
        return std::make_tuple(a.total(), a.total_men(), a) < std::make_tuple(b.total(), b.total_men(), b);
    });
    return out;
}

std::vector<VerifyReport> verify_tables(VariantId variant, const std::filesystem::path& dir, std::ostream& log,
                                        bool progress, const std::vector<MaterialSignature>& only,
                                        std::uint64_t window_bytes, VerifyJournal* journal) {
    const std::vector<MaterialSignature> sigs = only.empty() ? tables_in(variant, dir) : only;
    std::vector<VerifyReport> reports;
    for (std::size_t k = 0; k < sigs.size(); ++k) {
        if (progress)
            std::cerr << "\r\033[Kverifying " << sigs[k].name() << " (" << k + 1 << " of " << sigs.size() << ")"
                      << std::flush;
        try {
            reports.push_back(with_variant(
                variant, [&]<class V>() { return verify_one<V>(variant, dir, sigs[k], window_bytes, journal); }));
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
