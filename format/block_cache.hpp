// A bounded cache of decompressed blocks, shared by every open table and by
// every probing thread.
//
// A hit takes no lock and writes nothing shared: a reader finds the block
// in an open-addressing directory of atomic pointers and reads its symbol
// in place. Blocks are immutable once published; an evicted block is
// unlinked at once but freed only when no reader can still be looking at
// it (epoch-based reclamation: each thread announces, in a record of its
// own, the epoch it entered at; a block unlinked at epoch r is freed once
// every thread inside a read entered after r). Inserts, evictions and
// erases take one mutex: they follow a decompression, which costs a
// thousand times a hit.
//
// Eviction is CLOCK (second chance): a hit sets the block's reference bit
// (a store only when it was clear); the hand clears set bits and evicts the
// first block whose bit is clear. Blocks start unreferenced, so a block
// read once goes before one read again.
//
// Memory: what the blocks are charged (charge(): their bytes plus 160 for
// the block's header and allocation, 64, its CLOCK entry, 8, and its share
// of the directory, which has at most 8 buckets of 8 bytes per block ever
// held, 64) never exceeds the
// capacity, blocks unlinked but not yet freed included (an insert that
// would overflow is not cached). Beyond it: one 64-byte record per thread
// that has read through the cache (kept until the cache is destroyed), and
// for a moment the directory being replaced when it grows.
//
// The one piece of state outside the object: a thread_local table that
// maps a cache's serial number (unique in the process, never reused) to the
// calling thread's record in that cache, so that a hit does not search for
// it. A thread that read through several caches has one record in each.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
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
    // caching off (every read decompresses). `shards` is accepted for
    // source compatibility and ignored: hits take no lock any more.
    explicit BlockCache(std::size_t capacity_bytes, std::size_t shards = 0);
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    ~BlockCache();

    std::uint64_t new_table_id() { return next_table_id_.fetch_add(1, std::memory_order_relaxed); }

    // Symbol `position` of cached block `key`, or nothing if not cached.
    // `positions` is the block's symbol count, `bits` its symbol size in
    // bits. Never blocks: no lock, no allocation (except the first read of
    // a thread through this cache, which registers its record).
    std::optional<std::uint16_t> find(Key key, std::uint32_t position, std::uint32_t positions, unsigned bits);

    // Whether block `key` is cached now (counts neither hit nor miss).
    bool contains(Key key);

    // Takes a decompressed block. If the key is already present (another
    // thread decompressed the same block meanwhile), keeps the old one.
    // Evicts what it must; a block larger than the capacity is not kept.
    void insert(Key key, std::vector<std::uint8_t> block) { insert_block(key, block, true); }

    // Like insert, but never evicts: false when the block does not fit in
    // what is free (true when it is cached, now or already).
    bool insert_without_eviction(Key key, const std::vector<std::uint8_t>& block) {
        return insert_block(key, block, false);
    }

    // Drops every block of a table (when it is closed).
    void erase_table(std::uint64_t table);

    Stats stats() const;
    std::size_t capacity() const { return capacity_; }
    // Charged bytes not in use (what insert_without_eviction can still take).
    std::size_t free_bytes() const;

    // What a block of `bytes` bytes is charged: its data and the bookkeeping
    // around it (header, CLOCK entry, directory buckets).
    static constexpr std::size_t charge(std::size_t bytes) { return bytes + 160; }

private:
    struct Block;
    struct Arena;
    struct Directory;
    struct Reader;
    class ReadScope;

    Block* make_block(Key key, const std::vector<std::uint8_t>& data);  // under mutex_
    void destroy_block(Block* block);                                   // under mutex_
    std::size_t cost(std::size_t bytes) const;                          // what a block is charged here
    Reader& reader();
    Reader& register_reader();
    bool insert_block(Key key, const std::vector<std::uint8_t>& data, bool evict);
    Block* lookup(const Directory& d, Key key) const;
    // The rest run under mutex_.
    bool place(Directory& d, Block* block);
    void grow_directory();
    void evict_one();
    void unlink(Block* block);
    void retire(std::vector<Block*>& blocks);
    void reclaim();
    std::uint64_t oldest_reader_epoch() const;

    const std::size_t capacity_;
    const std::uint64_t serial_;  // names this cache in the threads' thread_local tables
    std::atomic<std::uint64_t> next_table_id_{1};
    std::atomic<std::uint64_t> epoch_{1};
    std::atomic<Directory*> directory_{nullptr};

    mutable std::mutex mutex_;      // everything below
    std::unique_ptr<Arena> arena_;  // slots for blocks of up to 8 KiB
    std::vector<Block*> clock_;     // resident blocks, the CLOCK ring
    std::size_t hand_ = 0;          // next candidate in clock_
    std::vector<Block*> retired_;   // unlinked, not yet freed
    std::vector<std::unique_ptr<Directory>> retired_directories_;
    std::unique_ptr<Directory> current_directory_;  // owns *directory_
    std::vector<std::unique_ptr<Reader>> readers_;  // one per thread that read
    std::size_t held_bytes_ = 0;                    // charged: resident and retired
    std::size_t heap_bytes_ = 0;                    // charged to the blocks outside the arena (part of held_bytes_)
    std::uint64_t evictions_ = 0;
};

}  // namespace dtb::format
