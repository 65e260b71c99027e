// Read latency and write throughput of table files on synthetic tables
// (tests/compress/synthetic.hpp), to choose the block size and zstd level.
// Re-run on real tables once the generator writes them: the synthetic data
// only approximates their structure. Run:
//   build-bench/bin/compress_bench --benchmark_counters_tabular=true
// Arguments of each benchmark: positions per block, then 0 for WDL (1-byte
// symbols) or 1 for DTW (2-byte symbols), then the zstd level where it applies.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>

#include "compress/table_file.hpp"
#include "tests/compress/synthetic.hpp"

namespace dtb::compress {
namespace {

constexpr std::size_t kPositions = std::size_t{1} << 22;  // 4 M positions: 4 or 8 MiB raw

std::filesystem::path bench_dir() {
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path() / ("dtb_compress_bench_" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

const synthetic::Table& synthetic_table(bool dtw) {
    static const synthetic::Table wdl = synthetic::make(kPositions, false);
    static const synthetic::Table dtw_table = synthetic::make(kPositions, true);
    return dtw ? dtw_table : wdl;
}

Header write(const std::filesystem::path& path, bool dtw, std::uint32_t per_block, int level,
             std::vector<std::uint32_t> strides = {}) {
    const auto& t = synthetic_table(dtw);
    WriterOptions options;
    options.positions_per_block = per_block;
    options.zstd_level = level;
    options.fill_strides = std::move(strides);
    TableDescription d;
    d.metric = dtw ? Metric::dtw : Metric::wdl;
    if (dtw) return write_table(path, d, std::span(t.values), DontCare::bytes(t.dont_care), options);
    static const std::vector<std::uint8_t> narrow(t.values.begin(), t.values.end());
    return write_table(path, d, std::span(narrow), DontCare::bytes(t.dont_care), options);
}

// One file per (block size, metric) at the default level, written once.
const std::filesystem::path& table_path(std::uint32_t per_block, bool dtw) {
    static std::map<std::pair<std::uint32_t, bool>, std::filesystem::path> written;
    auto [it, fresh] = written.try_emplace({per_block, dtw});
    if (fresh) {
        it->second = bench_dir() / ("t_" + std::to_string(per_block) + (dtw ? "_dtw" : "_wdl") + ".dtb");
        write(it->second, dtw, per_block, WriterOptions{}.zstd_level);
    }
    return it->second;
}

void BM_Write(benchmark::State& state) {
    const auto per_block = static_cast<std::uint32_t>(state.range(0));
    const bool dtw = state.range(1) != 0;
    const int level = static_cast<int>(state.range(2));
    synthetic_table(dtw);  // generated outside the timing
    Header h;
    for (auto _ : state) h = write(bench_dir() / "write.dtb", dtw, per_block, level);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kPositions * (dtw ? 2 : 1)));
    state.counters["bits/pos"] = static_cast<double>(h.file_size) * 8 / kPositions;
    state.counters["file_KiB"] = static_cast<double>(h.file_size) / 1024;
}

// The same with strided don't-care fills tried per block (32 and 1024: the
// periods of the synthetic index).
void BM_WriteFillStrides(benchmark::State& state) {
    const auto per_block = static_cast<std::uint32_t>(state.range(0));
    const bool dtw = state.range(1) != 0;
    const int level = static_cast<int>(state.range(2));
    synthetic_table(dtw);
    Header h;
    for (auto _ : state) h = write(bench_dir() / "write.dtb", dtw, per_block, level, {32, 1024});
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kPositions * (dtw ? 2 : 1)));
    state.counters["bits/pos"] = static_cast<double>(h.file_size) * 8 / kPositions;
    state.counters["file_KiB"] = static_cast<double>(h.file_size) / 1024;
}

// Probes of random positions whose block is always in the cache.
void BM_ReadWarm(benchmark::State& state) {
    const auto per_block = static_cast<std::uint32_t>(state.range(0));
    const bool dtw = state.range(1) != 0;
    static std::unique_ptr<TableFile> table;  // shared by the benchmark's threads
    if (state.thread_index() == 0) {
        auto t = TableFile::open(table_path(per_block, dtw), std::make_shared<BlockCache>(std::size_t{256} << 20));
        if (!t) state.SkipWithError(t.error().message.c_str());
        table = std::move(*t);
        for (std::uint64_t i = 0; i < kPositions; i += per_block) benchmark::DoNotOptimize(table->read(i));
    }
    std::mt19937_64 rng(static_cast<std::uint64_t>(state.thread_index()) + 1);
    for (auto _ : state) {
        auto v = table->read(rng() % kPositions);
        benchmark::DoNotOptimize(v);
    }
    if (state.thread_index() == 0) table.reset();
}

// Probes whose block is never in the cache: the checksum and decompression
// of one block each time (the file itself stays in the page cache).
void BM_ReadCold(benchmark::State& state) {
    const auto per_block = static_cast<std::uint32_t>(state.range(0));
    const bool dtw = state.range(1) != 0;
    auto t = TableFile::open(table_path(per_block, dtw), nullptr);
    if (!t) state.SkipWithError(t.error().message.c_str());
    std::mt19937_64 rng(1);
    for (auto _ : state) {
        auto v = (*t)->read(rng() % kPositions);
        benchmark::DoNotOptimize(v);
    }
}

void BM_Verify(benchmark::State& state) {
    auto t = TableFile::open(table_path(static_cast<std::uint32_t>(state.range(0)), state.range(1) != 0), nullptr);
    if (!t) state.SkipWithError(t.error().message.c_str());
    for (auto _ : state) benchmark::DoNotOptimize((*t)->verify());
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kPositions));
}

void block_sizes(benchmark::internal::Benchmark* b) {
    for (const std::int64_t dtw : {0, 1})
        for (const std::int64_t per_block : {1024, 4096, 16384, 65536}) b->Args({per_block, dtw});
}

BENCHMARK(BM_Write)
    ->ArgsProduct({{4096}, {0, 1}, {3, 9, 15, 19}})
    ->ArgsProduct({{1024, 16384, 65536}, {0, 1}, {15}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_WriteFillStrides)->ArgsProduct({{4096}, {0, 1}, {15}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadWarm)->Apply(block_sizes)->Threads(1)->Threads(2);
BENCHMARK(BM_ReadCold)->Apply(block_sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Verify)->Args({4096, 0})->Args({4096, 1})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dtb::compress

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::filesystem::remove_all(dtb::compress::bench_dir());
    return 0;
}
