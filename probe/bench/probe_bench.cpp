// Probe latency and throughput on real tables, through the C API.
//
//   DTB_BENCH_DIR=tables [DTB_BENCH_VARIANT=russian] probe_bench
//
// Positions are drawn at random from the tables with the most pieces in
// the directory (uniformly over their positions, either side to move):
// "quiet" ones, whose side to move has no capture (one table read: what an
// engine mostly probes), and "any" (capture positions included, which the
// probe resolves by searching the captures).
//
//   warm        the blocks are in the cache (every position probed once
//               before timing)
//   nocache     a handle without cache: every probe checks and
//               decompresses its block (the file is open and mapped)
//   cold        a fresh handle for every probe: the file is opened,
//               mapped and validated, then the block decompressed. The OS
//               page cache is left as it is (warm after the first runs).
//
//   hot         256 quiet positions over and over (their blocks stay in
//               the processor's caches): the probe's own work
//   cached      the conditional probes (dtb_probe_wdl_cached, ...) on the
//               warm handle: all answered from memory
//   threads:N   N threads probing one handle; with real time,
//               items_per_second is the total rate of all threads
//   PreloadWdl  dtb_preload of every WDL table of the variant into a
//               fresh handle (one whose cache holds them all)
//
// Each probe is timed on its own (steady_clock, some 20 ns of which is the
// clock itself); the counters median_ns and p99_ns are over all timed
// probes of a thread (averaged over the threads). items_per_second is
// the throughput.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

#include "dtb/adjudication.h"
#include "dtb/probe.h"
#include "probe/convert.hpp"
#include "probe/tablebase.hpp"

namespace {

using namespace dtb;
using Clock = std::chrono::steady_clock;

struct Setup {
    std::string dir;
    int variant = DTB_RUSSIAN;
    int pieces = 0;
    std::vector<dtb_position> quiet, any;
};

template <class V>
void draw_positions(Setup& s, const std::vector<MaterialSignature>& sigs) {
    std::mt19937_64 rng(20240601);
    std::vector<std::uint64_t> sizes;
    for (const auto& sig : sigs) sizes.push_back(PositionIndex<V>(sig).size());
    std::discrete_distribution<std::size_t> pick(sizes.begin(), sizes.end());
    while (s.quiet.size() < 100000 || s.any.size() < 100000) {
        const std::size_t t = pick(rng);
        Position<V> pos = PositionIndex<V>(sigs[t]).unrank(rng() % sizes[t]);
        if (rng() % 2) pos = flip(pos);
        const dtb_position c = probe::to_c(pos);
        if (s.any.size() < 100000) s.any.push_back(c);
        if (s.quiet.size() < 100000 && !MoveGenerator<V>::has_capture(pos)) s.quiet.push_back(c);
    }
}

const Setup& setup() {
    static const Setup s = [] {
        Setup s;
        const char* dir = std::getenv("DTB_BENCH_DIR");
        s.dir = dir ? dir : "tables";
        const char* variant = std::getenv("DTB_BENCH_VARIANT");
        const auto parsed = parse_variant(variant ? variant : "russian");
        if (!parsed) throw std::invalid_argument("DTB_BENCH_VARIANT: use " + variant_choices());
        const VariantId id = *parsed;
        s.variant = probe::c_variant(id);
        std::vector<MaterialSignature> sigs;
        for (const auto& entry : std::filesystem::directory_iterator(s.dir)) {
            const auto name = probe::probed_table_name(entry.path().filename().string());
            if (!name || name->variant != id || name->metric != compress::Metric::wdl) continue;
            if (name->signature.total() > s.pieces) {
                s.pieces = name->signature.total();
                sigs.clear();
            }
            if (name->signature.total() == s.pieces) sigs.push_back(name->signature);
        }
        if (sigs.empty()) {
            std::cerr << "no " << variant_name(id) << " tables in " << s.dir << " (set DTB_BENCH_DIR)\n";
            std::exit(2);
        }
        with_variant(id, [&]<class V>() { draw_positions<V>(s, sigs); });
        std::cerr << s.pieces << "-piece " << variant_name(id) << " positions from " << sigs.size() << " tables in "
                  << s.dir << "\n";
        return s;
    }();
    return s;
}

dtb_tablebase* open_handle(std::size_t cache_bytes) {
    const char* dirs[] = {setup().dir.c_str()};
    const dtb_options options{cache_bytes};
    dtb_tablebase* tb = nullptr;
    char err[512];
    if (dtb_open(dirs, 1, &options, &tb, err, sizeof err) != DTB_OK) {
        std::cerr << err << '\n';
        std::exit(2);
    }
    return tb;
}

using ProbeFn = int (*)(dtb_tablebase*, const dtb_position*, dtb_value*);

// One shared, warmed handle (a cache large enough for every block probed:
// on the Russian 6-piece tables, some 950 MiB).
dtb_tablebase* warm_handle() {
    static dtb_tablebase* tb = [] {
        dtb_tablebase* t = open_handle(std::size_t{2} << 30);
        dtb_value v;
        for (const auto* pool : {&setup().quiet, &setup().any})
            for (const dtb_position& p : *pool)
                if (dtb_probe_dtw(t, &p, &v) != DTB_OK) {
                    std::cerr << dtb_error_message(t) << '\n';
                    std::exit(2);
                }
        dtb_cache_info info{};
        dtb_cache_stats(t, &info);
        std::cerr << "warm handle: " << info.blocks << " blocks, " << (info.bytes >> 20) << " MiB, " << info.evictions
                  << " evictions\n";
        return t;
    }();
    return tb;
}

void report(benchmark::State& state, std::vector<double>& ns) {
    if (ns.empty()) return;
    std::sort(ns.begin(), ns.end());
    // Averaged over the threads (each reports its own; the default sums).
    state.counters["median_ns"] = benchmark::Counter(ns[ns.size() / 2], benchmark::Counter::kAvgThreads);
    state.counters["p99_ns"] = benchmark::Counter(ns[ns.size() * 99 / 100], benchmark::Counter::kAvgThreads);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void probe_loop(benchmark::State& state, dtb_tablebase* tb, ProbeFn fn, const std::vector<dtb_position>& pool) {
    std::vector<double> ns;
    ns.reserve(1 << 20);
    std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919;
    for (auto _ : state) {
        const dtb_position& p = pool[i++ % pool.size()];
        dtb_value v;
        const auto t0 = Clock::now();
        const int status = fn(tb, &p, &v);
        const auto t1 = Clock::now();
        benchmark::DoNotOptimize(v);
        if (status != DTB_OK) state.SkipWithError(dtb_status_name(status));
        if (ns.size() < ns.capacity()) ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
    }
    report(state, ns);
}

void BM_WdlWarmQuiet(benchmark::State& state) { probe_loop(state, warm_handle(), dtb_probe_wdl, setup().quiet); }
void BM_DtwWarmQuiet(benchmark::State& state) { probe_loop(state, warm_handle(), dtb_probe_dtw, setup().quiet); }
void BM_WdlWarmAny(benchmark::State& state) { probe_loop(state, warm_handle(), dtb_probe_wdl, setup().any); }
void BM_DtwWarmAny(benchmark::State& state) { probe_loop(state, warm_handle(), dtb_probe_dtw, setup().any); }

// The values under the counts (dtb_probe_dtc: rule-aware value and DTC),
// when the directory holds the .dtc tables (dtb gen --dtc); a handle of
// its own, warmed on both pools. Reported as an error otherwise.
int probe_dtc_value(dtb_tablebase* tb, const dtb_position* p, dtb_value* v) {
    int wdl = 0, dtc = -1;
    const int s = dtb_probe_dtc(tb, p, &wdl, &dtc);
    *v = dtb_value{wdl, dtc};
    return s;
}

dtb_tablebase* warm_dtc_handle() {
    static dtb_tablebase* tb = [] {
        dtb_tablebase* t = open_handle(std::size_t{2} << 30);
        dtb_value v;
        for (const auto* pool : {&setup().quiet, &setup().any})
            for (const dtb_position& p : *pool) probe_dtc_value(t, &p, &v);
        return t;
    }();
    return tb;
}

void BM_DtcWarmQuiet(benchmark::State& state) { probe_loop(state, warm_dtc_handle(), probe_dtc_value, setup().quiet); }
void BM_DtcWarmAny(benchmark::State& state) { probe_loop(state, warm_dtc_handle(), probe_dtc_value, setup().any); }

// dtb_adjudicate_counts from the .dtc tables at counts drawn from the
// position's place in the pool (the stronger side's moves 0-15, king moves
// and moves since conversion 0-15).
void BM_AdjudicateDtcAny(benchmark::State& state) {
    dtb_tablebase* tb = warm_dtc_handle();
    const std::vector<dtb_position>& pool = setup().any;
    std::vector<double> ns;
    ns.reserve(1 << 20);
    std::size_t i = 0;
    for (auto _ : state) {
        const dtb_position& p = pool[i % pool.size()];
        const int m = int(i % 16), k = int((i / 16) % 16), c = int((i / 7) % 16);
        ++i;
        dtb_adjudication a;
        const auto t0 = Clock::now();
        const int status = dtb_adjudicate_counts(tb, &p, m, std::min(k, c), c, &a);
        const auto t1 = Clock::now();
        benchmark::DoNotOptimize(a);
        if (status != DTB_OK) state.SkipWithError(dtb_status_name(status));
        if (ns.size() < ns.capacity()) ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
    }
    report(state, ns);
}

// 256 quiet positions probed over and over: their blocks stay in the
// processor's caches, so this is the probe's own work (index, table,
// cache look-up) without the memory latency of a random block.
const std::vector<dtb_position>& hot_pool() {
    static const std::vector<dtb_position> pool(setup().quiet.begin(), setup().quiet.begin() + 256);
    return pool;
}
void BM_WdlHotQuiet(benchmark::State& state) { probe_loop(state, warm_handle(), dtb_probe_wdl, hot_pool()); }
void BM_DtwHotQuiet(benchmark::State& state) { probe_loop(state, warm_handle(), dtb_probe_dtw, hot_pool()); }
void BM_WdlCachedHotQuiet(benchmark::State& state) {
    probe_loop(state, warm_handle(), dtb_probe_wdl_cached, hot_pool());
}

// Conditional probes on the warm handle: every block is cached, so each
// must answer (DTB_NOT_CACHED would be an error here).
void BM_WdlCachedQuiet(benchmark::State& state) {
    probe_loop(state, warm_handle(), dtb_probe_wdl_cached, setup().quiet);
}
void BM_DtwCachedQuiet(benchmark::State& state) {
    probe_loop(state, warm_handle(), dtb_probe_dtw_cached, setup().quiet);
}
void BM_WdlCachedAny(benchmark::State& state) { probe_loop(state, warm_handle(), dtb_probe_wdl_cached, setup().any); }

// dtb_preload of every WDL table up to the largest into a fresh handle
// (a cache large enough for all of them): the time an engine waits at
// startup.
void BM_PreloadWdl(benchmark::State& state) {
    dtb_preload_report r{};
    for (auto _ : state) {
        dtb_tablebase* tb = open_handle(std::size_t{4} << 30);
        const auto t0 = Clock::now();
        const int status = dtb_preload(tb, setup().variant, setup().pieces, DTB_PRELOAD_WDL, &r);
        const auto t1 = Clock::now();
        if (status != DTB_OK) state.SkipWithError(dtb_error_message(tb));
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
        dtb_close(tb);
    }
    state.counters["tables"] = static_cast<double>(r.tables);
    state.counters["MiB"] = static_cast<double>(r.bytes_cached) / (1 << 20);
    state.counters["complete"] = r.complete;
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * r.bytes_cached));
}

void nocache(benchmark::State& state, ProbeFn fn) {
    static dtb_tablebase* tb = open_handle(0);
    probe_loop(state, tb, fn, setup().quiet);
}
void BM_WdlNoCacheQuiet(benchmark::State& state) { nocache(state, dtb_probe_wdl); }
void BM_DtwNoCacheQuiet(benchmark::State& state) { nocache(state, dtb_probe_dtw); }

// A fresh handle per probe; only the probe is timed.
void cold(benchmark::State& state, ProbeFn fn) {
    const auto& pool = setup().quiet;
    std::vector<double> ns;
    std::size_t i = 0;
    for (auto _ : state) {
        dtb_tablebase* tb = open_handle(std::size_t{64} << 20);
        dtb_value v;
        const auto t0 = Clock::now();
        const int status = fn(tb, &pool[i++ % pool.size()], &v);
        const auto t1 = Clock::now();
        if (status != DTB_OK) state.SkipWithError(dtb_error_message(tb));
        const double elapsed = std::chrono::duration<double>(t1 - t0).count();
        state.SetIterationTime(elapsed);
        ns.push_back(elapsed * 1e9);
        dtb_close(tb);
    }
    report(state, ns);
}
void BM_WdlColdHandleQuiet(benchmark::State& state) { cold(state, dtb_probe_wdl); }
void BM_DtwColdHandleQuiet(benchmark::State& state) { cold(state, dtb_probe_dtw); }

void BM_BestMoveWarm(benchmark::State& state) {
    dtb_tablebase* tb = warm_handle();
    const auto& pool = setup().quiet;
    std::size_t i = 0;
    for (auto _ : state) {
        dtb_move m;
        dtb_value v;
        const int status = dtb_best_move(tb, &pool[i++ % pool.size()], &m, &v);
        if (status != DTB_OK && status != DTB_NO_MOVE) state.SkipWithError(dtb_error_message(tb));
        benchmark::DoNotOptimize(m);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

}  // namespace

BENCHMARK(BM_WdlWarmQuiet);
BENCHMARK(BM_DtwWarmQuiet);
BENCHMARK(BM_WdlWarmAny);
BENCHMARK(BM_DtcWarmQuiet);
BENCHMARK(BM_DtcWarmAny);
BENCHMARK(BM_AdjudicateDtcAny);
BENCHMARK(BM_DtwWarmAny);
BENCHMARK(BM_WdlHotQuiet);
BENCHMARK(BM_DtwHotQuiet);
BENCHMARK(BM_WdlCachedHotQuiet);
BENCHMARK(BM_WdlCachedQuiet);
BENCHMARK(BM_DtwCachedQuiet);
BENCHMARK(BM_WdlCachedAny);
// Scaling on one handle: items_per_second of threads:2 over threads:1
// (both in real time, so both are the total rate). On a machine whose
// cores are busy with other work, compare the CPU time per probe instead
// (the CPU column: all threads' CPU time over all their probes), which is
// what the threads cost each other.
BENCHMARK(BM_WdlWarmQuiet)->Threads(1)->UseRealTime();
BENCHMARK(BM_WdlWarmQuiet)->Threads(2)->UseRealTime();
BENCHMARK(BM_DtwWarmQuiet)->Threads(1)->UseRealTime();
BENCHMARK(BM_DtwWarmQuiet)->Threads(2)->UseRealTime();
BENCHMARK(BM_WdlCachedQuiet)->Threads(1)->UseRealTime();
BENCHMARK(BM_WdlCachedQuiet)->Threads(2)->UseRealTime();
// The same with the blocks in the processor's caches: any write to a line
// the threads share would show here first.
BENCHMARK(BM_WdlHotQuiet)->Threads(1)->UseRealTime();
BENCHMARK(BM_WdlHotQuiet)->Threads(2)->UseRealTime();
BENCHMARK(BM_PreloadWdl)->UseManualTime()->Iterations(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WdlNoCacheQuiet);
BENCHMARK(BM_DtwNoCacheQuiet);
BENCHMARK(BM_WdlColdHandleQuiet)->UseManualTime()->Iterations(2000);
BENCHMARK(BM_DtwColdHandleQuiet)->UseManualTime()->Iterations(2000);
BENCHMARK(BM_BestMoveWarm);

BENCHMARK_MAIN();
