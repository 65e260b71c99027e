#include "format/block_cache.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <new>

#include "format/format.hpp"

namespace dtb::format {

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

// A block and its header in one allocation: the data follows the header,
// so a reader's two loads (the key, the symbol) are independent.
struct BlockCache::Block {
    Key key;
    std::size_t bytes;
    std::size_t clock_pos = 0;     // index in clock_ (under mutex_)
    std::uint64_t retired_at = 0;  // epoch it was unlinked at (under mutex_)
    std::atomic<std::uint8_t> referenced{0};
    bool in_arena = false;

    std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(this + 1); }
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
            if (chunks.size() == max_chunks) return nullptr;
            void* chunk = map_chunk();
            if (chunk == nullptr) return nullptr;
            chunks.push_back(chunk);
            carved = 0;
        }
        return static_cast<std::uint8_t*>(chunks.back()) + kSlotBytes * carved++;
    }
    void release(void* slot) { free_slots.push_back(slot); }

    static void* map_chunk() { return map_huge(kChunkBytes); }
};

BlockCache::Block* BlockCache::make_block(Key key, const std::vector<std::uint8_t>& data) {
    void* memory = nullptr;
    // The chunks and the blocks outside them stay within the capacity.
    if (arena_ && data.size() <= Arena::kSlotData)
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

// Open addressing: a block lives within kWindow buckets of its hash. An
// erased bucket is just emptied (readers scan the whole window), so there
// are no tombstones; a full window grows the directory.
struct BlockCache::Directory {
    static constexpr std::size_t kWindow = 16;
    std::size_t mask;
    std::atomic<Block*>* buckets;
    bool huge;  // mapped with map_huge (a directory of 2 MiB or more), else new[]
    std::uint64_t retired_at = 0;

    explicit Directory(std::size_t size) : mask(size - 1) {
        const std::size_t bytes = size * sizeof(std::atomic<Block*>);
        void* memory = bytes % kHugePage == 0 ? map_huge(bytes) : nullptr;
        huge = memory != nullptr;
        if (!huge) memory = ::operator new(bytes);
        buckets = static_cast<std::atomic<Block*>*>(memory);
        for (std::size_t i = 0; i < size; ++i) new (&buckets[i]) std::atomic<Block*>(nullptr);
    }
    Directory(const Directory&) = delete;
    Directory& operator=(const Directory&) = delete;
    ~Directory() {
        if (huge)
            unmap_huge(buckets, size() * sizeof(std::atomic<Block*>));
        else
            ::operator delete(static_cast<void*>(buckets));
    }
    std::size_t size() const { return mask + 1; }
};

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
// before the read's loads of the directory, which is what lets a writer
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

std::size_t hash(const BlockCache::Key& k) {
    // splitmix64's finalizer: every bit of the key moves the low bits the
    // directory indexes by, so neighbouring blocks do not cluster.
    std::uint64_t x = k.table * 0x9E3779B97F4A7C15ull ^ k.block;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::size_t>(x ^ (x >> 31));
}

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

BlockCache::BlockCache(std::size_t capacity_bytes, std::size_t /*shards*/)
    : capacity_(capacity_bytes), serial_(next_cache_serial.fetch_add(1, std::memory_order_relaxed)) {
    if (capacity_bytes >= Arena::kMinChunks * Arena::kChunkBytes) arena_ = std::make_unique<Arena>();
    current_directory_ = std::make_unique<Directory>(64);
    directory_.store(current_directory_.get(), std::memory_order_release);
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

BlockCache::Block* BlockCache::lookup(const Directory& d, Key key) const {
    const std::size_t h = hash(key);
    for (std::size_t i = 0; i < Directory::kWindow; ++i) {
        Block* b = d.buckets[(h + i) & d.mask].load(std::memory_order_seq_cst);
        if (b != nullptr && b->key == key) return b;
    }
    return nullptr;
}

std::optional<std::uint16_t> BlockCache::find(Key key, std::uint32_t position, std::uint32_t positions, unsigned bits) {
    if (capacity_ == 0) return std::nullopt;
    ReadScope scope(*this);
    Block* b = lookup(*directory_.load(std::memory_order_seq_cst), key);
    if (b == nullptr) {
        scope.reader().count(scope.reader().misses);
        return std::nullopt;
    }
    scope.reader().count(scope.reader().hits);
    if (b->referenced.load(std::memory_order_relaxed) == 0) b->referenced.store(1, std::memory_order_relaxed);
    return decode_symbol(b->data(), positions, position, bits);
}

bool BlockCache::contains(Key key) {
    if (capacity_ == 0) return false;
    ReadScope scope(*this);
    return lookup(*directory_.load(std::memory_order_seq_cst), key) != nullptr;
}

bool BlockCache::insert_block(Key key, const std::vector<std::uint8_t>& data, bool evict) {
    const std::size_t cost = this->cost(data.size());
    if (capacity_ == 0 || cost > capacity_) return false;
    std::lock_guard lock(mutex_);
    if (lookup(*current_directory_, key) != nullptr) return true;
    reclaim();
    while (held_bytes_ + cost > capacity_) {
        if (!evict || clock_.empty()) return false;  // what is left is retired, still being read
        evict_one();
        reclaim();
    }
    Block* b = make_block(key, data);
    if (clock_.size() + 1 > current_directory_->size() / 2) grow_directory();
    while (!place(*current_directory_, b)) {
        // A full window: grow while the directory is small for what it
        // holds, else make room in the window.
        if (current_directory_->size() < 8 * (clock_.size() + 1)) {
            grow_directory();
        } else {
            const std::size_t h = hash(key);
            std::vector<Block*> victim{current_directory_->buckets[h & current_directory_->mask].load()};
            unlink(victim[0]);
            retire(victim);
            ++evictions_;
        }
    }
    b->clock_pos = clock_.size();
    clock_.push_back(b);
    held_bytes_ += cost;
    return true;
}

bool BlockCache::place(Directory& d, Block* block) {
    const std::size_t h = hash(block->key);
    for (std::size_t i = 0; i < Directory::kWindow; ++i) {
        std::atomic<Block*>& bucket = d.buckets[(h + i) & d.mask];
        if (bucket.load(std::memory_order_relaxed) == nullptr) {
            bucket.store(block, std::memory_order_seq_cst);  // publishes the block's contents
            return true;
        }
    }
    return false;
}

void BlockCache::grow_directory() {
    std::unique_ptr<Directory> bigger;
    for (std::size_t size = current_directory_->size() * 2; !bigger; size *= 2) {
        bigger = std::make_unique<Directory>(size);
        for (Block* b : clock_)
            if (!place(*bigger, b)) {
                bigger.reset();  // a full window even so: twice as many buckets
                break;
            }
    }
    directory_.store(bigger.get(), std::memory_order_seq_cst);
    current_directory_.swap(bigger);
    bigger->retired_at = epoch_.fetch_add(1, std::memory_order_seq_cst) + 1;
    retired_directories_.push_back(std::move(bigger));
}

void BlockCache::evict_one() {
    for (;;) {
        if (hand_ >= clock_.size()) hand_ = 0;
        Block* b = clock_[hand_];
        if (b->referenced.load(std::memory_order_relaxed) != 0) {
            b->referenced.store(0, std::memory_order_relaxed);
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
    Directory& d = *current_directory_;
    const std::size_t h = hash(block->key);
    for (std::size_t i = 0; i < Directory::kWindow; ++i) {
        std::atomic<Block*>& bucket = d.buckets[(h + i) & d.mask];
        if (bucket.load(std::memory_order_relaxed) == block) {
            bucket.store(nullptr, std::memory_order_seq_cst);
            break;
        }
    }
    const std::size_t pos = block->clock_pos;
    clock_[pos] = clock_.back();
    clock_[pos]->clock_pos = pos;
    clock_.pop_back();
}

void BlockCache::retire(std::vector<Block*>& blocks) {
    // Readers that announce this epoch or a later one loaded the directory
    // after the unlinks above: they cannot reach these blocks.
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
    if (retired_.empty() && retired_directories_.empty()) return;
    const std::uint64_t oldest = oldest_reader_epoch();
    std::erase_if(retired_, [&](Block* b) {
        if (b->retired_at > oldest) return false;
        held_bytes_ -= cost(b->bytes);
        destroy_block(b);
        return true;
    });
    std::erase_if(retired_directories_, [&](const auto& d) { return d->retired_at <= oldest; });
}

void BlockCache::erase_table(std::uint64_t table) {
    std::lock_guard lock(mutex_);
    std::vector<Block*> dropped;
    for (Block* b : clock_)
        if (b->key.table == table) dropped.push_back(b);
    for (Block* b : dropped) unlink(b);
    if (!dropped.empty()) retire(dropped);
    reclaim();
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

}  // namespace dtb::format
