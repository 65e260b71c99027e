#include "format/block_cache.hpp"

#include <algorithm>
#include <bit>

#include "format/format.hpp"

namespace dtb::format {

std::size_t BlockCache::KeyHash::operator()(const Key& k) const {
    // A multiply-xorshift mix: consecutive blocks of one table must spread
    // over the shards, and the shard is taken from the high bits.
    std::uint64_t x = k.table * 0x9E3779B97F4A7C15ull ^ k.block;
    x *= 0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(x ^ (x >> 31));
}

BlockCache::BlockCache(std::size_t capacity_bytes, std::size_t shards) : capacity_(capacity_bytes) {
    if (shards == 0) {
        // One shard per 1 MiB, at most 64: a shard then holds 100+ blocks of
        // 8 KiB, and 64 shards keep 16-32 threads mostly apart.
        shards = std::clamp<std::size_t>(capacity_bytes >> 20, 1, 64);
    }
    shards = std::bit_floor(shards);  // a power of two, so a mask picks the shard
    shard_capacity_ = capacity_bytes / shards;
    for (std::size_t i = 0; i < shards; ++i) shards_.push_back(std::make_unique<Shard>());
}

BlockCache::~BlockCache() = default;

BlockCache::Shard& BlockCache::shard_for(const Key& key) {
    const std::uint64_t h = KeyHash{}(key);
    return *shards_[(h >> 40) & (shards_.size() - 1)];
}

std::optional<std::uint16_t> BlockCache::find(Key key, std::uint32_t position, std::uint32_t positions, unsigned bits) {
    Shard& s = shard_for(key);
    std::lock_guard lock(s.mutex);
    const auto it = s.map.find(key);
    if (it == s.map.end()) {
        ++s.misses;
        return std::nullopt;
    }
    ++s.hits;
    s.lru.splice(s.lru.begin(), s.lru, it->second);  // now most recently used
    return decode_symbol(it->second->block.data(), positions, position, bits);
}

void BlockCache::insert(Key key, std::vector<std::uint8_t> block) {
    const std::size_t cost = charge(block.size());
    if (cost > shard_capacity_) return;
    Shard& s = shard_for(key);
    std::list<Entry> evicted;  // freed after the lock is released
    {
        std::lock_guard lock(s.mutex);
        if (s.map.contains(key)) return;
        while (s.bytes + cost > shard_capacity_) {
            const auto victim = std::prev(s.lru.end());
            s.bytes -= charge(victim->block.size());
            s.map.erase(victim->key);
            evicted.splice(evicted.begin(), s.lru, victim);
            ++s.evictions;
        }
        s.lru.push_front(Entry{key, std::move(block)});
        s.map.emplace(key, s.lru.begin());
        s.bytes += cost;
    }
}

void BlockCache::erase_table(std::uint64_t table) {
    for (auto& shard : shards_) {
        std::list<Entry> dropped;
        std::lock_guard lock(shard->mutex);
        for (auto it = shard->lru.begin(); it != shard->lru.end();) {
            const auto next = std::next(it);
            if (it->key.table == table) {
                shard->bytes -= charge(it->block.size());
                shard->map.erase(it->key);
                dropped.splice(dropped.begin(), shard->lru, it);
            }
            it = next;
        }
    }
}

BlockCache::Stats BlockCache::stats() const {
    Stats total;
    for (const auto& shard : shards_) {
        std::lock_guard lock(shard->mutex);
        total.hits += shard->hits;
        total.misses += shard->misses;
        total.evictions += shard->evictions;
        total.bytes += shard->bytes;
        total.blocks += shard->lru.size();
    }
    return total;
}

}  // namespace dtb::format
