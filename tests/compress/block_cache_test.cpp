// The block cache alone, then many threads probing tables through a small
// shared cache (run this one under ThreadSanitizer: -DDTB_TSAN=ON).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <random>
#include <thread>

#include "compress/table_file.hpp"
#include "tests/compress/synthetic.hpp"
#include "tests/compress/test_util.hpp"

namespace dtb::compress {
namespace {

std::vector<std::uint8_t> block_of(std::size_t size, std::uint8_t fill) {
    return std::vector<std::uint8_t>(size, fill);
}

TEST(BlockCache, FindsWhatWasInserted) {
    BlockCache cache(1 << 20, 1);
    const BlockCache::Key key{cache.new_table_id(), 3};
    EXPECT_FALSE(cache.find(key, 0, 100, 8).has_value());
    auto block = block_of(100, 0);
    block[42] = 7;
    cache.insert(key, block);
    EXPECT_EQ(cache.find(key, 42, 100, 8), std::optional<std::uint16_t>(7));
    EXPECT_FALSE(cache.find({key.table, 4}, 42, 100, 8).has_value());
    EXPECT_FALSE(cache.find({key.table + 1, 3}, 42, 100, 8).has_value());
    const auto s = cache.stats();
    EXPECT_EQ(s.hits, 1u);
    EXPECT_EQ(s.misses, 3u);
    EXPECT_EQ(s.blocks, 1u);
}

TEST(BlockCache, TwoByteSymbolsComeFromBothPlanes) {
    BlockCache cache(1 << 20, 1);
    std::vector<std::uint8_t> block(2 * 10, 0);
    block[3] = 0x34;       // low byte of symbol 3
    block[10 + 3] = 0x12;  // its high byte
    cache.insert({1, 0}, block);
    EXPECT_EQ(cache.find({1, 0}, 3, 10, 16), std::optional<std::uint16_t>(0x1234));
}

TEST(BlockCache, TwoBitSymbolsArePackedFourToAByte) {
    BlockCache cache(1 << 20, 1);
    // Symbols 0..9: 1, 2, 3, 0, 2, 2, 1, 3, 0, 1 (the lowest bits first).
    const std::vector<std::uint8_t> block{0b00111001, 0b11011010, 0b0100};
    cache.insert({1, 0}, block);
    const std::uint16_t expected[] = {1, 2, 3, 0, 2, 2, 1, 3, 0, 1};
    for (std::uint32_t j = 0; j < 10; ++j)
        EXPECT_EQ(cache.find({1, 0}, j, 10, 2), std::optional<std::uint16_t>(expected[j])) << "symbol " << j;
}

TEST(BlockCache, StaysWithinCapacityAndEvictsTheLeastRecentlyUsed) {
    const std::size_t block = 1000;
    BlockCache cache(BlockCache::charge(block) * 4, 1);  // room for four blocks
    for (std::uint64_t b = 0; b < 4; ++b) cache.insert({1, b}, block_of(block, static_cast<std::uint8_t>(b)));
    EXPECT_TRUE(cache.find({1, 0}, 0, block, 8).has_value());  // 0 is now the most recent; 1 the least
    cache.insert({1, 4}, block_of(block, 4));
    EXPECT_FALSE(cache.find({1, 1}, 0, block, 8).has_value());
    for (std::uint64_t b : {0, 2, 3, 4}) EXPECT_EQ(cache.find({1, b}, 5, block, 8), std::optional<std::uint16_t>(b));
    const auto s = cache.stats();
    EXPECT_EQ(s.evictions, 1u);
    EXPECT_LE(s.bytes, cache.capacity());
    EXPECT_EQ(s.blocks, 4u);
}

TEST(BlockCache, KeepsTheFirstCopyAndSkipsBlocksLargerThanAShard) {
    BlockCache cache(4096, 1);
    cache.insert({1, 0}, block_of(10, 1));
    cache.insert({1, 0}, block_of(10, 2));  // a second thread's copy of the same block
    EXPECT_EQ(cache.find({1, 0}, 0, 10, 8), std::optional<std::uint16_t>(1));
    cache.insert({1, 1}, block_of(5000, 3));
    EXPECT_FALSE(cache.find({1, 1}, 0, 5000, 8).has_value());
    BlockCache off(0);
    off.insert({1, 0}, block_of(10, 1));
    EXPECT_FALSE(off.find({1, 0}, 0, 10, 8).has_value());
}

TEST(BlockCache, EraseTableDropsOnlyThatTable) {
    BlockCache cache(1 << 20, 4);
    for (std::uint64_t b = 0; b < 50; ++b) {
        cache.insert({1, b}, block_of(100, 1));
        cache.insert({2, b}, block_of(100, 2));
    }
    cache.erase_table(1);
    for (std::uint64_t b = 0; b < 50; ++b) {
        EXPECT_FALSE(cache.find({1, b}, 0, 100, 8).has_value());
        EXPECT_EQ(cache.find({2, b}, 0, 100, 8), std::optional<std::uint16_t>(2));
    }
    EXPECT_EQ(cache.stats().blocks, 50u);
    EXPECT_EQ(cache.stats().bytes, 50 * BlockCache::charge(100));
}

TEST(BlockCache, ClosingATableFreesItsBlocks) {
    testing::ScratchDir dir;
    const std::vector<std::uint8_t> values(10'000, 1);
    WriterOptions options;
    options.positions_per_block = 256;
    write_table(dir / "t.dtb", testing::sample_description(), values, {}, options);
    auto cache = std::make_shared<BlockCache>(1 << 20);
    {
        auto t = TableFile::open(dir / "t.dtb", cache);
        ASSERT_TRUE(t.ok()) << t.error().message;
        for (std::uint64_t i = 0; i < 10'000; i += 64) ASSERT_EQ(*(*t)->read(i), 1);
        EXPECT_EQ(cache->stats().blocks, 40u);
    }
    EXPECT_EQ(cache->stats().blocks, 0u);
    EXPECT_EQ(cache->stats().bytes, 0u);
}

// A registered table's directory: the path every TableFile takes.
TEST(RegisteredTable, FindsWhatWasInsertedUntilTheTableIsErased) {
    BlockCache cache(1 << 20);
    const std::uint64_t id = cache.new_table_id();
    BlockCache::Table& t = cache.register_table(id, 10);
    EXPECT_FALSE(cache.find(t, 3, 0, 100, 8).has_value());
    EXPECT_FALSE(cache.contains(t, 3));
    auto block = block_of(100, 0);
    block[42] = 7;
    cache.insert(t, 3, block);
    EXPECT_TRUE(cache.contains(t, 3));
    EXPECT_EQ(cache.find(t, 3, 42, 100, 8), std::optional<std::uint16_t>(7));
    EXPECT_FALSE(cache.find(t, 4, 42, 100, 8).has_value());
    EXPECT_FALSE(cache.find(t, 10, 0, 100, 8).has_value()) << "past the table's last block";
    cache.insert(t, 3, block_of(100, 9));  // a second copy: the first stays
    EXPECT_EQ(cache.find(t, 3, 0, 100, 8), std::optional<std::uint16_t>(0));
    EXPECT_EQ(cache.stats().blocks, 1u);
    EXPECT_EQ(cache.stats().bytes, BlockCache::charge(100));
    cache.erase_table(id);
    EXPECT_EQ(cache.stats().blocks, 0u);
    EXPECT_EQ(cache.stats().bytes, 0u);
}

TEST(RegisteredTable, ClockGivesABlockReadAgainASecondChance) {
    const std::size_t block = 1000;
    BlockCache cache(BlockCache::charge(block) * 4);  // room for four blocks
    BlockCache::Table& t = cache.register_table(cache.new_table_id(), 8);
    for (std::uint64_t b = 0; b < 4; ++b) cache.insert(t, b, block_of(block, static_cast<std::uint8_t>(b)));
    EXPECT_TRUE(cache.find(t, 0, 0, block, 8).has_value());  // 0 is referenced, 1 is not
    cache.insert(t, 4, block_of(block, 4));
    EXPECT_FALSE(cache.contains(t, 1));
    for (std::uint64_t b : {0, 2, 3, 4}) EXPECT_EQ(cache.find(t, b, 5, block, 8), std::optional<std::uint16_t>(b));
    EXPECT_EQ(cache.stats().evictions, 1u);
    EXPECT_LE(cache.stats().bytes, cache.capacity());
}

TEST(RegisteredTable, InsertWithoutEvictionStopsWhenFull) {
    const std::size_t block = 1000;
    BlockCache cache(BlockCache::charge(block) * 3);
    BlockCache::Table& t = cache.register_table(cache.new_table_id(), 8);
    for (std::uint64_t b = 0; b < 3; ++b) EXPECT_TRUE(cache.insert_without_eviction(t, b, block_of(block, 1)));
    EXPECT_EQ(cache.free_bytes(), 0u);
    EXPECT_FALSE(cache.insert_without_eviction(t, 3, block_of(block, 1)));
    EXPECT_TRUE(cache.insert_without_eviction(t, 0, block_of(block, 1))) << "already there";
    EXPECT_EQ(cache.stats().evictions, 0u);
    EXPECT_EQ(cache.stats().blocks, 3u);
}

// From 16 MiB on, blocks of up to 8 KiB live in fixed slots and are
// charged 8 KiB; slots freed by eviction are used again.
TEST(RegisteredTable, LargeCachesKeepSmallBlocksInFixedSlots) {
    const std::size_t capacity = std::size_t{16} << 20;
    BlockCache cache(capacity);
    EXPECT_EQ(cache.cost(100), BlockCache::charge(8192));
    EXPECT_EQ(cache.cost(8192), BlockCache::charge(8192));
    EXPECT_EQ(cache.cost(10000), BlockCache::charge(10000));
    EXPECT_EQ(BlockCache(1 << 20).cost(100), BlockCache::charge(100));
    const std::uint64_t blocks = 3 * capacity / 8192;  // three times what fits
    BlockCache::Table& t = cache.register_table(cache.new_table_id(), blocks);
    for (std::uint64_t b = 0; b < blocks; ++b) {
        auto data = block_of(8192, static_cast<std::uint8_t>(b));
        data[8191] = static_cast<std::uint8_t>(b >> 8);
        cache.insert(t, b, data);
        ASSERT_LE(cache.stats().bytes, capacity);
    }
    std::uint64_t held = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        if (!cache.contains(t, b)) continue;
        ++held;
        EXPECT_EQ(cache.find(t, b, 0, 8192, 8), std::optional<std::uint16_t>(b & 0xFF)) << b;
        EXPECT_EQ(cache.find(t, b, 8191, 8192, 8), std::optional<std::uint16_t>((b >> 8) & 0xFF)) << b;
    }
    EXPECT_EQ(held, cache.stats().blocks);
    EXPECT_GT(held, capacity / BlockCache::charge(8192) - 2);
    EXPECT_GT(cache.stats().evictions, 0u);
}

// Eight threads read two tables through one cache far smaller than the
// tables, so blocks are evicted and decompressed again all the time. Every
// cared-for value must come back right.
TEST(ConcurrentReads, EightThreadsSmallSharedCache) {
    testing::ScratchDir dir;
    const std::size_t n = 100'000;
    const auto wdl = synthetic::make(n, false, 1);
    const auto dtw = synthetic::make(n, true, 2);
    const std::vector<std::uint8_t> wdl_values(wdl.values.begin(), wdl.values.end());
    WriterOptions options;
    options.positions_per_block = 512;
    options.zstd_level = 3;
    options.threads = 1;  // ThreadSanitizer does not see OpenMP's own synchronisation
    write_table(dir / "wdl.dtb", testing::sample_description(), wdl_values, DontCare::bytes(wdl.dont_care), options);
    write_table(dir / "dtw.dtb", testing::sample_description(Metric::dtw), std::span(dtw.values),
                DontCare::bytes(dtw.dont_care), options);

    // One shard of 16 KiB: about 15 blocks of up to 1 KiB, of 300 in the tables.
    auto cache = std::make_shared<BlockCache>(16 << 10);
    auto a = TableFile::open(dir / "wdl.dtb", cache);
    auto b = TableFile::open(dir / "dtw.dtb", cache);
    ASSERT_TRUE(a.ok() && b.ok());
    const TableFile& ta = **a;
    const TableFile& tb = **b;

    std::atomic<std::uint64_t> wrong{0}, errors{0}, reads{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(static_cast<std::uint64_t>(t));
            std::uint64_t local_reads = 0;
            for (int k = 0; k < 20'000; ++k) {
                // Mostly near the last position (cache hits), sometimes far (misses).
                const std::uint64_t i = rng() % n;
                const bool first = (rng() & 1) != 0;
                const auto v = first ? ta.read(i) : tb.read(i);
                const auto& table = first ? wdl : dtw;
                ++local_reads;
                if (!v.ok()) {
                    errors.fetch_add(1);
                } else if (!table.dont_care[i] && *v != table.values[i]) {
                    wrong.fetch_add(1);
                }
            }
            reads.fetch_add(local_reads);
        });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(wrong.load(), 0u);
    EXPECT_EQ(errors.load(), 0u);
    EXPECT_EQ(reads.load(), 8u * 20'000u);
    const auto s = cache->stats();
    EXPECT_GT(s.evictions, 0u) << "the cache was meant to be too small";
    EXPECT_GT(s.hits, 0u);
    EXPECT_LE(s.bytes, cache->capacity());
}

}  // namespace
}  // namespace dtb::compress
