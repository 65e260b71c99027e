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

// Checks every checksum of the table's two files, then every position whose
// side to move has no capture (the others are don't-care in the files)
// against its successors, read from the files of the pair and of the
// smaller tables.
template <class V>
VerifyReport verify_one(VariantId variant, const std::filesystem::path& dir, const MaterialSignature& sig,
                        std::uint64_t window_bytes, const VerifyJournal* journal, std::uint64_t own_runs_up_to) {
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
    for (const compress::TableFile* file : {&tables.wdl_file(sig), &tables.dtw_file(sig)})
        if (const auto error = file->verify()) report.damaged.push_back(error->message);
    const PositionIndex<V> index(sig), other_side(sig.mirror());
    report.positions = index.size();
    if (!report.damaged.empty()) return report;
    for (const MaterialSignature& s : needed)
        for (const compress::TableFile* file : {&tables.wdl_file(s), &tables.dtw_file(s)})
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
    const auto check = [&](std::uint64_t i, typename PositionIndex<V>::Cursor& cursor,
                           typename ChildTables<V>::Reader& reader, KingMoveRun<V>& run) {
        errors.run([&] {
            const Position<V> pos = cursor.at(i);
            if (MoveGenerator<V>::has_capture(pos) || reader.left_out(pos)) return;
            const int stored = reader.stored_value(pos);
            const int expected = value_from_successors(pos, reader, run);
            if (stored != expected) {
#pragma omp atomic
                ++mismatches;
                std::lock_guard lock(examples_mutex);
                if (report.examples.size() < 10)
                    report.examples.push_back(to_fen(pos) + ": stored " + value_text(stored) + ", from successors " +
                                              value_text(expected));
            }
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
    report.mismatches = mismatches;
    std::sort(report.examples.begin(), report.examples.end());
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
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
                                        std::uint64_t own_runs_up_to) {
    const std::vector<MaterialSignature> sigs = only.empty() ? tables_in(variant, dir) : only;
    std::vector<VerifyReport> reports;
    for (std::size_t k = 0; k < sigs.size(); ++k) {
        if (progress)
            std::cerr << "\r\033[Kverifying " << sigs[k].name() << " (" << k + 1 << " of " << sigs.size() << ")"
                      << std::flush;
        try {
            reports.push_back(with_variant(variant, [&]<class V>() {
                return verify_one<V>(variant, dir, sigs[k], window_bytes, journal, own_runs_up_to);
            }));
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
