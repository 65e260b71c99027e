#include "compress/block_cache.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <new>

#include "compress/format.hpp"

namespace dtb::compress {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// `bytes` (a multiple of kHugePage) of zeroed memory aligned to a huge
// page, which the kernel is asked to back with huge pages (advice it may
// ignore); nullptr when it cannot be mapped.
void* map_huge(std::size_t bytes) {
    void* p = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
    if (aligned > start) ::munmap(p, aligned - start);
    const std::uintptr_t end = start + bytes + kHugePage;
    if (end > aligned + bytes) ::munmap(reinterpret_cast<void*>(aligned + bytes), end - aligned - bytes);
    ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(aligned);
}

void unmap_huge(void* p, std::size_t bytes) { ::munmap(p, bytes); }

}  // namespace

// A block and its header in one allocation, the data after the header.
struct BlockCache::Block {
    Key key;  // for a registered table's block, key.table is the table's id
    std::size_t bytes;
    std::atomic<std::uintptr_t>* entry = nullptr;  // its word in a table's directory; nullptr: in keyed_
    std::size_t clock_pos = 0;                     // index in clock_
    std::uint64_t retired_at = 0;                  // epoch it was unlinked at
    bool referenced = false;                       // the reference bit of a keyed block
    bool in_arena = false;

    std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(this + 1); }
};

// A directory word: a block's address, its low bit the reference bit (a
// block is at least 8-aligned). 0, or a lone 1 (a reference bit set just
// as the block was unlinked), means not cached.
constexpr std::uintptr_t kReferenced = 1;

class BlockCache::Table {
public:
    Table(std::uint64_t id, std::uint64_t blocks)
        : id_(id), blocks_(blocks), words_(new std::atomic<std::uintptr_t>[blocks]) {
        for (std::uint64_t b = 0; b < blocks; ++b) words_[b].store(0, std::memory_order_relaxed);
    }
    std::uint64_t id() const { return id_; }
    std::uint64_t blocks() const { return blocks_; }
    std::atomic<std::uintptr_t>& word(std::uint64_t block) { return words_[block]; }

private:
    std::uint64_t id_;
    std::uint64_t blocks_;
    std::unique_ptr<std::atomic<std::uintptr_t>[]> words_;
};

// Fixed slots for blocks of up to 8 KiB (every block dtb's writer makes),
// carved from 2 MiB chunks that the kernel is asked to back with huge
// pages: a warm probe then rarely misses the TLB, which on a large cache
// costs as much as the cache miss itself. Slots freed go back to a free
// list; chunks are released with the cache. Used when the capacity holds
// at least kMinChunks chunks; smaller caches allocate each block.
struct BlockCache::Arena {
    static constexpr std::size_t kChunkBytes = kHugePage;
    static constexpr std::size_t kSlotData = 8192;
    static constexpr std::size_t kSlotBytes = sizeof(Block) + kSlotData;
    static constexpr std::size_t kSlotsPerChunk = kChunkBytes / kSlotBytes;
    static constexpr std::size_t kMinChunks = 8;
    // Blocks go to the heap until the cache holds this much: a huge page
    // costs its whole 2 MiB to fault in (hundreds of microseconds here,
    // milliseconds when the kernel must compact memory first), which a
    // fresh handle's first probe would pay, and the TLB covers a few MiB of
    // small pages anyway.
    static constexpr std::size_t kHeapFirst = std::size_t{16} << 20;

    std::vector<void*> chunks;
    std::vector<void*> free_slots;
    std::size_t carved = kSlotsPerChunk;  // slots taken from the last chunk

    Arena() = default;
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    ~Arena() {
        for (void* c : chunks) unmap_huge(c, kChunkBytes);
    }

    // A slot, or nullptr when none is free and every chunk is carved (no
    // more than max_chunks are mapped).
    void* allocate(std::size_t max_chunks) {
        if (!free_slots.empty()) {
            void* slot = free_slots.back();
            free_slots.pop_back();
            return slot;
        }
        if (carved == kSlotsPerChunk) {
            if (chunks.size() >= max_chunks) return nullptr;
            void* chunk = map_huge(kChunkBytes);
            if (chunk == nullptr) return nullptr;
            chunks.push_back(chunk);
            carved = 0;
        }
        return static_cast<std::uint8_t*>(chunks.back()) + kSlotBytes * carved++;
    }
    void release(void* slot) { free_slots.push_back(slot); }
};

BlockCache::Block* BlockCache::make_block(Key key, const std::vector<std::uint8_t>& data) {
    void* memory = nullptr;
    // The chunks and the blocks outside them stay within the capacity.
    if (arena_ && data.size() <= Arena::kSlotData && held_bytes_ >= Arena::kHeapFirst)
        memory = arena_->allocate((capacity_ - heap_bytes_) / Arena::kChunkBytes);
    const bool in_arena = memory != nullptr;
    if (!in_arena) {
        memory = ::operator new(sizeof(Block) + data.size());
        heap_bytes_ += charge(data.size());
    }
    Block* b = new (memory) Block{key, data.size()};
    b->in_arena = in_arena;
    std::memcpy(b->data(), data.data(), data.size());
    return b;
}

void BlockCache::destroy_block(Block* b) {
    const bool in_arena = b->in_arena;
    const std::size_t bytes = b->bytes;
    b->~Block();
    if (in_arena) {
        arena_->release(b);
    } else {
        ::operator delete(static_cast<void*>(b));
        heap_bytes_ -= charge(bytes);
    }
}

std::size_t BlockCache::cost(std::size_t bytes) const {
    return charge(arena_ && bytes <= Arena::kSlotData ? Arena::kSlotData : bytes);
}

// One per thread that reads through the cache, on a cache line of its own:
// only its thread writes it (the counters with plain load-store pairs), the
// writers read it.
struct alignas(64) BlockCache::Reader {
    std::atomic<std::uint64_t> active{0};  // the epoch its current read entered at; 0 outside reads
    std::atomic<std::uint64_t> hits{0};
    std::atomic<std::uint64_t> misses{0};
    std::thread::id owner;

    void count(std::atomic<std::uint64_t>& counter) {
        counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
};

// Announces the epoch for the length of one read. The seq_cst store comes
// before the read's load of the directory word, which is what lets a writer
// that sees the record idle (or entered after an unlink) free what it
// unlinked.
class BlockCache::ReadScope {
public:
    explicit ReadScope(BlockCache& cache) : reader_(cache.reader()) {
        reader_.active.store(cache.epoch_.load(std::memory_order_seq_cst), std::memory_order_seq_cst);
    }
    ~ReadScope() { reader_.active.store(0, std::memory_order_release); }
    ReadScope(const ReadScope&) = delete;
    ReadScope& operator=(const ReadScope&) = delete;
    Reader& reader() { return reader_; }

private:
    Reader& reader_;
};

namespace {

// The calling thread's record in the caches it read through lately, by the
// caches' serial numbers (never reused, so an entry of a destroyed cache is
// never taken for a live one). Direct-mapped: a thread alternating between
// caches that share an entry finds its record again under the cache's mutex.
struct ThreadEntry {
    std::uint64_t serial = 0;
    void* reader = nullptr;
};
thread_local std::array<ThreadEntry, 4> thread_readers;

std::atomic<std::uint64_t> next_cache_serial{1};

}  // namespace

std::size_t BlockCache::KeyHash::operator()(const Key& k) const {
    std::uint64_t x = k.table * 0x9E3779B97F4A7C15ull ^ k.block;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(x ^ (x >> 31));
}

BlockCache::BlockCache(std::size_t capacity_bytes, std::size_t /*shards*/)
    : capacity_(capacity_bytes), serial_(next_cache_serial.fetch_add(1, std::memory_order_relaxed)) {
    if (capacity_bytes >= Arena::kMinChunks * Arena::kChunkBytes) arena_ = std::make_unique<Arena>();
}

BlockCache::~BlockCache() {
    for (Block* b : clock_) destroy_block(b);
    for (Block* b : retired_) destroy_block(b);
}

BlockCache::Reader& BlockCache::reader() {
    ThreadEntry& e = thread_readers[serial_ & 3];
    if (e.serial == serial_) return *static_cast<Reader*>(e.reader);
    Reader& r = register_reader();
    e = ThreadEntry{serial_, &r};
    return r;
}

BlockCache::Reader& BlockCache::register_reader() {
    std::lock_guard lock(mutex_);
    const std::thread::id self = std::this_thread::get_id();
    // A thread id may be reused once its thread has ended: the record is
    // idle then, and the new thread may take it over.
    for (const auto& r : readers_)
        if (r->owner == self) return *r;
    readers_.push_back(std::make_unique<Reader>());
    readers_.back()->owner = self;
    return *readers_.back();
}

BlockCache::Table& BlockCache::register_table(std::uint64_t id, std::uint64_t blocks) {
    auto table = std::make_unique<Table>(id, blocks);
    std::lock_guard lock(mutex_);
    auto& slot = tables_[id];
    slot = std::move(table);
    return *slot;
}

std::optional<std::uint16_t> BlockCache::find(Table& table, std::uint64_t block, std::uint32_t position,
                                              std::uint32_t positions, unsigned bits) {
    if (capacity_ == 0 || block >= table.blocks()) return std::nullopt;
    ReadScope scope(*this);
    std::atomic<std::uintptr_t>& word = table.word(block);
    const std::uintptr_t w = word.load(std::memory_order_seq_cst);
    if ((w & ~kReferenced) == 0) {
        scope.reader().count(scope.reader().misses);
        return std::nullopt;
    }
    scope.reader().count(scope.reader().hits);
    if ((w & kReferenced) == 0) word.fetch_or(kReferenced, std::memory_order_relaxed);
    Block* b = reinterpret_cast<Block*>(w & ~kReferenced);
    return decode_symbol(b->data(), positions, position, bits);
}

bool BlockCache::contains(Table& table, std::uint64_t block) {
    if (capacity_ == 0 || block >= table.blocks()) return false;
    ReadScope scope(*this);
    return (table.word(block).load(std::memory_order_seq_cst) & ~kReferenced) != 0;
}

BlockCache::Block* BlockCache::keyed_find(Key key) const {
    const auto it = keyed_.find(key);
    return it == keyed_.end() ? nullptr : it->second;
}

std::optional<std::uint16_t> BlockCache::find(Key key, std::uint32_t position, std::uint32_t positions, unsigned bits) {
    if (capacity_ == 0) return std::nullopt;
    Reader& r = reader();
    std::lock_guard lock(mutex_);  // blocks are freed under it
    Block* b = keyed_find(key);
    if (b == nullptr) {
        r.count(r.misses);
        return std::nullopt;
    }
    r.count(r.hits);
    b->referenced = true;
    return decode_symbol(b->data(), positions, position, bits);
}

bool BlockCache::insert_block(Table* table, Key key, const std::vector<std::uint8_t>& data, bool evict) {
    const std::size_t cost = this->cost(data.size());
    if (capacity_ == 0 || cost > capacity_) return false;
    if (table != nullptr && key.block >= table->blocks()) return false;
    std::lock_guard lock(mutex_);
    if (table != nullptr ? (table->word(key.block).load(std::memory_order_relaxed) & ~kReferenced) != 0
                         : keyed_find(key) != nullptr)
        return true;
    reclaim();
    while (held_bytes_ + cost > capacity_) {
        if (!evict || clock_.empty()) return false;  // what is left is retired, still being read
        evict_one();
        reclaim();
    }
    Block* b = make_block(table != nullptr ? Key{table->id(), key.block} : key, data);
    b->clock_pos = clock_.size();
    clock_.push_back(b);
    held_bytes_ += cost;
    if (table != nullptr) {
        b->entry = &table->word(key.block);
        b->entry->store(reinterpret_cast<std::uintptr_t>(b), std::memory_order_seq_cst);  // publishes the data
    } else {
        keyed_.emplace(key, b);
    }
    return true;
}

void BlockCache::evict_one() {
    for (;;) {
        if (hand_ >= clock_.size()) hand_ = 0;
        Block* b = clock_[hand_];
        const bool referenced =
            b->entry != nullptr ? (b->entry->load(std::memory_order_relaxed) & kReferenced) != 0 : b->referenced;
        if (referenced) {
            if (b->entry != nullptr)
                b->entry->fetch_and(~kReferenced, std::memory_order_relaxed);
            else
                b->referenced = false;
            ++hand_;
            continue;
        }
        std::vector<Block*> victim{b};
        unlink(b);  // moves the last block to hand_: it is the next candidate
        retire(victim);
        ++evictions_;
        return;
    }
}

void BlockCache::unlink(Block* block) {
    if (block->entry != nullptr)
        block->entry->store(0, std::memory_order_seq_cst);
    else
        keyed_.erase(block->key);
    const std::size_t pos = block->clock_pos;
    clock_[pos] = clock_.back();
    clock_[pos]->clock_pos = pos;
    clock_.pop_back();
}

void BlockCache::retire(std::vector<Block*>& blocks) {
    // Readers that announce this epoch or a later one loaded the directory
    // word after the unlinks above: they cannot reach these blocks.
    const std::uint64_t r = epoch_.fetch_add(1, std::memory_order_seq_cst) + 1;
    for (Block* b : blocks) {
        b->retired_at = r;
        retired_.push_back(b);
    }
}

std::uint64_t BlockCache::oldest_reader_epoch() const {
    std::uint64_t oldest = std::numeric_limits<std::uint64_t>::max();
    for (const auto& r : readers_) {
        const std::uint64_t a = r->active.load(std::memory_order_seq_cst);
        if (a != 0) oldest = std::min(oldest, a);
    }
    return oldest;
}

void BlockCache::reclaim() {
    if (retired_.empty()) return;
    const std::uint64_t oldest = oldest_reader_epoch();
    std::erase_if(retired_, [&](Block* b) {
        if (b->retired_at > oldest) return false;
        held_bytes_ -= cost(b->bytes);
        destroy_block(b);
        return true;
    });
}

void BlockCache::erase_table(std::uint64_t table) {
    std::unique_ptr<Table> directory;
    std::lock_guard lock(mutex_);
    std::vector<Block*> dropped;
    for (Block* b : clock_)
        if (b->key.table == table) dropped.push_back(b);
    for (Block* b : dropped) unlink(b);
    if (!dropped.empty()) retire(dropped);
    reclaim();
    // No read of the table runs any more, so its directory can go now.
    if (const auto it = tables_.find(table); it != tables_.end()) {
        directory = std::move(it->second);
        tables_.erase(it);
    }
}

BlockCache::Stats BlockCache::stats() const {
    std::lock_guard lock(mutex_);
    Stats total;
    for (const auto& r : readers_) {
        total.hits += r->hits.load(std::memory_order_relaxed);
        total.misses += r->misses.load(std::memory_order_relaxed);
    }
    total.evictions = evictions_;
    total.bytes = held_bytes_;
    total.blocks = clock_.size();
    return total;
}

std::size_t BlockCache::free_bytes() const {
    std::lock_guard lock(mutex_);
    return capacity_ - held_bytes_;
}

}  // namespace dtb::compress
