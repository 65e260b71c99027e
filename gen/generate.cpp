#include "gen/generate.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "compress/atomic_file.hpp"
#include "gen/cluster.hpp"
#include "gen/pair_builder.hpp"
#include "gen/pair_waves.hpp"
#include "gen/progress_line.hpp"
#include "tables/manifest.hpp"
#include "tables/signatures.hpp"
#include "tables/table_names.hpp"

namespace dtb {

std::filesystem::path raw_table_path(const std::filesystem::path& dir, VariantId variant,
                                     const MaterialSignature& sig) {
    return dir / table_file_name(variant, sig, compress::Metric::exact);
}

std::filesystem::path manifest_path(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig) {
    return dir / manifest_file_name(variant, sig);
}

void reset_peak_resident_bytes() {
    // Writing 5 to clear_refs resets the high-water mark (Linux 4.0 and later).
    std::ofstream("/proc/self/clear_refs") << "5";
}

std::uint64_t peak_resident_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

namespace {

using Clock = std::chrono::steady_clock;

// A finished table: its files written, the manifest last.
bool is_finished(const GenerateOptions& o, const MaterialSignature& sig) {
    const auto exists = [&](compress::Metric m) {
        return std::filesystem::exists(o.dir / table_file_name(o.variant, sig, m));
    };
    return std::filesystem::exists(manifest_path(o.dir, o.variant, sig)) && exists(compress::Metric::wdl) &&
           exists(compress::Metric::dtw) && (!o.keep_raw || exists(compress::Metric::exact));
}

void write_manifest(const std::filesystem::path& path, VariantId variant, const TableStats& s) {
    compress::write_file_atomically(path, manifest_json(variant, s));
}

// How one pair is built: by this process alone or by a team, with the whole
// memory limit or a share of it (pairs side by side), with the live
// progress line or not.
struct PairRun {
    const Cluster* team = nullptr;
    MemoryBudget memory;
    bool alone = true;                // the only pair in progress: its own progress line and peak memory
    std::mutex* hook_lock = nullptr;  // stage hooks of pairs side by side are called one at a time
};

template <class V>
std::vector<TableStats> build_pair(const MaterialSignature& key, const GenerateOptions& o, const PairRun& run) {
    if (run.alone) reset_peak_resident_bytes();  // so that each manifest's peak is its own pair's
    ProgressLine progress_line(o.progress && run.alone, table_basename(o.variant, key));
    PairSettings settings;
    settings.variant = o.variant;
    settings.dir = o.dir;
    settings.memory = run.memory;
    settings.keep_raw = o.keep_raw;
    settings.format_version = o.format_version;
    settings.parallel_positions = o.parallel_positions;
    settings.held_slices_positions = o.held_slices_positions;
    settings.keep_exact_levels = o.keep_exact_levels;
    settings.exact_values = o.exact_values;
    settings.team = run.team;
    settings.progress = SolveProgress{[&](const std::string& stage, std::uint64_t done, std::uint64_t total) {
        if (o.stage_hook) {
            std::unique_lock<std::mutex> lock;
            if (run.hook_lock) lock = std::unique_lock(*run.hook_lock);
            o.stage_hook(key, stage);
        }
        progress_line.update(stage, done, total);
    }};
    PairBuilder<V> builder(key, settings);
    std::vector<TableStats> stats = builder.build();
    const std::uint64_t peak = peak_resident_bytes();
    for (TableStats& s : stats) s.peak_rss_bytes = peak;
    return stats;
}

}  // namespace

namespace {

// For each of `keys`, the others it leads into (by a capture or a
// crowning), by their place in `keys`.
std::vector<std::vector<std::size_t>> needs_among(const std::vector<MaterialSignature>& keys) {
    std::map<MaterialSignature, std::size_t> place;
    for (std::size_t i = 0; i < keys.size(); ++i) place[keys[i]] = i;
    std::vector<std::vector<std::size_t>> needs(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
        for (const MaterialSignature& side : {keys[i], keys[i].mirror()})
            for (const MaterialSignature& child : successor_signatures(side))
                if (const auto it = place.find(pair_key(child)); it != place.end() && it->second != i)
                    needs[i].push_back(it->second);
    return needs;
}

// For each of `keys`, the positions of the longest chain of pairs that
// starts with it and goes through the pairs that lead into it: what must
// still be solved one after another once it is done, counted in positions.
std::vector<std::uint64_t> chains_of(const std::vector<std::vector<std::size_t>>& needs,
                                     const std::vector<std::uint64_t>& positions) {
    const std::size_t n = needs.size();
    std::vector<std::vector<std::size_t>> needed_by(n);
    for (std::size_t i = 0; i < n; ++i)
        for (const std::size_t j : needs[i]) needed_by[j].push_back(i);
    std::vector<std::uint64_t> chain(n, 0);
    std::vector<bool> known(n, false);
    const auto length = [&](const auto& self, std::size_t i) -> std::uint64_t {  // the needs have no cycle
        if (!known[i]) {
            std::uint64_t longest = 0;
            for (const std::size_t k : needed_by[i]) longest = std::max(longest, self(self, k));
            chain[i] = positions[i] + longest;
            known[i] = true;
        }
        return chain[i];
    };
    for (std::size_t i = 0; i < n; ++i) length(length, i);
    return chain;
}

// Builds `keys` (of `positions` each) side by side on `threads` threads,
// each with as many shares of the memory as threads it runs on. A pair
// starts once the pairs of `keys` it leads into are done (those outside
// `keys` must be finished before). Of the pairs ready, the one at the head
// of the longest chain still to solve goes first: started late, such a
// chain leaves the other threads idle at the end. A pair runs on one thread
// while pairs enough are ready for every free thread; when fewer are, each
// takes an equal part of the free threads (its own loops run on them), so
// that the threads do not idle while a chain of pairs is solved one after
// another. Returns their stats in the order of `keys` (the manifests are
// written as each pair finishes). After a failure no other pair is
// started; the first failure is rethrown once the pairs in progress are
// done.
template <class Build>
std::vector<TableStats> build_side_by_side(const std::vector<MaterialSignature>& keys,
                                           const std::vector<std::uint64_t>& positions, int threads,
                                           const MemoryBudget& memory, const Build& build, bool progress) {
    if (keys.empty()) return {};
    const std::size_t n = keys.size();
    const auto needs = needs_among(keys);
    const auto chain = chains_of(needs, positions);
    std::vector<std::vector<TableStats>> stats(n);
    std::vector<std::exception_ptr> failures(n);
    std::vector<bool> started(n, false), done(n, false);
    std::mutex lock, hook_lock;
    std::condition_variable changed;
    bool failed = false;
    std::size_t finished = 0;
    int free_threads = threads;
    ProgressLine line(progress, std::to_string(n) + " pairs side by side");
    reset_peak_resident_bytes();  // each manifest records the peak of its batch so far
    // Plain threads, not an OpenMP team: each is then the master of its
    // pair's own OpenMP team, which the runtime keeps from one pair to the
    // next (the teams of a nested region are started afresh every time).
    const auto work = [&] {
        std::unique_lock guard(lock);
        while (!failed) {
            std::size_t pick = n, ready = 0;
            bool waiting = false;  // a pair not started, whose needs are not all done
            for (std::size_t i = 0; i < n; ++i) {
                if (started[i]) continue;
                if (std::all_of(needs[i].begin(), needs[i].end(), [&](std::size_t j) { return done[j]; })) {
                    ++ready;
                    if (pick == n || chain[i] > chain[pick]) pick = i;
                } else {
                    waiting = true;
                }
            }
            if (pick == n && !waiting) break;
            if (pick == n || free_threads == 0) {
                changed.wait(guard);  // a pair in progress will make one ready, or free its threads
                continue;
            }
            const int share = ready >= std::size_t(free_threads) ? 1 : free_threads / int(ready);
            free_threads -= share;
            started[pick] = true;
            guard.unlock();
            omp_set_num_threads(share);
            try {
                stats[pick] = build(keys[pick], PairRun{nullptr, memory.shared(threads, share), false, &hook_lock});
            } catch (...) {
                failures[pick] = std::current_exception();
            }
            guard.lock();
            free_threads += share;
            failed = failed || failures[pick] != nullptr;
            done[pick] = true;
            ++finished;
            line.update(std::to_string(finished) + " done", 0, 0);
            changed.notify_all();
        }
    };
    {
        std::vector<std::jthread> workers;
        for (int t = 0; t < threads; ++t) workers.emplace_back(work);
    }
    std::vector<TableStats> all;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (failures[i]) std::rethrow_exception(failures[i]);
        all.insert(all.end(), stats[i].begin(), stats[i].end());
    }
    return all;
}

void log_table(std::ostream& log, const TableStats& s) {
    log << std::left << std::setw(10) << s.signature.name() << std::right << std::setw(13) << s.positions
        << " positions (index waste " << std::fixed << std::setprecision(1) << s.index_waste_percent() << "%)  "
        << std::setw(11) << s.wins << " won " << std::setw(11) << s.draws << " drawn " << std::setw(11) << s.losses
        << " lost  longest win " << s.longest_win << "  " << std::setprecision(2) << s.seconds << " s\n";
}

}  // namespace

std::vector<TableStats> generate_tables(const GenerateOptions& o, std::ostream& log) {
    std::filesystem::create_directories(o.dir);
    if (o.threads > 0) omp_set_num_threads(o.threads);
    const int rank = o.cluster ? o.cluster->rank() : 0, size = o.cluster ? o.cluster->size() : 1;
    std::vector<MaterialSignature> targets;
    if (o.only)
        targets.push_back(*o.only);
    else
        targets = all_signatures(o.variant, o.max_pieces);
    std::vector<MaterialSignature> todo;
    for (const MaterialSignature& key : solving_order(targets))
        if (!is_finished(o, key) || !is_finished(o, key.mirror())) todo.push_back(key);
    const MemoryBudget memory(o.memory_bytes ? o.memory_bytes : default_memory_bytes());
    std::vector<TableStats> built;
    const auto record = [&](const std::vector<TableStats>& stats) {
        for (const TableStats& s : stats) {
            log_table(log, s);
            built.push_back(s);
        }
        log << std::flush;  // a pair at a time, also into a file: a killed run keeps its lines
    };
    const auto build = [&](const MaterialSignature& key, const PairRun& run) {
        const auto stats = with_variant(o.variant, [&]<class V>() { return build_pair<V>(key, o, run); });
        for (const TableStats& s : stats) write_manifest(manifest_path(o.dir, o.variant, s.signature), o.variant, s);
        return stats;
    };
    // A failure on one process (a damaged file, a full disk) stops every
    // process at the same point, so none waits for ever: after each pair
    // solved together, and at the end of each wave.
    const auto stop_together = [&](const std::exception_ptr& failure) {
        if (size == 1) {
            if (failure) std::rethrow_exception(failure);
            return;
        }
        if (!o.cluster->any(failure != nullptr)) return;
        if (failure) std::rethrow_exception(failure);
        throw std::runtime_error("another process of this run failed (its message names the cause)");
    };
    const int threads = omp_get_max_threads();
    // Small pairs waiting to be built side by side. A process alone lets
    // them run on into the following waves (each starts when what it needs
    // is done); in a team, each wave ends when every process has built its
    // share of it.
    std::vector<MaterialSignature> batch;
    const auto waves = waves_of(todo);
    for (std::size_t w = 0; w < waves.size(); ++w) {
        const auto& wave = waves[w];
        // The large pairs first, each by every process together; then the
        // others, each whole by one process.
        std::vector<MaterialSignature> together, alone;
        for (const MaterialSignature& key : wave)
            (size > 1 && pair_positions(o.variant, key) >= o.split_pair_positions ? together : alone).push_back(key);
        for (const MaterialSignature& key : together) {
            std::exception_ptr failure;
            try {
                record(build(key, PairRun{o.cluster, memory}));
            } catch (...) {
                failure = std::current_exception();
            }
            stop_together(failure);
        }
        // Of this process's pairs, the large ones with every thread, then
        // the small ones side by side (build_side_by_side decides their
        // order and how many threads each takes).
        std::vector<MaterialSignature> one_by_one, side_by_side;
        for (const MaterialSignature& key : share_of(o.variant, alone, rank, size))
            (threads > 1 && pair_positions(o.variant, key) < o.side_by_side_positions ? side_by_side : one_by_one)
                .push_back(key);
        std::exception_ptr failure;
        try {
            const auto build_batch = [&] {
                std::vector<std::uint64_t> positions;
                for (const MaterialSignature& key : batch) positions.push_back(pair_positions(o.variant, key));
                record(build_side_by_side(batch, positions, threads, memory, build, o.progress));
                batch.clear();
            };
            if (!one_by_one.empty()) build_batch();  // what they may need
            for (const MaterialSignature& key : one_by_one) record(build(key, PairRun{nullptr, memory}));
            batch.insert(batch.end(), side_by_side.begin(), side_by_side.end());
            if (size > 1 || w + 1 == waves.size()) build_batch();
        } catch (...) {
            failure = std::current_exception();
        }
        stop_together(failure);
    }
    if (rank == 0) {
        std::error_code busy;  // not empty: a pair was left unfinished
        std::filesystem::remove_all(full_sides_dir(o.dir), busy);
        if (!o.keep_exact_values) std::filesystem::remove_all(exact_values_dir(o.dir), busy);
        std::filesystem::remove(o.dir / ".dtb-work", busy);
    }
    return o.cluster ? o.cluster->gather(built) : built;
}

}  // namespace dtb
