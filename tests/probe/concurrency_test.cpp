// Many threads probing one handle at once: files opened lazily by whichever
// thread comes first, a block cache small enough to evict all the time,
// errors recorded per thread. Every answer is checked against the raw
// tables. Run it under ThreadSanitizer as well (tests/probe/CMakeLists.txt).
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "gen/raw_table.hpp"
#include "tables/signatures.hpp"
#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {
namespace {

constexpr int kThreads = 8;

template <class V>
struct RawSet {
    std::vector<MaterialSignature> signatures;
    ExactTables<V> tables;

    RawSet(const std::filesystem::path& dir, int pieces) {
        for (const MaterialSignature& sig : all_signatures(variant_of<V>(), pieces)) {
            signatures.push_back(sig);
            tables.add(read_raw_table(raw_table_path(dir, variant_of<V>(), sig)));
        }
    }

    // A random position of a random table, either side to move.
    Position<V> random_position(std::mt19937_64& rng) const {
        const MaterialSignature& sig = signatures[rng() % signatures.size()];
        const PositionIndex<V> index(sig);
        const Position<V> pos = index.unrank(rng() % index.size());
        return rng() % 2 ? flip(pos) : pos;
    }
};

TEST(Concurrency, EightThreadsAgreeWithTheRawTables) {
    const auto dir = small_tables();
    const RawSet<Russian> russian(dir, 4);
    const RawSet<International> international(dir, 3);
    // 256 KiB: a few dozen blocks for some 100 table files.
    Handle tb(dir, std::size_t{256} << 10);
    std::atomic<std::uint64_t> probes{0}, wrong{0}, failed{0};
    std::vector<std::string> first_problem(kThreads);

    auto worker = [&](int id) {
        std::mt19937_64 rng(1234 + id);
        auto check = [&]<class V>(const RawSet<V>& set) {
            const Position<V> pos = set.random_position(rng);
            const dtb_position c = c_position(pos);
            const dtb_value expected = expected_value(set.tables.value(pos));
            dtb_value v{};
            const bool dtw = rng() % 2;
            const int status = dtw ? dtb_probe_dtw(tb, &c, &v) : dtb_probe_wdl(tb, &c, &v);
            ++probes;
            if (status != DTB_OK) {
                if (failed++ == 0) first_problem[id] = to_fen(pos) + ": " + dtb_error_message(tb);
                return;
            }
            if (dtw ? !same(v, expected) : v.wdl != expected.wdl) {
                if (wrong++ == 0) first_problem[id] = to_fen(pos) + ": " + show(v) + ", raw " + show(expected);
            }
            // Now and then a best move and an error, which take other paths.
            if (rng() % 16 == 0) {
                dtb_move m;
                const int s = dtb_best_move(tb, &c, &m, &v);
                if (s != DTB_OK && s != DTB_NO_MOVE) ++failed;
            }
            if (rng() % 64 == 0) {
                const dtb_position too_big = c_position<Russian>("W:Wa1,c1,e1:Bb8,d8,f8");
                if (dtb_probe_wdl(tb, &too_big, &v) != DTB_TOO_MANY_PIECES ||
                    std::string(dtb_error_message(tb)).find("6 pieces") == std::string::npos)
                    ++wrong;
            }
        };
        for (int i = 0; i < 20000; ++i) {
            if (i % 3 == 0)
                check(international);
            else
                check(russian);
        }
    };
    std::vector<std::thread> threads;
    for (int id = 0; id < kThreads; ++id) threads.emplace_back(worker, id);
    for (auto& t : threads) t.join();

    for (const std::string& p : first_problem)
        if (!p.empty()) ADD_FAILURE() << p;
    EXPECT_EQ(wrong.load(), 0u);
    EXPECT_EQ(failed.load(), 0u);
    EXPECT_EQ(probes.load(), std::uint64_t{kThreads} * 20000);
}

// The search-time paths at once: conditional probes (which must agree with
// the raw tables whenever they answer), blocking probes that fill the
// cache, preloads that open tables and insert blocks, and cache statistics,
// all on one handle whose small cache evicts all the time.
TEST(Concurrency, ConditionalProbesPreloadAndEvictionTogether) {
    const auto dir = small_tables();
    const RawSet<Russian> russian(dir, 4);
    const RawSet<International> international(dir, 3);
    Handle tb(dir, std::size_t{256} << 10);
    std::atomic<std::uint64_t> answered{0}, not_cached{0}, wrong{0}, failed{0};
    std::vector<std::string> first_problem(kThreads);

    auto worker = [&](int id) {
        std::mt19937_64 rng(777 + id);
        auto check = [&]<class V>(const RawSet<V>& set) {
            const Position<V> pos = set.random_position(rng);
            const dtb_position c = c_position(pos);
            const dtb_value expected = expected_value(set.tables.value(pos));
            dtb_value v{};
            const bool dtw = rng() % 2;
            const int status = dtw ? dtb_probe_dtw_cached(tb, &c, &v) : dtb_probe_wdl_cached(tb, &c, &v);
            if (status == DTB_NOT_CACHED) {
                ++not_cached;
                // Fill it the way the API says: with a blocking probe.
                if (rng() % 2 == 0 && (dtw ? dtb_probe_dtw(tb, &c, &v) : dtb_probe_wdl(tb, &c, &v)) != DTB_OK) ++failed;
                return;
            }
            if (status != DTB_OK) {
                if (failed++ == 0) first_problem[id] = to_fen(pos) + ": " + dtb_status_name(status);
                return;
            }
            ++answered;
            if (dtw ? !same(v, expected) : v.wdl != expected.wdl)
                if (wrong++ == 0) first_problem[id] = to_fen(pos) + ": " + show(v) + ", raw " + show(expected);
        };
        for (int i = 0; i < 20000; ++i) {
            if (id == 0 && i % 5000 == 0) {
                // One thread preloads now and then (most of it does not fit).
                dtb_preload_report r{};
                const int variant = i % 10000 == 0 ? DTB_RUSSIAN : DTB_INTERNATIONAL;
                if (dtb_preload(tb, variant, 4, DTB_PRELOAD_WDL | DTB_PRELOAD_DTW, &r) != DTB_OK) ++failed;
            }
            if (id == 1 && i % 1000 == 0) {
                dtb_cache_info info{};
                if (dtb_cache_stats(tb, &info) != DTB_OK || info.bytes > info.capacity) ++wrong;
            }
            if (i % 3 == 0)
                check(international);
            else
                check(russian);
        }
    };
    std::vector<std::thread> threads;
    for (int id = 0; id < kThreads; ++id) threads.emplace_back(worker, id);
    for (auto& t : threads) t.join();

    for (const std::string& p : first_problem)
        if (!p.empty()) ADD_FAILURE() << p;
    EXPECT_EQ(wrong.load(), 0u);
    EXPECT_EQ(failed.load(), 0u);
    EXPECT_GT(answered.load(), 0u);
    EXPECT_GT(not_cached.load(), 0u) << "the cache was meant to be too small";
    dtb_cache_info info{};
    ASSERT_EQ(dtb_cache_stats(tb, &info), DTB_OK);
    EXPECT_GT(info.evictions, 0u);
    EXPECT_LE(info.bytes, info.capacity);
}

// Threads that all want the same unopened file at the same moment.
TEST(Concurrency, FirstUseOfAFileFromEveryThreadAtOnce) {
    const auto dir = small_tables();
    for (int round = 0; round < 20; ++round) {
        Handle tb(dir, 0);  // no cache: every probe decompresses
        std::atomic<int> ready{0}, wrong{0};
        const dtb_position pos = c_position<Russian>("W:WKa1,Kc3:BKh8");
        std::vector<std::thread> threads;
        for (int id = 0; id < kThreads; ++id)
            threads.emplace_back([&] {
                ++ready;
                while (ready.load() < kThreads) {
                }
                dtb_value v{};
                if (dtb_probe_dtw(tb, &pos, &v) != DTB_OK || !same(v, {DTB_WIN, 3})) ++wrong;
            });
        for (auto& t : threads) t.join();
        EXPECT_EQ(wrong.load(), 0) << "round " << round;
    }
}

}  // namespace
}  // namespace dtb::probe_test
