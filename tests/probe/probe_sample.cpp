// probe_sample: the probe against the generator's raw tables on a random
// sample of positions, for table sets too large to check in full (the
// 6-piece Russian tables). scripts/probe-sample.sh runs it.
//
//   probe_sample --dir DIR [--variant russian] [--pieces 6] [--samples N] [--seed S] [--threads T]
//
// Positions are drawn uniformly from the tables with exactly --pieces
// pieces, either side to move. Each must get the raw value (WDL and DTW);
// every 8th also gets its best move checked: the raw value of the position
// it leads to must realise the DTW. Raw symbols are read one at a time
// (through a block cache), so no table is loaded whole. Exit status 0 if all agree, 1 if
// not, 2 on bad usage.

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "compress/table_file.hpp"
#include "dtb/probe.h"
#include "gen/generate.hpp"
#include "gen/raw_table.hpp"
#include "probe/convert.hpp"
#include "tables/position_index.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {
namespace {

struct Options {
    std::filesystem::path dir;
    VariantId variant = VariantId::Russian;
    int pieces = 6;
    std::uint64_t samples = 1000000;
    std::uint64_t seed = 1;
    int threads = 2;
};

// Reads single values from the raw (exact) tables of a directory, through
// the format's reader and one block cache.
template <class V>
class RawValues {
public:
    RawValues(const std::filesystem::path& dir, VariantId variant)
        : dir_(dir), variant_(variant), cache_(std::make_shared<compress::BlockCache>(std::size_t{1} << 30)) {}

    // The raw value of `pos` for its side to move (0 when it has no piece).
    int value(const Position<V>& pos) {
        if (!pos.pieces[pos.side_to_move]) return 0;
        const Position<V> normal = normalize(pos);
        const Table& t = table(signature_of(normal));
        const auto symbol = t.file->read(t.index.rank(normal));
        if (!symbol) throw std::runtime_error(symbol.error().message);
        return t.file->header().symbol_bits == 8 ? decode_value(std::uint8_t(*symbol)) : decode_value(*symbol);
    }

private:
    struct Table {
        std::unique_ptr<compress::TableFile> file;
        PositionIndex<V> index;
    };
    const Table& table(const MaterialSignature& sig) {
        std::lock_guard lock(mutex_);
        auto it = tables_.find(sig);
        if (it != tables_.end()) return it->second;
        const auto path = raw_table_path(dir_, variant_, sig);
        read_raw_header(path);  // checks that it is an exact table
        auto file = compress::TableFile::open(path, cache_);
        if (!file) throw std::runtime_error(file.error().message);
        return tables_.emplace(sig, Table{std::move(*file), PositionIndex<V>(sig)}).first->second;
    }

    std::filesystem::path dir_;
    VariantId variant_;
    std::shared_ptr<compress::BlockCache> cache_;
    std::mutex mutex_;
    std::map<MaterialSignature, Table> tables_;  // nodes never move: references stay valid
};

std::string show(const dtb_value& v) {
    if (v.wdl == DTB_DRAW) return "draw";
    return std::string(v.wdl == DTB_WIN ? "win in " : "loss in ") + std::to_string(v.dtw);
}

dtb_value expected(int raw) {
    if (raw == kDraw) return {DTB_DRAW, -1};
    return {is_win(raw) ? DTB_WIN : DTB_LOSS, raw};
}

template <class V>
int run(const Options& o) {
    // The tables to sample, weighted by their sizes.
    std::vector<MaterialSignature> sigs;
    std::vector<std::uint64_t> sizes;
    for (const auto& entry : std::filesystem::directory_iterator(o.dir)) {
        const auto name = parse_table_file_name(entry.path().filename().string());
        if (!name || name->variant != o.variant || name->metric != compress::Metric::exact) continue;
        if (name->signature.total() != o.pieces) continue;
        sigs.push_back(name->signature);
        sizes.push_back(PositionIndex<V>(name->signature).size());
    }
    if (sigs.empty()) {
        std::cerr << "probe_sample: no " << o.pieces << "-piece " << V::name << " raw tables in " << o.dir << '\n';
        return 2;
    }

    const std::string dir = o.dir.string();
    const char* dirs[] = {dir.c_str()};
    const dtb_options options{std::size_t{512} << 20};
    dtb_tablebase* tb = nullptr;
    char err[512];
    if (dtb_open(dirs, 1, &options, &tb, err, sizeof err) != DTB_OK) {
        std::cerr << "probe_sample: " << err << '\n';
        return 2;
    }
    RawValues<V> raw(o.dir, o.variant);
    std::atomic<std::uint64_t> next{0}, mismatches{0}, captures{0}, best_moves{0};
    std::mutex print;
    const auto report = [&](const Position<V>& pos, const std::string& what) {
        if (mismatches++ < 20) {
            std::lock_guard lock(print);
            std::cerr << to_fen(pos) << ": " << what << '\n';
        }
    };
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&](int id) {
        std::mt19937_64 rng(o.seed * 1000003 + std::uint64_t(id));
        std::discrete_distribution<std::size_t> pick(sizes.begin(), sizes.end());
        while (next++ < o.samples) {
            const std::size_t t = pick(rng);
            Position<V> pos = PositionIndex<V>(sigs[t]).unrank(rng() % sizes[t]);
            if (rng() % 2) pos = flip(pos);
            captures += MoveGenerator<V>::has_capture(pos) ? 1 : 0;
            const int raw_value = raw.value(pos);
            const dtb_value want = expected(raw_value);
            const dtb_position c = probe::to_c(pos);
            dtb_value got{};
            if (dtb_probe_wdl(tb, &c, &got) != DTB_OK)
                report(pos, std::string("dtb_probe_wdl: ") + dtb_error_message(tb));
            else if (got.wdl != want.wdl)
                report(pos, "WDL " + show(got) + ", raw " + show(want));
            if (dtb_probe_dtw(tb, &c, &got) != DTB_OK)
                report(pos, std::string("dtb_probe_dtw: ") + dtb_error_message(tb));
            else if (got.wdl != want.wdl || got.dtw != want.dtw)
                report(pos, "DTW " + show(got) + ", raw " + show(want));
            if (rng() % 8 != 0) continue;
            ++best_moves;
            dtb_move m{};
            const int status = dtb_best_move(tb, &c, &m, &got);
            if (raw_value == 0) {
                if (status != DTB_NO_MOVE) report(pos, "lost now, yet a best move");
                continue;
            }
            if (status != DTB_OK) {
                report(pos, std::string("dtb_best_move: ") + dtb_error_message(tb));
                continue;
            }
            dtb_position after;
            if (dtb_position_after(&c, &m, &after) != DTB_OK) {
                report(pos, std::string("best move ") + m.text + " is not legal");
                continue;
            }
            const int child = raw.value(*probe::from_c<V>(after));
            const int realised = child == kDraw ? kDraw : child + 1;
            if (realised != raw_value)
                report(pos, std::string("best move ") + m.text + " reaches raw " + std::to_string(child) +
                                ", the position's raw value is " + std::to_string(raw_value));
        }
    };
    std::vector<std::thread> threads;
    for (int id = 0; id < o.threads; ++id) threads.emplace_back(worker, id);
    for (auto& t : threads) t.join();
    dtb_close(tb);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << o.samples << " random " << o.pieces << "-piece " << V::name << " positions from " << sigs.size()
              << " tables (" << captures << " with a capture to search, " << best_moves << " best moves checked) in "
              << seconds << " s: " << mismatches << " disagreements\n";
    return mismatches == 0 ? 0 : 1;
}

}  // namespace
}  // namespace dtb

int main(int argc, char** argv) {
    dtb::Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--dir" && has_value)
            o.dir = argv[++i];
        else if (arg == "--variant" && has_value && dtb::parse_variant(argv[i + 1]))
            o.variant = *dtb::parse_variant(argv[++i]);
        else if (arg == "--pieces" && has_value)
            o.pieces = std::atoi(argv[++i]);
        else if (arg == "--samples" && has_value)
            o.samples = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--seed" && has_value)
            o.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--threads" && has_value)
            o.threads = std::max(1, std::atoi(argv[++i]));
        else {
            std::cerr << "usage: probe_sample --dir DIR [--variant russian|international] [--pieces 6] "
                         "[--samples N] [--seed S] [--threads T]\n";
            return 2;
        }
    }
    if (o.dir.empty()) {
        std::cerr << "probe_sample: --dir is required\n";
        return 2;
    }
    try {
        return dtb::with_variant(o.variant, [&]<class V>() { return dtb::run<V>(o); });
    } catch (const std::exception& e) {
        std::cerr << "probe_sample: " << e.what() << '\n';
        return 1;
    }
}
