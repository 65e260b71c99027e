// A bounded cache of decompressed blocks, shared by every open table and by
// every probing thread. It is split into shards, each a small LRU list under
// its own mutex, so that threads probing different blocks rarely meet.
// A reader copies the symbol it wants while the shard is locked, so a block
// can be evicted the moment after without anyone holding a pointer into it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace dtb::format {

class BlockCache {
public:
    // Blocks of one table, told apart from every other table's ever opened
    // in this process (ids are never reused, so a closed table's leftovers
    // can never be mistaken for a new table's blocks).
    struct Key {
        std::uint64_t table;
        std::uint64_t block;
        friend bool operator==(const Key&, const Key&) = default;
    };

    struct Stats {
        std::uint64_t hits = 0;
        std::uint64_t misses = 0;
        std::uint64_t evictions = 0;
        std::size_t bytes = 0;  // charged bytes now held (block bytes plus bookkeeping)
        std::size_t blocks = 0;
    };

    // capacity_bytes: what the cache may hold, bookkeeping included. 0 turns
    // caching off (every read decompresses). shards: 0 picks a number from
    // the capacity (more shards, less contention, but each must hold several
    // blocks or the LRU order degenerates).
    explicit BlockCache(std::size_t capacity_bytes, std::size_t shards = 0);
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    ~BlockCache();

    std::uint64_t new_table_id() { return next_table_id_.fetch_add(1, std::memory_order_relaxed); }

    // Symbol `position` of cached block `key`, or nothing if not cached.
    // `positions` is the block's symbol count, `bits` its symbol size in bits.
    std::optional<std::uint16_t> find(Key key, std::uint32_t position, std::uint32_t positions, unsigned bits);

    // Takes a decompressed block. If the key is already present (another
    // thread decompressed the same block meanwhile), keeps the old one.
    // Blocks larger than a shard are not kept.
    void insert(Key key, std::vector<std::uint8_t> block);

    // Drops every block of a table (when it is closed).
    void erase_table(std::uint64_t table);

    Stats stats() const;
    std::size_t capacity() const { return capacity_; }

    // What a block of `bytes` bytes is charged: its data and an estimate of
    // the list node, map node and vector header around it.
    static constexpr std::size_t charge(std::size_t bytes) { return bytes + 128; }

private:
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    struct Entry {
        Key key;
        std::vector<std::uint8_t> block;
    };
    struct Shard {
        std::mutex mutex;
        std::list<Entry> lru;  // most recently used first
        std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> map;
        std::size_t bytes = 0;
        std::uint64_t hits = 0, misses = 0, evictions = 0;
    };
    Shard& shard_for(const Key& key);

    std::size_t capacity_;
    std::size_t shard_capacity_;
    std::vector<std::unique_ptr<Shard>> shards_;  // unique_ptr: a mutex cannot move
    std::atomic<std::uint64_t> next_table_id_{1};
};

}  // namespace dtb::format
