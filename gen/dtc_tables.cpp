#include "gen/dtc_tables.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <iomanip>
#include <mutex>
#include <optional>
#include <set>

#include "gen/block_window.hpp"
#include "gen/cluster.hpp"
#include "gen/level_file.hpp"
#include "gen/memory_budget.hpp"
#include "gen/pair_waves.hpp"
#include "gen/parallel_errors.hpp"
#include "gen/progress_line.hpp"
#include "gen/rule_solver.hpp"
#include "rules/notation.hpp"
#include "tables/signatures.hpp"
#include "tables/table_names.hpp"

namespace dtb {

namespace {

// The bits of a stored symbol a reader reads: T's byte, and the lone-king
// field where the table has one (has_lone_values). A file written when
// every lone-king table kept that field (before dtb stopped solving W
// where no lone-king count can run) holds W there too, never read.
template <class V>
std::uint16_t read_bits(const MaterialSignature& sig) {
    return has_lone_values<V>(sig) ? 0xFFFF : 0x00FF;
}

// Compares the symbols solved again for side k of a pair with those
// stored, skipping capture positions where the file leaves them out.
template <class V>
class StoredSymbols {
public:
    StoredSymbols(const MaterialSignature& sig, const compress::TableFile& file)
        : index_(sig), file_(file), read_(read_bits<V>(sig)) {
        for (int t = 0; t < omp_get_max_threads(); ++t) windows_.emplace_back(std::size_t{32} << 20, 16 << 10);
    }

    // want(j): the solved symbol of position first + j, j < count
    // (kLevelCapture marks a capture position); from any OpenMP thread.
    template <class Want>
    void compare(std::uint64_t first, std::uint64_t count, const Want& want, VerifyReport& r) {
        BlockWindow& window = windows_.at(std::size_t(omp_get_thread_num()));
        const bool skip_captures = file_.header().flags & compress::kFlagCapturesNotStored;
        for (std::uint64_t j = 0; j < count; ++j) {
            const std::uint16_t symbol = want(j);
            const std::uint16_t solved = symbol & std::uint16_t(~kLevelCapture);
            if (skip_captures && (symbol & kLevelCapture)) continue;
            const std::uint16_t got = window.read(file_, first + j) & read_;
            if (got == solved) continue;
            const std::lock_guard<std::mutex> lock(mutex_);
            if (++r.mismatches <= 5)
                r.examples.push_back(to_fen(index_.unrank(first + j)) + ": stored symbol " + std::to_string(got) +
                                     ", from successors " + std::to_string(solved));
        }
    }

private:
    PositionIndex<V> index_;
    const compress::TableFile& file_;
    std::uint16_t read_;
    std::vector<BlockWindow> windows_;
    std::mutex mutex_;
};

// Solves the pair of `key` again by levels and compares every level with
// the stored files, as it is solved.
template <class V>
void verify_by_levels(RuleSolver<V>& solver, const MaterialSignature& key, const std::filesystem::path& dir,
                      std::vector<VerifyReport>& pair) {
    const std::vector<MaterialSignature> sides = RuleSolver<V>::sides_of(key);
    std::vector<std::unique_ptr<compress::TableFile>> files;
    std::vector<std::unique_ptr<StoredSymbols<V>>> stored;
    for (std::size_t k = 0; k < sides.size(); ++k) {
        auto file = compress::TableFile::open(dir / table_file_name(V::id, sides[k], compress::Metric::dtc), nullptr);
        if (!file) throw std::logic_error("verified already: " + file.error().message);
        files.push_back(std::move(*file));
        stored.push_back(std::make_unique<StoredSymbols<V>>(sides[k], *files.back()));
    }
    ParallelErrors errors;
    solver.solve_levels(key, [&](std::size_t s, std::uint64_t first, std::uint64_t count, const auto& symbol) {
        errors.run([&] { stored[s]->compare(first, count, symbol, pair[s]); });
    });
    errors.rethrow();
}

template <class V>
std::vector<VerifyReport> verify(const std::filesystem::path& dir, std::ostream& log,
                                 const std::vector<MaterialSignature>& only, std::uint64_t whole_below) {
    std::set<MaterialSignature> present;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const auto name = parse_table_file_name(entry.path().filename().string());
        if (name && name->variant == V::id && name->metric == compress::Metric::dtc) present.insert(name->signature);
    }
    std::set<MaterialSignature> keys;
    for (const MaterialSignature& s : present)
        if (only.empty() || std::find(only.begin(), only.end(), s) != only.end()) keys.insert(pair_key(s));
    std::vector<VerifyReport> reports;
    RuleSolver<V> solver;
    solver.set_whole_below(whole_below);
    for (const MaterialSignature& key : solving_order({keys.begin(), keys.end()})) {
        if (!keys.count(key)) continue;
        const auto start = std::chrono::steady_clock::now();
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        std::vector<VerifyReport> pair;
        std::vector<compress::WholeTable> stored;
        const bool whole = solver.solved_whole(key);
        for (const MaterialSignature& s : sides) {
            VerifyReport r;
            r.signature = s;
            const std::filesystem::path path = dir / table_file_name(V::id, s, compress::Metric::dtc);
            if (whole) {
                auto table = compress::read_whole_table(path);
                if (!table) r.damaged.push_back(table.error().message);
                stored.push_back(table ? std::move(*table) : compress::WholeTable{});
            } else {
                // Every block's checksum first; the values are then read a block at a time.
                auto file = compress::TableFile::open(path, nullptr);
                std::optional<compress::Error> bad;
                if (!file)
                    bad = file.error();
                else
                    bad = (*file)->verify();
                if (bad)
                    r.damaged.push_back(bad->message);
                else if ((*file)->position_count() != PositionIndex<V>(s).size())
                    r.damaged.push_back(s.name() + ".dtc: " + std::to_string((*file)->position_count()) +
                                        " positions, the signature has " + std::to_string(PositionIndex<V>(s).size()));
                r.positions = file ? (*file)->position_count() : 0;
            }
            pair.push_back(std::move(r));
        }
        bool damaged = false;
        for (const VerifyReport& r : pair) damaged = damaged || !r.damaged.empty();
        bool solved = false;
        if (!damaged) {
            // A smaller table's .dtc file missing or damaged: this pair is
            // not checked (named), the others still are.
            try {
                solver.forget();
                solver.open_files(dir, RuleSolver<V>::conversion_closure(key));
                if (whole)
                    solver.solve_pair(key);
                else
                    verify_by_levels(solver, key, dir, pair);
                solved = whole;
            } catch (const std::runtime_error& e) {
                for (std::size_t k = 0; k < pair.size(); ++k) {
                    if (whole) pair[k].positions = stored[k].header.position_count;
                    pair[k].unchecked.push_back(e.what());
                }
            }
        }
        if (solved) {
            for (std::size_t k = 0; k < sides.size(); ++k) {
                compress::TableDescription d;
                const std::vector<std::uint16_t> want = solver.symbols(sides[k], d);
                const compress::WholeTable& w = stored[k];
                VerifyReport& r = pair[k];
                r.positions = want.size();
                if (w.header.position_count != want.size()) {
                    r.damaged.push_back(sides[k].name() + ".dtc: " + std::to_string(w.header.position_count) +
                                        " positions, the signature has " + std::to_string(want.size()));
                    continue;
                }
                const PositionIndex<V> index(sides[k]);
                // Capture positions are don't-care where the file says so.
                std::vector<std::uint8_t> skip;
                if (w.header.flags & compress::kFlagCapturesNotStored)
                    skip = RuleSolver<V>::capture_positions(sides[k]);
                const std::uint16_t read = read_bits<V>(sides[k]);
                for (std::uint64_t i = 0; i < want.size(); ++i) {
                    const std::uint16_t got = (w.header.symbol_bits == 16 ? w.words[i] : w.bytes[i]) & read;
                    if (got == want[i] || (!skip.empty() && skip[i])) continue;
                    if (++r.mismatches <= 5)
                        r.examples.push_back(to_fen(index.unrank(i)) + ": stored symbol " + std::to_string(got) +
                                             ", from successors " + std::to_string(want[i]));
                }
            }
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (VerifyReport& r : pair) {
            if (!present.count(r.signature)) continue;
            if (!only.empty() && std::find(only.begin(), only.end(), r.signature) == only.end()) continue;
            r.seconds = seconds;
            log << std::left << std::setw(12) << r.signature.name() << std::right << " .dtc " << std::setw(12)
                << r.positions << " positions, " << r.mismatches << " inconsistent"
                << (r.damaged.empty() ? "" : ", DAMAGED: " + r.damaged.front())
                << (r.unchecked.empty() ? "" : ", NOT CHECKED: " + r.unchecked.front()) << std::endl;
            reports.push_back(std::move(r));
        }
    }
    solver.forget();
    return reports;
}

template <class V>
std::vector<DtcTableStats> build(const std::vector<MaterialSignature>& targets, const std::filesystem::path& dir,
                                 std::ostream& log, const DtcBuildOptions& options) {
    std::filesystem::create_directories(dir);
    const auto path_of = [&](const MaterialSignature& s) {
        return dir / table_file_name(V::id, s, compress::Metric::dtc);
    };
    std::vector<DtcTableStats> built;
    RuleSolver<V> solver;
    solver.set_whole_below(options.whole_below);
    if (options.block_positions) solver.set_block_positions(options.block_positions);
    const auto pair_done = [&](const MaterialSignature& key) {
        bool done = std::filesystem::exists(path_of(key));
        if (!key.is_symmetric()) done = done && std::filesystem::exists(path_of(key.mirror()));
        return done;
    };
    const auto build_pair = [&](const MaterialSignature& key) {
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        // Refused before it starts if its values and scratch do not fit
        // beside a reserve for the rest of the process.
        constexpr std::uint64_t kReserve = std::uint64_t{256} << 20;
        const std::uint64_t memory_bytes = options.memory_bytes;
        if (const std::uint64_t need = solver.memory_bound(key) + kReserve; memory_bytes && need > memory_bytes)
            throw std::runtime_error("the .dtc tables of " + key.name() + "'s pair need " + format_bytes(need) +
                                     ", more than the " + format_bytes(memory_bytes) +
                                     " allowed (--memory); give more, or build without --dtc");
        const auto start = std::chrono::steady_clock::now();
        solver.forget();
        solver.open_files(dir, RuleSolver<V>::conversion_closure(key));
        // The levels the WDL/DTW build kept (dtb gen --dtc), where it did.
        const std::filesystem::path exact = exact_levels_dir(dir, V::id, key);
        solver.set_exact_levels(std::filesystem::exists(exact) ? exact : std::filesystem::path());
        ProgressLine line(options.show_progress, table_basename(V::id, key) + ".dtc");
        const auto progress = [&](const std::string& stage) {
            if (options.progress) options.progress(key, stage);
            line.update(stage, 0, 0);
        };
        const std::vector<compress::Header> headers = solver.build_pair(key, dir, options.threads, progress);
        solver.set_exact_levels({});
        std::error_code left;  // left behind if it cannot be removed: never read again once the .dtc files exist
        std::filesystem::remove_all(exact, left);
        std::vector<DtcTableStats> pair;
        for (std::size_t k = 0; k < sides.size(); ++k) {
            const compress::Header& h = headers.at(k);
            pair.push_back({sides[k], h.position_count, h.file_size, h.table.longest_win, h.table.longest_loss, 0});
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (DtcTableStats& t : pair) {
            t.seconds = seconds;
            log << std::left << std::setw(12) << t.signature.name() << std::right << std::setw(12) << t.positions
                << " positions " << std::setw(11) << t.bytes << " bytes .dtc  longest win " << t.longest_win
                << " plies to conversion  " << std::fixed << std::setprecision(2) << seconds << " s" << std::endl;
            built.push_back(t);
        }
    };
    std::vector<MaterialSignature> todo;
    for (const MaterialSignature& key : solving_order(targets)) {
        if (!pair_done(key)) {
            todo.push_back(key);
            continue;
        }
        std::error_code left;  // levels kept for a pair whose .dtc files were written after all
        std::filesystem::remove_all(exact_levels_dir(dir, V::id, key), left);
    }
    const Cluster* team = options.cluster && options.cluster->size() > 1 ? options.cluster : nullptr;
    // Every process finds what is left before any writes a pair: one that
    // looked later would find a pair done and number its waves apart from
    // the others', and read a pair another process is still writing.
    if (team) team->barrier();
    if (!team) {
        for (const MaterialSignature& key : todo) build_pair(key);
    } else {
        // Each wave's pairs shared out; a wave starts once every process has
        // written the pairs of the waves before it, which it reads. A
        // failure on one process stops all of them at the end of the wave.
        for (const auto& wave : waves_of(todo)) {
            std::exception_ptr failure;
            try {
                for (const MaterialSignature& key : share_of(V::id, wave, team->rank(), team->size())) build_pair(key);
            } catch (...) {
                failure = std::current_exception();
            }
            if (team->any(failure != nullptr)) {
                if (failure) std::rethrow_exception(failure);
                throw std::runtime_error("another process of this run failed (its message names the cause)");
            }
        }
    }
    solver.forget();
    if (!team || team->rank() == 0) {
        std::error_code left;  // removed once no pair's scratch files are in it
        std::filesystem::remove(dir / ".dtb-work", left);
    }
    return team ? team->gather(built) : built;
}

}  // namespace

std::vector<VerifyReport> verify_dtc_tables(VariantId variant, const std::filesystem::path& dir, std::ostream& log,
                                            const std::vector<MaterialSignature>& only, std::uint64_t whole_below) {
    return with_variant(variant, [&]<class V>() { return verify<V>(dir, log, only, whole_below); });
}

std::vector<DtcTableStats> build_dtc_tables(VariantId variant, const std::vector<MaterialSignature>& targets,
                                            const std::filesystem::path& dir, std::ostream& log,
                                            const DtcBuildOptions& options) {
    if (options.threads > 0) omp_set_num_threads(options.threads);
    return with_variant(variant, [&]<class V>() { return build<V>(targets, dir, log, options); });
}

std::vector<DtcTableStats> build_dtc_tables(VariantId variant, const std::vector<MaterialSignature>& targets,
                                            const std::filesystem::path& dir, int threads, std::ostream& log,
                                            std::uint64_t memory_bytes) {
    DtcBuildOptions options;
    options.threads = threads;
    options.memory_bytes = memory_bytes;
    return build_dtc_tables(variant, targets, dir, log, options);
}

}  // namespace dtb
