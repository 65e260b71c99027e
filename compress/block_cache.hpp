// A bounded cache of decompressed blocks, shared by every open table and by
// every probing thread.
//
// Each open table registers a directory of its own: one atomic word per
// block, the block's address when it is cached. A hit is an array access
// and a read of the symbol in place: no lock, no hashing, and no write to
// anything shared (but for the reference bit below). Blocks are immutable
// once published; an evicted block is unlinked at once but freed only when
// no reader can still be looking at it (epoch-based reclamation: each
// thread announces, in a record of its own, the epoch it entered at; a
// block unlinked at epoch r is freed once every thread inside a read
// entered at r or later). Inserts, evictions and erases take one mutex:
// they follow a decompression, which costs a hundred hits.
//
// Eviction is CLOCK (second chance): a hit sets the block's reference bit,
// the low bit of its directory word (an atomic or, only when it is clear);
// the hand clears set bits and evicts the first block whose bit is clear.
// Blocks start unreferenced, so a block read once goes before one read
// again.
//
// Memory. What the blocks are charged never exceeds the capacity, blocks
// unlinked but not yet freed included (an insert that would overflow is
// not cached): charge() is a block's bytes plus 160 for its header and
// allocation and its CLOCK entry. With a capacity of 16 MiB or more,
// blocks of up to 8 KiB (all that dtb's writer makes) are charged 8 KiB
// and, once the cache holds 16 MiB, go to fixed slots of 2 MiB chunks,
// which the kernel is asked to back with huge pages (a warm probe on a
// large cache then misses the TLB far less; the first 16 MiB are allocated
// one by one, which a fresh handle's first probe does faster); chunks are
// mapped only while they and the blocks outside them fit in the capacity,
// and a freed slot is used again. Beyond the capacity: each open table's
// directory, 8 bytes per block of the table (0.1% of its decompressed
// size), and one 64-byte record per thread that has read through the cache
// (kept until the cache is destroyed; a thread whose id an ended thread had
// takes that one over).
//
// The one piece of state outside the object: a thread_local table that
// maps a cache's serial number (unique in the process, never reused) to the
// calling thread's record in that cache, so that a hit does not search for
// it. A thread that read through several caches has one record in each.
//
// Besides the registered tables' fast path, blocks may be filed under any
// Key (find(Key), insert(Key)): a map under the mutex, for tests and tools.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace dtb::compress {

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

    // A registered table's directory (register_table); valid until
    // erase_table of its id.
    class Table;

    // capacity_bytes: what the cache may hold, bookkeeping included. 0 turns
    // caching off (every read decompresses). `shards` is accepted for
    // source compatibility and ignored: hits take no lock any more.
    explicit BlockCache(std::size_t capacity_bytes, std::size_t shards = 0);
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    ~BlockCache();

    std::uint64_t new_table_id() { return next_table_id_.fetch_add(1, std::memory_order_relaxed); }

    // The directory of table `id` (from new_table_id, registered once) of
    // `blocks` blocks.
    Table& register_table(std::uint64_t id, std::uint64_t blocks);

    // Symbol `position` of block `block` of `table`, or nothing if it is not
    // cached. `positions` is the block's symbol count, `bits` its symbol
    // size in bits. Never blocks: no lock, no allocation (except the first
    // read of a thread through this cache, which registers its record).
    std::optional<std::uint16_t> find(Table& table, std::uint64_t block, std::uint32_t position,
                                      std::uint32_t positions, unsigned bits);
    // Whether the block is cached now (counts neither hit nor miss).
    bool contains(Table& table, std::uint64_t block);
    // Takes a decompressed block. If it is present already (another thread
    // decompressed it meanwhile), keeps the old one. Evicts what it must; a
    // block larger than the capacity is not kept.
    void insert(Table& table, std::uint64_t block, const std::vector<std::uint8_t>& data) {
        insert_block(&table, Key{0, block}, data, true);
    }
    // Like insert, but never evicts: false when the block does not fit in
    // what is free (true when it is cached, now or already).
    bool insert_without_eviction(Table& table, std::uint64_t block, const std::vector<std::uint8_t>& data) {
        return insert_block(&table, Key{0, block}, data, false);
    }

    // The same under any key, through a map under the mutex (slower; the
    // blocks share the capacity and the eviction order with the others).
    std::optional<std::uint16_t> find(Key key, std::uint32_t position, std::uint32_t positions, unsigned bits);
    void insert(Key key, std::vector<std::uint8_t> block) { insert_block(nullptr, key, block, true); }

    // Drops every block of a table, and its directory if it registered one
    // (when it is closed: no read of it may be running).
    void erase_table(std::uint64_t table);

    Stats stats() const;
    std::size_t capacity() const { return capacity_; }
    // Charged bytes not in use (what insert_without_eviction can still take).
    std::size_t free_bytes() const;
    // What a block of `bytes` bytes is charged in this cache (see above).
    std::size_t cost(std::size_t bytes) const;

    // A block's bytes and its bookkeeping (header, allocation, CLOCK entry).
    static constexpr std::size_t charge(std::size_t bytes) { return bytes + 160; }

private:
    struct Block;
    struct Arena;
    struct Reader;
    struct KeyHash {
        std::size_t operator()(const Key& k) const;
    };
    class ReadScope;

    Reader& reader();
    Reader& register_reader();
    bool insert_block(Table* table, Key key, const std::vector<std::uint8_t>& data, bool evict);
    // The rest run under mutex_.
    Block* make_block(Key key, const std::vector<std::uint8_t>& data);
    void destroy_block(Block* block);
    Block* keyed_find(Key key) const;
    void evict_one();
    void unlink(Block* block);
    void retire(std::vector<Block*>& blocks);
    void reclaim();
    std::uint64_t oldest_reader_epoch() const;

    const std::size_t capacity_;
    const std::uint64_t serial_;  // names this cache in the threads' thread_local tables
    std::atomic<std::uint64_t> next_table_id_{1};
    std::atomic<std::uint64_t> epoch_{1};

    mutable std::mutex mutex_;      // everything below
    std::unique_ptr<Arena> arena_;  // slots for blocks of up to 8 KiB
    std::unordered_map<std::uint64_t, std::unique_ptr<Table>> tables_;
    std::unordered_map<Key, Block*, KeyHash> keyed_;  // blocks filed under a Key
    std::vector<Block*> clock_;                       // resident blocks, the CLOCK ring
    std::size_t hand_ = 0;                            // next candidate in clock_
    std::vector<Block*> retired_;                     // unlinked, not yet freed
    std::vector<std::unique_ptr<Reader>> readers_;    // one per thread that read
    std::size_t held_bytes_ = 0;                      // charged: resident and retired
    std::size_t heap_bytes_ = 0;                      // charged to the blocks outside the arena (part of held_bytes_)
    std::uint64_t evictions_ = 0;
};

}  // namespace dtb::compress
